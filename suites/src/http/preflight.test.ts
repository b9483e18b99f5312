// The credential check before a run writes anything, against small servers that answer as WordPress
// does (samples 16, 17 and 31 of the reference, and what WordPress 6.1 answers users/me without a
// login), and as sites do that guard or lack parts of the REST API.

import { afterEach, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { CredentialsRefusedError } from '../errors.ts';
import { parseDescriptor } from '../diff/descriptor.ts';
import { createClient } from './client.ts';
import { checkCredentials, credentialProbes } from './preflight.ts';
import { sendJson, startServer, type TestServer } from '../testing/server.ts';

const contract = loadContractFile();
const ME = '/wp/v2/users/me';
const DRAFTS = '/cal/v1/events';

function descriptor(routes: string[]) {
  return parseDescriptor({
    namespaces: [...new Set(routes.map((r) => r.split('/').slice(1, 3).join('/')))],
    routes: Object.fromEntries(routes.map((r) => [r, { namespace: '', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] }])),
  });
}

const wpError = (code: string, message: string, status: number, data: Record<string, unknown> = {}) => ({ code, message, data: { status, ...data } });
const forbiddenStatus = (inner: number) =>
  wpError('rest_invalid_param', 'Invalid parameter(s): status', 400, {
    params: { status: 'Status is forbidden.' },
    details: { status: { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: inner } } },
  });

type Answer = [number, unknown];
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function check(answers: Record<string, Answer>, routes: string[], readOnly = false) {
  const seen: string[] = [];
  server = await startServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/wp-json/, '');
    seen.push(`${req.method} ${req.url} auth=${req.headers.authorization ? 'yes' : 'no'}`);
    const [status, body] = answers[path] ?? [404, wpError('rest_no_route', 'No route was found matching the URL and request method.', 404)];
    sendJson(res, status, body);
  });
  const client = createClient({ target: { baseUrl: server.url, apiRoot: '/wp-json' }, credentials: 'editor:abcd efgh ijkl mnop', timeoutMs: 2000, maxRequests: 10, writes: 'all' });
  try {
    const result = await checkCredentials(client, contract, descriptor(routes), { envVar: 'STAGING_AUTH', readOnly }).catch((e: unknown) => e);
    return { result, seen };
  } finally {
    await client.close();
  }
}

describe('credentialProbes', () => {
  it('asks users/me where the site serves it, and a calendar list of drafts, only reads', () => {
    const probes = credentialProbes(contract, descriptor([ME, DRAFTS]));
    expect(probes.map((p) => [p.out.method, p.out.route, p.out.query])).toEqual([
      ['GET', ME, { context: 'edit' }],
      ['GET', DRAFTS, { status: 'draft', per_page: 1 }],
    ]);
    expect(credentialProbes(contract, descriptor(['/oembed/1.0/embed']))).toEqual([]);
  });
});

