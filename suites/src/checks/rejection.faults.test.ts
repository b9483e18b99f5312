// What WordPress's argument machinery promises beyond "400 for a bad value", proven both ways at the edge: every
// invalid argument of a request named (WP_REST_Request::has_valid_params()), the broken keyword's code in
// data.details (rest_validate_value_from_schema()), a duplicate in a unique list caught in every form a list is read
// in (comma-separated, and 5,05 once read as integers: rest_sanitize_value_from_schema()), and an integer written
// 10.0 or 1e1 taken as 10 (rest_is_integer()). Each fault is one step off WordPress, and fails that check alone.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, json, parse, withJson, withQuery, type Fault, type MockResponse } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const EVENTS = '/cal/v1/events';

/** The answers of GET /cal/v1/events that are 400 rest_invalid_param, edited by `edit`. */
function invalidParamAnswer(edit: (data: Record<string, unknown>) => void): Fault {
  return (req, next) => {
    const res = next(req);
    if (req.method !== 'GET' || parse(req).route !== EVENTS || res.status !== 400) return res;
    const body = json(res);
    if (body['code'] !== 'rest_invalid_param') return res;
    const data = structuredClone(body['data']) as Record<string, unknown>;
    edit(data);
    return withJson(res, { ...body, data });
  };
}

/** GET /cal/v1/events with a query that passes `when` is read as `edit` makes it. */
function readsQueryAs(when: (q: URLSearchParams) => boolean, edit: (q: URLSearchParams) => void): Fault {
  return (req, next) => {
    if (req.method !== 'GET' || parse(req).route !== EVENTS) return next(req);
    return when(parse(req).query) ? next(withQuery(req, edit)) : next(req);
  };
}

const ids = async (fault: Fault): Promise<string[]> => (await failedBy(h, fault, EVENTS)).map((c) => c.id).sort();

describe('the argument machinery of WordPress, one step off', () => {
  it('negative_rejection: a 400 for two invalid parameters names only the first', async () => {
    // A server that stops at the first invalid argument: exactly one name short of WordPress's answer.
    const fault = invalidParamAnswer((data) => {
      const params = data['params'] as Record<string, unknown> | undefined;
      if (!params || Object.keys(params).length < 2) return;
      const [first] = Object.keys(params);
      data['params'] = { [first!]: params[first!] };
      const details = data['details'] as Record<string, unknown> | undefined;
      if (details) data['details'] = { [first!]: details[first!] };
    });
    const failed = await failedBy(h, fault, EVENTS);
    expect(failed.map((c) => c.id)).toEqual([expect.stringMatching(/^negative_rejection:getCalV1Events:edge:two invalid: \w+, \w+$/)]);
    expect(failed[0]!.severity).toBe('convention');
    expect(failed[0]!.message).toMatch(/naming both .*has_valid_params\(\)/);
  });

  it("error_envelope: data.details gives another keyword's code (per_page=101 answered rest_invalid_type)", async () => {
    const fault = invalidParamAnswer((data) => {
      const details = data['details'] as Record<string, { code?: string }> | undefined;
      const perPage = details?.['per_page'];
      if (perPage?.code === 'rest_out_of_bounds') perPage.code = 'rest_invalid_type';
    });
    const failed = await failedBy(h, fault, EVENTS);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.check === 'error_envelope' && c.severity === 'convention' && /^edge:query\.per_page .*:details$/.test(c.variant ?? ''))).toBe(true);
    expect(failed.map((c) => c.variant).sort()).toEqual(['edge:query.per_page maximum max+1:details', 'edge:query.per_page minimum min-1:details']);
    expect(failed[0]!.message).toMatch(/data\.details\.per_page\.code rest_out_of_bounds .*got rest_invalid_type/);
  });

  it('error_envelope: a 400 rest_invalid_param without data.details', async () => {
    const fault = invalidParamAnswer((data) => void delete data['details']);
    const failed = await failedBy(h, fault, EVENTS);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.check === 'error_envelope' && (c.variant ?? '').endsWith(':details'))).toBe(true);
  });

  it('negative_rejection: a duplicate status written comma-separated (status=publish,publish) is taken', async () => {
    // Duplicates looked for in the bracketed list only: the comma form is split after the check.
    const fault = readsQueryAs((q) => /^([^,]+),\1$/.test(q.get('status') ?? ''), (q) => q.set('status', q.get('status')!.split(',')[0]!));
    expect(await ids(fault)).toEqual(['negative_rejection:getCalV1Events:edge:query.status uniqueItems duplicate, comma list']);
  });

  it('negative_rejection: tags=5,05 is taken (duplicates compared as strings, before they are read as integers)', async () => {
    const fault = readsQueryAs((q) => /^(\d+),0\1$/.test(q.get('tags') ?? ''), (q) => q.set('tags', q.get('tags')!.split(',')[0]!));
    expect(await ids(fault)).toEqual(['negative_rejection:getCalV1Events:edge:query.tags uniqueItems duplicate, leading zero']);
  });

  it('positive_acceptance: per_page=1e1 is read as 1 (parseInt), not as the integer 10', async () => {
    const fault = readsQueryAs((q) => q.get('per_page') === '1e1', (q) => q.set('per_page', '1'));
    const failed = await failedBy(h, fault, EVENTS);
    expect(failed.map((c) => c.id)).toEqual(['positive_acceptance:getCalV1Events:integer-form:per_page=1e1']);
    expect(failed[0]!.message).toMatch(/per_page=10 lists 10 record\(s\), per_page=1e1 1$/);
  });

  it('positive_acceptance: per_page=10.0 is refused as not an integer', async () => {
    const refuse = (): MockResponse => ({
      status: 400,
      headers: { 'Content-Type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page', data: { status: 400, params: { per_page: 'per_page is not of type integer.' }, details: { per_page: { code: 'rest_invalid_type', message: 'per_page is not of type integer.', data: { param: 'per_page' } } } } }),
    });
    const fault: Fault = (req, next) => (req.method === 'GET' && parse(req).route === EVENTS && parse(req).query.get('per_page') === '10.0' ? refuse() : next(req));
    const failed = await failedBy(h, fault, EVENTS);
    expect(failed.map((c) => c.id)).toEqual(['positive_acceptance:getCalV1Events:integer-form:per_page=10.0']);
  });
});
