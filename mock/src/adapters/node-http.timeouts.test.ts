// How long the node adapter waits on a client (client-timeouts.ts): headers within their time, a body by
// mod_reqtimeout's rule (its first bodyMs, then a second more per bodyMinBytesPerSecond bytes), so a stalled body is cut
// with Apache's 408 page and a slow one that keeps coming is not. The rule itself is checked with fake timers (counted,
// no waiting); over sockets, the times are injected small.
import type { Socket } from 'node:net';
import { openSocket } from '../testing/sockets.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockRequest, MockResponse } from '../core/types.ts';
import { bodyDeadline, clientTimeouts, watchBody, type ClientTimeouts } from './client-timeouts.ts';
import { listen, type Listening } from './node-http.ts';

describe('the body rule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const t: ClientTimeouts = { headersMs: 1000, bodyMs: 20_000, bodyMinBytesPerSecond: 500, sendStallMs: 1000, idleMs: 5000 };

  it('mod_reqtimeout: 20 s, and a second more per 500 bytes', () => {
    expect(bodyDeadline(0, 0, t)).toBe(20_000);
    expect(bodyDeadline(1_000, 500, t)).toBe(22_000);
    expect(bodyDeadline(0, 8 * 1024 * 1024, t)).toBe(20_000 + (8 * 1024 * 1024 * 1000) / 500);
  });

  it('a body that keeps coming at the rate is never late, however long it takes; one that stops is late once, at its deadline', () => {
    vi.useFakeTimers({ now: 0 });
    let late = 0;
    const w = watchBody(Date.now, t, () => late++);
    // 600 bytes a second for an hour.
    for (let s = 0; s < 3600; s++) {
      vi.advanceTimersByTime(1000);
      w.got(600);
    }
    expect(late).toBe(0);
    // It stops: the deadline is 20 s + 3600 * 600 / 500 s from the start, 1,200 s from now... minus what is spent.
    const deadline = bodyDeadline(0, 3600 * 600, t);
    vi.advanceTimersByTime(deadline - Date.now() - 1);
    expect(late).toBe(0);
    vi.advanceTimersByTime(1);
    expect(late).toBe(1);
    vi.advanceTimersByTime(10 * t.bodyMs);
    expect(late).toBe(1);
  });

  it('a watch stopped (the body ended, or the client left) is never late', () => {
    vi.useFakeTimers({ now: 0 });
    let late = 0;
    const w = watchBody(Date.now, t, () => late++);
    w.stop();
    vi.advanceTimersByTime(10 * t.bodyMs);
    expect(late).toBe(0);
  });
});

/** Everything the server sends until it closes the connection. */
function answerOf(s: Socket): Promise<string> {
  let got = '';
  s.on('data', (d: Buffer) => (got += d.toString('latin1')));
  return new Promise((resolve) => s.on('close', () => resolve(got)));
}

describe('slow clients over sockets', () => {
  let server: Listening | undefined;
  const seen: MockRequest[] = [];
  const stand = (req: MockRequest): MockResponse => {
    seen.push(req);
    return { status: 200, headers: { 'Content-Type': 'text/plain' }, body: `got ${req.body?.length ?? 0}`, safe: true };
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
    seen.length = 0;
  });

  it('headers that do not end in time get the 408 page and the connection is closed', async () => {
    server = await listen(stand, { port: 0, host: '127.0.0.1', timeouts: { ...clientTimeouts(600_000), headersMs: 200 } });
    const s = await openSocket(server.url);
    const answer = answerOf(s);
    s.write('GET /wp-json/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const got = await answer;
    expect(got).toMatch(/^HTTP\/1\.1 408 /);
    expect(got).toContain('<title>408 Request Timeout</title>');
    // A connection that sends nothing at all is cut the same way.
    const silent = await openSocket(server.url);
    expect(await answerOf(silent)).toMatch(/^HTTP\/1\.1 408 /);
    expect(seen).toHaveLength(0);
  });

  it("a connection left idle after its answer is closed after idleMs (Apache's KeepAliveTimeout, 5 s by default)", async () => {
    expect(clientTimeouts().idleMs).toBe(5000);
    expect(clientTimeouts(1234).idleMs).toBe(5000);
    server = await listen(stand, { port: 0, host: '127.0.0.1', timeouts: { ...clientTimeouts(600_000), idleMs: 200 } });
    const s = await openSocket(server.url);
    const answer = answerOf(s);
    s.write('GET /wp-json/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    // Kept alive after the answer (no Connection: close), then closed by the server with nothing more sent: within 50
    // times idleMs, where the old 65 s would not be.
    let timer: NodeJS.Timeout | undefined;
    const got = await Promise.race([answer, new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still open after 10 s'), 10_000)))]);
    clearTimeout(timer);
    expect(got).toMatch(/^HTTP\/1\.1 200 /);
    expect(got).not.toMatch(/\r\nConnection: close\r\n/i);
    expect(got).toMatch(/\r\nConnection: keep-alive\r\n/i);
    expect(got.endsWith('got 0')).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('a body that stops coming gets the 408 page, closed, and never runs', async () => {
    server = await listen(stand, { port: 0, host: '127.0.0.1', timeouts: { ...clientTimeouts(600_000), bodyMs: 200 } });
    const s = await openSocket(server.url);
    const answer = answerOf(s);
    s.write('POST /wp-json/cal/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":');
    const got = await answer;
    expect(got).toMatch(/^HTTP\/1\.1 408 /);
    expect(got).toMatch(/\r\nConnection: close\r\n/i);
    expect(got).toContain('<title>408 Request Timeout</title>');
    expect(seen).toHaveLength(0);
  });

  it('a body that keeps coming at the rate is read whole, though it takes many times the first time', async () => {
    // 200 ms, then a second more per 100 bytes; the client sends 200 bytes every 20 ms, 40 times (4 times 200 ms at least).
    server = await listen(stand, { port: 0, host: '127.0.0.1', timeouts: { ...clientTimeouts(600_000), bodyMs: 200, bodyMinBytesPerSecond: 100 } });
    const s = await openSocket(server.url);
    const answer = answerOf(s);
    const total = 40 * 200;
    s.write(`POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${total}\r\nConnection: close\r\n\r\n`);
    for (let i = 0; i < 40; i++) {
      s.write(Buffer.alloc(200, 0x61));
      await new Promise((r) => setTimeout(r, 20));
    }
    const got = await answer;
    expect(got).toMatch(/^HTTP\/1\.1 200 /);
    expect(got.endsWith(`got ${total}`)).toBe(true);
    expect(seen).toHaveLength(1);
  });
});
