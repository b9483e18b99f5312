// The search-optimisation add-on's objectID (updateMeta, updateSchemas): with --disposable-target the suite sends
// these writes, and an objectID generated at random names nothing, so the mock (as the real plugin) refused every
// request and positive_acceptance failed five cases for it. The suite now names an event it made itself (it changes
// no record of the site's, runner/disposable.ts): the mock accepts, and the route's other parameters are judged,
// which a server refusing one of them shows.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyText, failedBy, failing, harnessForFile, parse, wpError, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'postSeoV1UpdateMeta,postSeoV1UpdateSchemas,positive_acceptance';

describe('SEO objectID under --disposable-target', () => {
  it('passes on the mock: objectID names an event the run made, and the other parameters are accepted', async () => {
    const { run, exitCode } = await h.run(undefined, ONLY, ['--disposable-target']);
    expect(run.cases.filter(failing).map((c) => `${c.id} ${c.message}`)).toEqual([]);
    expect(exitCode).toBe(0);
    const meta = run.cases.find((c) => c.id === 'positive_acceptance:postSeoV1UpdateMeta:body.meta')!;
    expect(meta.status).toBe('passed');
    expect(run.cases.find((c) => c.id === 'positive_acceptance:postSeoV1UpdateSchemas:edge:minimal')!.status).toBe('passed');
  });

  it('holds a refusal of objectType as assumed, naming it: a free string naming one of the site\'s own object types has no documented valid value (001 §4.7; issue 26)', async () => {
    // meta and schemas have no documented type, so a refusal of them is held as assumed; objectType is a string
    // whose valid values are the site's own object types, which the documents do not list: "valid" is what the
    // documents say, so its refusal is a warning at assumed severity, not a documented failure.
    const fault: Fault = (req, next) =>
      req.method === 'POST' && parse(req).route === '/seo/v1/updateMeta' && /"objectType"/.test(bodyText(req))
        ? wpError(400, 'rest_invalid_param', { params: { objectType: 'Invalid parameter.' } })
        : next(req);
    const { run } = await h.run(fault, ONLY, ['--disposable-target']);
    const c = run.cases.find((x) => x.id === 'positive_acceptance:postSeoV1UpdateMeta:body.objectType');
    expect(c?.status).toBe('warned');
    expect(c?.severity).toBe('assumed');
    expect(c?.message).toMatch(/objectType/);
    expect(run.cases.filter((x) => x.status === 'failed').map((x) => x.id)).toEqual([]);
  });
});