describe('checkCredentials', () => {
  it('accepts credentials users/me and the drafts list answer with 200', async () => {
    const { result, seen } = await check({ [ME]: [200, { id: 3, name: 'editor' }], [DRAFTS]: [200, []] }, [ME, DRAFTS]);
    expect(result).toMatchObject({ kind: 'accepted' });
    expect(seen).toEqual(['GET /wp-json/wp/v2/users/me?context=edit auth=yes', 'GET /wp-json/cal/v1/events?status=draft&per_page=1 auth=yes']);
  });

  it('refuses, with what the site answered and how to fix it, when WordPress ignored the credentials (users/me 401 rest_not_logged_in)', async () => {
    const { result, seen } = await check({ [ME]: [401, wpError('rest_not_logged_in', 'You are not currently logged in.', 401)], [DRAFTS]: [400, forbiddenStatus(401)] }, [ME, DRAFTS]);
    expect(result).toBeInstanceOf(CredentialsRefusedError);
    const m = (result as Error).message;
    expect(m).toMatch(/^credentials refused by the site: GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/wp\/v2\/users\/me\?context=edit answered 401 rest_not_logged_in \("You are not currently logged in\."\): the site did not log in with them/);
    expect(m).toContain('To fix: check that STAGING_AUTH holds user:application-password');
    expect(m).toContain('Authorization header');
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['incorrect_password', 'the application password is wrong'],
    ['invalid_username', 'the site has no user of that name'],
    ['application_passwords_disabled', 'application passwords are switched off'],
  ])('refuses on %s wherever it comes', async (code, why) => {
    const { result } = await check({ [DRAFTS]: [401, wpError(code, 'x', 401)] }, [DRAFTS]);
    expect((result as Error).message).toContain(`answered 401 ${code} ("x"): ${why}`);
  });

  it('falls back to a list of drafts on a site without users routes: anonymous is 400 rest_forbidden_status with 401 inside', async () => {
    const { result, seen } = await check({ [DRAFTS]: [400, forbiddenStatus(401)] }, [DRAFTS]);
    expect((result as Error).message).toMatch(/answered 400 rest_invalid_param \("Invalid parameter\(s\): status"\): the site treated the request as anonymous/);
    expect(seen).toEqual(['GET /wp-json/cal/v1/events?status=draft&per_page=1 auth=yes']);
    const ok = await check({ [DRAFTS]: [200, []] }, [DRAFTS]);
    expect(ok.result).toMatchObject({ kind: 'accepted', evidence: expect.stringContaining('answered 200') });
  });

  it('refuses a user who may not see drafts (403 inside), unless the run only reads', async () => {
    const answers: Record<string, Answer> = { [ME]: [200, { id: 9 }], [DRAFTS]: [400, forbiddenStatus(403)] };
    const writing = await check(answers, [ME, DRAFTS]);
    expect((writing.result as Error).message).toContain('the user is logged in but may not see drafts of calendar records, so it may not edit them');
    const reading = await check(answers, [ME, DRAFTS], true);
    expect(reading.result).toMatchObject({ kind: 'accepted', note: expect.stringContaining('enough for --read-only') });
  });

  it('lets the drafts list decide when a plugin guards users/me even from logged-in users', async () => {
    const guarded: Answer = [403, wpError('rest_user_cannot_view', 'Sorry, you are not allowed to list users.', 403)];
    expect((await check({ [ME]: guarded, [DRAFTS]: [200, []] }, [ME, DRAFTS])).result).toMatchObject({ kind: 'accepted' });
    expect((await check({ [ME]: guarded }, [ME])).result).toBeInstanceOf(CredentialsRefusedError);
  });

  it('does not mistake a spent request budget for an unreachable site', async () => {
    server = await startServer((_req, res) => sendJson(res, 200, []));
    const client = createClient({ target: { baseUrl: server.url, apiRoot: '/wp-json' }, credentials: 'editor:x y', timeoutMs: 2000, maxRequests: 0, writes: 'all' });
    try {
      expect(await checkCredentials(client, contract, descriptor([ME]), { envVar: 'STAGING_AUTH', readOnly: false })).toEqual({
        kind: 'unconfirmed',
        why: 'the request budget (--max-requests) ran out before the credentials could be checked',
      });
    } finally {
      await client.close();
    }
  });

  it('goes on, saying why, when nothing the site serves can tell', async () => {
    expect((await check({}, ['/oembed/1.0/embed'])).result).toEqual({
      kind: 'unconfirmed',
      why: 'the site serves no read that needs credentials (neither /wp/v2/users/me nor a calendar list of drafts)',
    });
    const broken = await check({ [ME]: [500, { code: 'internal_server_error', message: 'x', data: { status: 500 } }] }, [ME]);
    expect(broken.result).toMatchObject({ kind: 'unconfirmed', why: expect.stringMatching(/^no answer told: GET .*users\/me\?context=edit answered 500 internal_server_error/) });
  });
});
