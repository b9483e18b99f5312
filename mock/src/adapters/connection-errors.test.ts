// Requests node's HTTP parser refuses before the mock sees them: a URL over the 16 KiB of headers, a malformed
// Content-Length. They were a bare status line with no body; now a short HTML page as a site's server sends, the
// connection closed, and the server goes on serving. Raw sockets, so the request is exactly as written.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { freshMock } from '../testing/harness.ts';
import { listen, type Listening } from './node-http.ts';

function raw(url: string, text: string): Promise<{ answer: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(port), hostname);
    let answer = '';
    const timer = setTimeout(() => (s.destroy(), resolve({ answer, closed: false })), 5_000);
    s.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    s.on('error', () => undefined);
    s.on('close', () => (clearTimeout(timer), resolve({ answer, closed: true })));
    s.write(text);
  });
}

function page(answer: string): { status: string; type: string | undefined; length: number; body: string } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: head.split('\r\n')[0]!, type: /\r\ncontent-type: ([^\r]+)/i.exec(head)?.[1], length: Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]), body };
}

describe('requests the HTTP parser refuses', () => {
  let mock: Mock;
  let server: Listening;
  beforeAll(async () => {
    mock = await freshMock();
    server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  it('a 20,000-character URL: 431 with an HTML page, closed; a malformed Content-Length: 400 with one; the server serves on', async () => {
    const long = await raw(server.url, `GET /wp-json/cal/v1/events?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const p = page(long.answer);
    expect(p.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(p.type).toBe('text/html; charset=UTF-8');
    expect(p.body).toContain('<h1>Request Header Fields Too Large</h1>');
    expect(p.length).toBe(Buffer.byteLength(p.body));
    expect(long.closed).toBe(true);

    const bad = page((await raw(server.url, 'POST /wp-json/cal/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n')).answer);
    expect(bad.status).toBe('HTTP/1.1 400 Bad Request');
    expect(bad.body).toContain('<h1>Bad Request</h1>');

    const ok = await raw(server.url, 'GET /wp-json/cal/v1/events?per_page=1&_fields=id HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(ok.answer.startsWith('HTTP/1.1 200 ')).toBe(true);
  });
});
