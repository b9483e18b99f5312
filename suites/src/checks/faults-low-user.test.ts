// auth_status's signed-in half (issue 17 §3, 401 versus 403): a user with fewer rights (--low-auth-env), refused
// for permission, gets 403 in the envelope, never 401. Proven both ways against the mock's subscriber: it passes
// on the mock, and fails when exactly that user's refusals come back as 401, or as a bare 403 without the envelope.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { Exchange } from '../http/types.ts';
import { basicAuth, failedBy, harnessForFile, json, withJson, type Fault, type MockRequest } from '../testing/faulty-mock.ts';
import { lowUserVerdict } from './kit/low_user.ts';

const h = harnessForFile({ createMock, listen });
const LOW = ['--low-auth-env', 'MOCK_LOW_AUTH'];
const ONLY = '/cal/v1/venues,auth_status';
const asLow = (req: MockRequest): boolean => Object.entries(req.headers).some(([k, v]) => k.toLowerCase() === 'authorization' && v === basicAuth(h.mock.credentials('subscriber')!));

describe('auth_status, signed in with fewer rights (--low-auth-env)', () => {
  it('passes on the mock: the subscriber is refused each write with 403 in the envelope', async () => {
    const { run } = await h.run(undefined, ONLY, LOW);
    const low = run.cases.filter((c) => c.check === 'auth_status' && c.variant?.startsWith('low-user:'));
    expect(low.map((c) => [c.id, c.status])).toEqual([['auth_status:patchCalV1VenuesById:low-user:cal/v1/venue', 'passed']]);
    expect(low[0]!.message).toMatch(/the user from MOCK_LOW_AUTH was refused 3 of 3 write\(s\), each 403 in the envelope \(POST 403 rest_cannot_create, PATCH 403 rest_cannot_edit, DELETE 403 rest_cannot_delete\)/);
    expect(run.cases.filter((c) => c.check === 'auth_status' && c.status !== 'passed').map((c) => c.id)).toEqual([]);
    // The subscriber's password is a secret like the administrator's: redacted from the report.
    expect(JSON.stringify(run)).not.toContain(h.mock.credentials('subscriber')!.password);
    expect(run.options['lowAuthEnv']).toBe('MOCK_LOW_AUTH');
  });

  it('is skipped, saying why, without --low-auth-env', async () => {
    const { run } = await h.run(undefined, ONLY);
    const low = run.cases.find((c) => c.variant === 'low-user:cal/v1/venue')!;
    expect(low.status).toBe('skipped');
    expect(low.message).toMatch(/^no --low-auth-env: a signed-in refusal \(403, not 401\) needs the credentials of a user with fewer rights/);
  });

  it('ends with exit 2 before any write when the site does not log the low user in (a wrong password)', async () => {
    // The harness throws when a run writes no report (exit 2 ends it before the checks), with what it printed.
    const stderr = await h.run(undefined, ONLY, ['--low-auth-env', 'WRONG'], { env: { WRONG: 'reader:AAAA BBBB CCCC DDDD EEEE FFFF' } }).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(stderr).toMatch(/^the run \(exit 2\) wrote no report: /);
    expect(stderr).toMatch(/credentials from --low-auth-env WRONG not taken by the site: GET .*status=draft.* answered 400 rest_invalid_param: with 401 inside: the site treated the request as anonymous/);
    expect(stderr).not.toContain('AAAA BBBB');
  });

  it('fails when the signed-in subscriber is refused with 401', async () => {
    let changed = 0;
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!asLow(req) || res.status !== 403) return res;
      changed++;
      const body = json(res);
      return withJson({ ...res, status: 401 }, { ...body, data: { ...(body['data'] as object), status: 401 } });
    };
    const failed = await failedBy(h, fault, ONLY, LOW);
    expect(changed).toBeGreaterThan(0);
    const low = failed.find((c) => c.variant === 'low-user:cal/v1/venue')!;
    expect(low.message).toMatch(/expected 403 for a signed-in user refused for permission .*; the user from MOCK_LOW_AUTH got 401 rest_cannot_create to POST /);
    // The curl line reproduces it as that user, not as the administrator.
    expect(low.curl).toMatch(/-u "\$MOCK_LOW_AUTH"/);
    // One cause, one finding: the run's sweep leaves the low user's refusals to this case, and nothing else fails.
    expect(failed.map((c) => c.variant)).toEqual(['low-user:cal/v1/venue']);
  });

  it('fails when the refusal is a bare 403 without the envelope', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return asLow(req) && res.status === 403 ? { status: 403, headers: { 'Content-Type': 'text/html' }, body: '<h1>Forbidden</h1>' } : res;
    };
    const failed = await failedBy(h, fault, ONLY, LOW);
    expect(failed.find((c) => c.variant === 'low-user:cal/v1/venue')!.message).toMatch(/in WordPress's error envelope .*got 403 without it/);
  });
});

describe('lowUserVerdict', () => {
  const ex = (status: number, body: unknown, method = 'POST'): Exchange => ({
    request: { method, url: 'http://127.0.0.1/wp-json/cal/v1/venues', headers: {} },
    response: { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    durationMs: 1,
  });
  it('is inconclusive when the user was let through, or when the site did not take the credentials', () => {
    expect(lowUserVerdict([ex(201, { id: 5 }), ex(200, { id: 4 }, 'PATCH')], 'LOW').outcome).toBe('inconclusive');
    const login = lowUserVerdict([ex(401, { code: 'incorrect_password', message: 'wrong', data: { status: 401 } })], 'LOW');
    expect(login).toMatchObject({ outcome: 'inconclusive' });
    expect(login.message).toMatch(/the site did not take the credentials from LOW/);
  });
  it('fails on one 401 among 403s', () => {
    const forbidden = ex(403, { code: 'rest_cannot_create', message: 'no', data: { status: 403 } });
    expect(lowUserVerdict([forbidden, ex(401, { code: 'rest_cannot_edit', message: 'no', data: { status: 401 } }, 'PATCH')], 'LOW').outcome).toBe('fail');
    expect(lowUserVerdict([forbidden], 'LOW').outcome).toBe('pass');
  });
});
