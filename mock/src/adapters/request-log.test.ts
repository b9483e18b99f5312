// The mock's log line: one per request, as Prism prints them, with a 4xx's error code and the parameters it names;
// nothing at --log quiet; headers (secrets hidden) at debug; colour only when asked for (a terminal).
import { describe, expect, it } from 'vitest';
import type { MockRequest, MockResponse } from '../core/types.ts';
import { errorOf, formatMs, RequestRing, recordOf } from '../request-record.ts';
import { formatLine, withRequestLog } from './request-log.ts';

const AT = new Date('2026-11-22T12:04:05.000Z');
const req = (url: string, headers: Record<string, string> = {}): MockRequest => ({ method: 'GET', url, headers });
const json = (status: number, body: unknown): MockResponse => ({ status, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) });
const invalid = json(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page, page', data: { status: 400, params: { per_page: 'x', page: 'y' } } });

function logged(level: 'quiet' | 'info' | 'debug', res: MockResponse | Promise<MockResponse>, request = req('/wp-json/cal/v1/events?per_page=101'), color = false) {
  const lines: string[] = [];
  let t = 100;
  const handle = withRequestLog(() => res, { level, color, write: (l) => lines.push(l), now: () => AT, clock: () => (t += 3) });
  return { lines, out: handle(request) };
}

describe('the log line', () => {
  it('names method, path with query, status, the error code and its parameters, and the time', () => {
    const { lines } = logged('info', invalid);
    expect(lines).toEqual(['12:04:05 GET    /wp-json/cal/v1/events?per_page=101 400 rest_invalid_param (per_page, page) 3.0 ms']);
  });

  it('hides a secret sent in the query, as the mock\'s page does', () => {
    const { lines } = logged('info', json(200, {}), req('/wp-json/lms/v1/token?username=anna&password=lantern-99b13b&_wpnonce=abc123'));
    expect(lines[0]).toBe('12:04:05 GET    /wp-json/lms/v1/token?username=anna&password=[hidden]&_wpnonce=[hidden] 200 3.0 ms');
  });

  it('gives a duration its sensible precision', () => {
    expect([0.042, 0.4, 3.25, 12.4, 1530.2].map(formatMs)).toEqual(['0.04 ms', '0.4 ms', '3.3 ms', '12 ms', '1530 ms']);
  });

  it('says no code for a success, and for a body that is not a WordPress error', () => {
    expect(logged('info', json(200, [{ id: 1 }])).lines[0]).toBe('12:04:05 GET    /wp-json/cal/v1/events?per_page=101 200 3.0 ms');
    expect(errorOf({ status: 404, headers: {}, body: '<html>not found</html>' })).toEqual({});
    expect(errorOf(json(404, { code: 'rest_no_route', message: 'No route', data: { status: 404 } }))).toEqual({ code: 'rest_no_route' });
  });

  it('waits for an answer that comes later (a state file, a latency)', async () => {
    const { lines, out } = logged('info', Promise.resolve(invalid));
    expect(lines).toEqual([]);
    expect((await out).status).toBe(400);
    expect(lines[0]).toContain('400 rest_invalid_param (per_page, page)');
  });

  it('prints nothing at --log quiet, and the headers without secrets at debug', () => {
    expect(logged('quiet', invalid).lines).toEqual([]);
    const { lines } = logged('debug', invalid, req('/wp-json/', { authorization: 'Basic YWRtaW46c2VjcmV0', cookie: 'wordpress_logged_in=abc', accept: 'application/json' }));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('accept: application/json');
    expect(lines[1]).toContain('authorization: Basic admin:[hidden]');
    expect(lines[1]).not.toContain('YWRtaW46c2VjcmV0');
    expect(lines[1]).not.toContain('abc');
  });

  it('colours only when asked to (a terminal), the status by its class', () => {
    expect(logged('info', invalid).lines[0]).not.toContain('\x1b[');
    const coloured = logged('info', invalid, undefined, true).lines[0]!;
    expect(coloured).toContain('\x1b[33m400\x1b[0m');
    expect(formatLine(recordOf(req('/x'), json(500, { code: 'internal_server_error', data: { status: 500 } }), AT, 1), true)).toContain('\x1b[31m500\x1b[0m');
  });
});

describe('the recent-requests ring', () => {
  it('keeps the newest first, and no more than its capacity', () => {
    const ring = new RequestRing(3);
    for (let i = 0; i < 10; i++) ring.push(recordOf(req(`/wp-json/x?i=${i}`), json(200, []), AT, 1), req(`/wp-json/x?i=${i}`), json(200, []));
    expect(ring.list().map((r) => r.path)).toEqual(['/wp-json/x?i=9', '/wp-json/x?i=8', '/wp-json/x?i=7']);
    expect(ring.list().map((r) => r.id)).toEqual([10, 9, 8]);
    expect(ring.detail(10)?.url).toBe('/wp-json/x?i=9');
    expect(ring.detail(7)).toBeUndefined();
  });

  it('cuts a very long path', () => {
    const r = recordOf(req(`/wp-json/x?q=${'a'.repeat(10_000)}`), json(200, []), AT, 1);
    expect(r.path.length).toBeLessThanOrEqual(301);
  });
});
