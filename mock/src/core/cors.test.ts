// CORS for the mock's own features (node-http.browser.test.ts shows them in Chromium): a preflight that asks for
// `Prefer` is allowed it, every other answer keeps WordPress's Access-Control-Allow-Headers; /__mock answers are
// readable from another origin, without credentialed CORS (control.test.ts).
import { describe, expect, it } from 'vitest';
import { WP_ALLOW_HEADERS } from '../wire/headers.ts';
import { call, freshMock } from '../testing/harness.ts';

const PAGE = 'http://127.0.0.1:5173';
const preflight = (requested: string) => ({ headers: { origin: PAGE, 'access-control-request-method': 'GET', 'access-control-request-headers': requested } });

describe('CORS beyond WordPress', () => {
  it('a preflight asking for Prefer is allowed it; others get exactly WordPress 6.1 list', async () => {
    const mock = await freshMock();
    expect(call(mock, 'OPTIONS', '/wp-json/cal/v1/events', preflight('prefer')).headers['Access-Control-Allow-Headers']).toBe(`${WP_ALLOW_HEADERS}, Prefer`);
    expect(call(mock, 'OPTIONS', '/wp-json/cal/v1/events', preflight('Authorization, PREFER')).headers['Access-Control-Allow-Headers']).toBe(`${WP_ALLOW_HEADERS}, Prefer`);
    expect(call(mock, 'OPTIONS', '/wp-json/cal/v1/events', preflight('authorization,x-http-method-override')).headers['Access-Control-Allow-Headers']).toBe(WP_ALLOW_HEADERS);
    expect(call(mock, 'OPTIONS', '/wp-json/cal/v1/events', { headers: { origin: PAGE } }).headers['Access-Control-Allow-Headers']).toBe(WP_ALLOW_HEADERS);
    // Only preflights: the header on any other request changes nothing.
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', preflight('prefer')).headers['Access-Control-Allow-Headers']).toBe(WP_ALLOW_HEADERS);
    expect(WP_ALLOW_HEADERS).toBe('Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type');
  });

  it('/__mock answers are readable from another origin, and only then, never with credentials', async () => {
    const mock = await freshMock();
    expect(call(mock, 'GET', '/__mock/state', { headers: { origin: PAGE } }).headers).toEqual({
      'Access-Control-Allow-Origin': '*',
      'Content-Type': 'application/json; charset=UTF-8',
    });
    expect(call(mock, 'POST', '/__mock/reset', { headers: { origin: PAGE } }).headers['Access-Control-Allow-Credentials']).toBeUndefined();
    expect(call(mock, 'GET', '/__mock/state').headers).toEqual({ 'Content-Type': 'application/json; charset=UTF-8' });
  });
});
