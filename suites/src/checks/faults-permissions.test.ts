// Issue 17's checks on who may do what, each proven both ways against the mock with one fault injected at the
// edge: the status of a refusal for who asked (401 anonymous, 403 signed in), and the Allow header.

import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { createMock, listen } from '../../../mock/src/index.ts';
import { anonymous, bodyText, failedBy, harness, harnessForFile, json, parse, withHeader, withJson, wpError, type Fault } from '../testing/faulty-mock.ts';

const contract = loadContractFile();
const h = harnessForFile({ createMock, listen }, { contract });

describe('auth_status: 401 without credentials, 403 for a signed-in user', () => {
  it('passes on the mock, with refusals judged', async () => {
    const { run } = await h.run(undefined, 'cal/v1,auth_status', ['--low-auth-env', 'MOCK_LOW_AUTH']);
    const cases = run.cases.filter((c) => c.check === 'auth_status');
    expect(cases.length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => c.id)).toEqual([]);
    expect(cases.some((c) => /without credentials \(401\)/.test(c.message ?? ''))).toBe(true);
  });

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
  });

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
  });
});

describe('allow_header: only the methods the current user may use', () => {
  it('passes on the mock', async () => {
    const { run } = await h.run(undefined, 'cal/v1,allow_header');
    // The low user's Allow (allow:low, low_rights.ts) needs --low-auth-env: skipped here, proven in its own tests.
    const cases = run.cases.filter((c) => c.check === 'allow_header' && c.variant !== 'allow:low');
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status} ${c.message}`)).toEqual([]);
    expect(cases.map((c) => c.variant)).toEqual(expect.arrayContaining(['anonymous:collection', 'anonymous:item', 'signed-in:collection']));
  });

  it('fails when an anonymous list answers Allow with one method too many (POST, which it refuses)', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || !anonymous(req) || parse(req).route !== '/cal/v1/venues' || res.status !== 200) return res;
      return withHeader(res, 'Allow', 'GET, POST');
    };
    const failed = await failedBy(h, fault, '/cal/v1/venues,allow_header');
    expect(failed.map((c) => c.id)).toEqual(['allow_header:getCalV1Venues:anonymous:collection']);
    expect(failed[0]!.message).toMatch(/Allow: GET, POST lists POST, which the same user was just refused \(POST answered 401 rest_cannot_create\)/);
  });

  it('fails when an answer lists a method the route does not serve', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || parse(req).route !== '/cal/v1/events' || res.status !== 200) return res;
      return withHeader(res, 'Allow', 'GET, POST, DELETE');
    };
    const failed = await failedBy(h, fault, '/cal/v1/events,allow_header');
    expect(new Set(failed.map((c) => c.check))).toEqual(new Set(['allow_header']));
    expect(failed.some((c) => /lists DELETE, which the route does not serve/.test(c.message ?? ''))).toBe(true);
  });
});

describe('a documented fact seen through an anonymous refusal', () => {
  /** POST /cal/v1/venues refused anonymously before validation; with credentials a comment_status outside the enum is stored. */
  const permissionFirst: Fault = (req, next) => {
    if (req.method !== 'POST' || parse(req).route !== '/cal/v1/venues') return next(req);
    if (anonymous(req)) return wpError(401, 'rest_cannot_create');
    const text = bodyText(req);
    if (!text.startsWith('{')) return next(req);
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body['comment_status'] === 'string' && !['open', 'closed'].includes(body['comment_status'])) return next({ ...req, body: JSON.stringify({ ...body, comment_status: 'open' }) });
    return next(req);
  };

  it('is the documented failure when the same request is accepted with credentials', async () => {
    const { run } = await h.run(permissionFirst, '/cal/v1/venues,negative_rejection');
    const failed = run.cases.filter((c) => c.check === 'negative_rejection' && c.operationId === 'postCalV1Venues' && c.status === 'failed');
    const documented = failed.filter((c) => c.severity === 'documented');
    expect(documented.length).toBeGreaterThan(0);
    for (const c of documented) {
      expect(c.variant).toMatch(/comment_status/);
      expect(c.message).toMatch(/with credentials the same request was accepted \(201\); without them it got 401 rest_cannot_create/);
    }
    // The other broken values are refused with credentials: what stands is the order of the checks (convention).
    const convention = failed.filter((c) => c.severity === 'convention');
    expect(convention.length).toBeGreaterThan(0);
    for (const c of convention) expect(c.message).toMatch(/WordPress validates parameters before it checks permissions.*; with credentials the same request got 400/);
  });

  it('stays the convention finding for a write the suite cannot undo, unless --disposable-target', async () => {
    const seo: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/seo/v1/updateRedirection') return next(req);
      if (anonymous(req)) return wpError(401, 'rest_forbidden');
      return { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ success: true }) };
    };
    const only = '/seo/v1/updateRedirection,negative_rejection';
    const plain = (await h.run(seo, only)).run.cases.filter((c) => c.check === 'negative_rejection' && c.status === 'failed');
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.filter((c) => c.severity !== 'convention' && c.severity !== 'assumed')).toEqual([]);
    const disposable = await h.run(seo, only, ['--disposable-target']);
    const enumCase = disposable.run.cases.find((c) => c.check === 'negative_rejection' && /redirectionType enum/.test(c.variant ?? '') && c.status === 'failed');
    expect(enumCase?.severity).toBe('documented');
    expect(enumCase?.message).toMatch(/with credentials the same request was accepted \(200\)/);
  });
});

describe('writes the suite cannot undo', () => {
  it('are skipped by default and counted by reason; --disposable-target sends them and says so at the start, the end and in the report', async () => {
    // Routes whose parameters name no record: objectID on updateMeta/updateSchemas names a post the suite does not
    // look up, so there the mock refuses the random one (see the README).
    const only = '/seo/v1/updateRedirection,/seo/v1/updateMode,/seo/v1/saveModule,positive_acceptance';
    const plain = await h.run(undefined, only);
    const skipped = plain.run.cases.filter((c) => c.status === 'skipped' && /^a write the suite could not undo/.test(c.message ?? ''));
    expect(skipped.length).toBeGreaterThan(0);
    expect((plain.run.options['skippedBy'] as Record<string, number>)['a write the suite could not undo']).toBe(skipped.length);
    expect(plain.stderr).toMatch(new RegExp(`skipped by reason: .*${skipped.length} a write the suite could not undo`));
    expect(plain.stderr).not.toMatch(/DISPOSABLE/);

    const sent = await h.run(undefined, only, ['--disposable-target']);
    expect(sent.run.cases.filter((c) => /could not undo/.test(c.message ?? ''))).toEqual([]);
    expect(sent.run.cases.filter((c) => c.check === 'positive_acceptance' && c.operationId === 'postSeoV1UpdateRedirection' && c.status === 'passed').length).toBeGreaterThan(0);
    expect(sent.stderr).toMatch(/testing .*DISPOSABLE TARGET \(--disposable-target\): writes the suite cannot undo are sent too/);
    expect(sent.stderr).toMatch(/DISPOSABLE TARGET \(--disposable-target\): writes the suite cannot undo were sent; \d+ change\(s\) to what the run did not create \(\d+ restored, \d+ not\); restore the site/);
    expect(sent.run.options['disposableTarget']).toBe(true);
    expect(sent.exitCode).toBe(0);
  });

  it('--disposable-target without credentials, or with --read-only, is a usage error naming the flag', async () => {
    const anon = await harness({ createMock, listen }, contract, { auth: false });
    try {
      await expect(anon.run(undefined, 'root', ['--disposable-target'])).rejects.toThrow(/--disposable-target sends writes the suite cannot undo, which need credentials/);
    } finally {
      await anon.close();
    }
    await expect(h.run(undefined, 'root', ['--disposable-target', '--read-only'])).rejects.toThrow(/--disposable-target .* --read-only sends no write at all/);
  });
});
