// The mock's front door (front-door.ts), through its core: a Host that is not the mock's own is refused on every
// route (DNS rebinding), and the control routes refuse requests from pages of other sites (a cross-site form POST
// that would reset the store with the browser's cached credentials), while the REST routes keep answering other
// origins as WordPress does and the mock's own page, scripts and curl keep working.
import { describe, expect, it } from 'vitest';
import { call, freshMock } from '../testing/harness.ts';

const EVENT = { title: 'Kept', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' };
/** What Chromium sends with a form POST from a page of another site. */
const CROSS_SITE_FORM = { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'content-type': 'application/x-www-form-urlencoded' };

describe('the control routes refuse pages of other sites', () => {
  it('a cross-site form POST does not reset the store, even with the administrator\'s cached credentials', async () => {
    const mock = await freshMock({ auth: true });
    const admin = mock.credentials()!;
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { auth: admin, body: EVENT }).status).toBe(201);
    const before = mock.store.events.size;
    const refused = call(mock, 'POST', '/__mock/reset', { auth: admin, headers: CROSS_SITE_FORM, body: '' });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ code: 'mock_cross_site', message: expect.stringContaining('(Origin http://evil.example)'), data: { status: 403 } });
    expect(mock.store.events.size).toBe(before);
    // The same from the mock's own page (Origin its own address) resets.
    expect(call(mock, 'POST', '/__mock/reset', { auth: admin, headers: { origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'same-origin' } }).status).toBe(200);
    expect(mock.store.events.size).toBe(before - 1);
  });

  it('refuses Sec-Fetch-Site: cross-site without an Origin, a null Origin, and a preflight from another site', async () => {
    const mock = await freshMock();
    const refusedHeaders: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty' }, { origin: 'null' }, { origin: 'https://203.0.113.9' }, { origin: 'http://127.0.0.1.evil.example' }];
    for (const headers of refusedHeaders) {
      const r = call(mock, 'POST', '/__mock/reset', { headers });
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(r.json.code).toBe('mock_cross_site');
    }
    const preflight = call(mock, 'OPTIONS', '/__mock/reset', { headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
    // A cross-site read of the state is refused too (no-cors: the page could not read it, but a timing could tell).
    expect(call(mock, 'GET', '/__mock/state', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' } }).status).toBe(403);
  });

  it('lets in the page itself, a link from elsewhere to it, same-site pages, pages on this machine, scripts and curl', async () => {
    const mock = await freshMock();
    const ok = (method: string, url: string, headers: Record<string, string>) => call(mock, method, url, { headers }).status;
    // A link from a chat or a wiki: a top-level navigation, which cannot read the page (nor frame it).
    expect(ok('GET', '/__mock/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).toBe(200);
    expect(ok('GET', '/__mock/state', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).toBe(200);
    expect(ok('POST', '/__mock/reset', { 'sec-fetch-site': 'same-site' })).toBe(200);
    // A frontend's dev server on this machine (another port: another origin, the same host).
    expect(ok('POST', '/__mock/reset', { origin: 'http://localhost:3000', 'sec-fetch-site': 'cross-site' })).toBe(200);
    expect(ok('POST', '/__mock/reset', { origin: 'http://127.0.0.1:5173' })).toBe(200);
    expect(ok('POST', '/__mock/reset', {})).toBe(200);
    // A page on a host the mock was told is its own.
    const team = await freshMock({ allowedHosts: ['.team.test'] });
    expect(call(team, 'POST', '/__mock/reset', { headers: { origin: 'https://app.team.test', 'sec-fetch-site': 'cross-site' } }).status).toBe(200);
  });

  it('leaves the REST routes to WordPress\'s CORS: a page of another origin reads and writes them as on WordPress', async () => {
    const mock = await freshMock();
    const read = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(read.status).toBe(200);
    expect(read.headers['Access-Control-Allow-Origin']).toBe('http://evil.example');
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { body: EVENT, headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } }).status).toBe(201);
  });
});

describe('a Host that is not the mock\'s own is refused on every route', () => {
  it('refuses a rebinding page\'s name on the REST routes, the site\'s pages and the control routes', async () => {
    const mock = await freshMock();
    for (const [method, url] of [['GET', '/wp-json/cal/v1/events?per_page=1'], ['POST', '/__mock/reset'], ['GET', '/'], ['GET', '/__mock/']] as const) {
      const r = call(mock, method, url, { headers: { host: 'rebind.evil.example:4010' } });
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.json).toEqual({
        code: 'mock_host_not_allowed',
        message: expect.stringContaining('Host "rebind.evil.example" is not one of this mock\'s names'),
        data: { status: 403 },
      });
    }
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { host: 'rebind.evil.example' } }).json.message).toContain('--allowed-hosts rebind.evil.example');
  });

  it('answers its own names: IP addresses, localhost and *.localhost, the address reached, the site URL\'s host, and the list', async () => {
    const mock = await freshMock();
    const status = (m: typeof mock, host: string) => call(m, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { host } }).status;
    for (const host of ['127.0.0.1:4010', 'LOCALHOST:4010', 'app.localhost:5173', '[::1]:4010', '192.168.1.5:4010', '10.0.0.7', 'localhost.']) expect(status(mock, host), host).toBe(200);
    for (const host of ['mock:4010', 'example.org', 'cafe.be:1:2', '127.0.0.1.evil.example']) expect(status(mock, host), host).toBe(403);
    const site = await freshMock({ siteUrl: 'https://events.example.org' });
    expect(status(site, 'events.example.org')).toBe(200);
    const listed = await freshMock({ allowedHosts: ['mock', '.example.org'] });
    for (const host of ['mock:4010', 'example.org', 'www.example.org']) expect(status(listed, host), host).toBe(200);
    expect(status(listed, 'example.org.evil.test')).toBe(403);
    expect(status(await freshMock({ allowedHosts: 'all' }), 'anything.example')).toBe(200);
    // No Host (HTTP/1.0, an MSW intercept): no name to check.
    expect(mock.handleNow({ method: 'GET', url: '/wp-json/', headers: {} }).status).toBe(200);
    // A program handing a request to the mock in process (no adapter's address, no connection): no network, no rebinding.
    expect(mock.handleNow({ method: 'GET', url: '/wp-json/', headers: { host: 'example.org' } }).status).toBe(200);
    // The same name arriving over a connection is refused.
    expect(mock.handleNow({ method: 'GET', url: '/wp-json/', headers: { host: 'example.org' }, client: '203.0.113.9' }).status).toBe(403);
  });
});
