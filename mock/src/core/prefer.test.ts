// Aids for a frontend's unhappy paths, as Prism offers them: `Prefer: code=NNN` forces a status with a
// WordPress-shaped body for one request (nothing changes in the store); `Prefer: latency=MS` and the latency
// option hold the answer.
import { describe, expect, it } from 'vitest';
import { call, freshMock } from '../testing/harness.ts';
import { parsePrefer } from './serve.ts';

describe('Prefer: code=NNN', () => {
  it('forces the status with WordPress error bodies, without touching the store', async () => {
    const mock = await freshMock();
    const before = mock.store.version;
    const cases: [number, unknown][] = [
      [401, { code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } }],
      [403, { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } }],
      [404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }],
      [429, { code: 'rest_too_many_requests', message: 'Too many requests.', data: { status: 429 } }],
      [503, { code: 'rest_service_unavailable', message: 'Service unavailable.', data: { status: 503 } }],
    ];
    for (const [code, body] of cases) {
      const res = call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'never stored' }, headers: { prefer: `code=${code}` } });
      expect(res.status).toBe(code);
      expect(res.json).toEqual(body);
    }
    const fatal = call(mock, 'GET', '/wp-json/cal/v1/events', { headers: { prefer: 'code=500' } });
    expect(fatal.status).toBe(500);
    expect(fatal.json.code).toBe('internal_server_error');
    expect(mock.store.version).toBe(before);
  });

  it('a success code runs the request and answers with that status', async () => {
    const mock = await freshMock();
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { prefer: 'code=203' } });
    expect(res.status).toBe(203);
    expect(Array.isArray(res.json)).toBe(true);
  });

  it('an unknown route stays 404 rest_no_route', async () => {
    const mock = await freshMock();
    expect(call(mock, 'GET', '/wp-json/nope', { headers: { prefer: 'code=200' } }).status).toBe(404);
  });
});

describe('latency', () => {
  it('reads Prefer the way Prism writes it', () => {
    expect(parsePrefer('code=404')).toEqual({ code: 404 });
    expect(parsePrefer('latency=250, code=503')).toEqual({ latency: 250, code: 503 });
    expect(parsePrefer('return=minimal')).toEqual({});
  });

  it('Prefer: latency=MS and the latencyMs option hold the answer', async () => {
    const mock = await freshMock({ latencyMs: 80 });
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1').delayMs).toBe(80);
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { prefer: 'latency=5' } }).delayMs).toBe(5);
    const t0 = performance.now();
    const res = await mock.handle({ method: 'GET', url: '/wp-json/cal/v1/events?per_page=1', headers: { prefer: 'latency=120' } });
    expect(res.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
  });
});
