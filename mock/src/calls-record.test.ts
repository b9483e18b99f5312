// --record: a small client (fetch: list, filter, create, delete events) against the mock writes one line per call,
// in the documented format, without its credentials, and the file stops at its byte bound.
import { describe, expect, it } from 'vitest';
import { listen } from './index.ts';
import { freshMock } from './testing/harness.ts';
import { CALLS_FORMAT, withCallRecord } from './calls-record.ts';
import { readRecording } from '../../contracts/lib/calls-format.ts';

describe('mock --record', () => {
  it('writes what a client sends and reads, one line a call, secrets hidden', async () => {
    const mock = await freshMock({ auth: true });
    const lines: string[] = [];
    const c = mock.credentials()!;
    const server = await listen(withCallRecord((req) => mock.respond(req), { write: (l) => lines.push(l) }, { contract: '1.0.0', identityOf: (req) => mock.identityOf(req) }), { port: 0, host: '127.0.0.1' });
    try {
      const auth = { authorization: `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}` };
      const r = mock.credentials('subscriber')!;
      const reader = { authorization: `Basic ${Buffer.from(`${r.username}:${r.password}`).toString('base64')}` };
      const api = `${server.url}/wp-json/cal/v1/events`;
      expect((await fetch(`${api}?per_page=2`)).status).toBe(200);
      expect((await fetch(`${api}?search=concert&order=ASC`, { headers: reader })).status).toBe(200);
      // Credentials that do not check out leave a request anonymous, on WordPress as on the mock.
      expect((await fetch(`${api}?per_page=1`, { headers: { authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` } })).status).toBe(200);
      const created = await fetch(api, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Recorded', start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 12:00:00', password: 'p4ss' }) });
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { id: number }).id;
      expect((await fetch(`${api}/${id}?force=true`, { method: 'DELETE', headers: auth })).status).toBe(200);
      await fetch(`${server.url}/__mock/state`, { headers: auth });
    } finally {
      await server.close();
      await mock.close();
    }
    const text = lines.join('');
    expect(text).not.toContain('Basic ');
    expect(text).not.toContain(c.password);
    expect(text).not.toContain(`"${c.username}"`);
    expect(text).not.toContain('p4ss');
    const rows = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows[0]).toEqual({ format: CALLS_FORMAT, version: 2, contract: '1.0.0' });
    expect(rows.slice(1).map((r) => `${r['method']} ${String(r['path']).replace(/\/\d+/g, '/N').replace(/=\d+/g, '=N')} ${r['status']}`)).toEqual([
      'GET /wp-json/cal/v1/events?per_page=N 200',
      'GET /wp-json/cal/v1/events?search=concert&order=ASC 200',
      'GET /wp-json/cal/v1/events?per_page=N 200',
      'POST /wp-json/cal/v1/events 201',
      'DELETE /wp-json/cal/v1/events/N?force=true 200',
    ]);
    expect(rows[1]!['headers']).toMatchObject({ 'X-WP-Total': expect.any(String) });
    expect((rows[1]!['shape'] as unknown[])[0]).toMatchObject({ id: 'integer', title: { rendered: 'string' } });
    expect(rows[4]!['id']).toEqual(expect.any(Number));
    expect(rows[4]!['body']).toContain('[hidden]');
    // Who made each call: never the credentials, only whether they checked out, and the user's role.
    expect(rows.slice(1).map((x) => [x['auth'], x['role']])).toEqual([['anonymous', undefined], ['authenticated', 'subscriber'], ['anonymous', undefined], ['authenticated', 'administrator'], ['authenticated', 'administrator']]);
    // The reader test --calls uses takes what the writer wrote, line by line.
    expect(readRecording(text, 'calls.ndjson').calls.map((c) => [c.line, c.method])).toEqual([[2, 'GET'], [3, 'GET'], [4, 'GET'], [5, 'POST'], [6, 'DELETE']]);
  });

  it('without the mock to ask, records whether a call carried credentials', () => {
    const lines: string[] = [];
    const handle = withCallRecord(() => ({ status: 200, headers: {}, body: '[]' }), { write: (l) => lines.push(l) }, { contract: '1.0.0' });
    void handle({ method: 'GET', url: '/wp-json/cal/v1/events', headers: {} });
    void handle({ method: 'GET', url: '/wp-json/cal/v1/events', headers: { authorization: 'Basic eDp5' } });
    expect(lines.slice(1).map((l) => (JSON.parse(l) as { auth: string }).auth)).toEqual(['anonymous', 'authenticated']);
    expect(lines.join('')).not.toContain('eDp5');
  });

  it('stops at its byte bound with a note', () => {
    const lines: string[] = [];
    const handle = withCallRecord(() => ({ status: 200, headers: {}, body: '[]' }), { write: (l) => lines.push(l) }, { contract: '1.0.0' }, 200);
    for (let i = 0; i < 10; i++) void handle({ method: 'GET', url: `/wp-json/cal/v1/events?page=${i}`, headers: {} });
    expect(lines.join('').length).toBeLessThanOrEqual(200 + 60);
    expect(lines.at(-1)).toContain('recording stopped at 200 bytes');
  });
});
