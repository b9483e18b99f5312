// Issue 17's checks on who may do what, each proven both ways against the mock with one fault injected at the
// edge: the status of a refusal for who asked (401 anonymous, 403 signed in), and the Allow header.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { anonymous, failedBy, harness, parse, withHeader, withJson, json, type Fault, type Harness } from './faulty-mock.ts';

const contract = loadContractFile();
let h: Harness;
beforeAll(async () => {
  h = await harness(contract);
});
afterAll(async () => {
  await h.close();
});
const T = 60_000;

describe('auth_status: 401 without credentials, 403 for a signed-in user', () => {
  it('passes on the mock, with refusals judged', async () => {
    const { run } = await h.run(undefined, 'cal/v1,auth_status');
    const cases = run.cases.filter((c) => c.check === 'auth_status');
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => c.id)).toEqual([]);
    expect(cases.some((c) => /without credentials \(401\)/.test(c.message ?? ''))).toBe(true);
  }, T);

  it('fails when exactly one anonymous refusal answers 403 instead of 401', async () => {
    let done = false;
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (done || res.status !== 401 || !anonymous(req) || req.method !== 'PATCH' || !/^\/cal\/v1\/organizers\/\d+$/.test(parse(req).route)) return res;
      done = true;
      const body = json(res);
      return withJson({ ...res, status: 403 }, { ...body, data: { ...(body['data'] as object), status: 403 } });
    };
    const failed = await failedBy(h, fault, '/cal/v1/organizers,auth_status');
    expect(done).toBe(true);
    expect(failed.map((c) => c.check)).toEqual(['auth_status']);
    expect(failed[0]!.operationId).toBe('patchCalV1OrganizersById');
    expect(failed[0]!.message).toMatch(/a request without credentials refused for permission got 403 rest_cannot_edit, expected 401/);
  }, T);

  it('fails when a signed-in user is refused with 401', async () => {
    // The signed-in read of the venue list without a query (the permissions unit sends one) refused as if nobody were signed in.
    const fault: Fault = (req, next) => {
      if (!anonymous(req) && req.method === 'GET' && parse(req).route === '/cal/v1/venues' && !req.url.includes('?')) {
        return { status: 401, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } }) };
      }
      return next(req);
    };
    const failed = await failedBy(h, fault, '/cal/v1/venues,auth_status');
    expect(failed.length).toBeGreaterThan(0);
    expect(new Set(failed.map((c) => c.check))).toEqual(new Set(['auth_status']));
    for (const c of failed) expect(c.message).toMatch(/a signed-in user refused for permission got 401 rest_forbidden, expected 403/);
  }, T);
});

describe('allow_header: only the methods the current user may use', () => {
  it('passes on the mock', async () => {
    const { run } = await h.run(undefined, 'cal/v1,allow_header');
    const cases = run.cases.filter((c) => c.check === 'allow_header');
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status} ${c.message}`)).toEqual([]);
    expect(cases.map((c) => c.variant)).toEqual(expect.arrayContaining(['anonymous:collection', 'anonymous:item', 'signed-in:collection']));
  }, T);

  it('fails when an anonymous list answers Allow with one method too many (POST, which it refuses)', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || !anonymous(req) || parse(req).route !== '/cal/v1/venues' || res.status !== 200) return res;
      return withHeader(res, 'Allow', 'GET, POST');
    };
    const failed = await failedBy(h, fault, '/cal/v1/venues,allow_header');
    expect(failed.map((c) => c.id)).toEqual(['allow_header:getCalV1Venues:anonymous:collection']);
    expect(failed[0]!.message).toMatch(/Allow: GET, POST lists POST, which the same user was just refused \(POST answered 401 rest_cannot_create\)/);
  }, T);

  it('fails when an answer lists a method the route does not serve', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || parse(req).route !== '/cal/v1/events' || res.status !== 200) return res;
      return withHeader(res, 'Allow', 'GET, POST, DELETE');
    };
    const failed = await failedBy(h, fault, '/cal/v1/events,allow_header');
    expect(new Set(failed.map((c) => c.check))).toEqual(new Set(['allow_header']));
    expect(failed.some((c) => /lists DELETE, which the route does not serve/.test(c.message ?? ''))).toBe(true);
  }, T);
});
