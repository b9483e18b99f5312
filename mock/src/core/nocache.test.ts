// No-cache headers as serve_request() sends them: `rest_send_nocache_headers` is `is_user_logged_in()`, so every
// answer to a request whose credentials make it a user carries Expires and Cache-Control (wp_get_nocache_headers()),
// and no other answer does (but a 4xx after X-HTTP-Method-Override); rest_send_cors_headers() adds `Vary: Origin` to
// an anonymous GET without an Origin only. Issue 27 saw open mode answer "a request with credentials" without them:
// the rule is the same in both modes, decided by whether the credentials check out (a wrong application password
// or an unknown login leaves the request anonymous, as on WordPress: sample 31, and the differential test against a
// live 6.1.9), never by the mode.
import { describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { call, freshMock } from '../testing/harness.ts';

const NO_CACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** Who asks, and whether WordPress would take them as a user. */
const ASKERS: { name: string; authorization?: string; user: boolean }[] = [
  { name: 'the administrator', authorization: basic('admin', 'ACk6 qp4z jfOW 6dsy HMWV G0x1'), user: true },
  { name: 'the administrator by e-mail, password without spaces', authorization: basic('admin@events.example.org', 'ACk6qp4zjfOW6dsyHMWVG0x1'), user: true },
  { name: 'the editor', authorization: basic('olena.kovalenko', 'wUMD HQOr sjrb fVae VcAH d7tB'), user: true },
  { name: 'a subscriber', authorization: basic('reader', 'YFWv yawU 4TAj vpzF d20t 5Cus'), user: true },
  { name: 'a wrong application password', authorization: basic('admin', 'wrong pass word'), user: false },
  { name: 'a login nobody has', authorization: basic('nobody', 'ACk6 qp4z jfOW 6dsy HMWV G0x1'), user: false },
  { name: 'a header that is no Basic credentials', authorization: 'Bearer abc.def', user: false },
  { name: 'nobody', user: false },
];

const REQUESTS: { method: string; url: string; body?: unknown }[] = [
  { method: 'GET', url: '/wp-json/cal/v1/events?per_page=1' },
  { method: 'GET', url: '/wp-json/cal/v1/events/106' },
  { method: 'GET', url: '/wp-json/cal/v1/events/999999' },
  { method: 'GET', url: '/wp-json/cal/v1/events?per_page=abc' },
  { method: 'GET', url: '/wp-json/nothing/here' },
  { method: 'GET', url: '/wp-json/' },
  { method: 'HEAD', url: '/wp-json/cal/events/v1/venues' },
  { method: 'GET', url: '/?rest_route=/seo/v1/dashboardWidget' },
  { method: 'GET', url: '/uk/wp-json/forms/v1/contact-forms' },
  { method: 'OPTIONS', url: '/wp-json/cal/v1/events' },
  { method: 'POST', url: '/wp-json/cal/v1/events', body: { title: 'no-cache' } },
  { method: 'POST', url: '/wp-json/batch/v1', body: { requests: [{ method: 'POST', path: '/cal/v1/events', body: { title: 'x' } }] } },
];

function answersOf(mock: Mock, authorization: string | undefined) {
  return REQUESTS.map((r) => {
    const res = call(mock, r.method, r.url, { ...(r.body !== undefined ? { body: r.body } : {}), headers: authorization ? { authorization } : {} });
    return { request: `${r.method} ${r.url}`, expires: res.headers.Expires ?? null, cacheControl: res.headers['Cache-Control'] ?? null, vary: res.headers.Vary ?? null };
  });
}

describe('no-cache headers: for a user, in both modes', () => {
  for (const auth of [false, true]) {
    it(`${auth ? '--auth' : 'open mode'}: every answer to a user's request has them, no other answer does`, async () => {
      const mock = await freshMock({ auth });
      for (const a of ASKERS) {
        const want = REQUESTS.map((r) => ({
          request: `${r.method} ${r.url}`,
          expires: a.user ? NO_CACHE.Expires : null,
          cacheControl: a.user ? NO_CACHE['Cache-Control'] : null,
          // rest_send_cors_headers(): no Origin was sent; an anonymous GET (by the original method) gets Vary: Origin.
          vary: !a.user && r.method === 'GET' ? 'Origin' : null,
        }));
        expect(answersOf(mock, a.authorization), `${auth ? '--auth' : 'open mode'}: ${a.name}`).toEqual(want);
      }
    });
  }

  it('the two modes answer the same headers to the same requests (answers from the response memo too)', async () => {
    const open = await freshMock();
    const locked = await freshMock({ auth: true });
    for (const a of ASKERS) {
      // Twice: the second read of each comes from the response memo.
      for (let i = 0; i < 2; i++) {
        const reads = (m: Mock) => answersOf(m, a.authorization).filter((x) => x.request.startsWith('GET') || x.request.startsWith('HEAD'));
        expect(reads(open), a.name).toEqual(reads(locked));
      }
    }
  });

  it('a 4xx after X-HTTP-Method-Override has them for anyone (serve_request()); a 2xx after it only for a user', async () => {
    for (const auth of [false, true]) {
      const mock = await freshMock({ auth });
      const refused = call(mock, 'POST', '/wp-json/cal/v1/events/999999', { headers: { 'x-http-method-override': 'DELETE' } });
      expect(refused.status).toBe(404);
      expect({ e: refused.headers.Expires, c: refused.headers['Cache-Control'] }).toEqual({ e: NO_CACHE.Expires, c: NO_CACHE['Cache-Control'] });
      const read = call(mock, 'POST', '/wp-json/cal/v1/events?per_page=1', { headers: { 'x-http-method-override': 'GET' } });
      expect(read.status).toBe(200);
      expect(read.headers.Expires).toBeUndefined();
    }
  });
});
