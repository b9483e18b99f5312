// WordPress core's own answers, proven both ways: where core itself answers a value the documents allow with a server
// error (an empty term name handed on to core's terms controller: 500 {code: empty_term_name, data: null}, as
// WordPress 6.1.9 answers POST /wp/v2/tags {"name": ""}), not_a_server_error and positive_acceptance hold it as
// assumed with the reason and fail nothing; the same answer one step off (to a name that is not blank, or with a
// status of the plugin's own in data) is a server error of the site's, and fails as documented.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyText, failedBy, harnessForFile, parse, type Fault, type MockResponse } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const ONLY = '/cal/events/v1/tags,positive_acceptance,not_a_server_error';

/** WordPress's answer to a WP_Error without a status (rest_convert_error_to_response()): 500, data null. */
function coreError(code: string, message: string, data: unknown = null): MockResponse {
  return { status: 500, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ code, message, data }) };
}

/** A legacy tag create whose JSON body's name passes `when` is answered `answer`; anything else goes to the mock. */
function tagCreate(when: (name: unknown) => boolean, answer: () => MockResponse): Fault {
  return (req, next) => {
    if (req.method !== 'POST' || parse(req).route !== '/cal/events/v1/tags') return next(req);
    let name: unknown;
    try {
      name = (JSON.parse(bodyText(req)) as { name?: unknown }).name;
    } catch {
      return next(req);
    }
    return when(name) ? answer() : next(req);
  };
}

const EMPTY_NAME = 'A name is required for this term.';

describe("WordPress core's own server errors are held as assumed, not failed", () => {
  it("not_a_server_error: WordPress's 500 empty_term_name to an empty tag name is held as assumed, and fails nothing", async () => {
    const fault = tagCreate((n) => n === '', () => coreError('empty_term_name', EMPTY_NAME));
    const { run } = await h.run(fault, ONLY);
    const server = run.cases.filter((c) => c.check === 'not_a_server_error' && c.operationId === 'postCalEventsV1Tags');
    expect(server.map((c) => [c.status, c.severity])).toContainEqual(['warned', 'assumed']);
    expect(server.find((c) => c.status === 'warned')!.message).toMatch(/held as assumed because the name "" is empty once trimmed.*wp_insert_term\(\)/);
    const edge = run.cases.find((c) => c.id === 'positive_acceptance:postCalEventsV1Tags:edge:body.name empty');
    expect([edge?.status, edge?.severity]).toEqual(['warned', 'assumed']);
    expect(run.cases.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => c.id)).toEqual([]);
  });

  it('not_a_server_error: the same 500 empty_term_name to a tag name that is not blank fails as documented', async () => {
    const fault = tagCreate((n) => typeof n === 'string' && n !== '', () => coreError('empty_term_name', EMPTY_NAME));
    const failed = await failedBy(h, fault, ONLY);
    const server = failed.filter((c) => c.check === 'not_a_server_error');
    expect(server.length).toBeGreaterThan(0);
    expect(server.every((c) => c.severity === 'documented' && c.operationId === 'postCalEventsV1Tags')).toBe(true);
  });

  it("not_a_server_error: a 500 empty_term_name carrying a status of the plugin's own in data fails as documented", async () => {
    const fault = tagCreate((n) => n === '', () => coreError('empty_term_name', EMPTY_NAME, { status: 500 }));
    const failed = await failedBy(h, fault, ONLY);
    expect(failed.map((c) => [c.check, c.severity])).toContainEqual(['not_a_server_error', 'documented']);
  });
});
