// Aids for a frontend's unhappy paths, as Prism offers them: `Prefer: code=NNN` forces a status with a
// WordPress-shaped body for one request (nothing changes in the store); `Prefer: latency=MS` and the latency
// option hold the answer. A value of either the mock cannot honour is a 400 naming the header; preferences the mock
// does not know are ignored, as RFC 7240 says.
import { describe, expect, it } from 'vitest';
import { call, freshMock } from '../testing/harness.ts';
import { parsePrefer } from './prefer.ts';

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

describe('reading Prefer', () => {
  it('reads it the way Prism writes it, and as RFC 7240 spells it', () => {
    expect(parsePrefer('code=404')).toEqual({ code: 404 });
    expect(parsePrefer('latency=250, code=503')).toEqual({ latency: 250, code: 503 });
    expect(parsePrefer('CODE = "503"')).toEqual({ code: 503 });
    // A preference's parameters follow a ';'; ours take none, so they change nothing.
    expect(parsePrefer('code=404; charset=x, latency=5')).toEqual({ code: 404, latency: 5 });
    // RFC 7240 section 2: only the first instance of a preference counts...
    expect(parsePrefer('code=404, code=500')).toEqual({ code: 404 });
    // ...and one the server does not know is ignored (Prism's dynamic=true included).
    expect(parsePrefer('return=minimal')).toEqual({});
    expect(parsePrefer('respond-async, wait=10, return=representation, dynamic=true, code=410')).toEqual({ code: 410 });
    expect(parsePrefer('')).toEqual({});
  });

  it.each([
    ['code=200', { code: 200 }],
    ['code=599', { code: 599 }],
    ['latency=0', { latency: 0 }],
    ['latency=600000', { latency: 600000 }],
  ])('takes the edge %s', (header, parsed) => {
    expect(parsePrefer(header)).toEqual(parsed);
  });

  it.each([
    ['code=199', 'code takes an HTTP status from 200 to 599, got "199"'],
    ['code=600', 'code takes an HTTP status from 200 to 599, got "600"'],
    ['code=999', 'code takes an HTTP status from 200 to 599, got "999"'],
    ['code=100', 'code takes an HTTP status from 200 to 599, got "100"'],
    ['code=abc', 'code takes an HTTP status from 200 to 599, got "abc"'],
    ['code=4040', 'code takes an HTTP status from 200 to 599, got "4040"'],
    ['code', 'code takes an HTTP status from 200 to 599, got ""'],
    ['latency=600001', 'latency takes a whole number of milliseconds from 0 to 600000, got "600001"'],
    ['latency=700000', 'latency takes a whole number of milliseconds from 0 to 600000, got "700000"'],
    ['latency=abc', 'latency takes a whole number of milliseconds from 0 to 600000, got "abc"'],
    ['latency=-1', 'latency takes a whole number of milliseconds from 0 to 600000, got "-1"'],
    ['latency=1.5', 'latency takes a whole number of milliseconds from 0 to 600000, got "1.5"'],
    ['code=503, latency=soon', 'latency takes a whole number of milliseconds from 0 to 600000, got "soon"'],
  ])('refuses the edge or value %s', (header, reason) => {
    expect(parsePrefer(header).invalid).toBe(reason);
  });

  it('echoes at most 40 characters of a refused value', () => {
    expect(parsePrefer(`code=${'9'.repeat(5000)}`).invalid).toBe(`code takes an HTTP status from 200 to 599, got "${'9'.repeat(40)}..."`);
  });
});

describe('a Prefer the mock cannot honour', () => {
  it('is answered 400 mock_invalid_prefer, shaped like WordPress\'s rest_invalid_param and naming the header, changing nothing', async () => {
    const mock = await freshMock();
    const before = mock.store.version;
    for (const [method, prefer, reason] of [
      ['GET', 'code=999', 'code takes an HTTP status from 200 to 599, got "999"'],
      ['POST', 'code=999', 'code takes an HTTP status from 200 to 599, got "999"'],
      ['GET', 'latency=abc', 'latency takes a whole number of milliseconds from 0 to 600000, got "abc"'],
      ['DELETE', 'latency=700000', 'latency takes a whole number of milliseconds from 0 to 600000, got "700000"'],
    ] as const) {
      const res = call(mock, method, method === 'DELETE' ? '/wp-json/cal/v1/events/92?force=true' : '/wp-json/cal/v1/events', {
        headers: { prefer: prefer },
        ...(method === 'POST' ? { body: { title: 'never stored' } } : {}),
      });
      expect(res.status, `${method} ${prefer}`).toBe(400);
      expect(res.delayMs).toBeUndefined();
      expect(res.headers['Content-Type']).toBe('application/json; charset=UTF-8');
      expect(res.json).toEqual({
        code: 'mock_invalid_prefer',
        message: `Invalid Prefer header: ${reason}.`,
        data: { status: 400, params: { Prefer: reason }, details: { Prefer: { code: 'mock_invalid_prefer', message: reason, data: null } } },
      });
    }
    expect(mock.store.version).toBe(before);
  });

  it('is refused even when the same read without it is remembered', async () => {
    const mock = await freshMock();
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1').status).toBe(200);
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { prefer: 'latency=abc' } }).status).toBe(400);
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { prefer: 'latency=7' } })).toMatchObject({ status: 200, delayMs: 7 });
  });

  it('is not refused for preferences the mock does not know, nor outside the REST API', async () => {
    const mock = await freshMock();
    const plain = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1');
    const minimal = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { prefer: 'return=minimal, respond-async' } });
    expect(minimal.status).toBe(200);
    expect(minimal.body).toBe(plain.body);
    // The site's pages are not the REST API, which is all the aids apply to.
    expect(call(mock, 'GET', '/', { headers: { prefer: 'code=999' } }).status).toBe(200);
  });
});

describe('latency', () => {

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
