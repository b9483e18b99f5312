// context (checks/contexts.ts) proven both ways: it passes on the mock, and each fault breaks the context argument of
// one route at its edge: embed answered as view (one field too many), an unknown context taken as view.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, json, parse, withJson, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'context';
const variants = async (fault: Fault): Promise<string[]> => (await failedBy(h, fault, ONLY)).map((c) => `${c.check}:${c.route}:${c.variant}`);

/** Serves `route` (a pattern) as if `context=<value>` had asked for the view. */
const asView = (route: RegExp, value: string): Fault => (req, next) => {
  const { route: r, query } = parse(req);
  if (!route.test(r) || query.get('context') !== value) return next(req);
  query.set('context', 'view');
  return next({ ...req, url: `${new URL(req.url, 'http://x').pathname}?${query.toString()}` });
};

describe('context', () => {
  it('passes on the mock: embed leaves out what only view shows, an unknown context is a 400 naming it', async () => {
    const { run } = await h.run(undefined, ONLY);
    const cases = run.cases.filter((c) => c.check === 'context');
    expect(cases.map((c) => [c.route, c.variant, c.status])).toEqual([
      ['/cal/v1/events', 'embed', 'passed'], ['/cal/v1/events', 'unknown', 'passed'],
      ['/cal/v1/events/{id}', 'embed', 'passed'], ['/cal/v1/events/{id}', 'unknown', 'passed'],
      ['/cal/v1/venues', 'embed', 'passed'], ['/cal/v1/venues', 'unknown', 'passed'],
      ['/cal/v1/venues', 'create-edit', 'passed'],
      ['/cal/v1/venues/{id}', 'generated-slug', 'passed'],
    ]);
  });

  it('fails when a record read by id in the embed context holds the view context fields', async () => {
    expect(await variants(asView(/^\/cal\/v1\/events\/\d+$/, 'embed'))).toEqual(['context:/cal/v1/events/{id}:embed']);
  });

  it('fails when the events list in the embed context is the view context', async () => {
    expect(await variants(asView(/^\/cal\/v1\/events$/, 'embed'))).toEqual(['context:/cal/v1/events:embed']);
  });

  it('fails when an unknown context on the venues list is taken as view', async () => {
    expect(await variants(asView(/^\/cal\/v1\/venues$/, 'site-contracts'))).toEqual(['context:/cal/v1/venues:unknown']);
  });

  it("fails when a create answers in the view context (the 201's title has no raw)", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'POST' || parse(req).route !== '/cal/v1/venues' || res.status !== 201) return res;
      const body = json(res);
      const { raw: _raw, ...title } = body['title'] as Record<string, unknown>;
      return withJson(res, { ...body, title });
    };
    expect(await variants(fault)).toEqual(['context:/cal/v1/venues:create-edit']);
  });

  /** Each venue read by id in the edit context with its answer's `edit` applied. */
  const editRead = (edit: (body: Record<string, unknown>) => Record<string, unknown>): Fault => (req, next) => {
    const res = next(req);
    const { route, query } = parse(req);
    return req.method === 'GET' && /^\/cal\/v1\/venues\/\d+$/.test(route) && query.get('context') === 'edit' && res.status === 200 ? withJson(res, edit(json(res))) : res;
  };

  it('fails when generated_slug keeps the percent-encoded form of a Cyrillic word (editable_slug not applied)', async () => {
    const fault = editRead((b) => ({ ...b, generated_slug: encodeURI(String(b['generated_slug'])).toLowerCase() }));
    expect(await variants(fault)).toEqual(['context:/cal/v1/venues/{id}:generated-slug']);
  });

  it('fails when permalink_template names the slug where %pagename% belongs', async () => {
    const fault = editRead((b) => ({ ...b, permalink_template: String(b['permalink_template']).replace(/%(page|post)name%/, String(b['generated_slug'])) }));
    expect(await variants(fault)).toEqual(['context:/cal/v1/venues/{id}:generated-slug']);
  });
});
