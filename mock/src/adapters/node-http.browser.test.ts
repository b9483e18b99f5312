// The node:http mock driven cross-origin by a real browser, as a frontend on its own dev server does every day: a
// page on one 127.0.0.1 port calls the mock (with --auth) on another. Chromium enforces CORS, so whatever the mock's
// headers fail to allow, the page cannot do; what it may do must match WordPress 6.1 (rest_send_cors_headers(),
// WP_REST_Server::serve_request()'s Access-Control-Expose-Headers / -Allow-Headers, rest_handle_options_request()).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock, MockRequest } from '../index.ts';
import { freshMock } from '../testing/harness.ts';
import { CHROMIUM, hasChromium, launchChromium, pageProblems, serveStatic, type StaticSite } from '../testing/browser.ts';
import { listen, type Listening } from './node-http.ts';

if (!hasChromium) console.warn(`node-http.browser.test.ts: SKIPPED, ${CHROMIUM} is missing (apt-get install -y chromium)`);

type Outcome =
  | { ok: true; status: number; headers: Record<string, string | null>; json: any } // eslint-disable-line @typescript-eslint/no-explicit-any -- response JSON
  | { ok: false; error: string };

describe.skipIf(!hasChromium)('the node:http mock, cross-origin from Chromium', () => {
  let mock: Mock;
  let api: Listening;
  let site: StaticSite;
  let browser: Browser;
  let page: Page;
  let problems: string[] = [];
  /** What reached the mock: method, URL, and the CORS request headers. */
  const seen: { method: string; url: string; origin?: string; requestHeaders?: string; authorization: boolean }[] = [];
  let basic = '';

  /** fetch() from the page (origin `site.url`) to the mock; the named response headers as JavaScript reads them. */
  const crossFetch = (path: string, init: RequestInit, read: string[] = []): Promise<Outcome> =>
    page.evaluate(
      async ([url, i, names]) => {
        try {
          const res = await fetch(url, i);
          const text = await res.text();
          return { ok: true as const, status: res.status, headers: Object.fromEntries(names.map((n) => [n, res.headers.get(n)])), json: text ? JSON.parse(text) : undefined };
        } catch (e) {
          return { ok: false as const, error: String(e) };
        }
      },
      [`${api.url}${path}`, init, read] as const,
    );

  beforeAll(async () => {
    mock = await freshMock({ auth: true });
    const { username, password } = mock.credentials()!;
    basic = `Basic ${btoa(`${username}:${password}`)}`;
    api = await listen(
      (req: MockRequest) => {
        seen.push({ method: req.method, url: req.url, origin: req.headers.origin, requestHeaders: req.headers['access-control-request-headers'], authorization: req.headers.authorization !== undefined });
        return mock.handleNow(req);
      },
      { port: 0, host: '127.0.0.1' },
    );
    site = await serveStatic({ '/': { type: 'text/html; charset=utf-8', body: '<!doctype html><html><head><link rel="icon" href="data:,"></head><body>frontend</body></html>' } });
    browser = await launchChromium();
    page = await browser.newPage();
    problems = pageProblems(page);
    await page.goto(site.url);
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await api?.close();
  });

  it('the page and the mock are different origins', () => {
    expect(new URL(site.url).origin).not.toBe(new URL(api.url).origin);
  });

  it('a GET reads X-WP-Total, X-WP-TotalPages and Link (exposed), with the Origin echoed', async () => {
    const res = await crossFetch('/wp-json/cal/v1/events?per_page=2', {}, ['x-wp-total', 'x-wp-totalpages', 'link', 'allow']);
    expect(res).toMatchObject({ ok: true, status: 200 });
    if (!res.ok) return;
    expect(Number(res.headers['x-wp-total'])).toBeGreaterThan(2);
    expect(Number(res.headers['x-wp-totalpages'])).toBe(Math.ceil(Number(res.headers['x-wp-total']) / 2));
    expect(res.headers.link).toBe(`<${api.url}/wp-json/cal/v1/events?per_page=2&page=2>; rel="next"`);
    // Not in Access-Control-Expose-Headers, on WordPress either: hidden from JavaScript.
    expect(res.headers.allow).toBeNull();
    expect(res.json).toHaveLength(2);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', origin: site.url });
  });

  let created = 0;
  it('a POST with JSON and Basic credentials passes its preflight and creates (201)', async () => {
    const before = seen.length;
    const res = await crossFetch('/wp-json/cal/v1/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: basic },
      body: JSON.stringify({ title: 'Cross-origin premiere', start_date: '2026-12-06 19:00:00', end_date: '2026-12-06 21:00:00' }),
    });
    expect(res).toMatchObject({ ok: true, status: 201, json: { title: { raw: 'Cross-origin premiere' } } });
    if (res.ok) created = res.json.id;
    expect(seen.slice(before)).toEqual([
      { method: 'OPTIONS', url: '/wp-json/cal/v1/events', origin: site.url, requestHeaders: 'authorization,content-type', authorization: false },
      { method: 'POST', url: '/wp-json/cal/v1/events', origin: site.url, authorization: true },
    ]);
  });

  it('X-HTTP-Method-Override is refused at the preflight, as WordPress 6.1 refuses it', async () => {
    const before = seen.length;
    const res = await crossFetch(`/wp-json/cal/v1/events/${created}`, { method: 'POST', headers: { 'X-HTTP-Method-Override': 'DELETE', Authorization: basic } });
    expect(res).toEqual({ ok: false, error: 'TypeError: Failed to fetch' });
    // Only the preflight arrived; the browser never sent the request itself.
    expect(seen.slice(before)).toEqual([
      { method: 'OPTIONS', url: `/wp-json/cal/v1/events/${created}`, origin: site.url, requestHeaders: 'authorization,x-http-method-override', authorization: false },
    ]);
    // The preflight's answer, read outside the browser: WordPress's own header list (WP_REST_Server::serve_request(),
    // 6.1.9), which has no X-HTTP-Method-Override (a site would add it with the `rest_allowed_cors_headers` filter).
    const preflight = await fetch(`${api.url}/wp-json/cal/v1/events/${created}`, {
      method: 'OPTIONS',
      headers: { Origin: site.url, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,x-http-method-override' },
    });
    await preflight.arrayBuffer();
    expect(preflight.status).toBe(200);
    expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith('access-control-')))).toEqual({
      'access-control-allow-origin': site.url,
      'access-control-allow-methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
      'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, Link',
    });
    seen.length = before + 1;
  });

  it('?_method=DELETE with credentials fails too (WordPress applies _method to the preflight: an anonymous DELETE, 401); DELETE itself works', async () => {
    const before = seen.length;
    const overridden = await crossFetch(`/wp-json/cal/v1/events/${created}?_method=DELETE`, { method: 'POST', headers: { Authorization: basic } });
    expect(overridden).toEqual({ ok: false, error: 'TypeError: Failed to fetch' });
    expect(seen.slice(before).map((r) => r.method)).toEqual(['OPTIONS']);
    expect(mock.handleNow({ method: 'OPTIONS', url: `/wp-json/cal/v1/events/${created}?_method=DELETE`, headers: { origin: site.url } }).status).toBe(401);

    const deleted = await crossFetch(`/wp-json/cal/v1/events/${created}`, { method: 'DELETE', headers: { Authorization: basic } });
    expect(deleted).toMatchObject({ ok: true, status: 200, json: { id: created, status: 'trash' } });
    expect(seen.slice(before + 1).map((r) => r.method)).toEqual(['OPTIONS', 'DELETE']);
  });

  it('a credentialed request (credentials: include) with Basic credentials reads the answer and the exposed headers', async () => {
    // Drafts are listed only for a user who may see them (--auth): a 200 shows the credentials arrived.
    const res = await crossFetch('/wp-json/cal/v1/events?status=draft&per_page=1', { credentials: 'include', headers: { Authorization: basic } }, ['x-wp-total', 'x-wp-totalpages', 'link']);
    expect(res).toMatchObject({ ok: true, status: 200, json: [{ status: 'draft' }] });
    if (!res.ok) return;
    expect(Number(res.headers['x-wp-total'])).toBeGreaterThan(1);
    expect(res.headers['x-wp-totalpages']).toBe(res.headers['x-wp-total']);
    // status, sanitized to an array, comes back as status[0] (as WordPress's add_query_arg() of the sanitized params).
    expect(res.headers.link).toBe(`<${api.url}/wp-json/cal/v1/events?status%5B0%5D=draft&per_page=1&page=2>; rel="next"`);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', origin: site.url, authorization: true });
    // Without credentials the same list is refused, and the refusal is readable too.
    const anonymous = await crossFetch('/wp-json/cal/v1/events?status=draft&per_page=1', { credentials: 'include' });
    expect(anonymous).toMatchObject({ ok: true, status: 400, json: { code: 'rest_invalid_param', data: { details: { status: { code: 'rest_forbidden_status' } } } } });
  });

  it("the mock's own Prefer header and /__mock routes (with an administrator's credentials under --auth) work cross-origin too", async () => {
    const forced = await crossFetch('/wp-json/cal/v1/events?per_page=1', { headers: { Prefer: 'code=503' } });
    expect(forced).toMatchObject({ ok: true, status: 503, json: { code: 'rest_service_unavailable' } });
    const slow = await crossFetch('/wp-json/cal/v1/events?per_page=1', { headers: { Prefer: 'latency=150' } });
    expect(slow).toMatchObject({ ok: true, status: 200 });
    // Without credentials the refusal is readable (Access-Control-Allow-Origin: *), and nothing is reset.
    expect(await crossFetch('/__mock/reset', { method: 'POST' })).toMatchObject({ ok: true, status: 401, json: { code: 'rest_forbidden' } });
    expect(mock.store.events.get(created)).toBeDefined();
    // An explicit Authorization header passes its preflight (no browser credentials are involved).
    expect(await crossFetch('/__mock/state', { headers: { Authorization: basic } })).toMatchObject({ ok: true, status: 200, json: { auth: true } });
    expect(await crossFetch('/__mock/reset', { method: 'POST', headers: { Authorization: basic } })).toMatchObject({ ok: true, status: 200, json: { reset: true } });
    expect(mock.store.events.get(created)).toBeUndefined();
  });

  it('nothing went wrong in the page but the refusals and the errors asked for above', () => {
    const blocked = (path: string, why: string) => [
      `console: Access to fetch at '${api.url}${path}' from origin '${site.url}' has been blocked by CORS policy: ${why} (${site.url}/)`,
      `console: Failed to load resource: net::ERR_FAILED (${api.url}${path})`,
    ];
    expect(problems).toEqual([
      ...blocked(`/wp-json/cal/v1/events/${created}`, 'Request header field x-http-method-override is not allowed by Access-Control-Allow-Headers in preflight response.'),
      ...blocked(`/wp-json/cal/v1/events/${created}?_method=DELETE`, "Response to preflight request doesn't pass access control check: It does not have HTTP ok status."),
      `console: Failed to load resource: the server responded with a status of 400 (Bad Request) (${api.url}/wp-json/cal/v1/events?status=draft&per_page=1)`,
      `console: Failed to load resource: the server responded with a status of 503 (Service Unavailable) (${api.url}/wp-json/cal/v1/events?per_page=1)`,
      `console: Failed to load resource: the server responded with a status of 401 (Unauthorized) (${api.url}/__mock/reset)`,
    ]);
  });
});
