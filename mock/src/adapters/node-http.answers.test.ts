// Answers in flight are bounded in bytes: a large answer goes out in pieces as its client takes them (node never
// buffers it whole beside its text), the bytes of answers held at once over all connections have a budget past which
// a read's answer is a 503 (a write's always goes), and a client that reads nothing is cut after a stall, giving its
// bytes back. A stand-in core answers bodies of a set size, so the test moves a few times LARGE bytes; raw sockets, so
// a client stops reading exactly where told (the kernel takes a few MiB of an unread answer, hence 16 MiB).
import type { Socket } from 'node:net';
import { openSocket } from '../testing/sockets.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockRequest, MockResponse } from '../core/types.ts';
import type { Client } from '../core/byte-budget.ts';
import { PIECE_CHARS, pieceEnd } from './answer-send.ts';
import { clientTimeouts } from './client-timeouts.ts';
import { listen, type Listening } from './node-http.ts';

const LARGE = 16 * 1024 * 1024;
const BUDGET = LARGE + LARGE / 2;
const text = 'a'.repeat(LARGE);

/** `/large` and `/small` answer LARGE and 100 bytes; `?write` marks the answer as a write's (not safe). */
function stand(req: MockRequest): MockResponse {
  const body = req.url.startsWith('/large') ? text : 'b'.repeat(100);
  return { status: 200, headers: { 'Content-Type': 'text/plain' }, body, ...(req.url.includes('write') ? {} : { safe: true as const }) };
}

/** A client that asks for `path` and reads nothing of the answer. */
async function unread(url: string, path: string, headers = ''): Promise<Socket> {
  const s = await openSocket(url);
  s.pause();
  s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
  return s;
}

/** A whole GET read to its end: the status and the body's length. */
async function get(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; length: number; body: string; retryAfter: string | null }> {
  const r = await fetch(url + path, { headers });
  const body = await r.text();
  return { status: r.status, length: body.length, body: body.slice(0, 400), retryAfter: r.headers.get('retry-after') };
}

/** Polls until `check` holds (at most `rounds` times, 20 ms apart): counted, not a wall-clock bound. */
async function until(check: () => boolean, rounds = 500): Promise<void> {
  for (let i = 0; i < rounds && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
}

describe('answers in flight', () => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a piece never ends between the halves of a surrogate pair, and the pieces make the whole', () => {
    const s = `${'x'.repeat(9)}\u{1F600}${'y'.repeat(5)}`;
    const pieces: string[] = [];
    for (let at = 0; at < s.length; ) {
      const end = pieceEnd(s, at, 10);
      pieces.push(s.slice(at, end));
      at = end;
    }
    expect(pieces[0]).toBe('x'.repeat(9));
    expect(pieces.join('')).toBe(s);
    expect(pieces.every((p) => Buffer.from(p).toString() === p)).toBe(true);
  });

  it('an unread answer is not buffered whole by node; past the budget a read is a 503, a write still goes; a client that leaves gives its bytes back', async () => {
    let last: ServerResponse | undefined;
    server = await listen(stand, { port: 0, host: '127.0.0.1', maxAnswerBytesInFlight: BUDGET, timeouts: clientTimeouts(600_000) });
    server.server.on('request', (_req: IncomingMessage, res: ServerResponse) => (last = res));
    const holder = await unread(server.url, '/large');
    await until(() => last !== undefined);
    const res = last!;
    // Once the kernel's buffers are full, node keeps at most a piece or two of the rest (before: the whole answer).
    let written = -1;
    await until(() => {
      const now = res.socket?.bytesWritten ?? 0;
      const still = now === written;
      written = now;
      return still && now > 0;
    });
    expect(written).toBeLessThan(LARGE);
    expect(res.writableLength).toBeLessThanOrEqual(3 * PIECE_CHARS);

    const refused = await get(server.url, '/large?second');
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('1');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'mock_too_many_answer_bytes', data: { status: 503 } });
    // Small answers still fit beside it; a write's answer goes whatever the budget says.
    expect(await get(server.url, '/small')).toMatchObject({ status: 200, length: 100 });
    expect(await get(server.url, '/large?write')).toMatchObject({ status: 200, length: LARGE });

    holder.destroy();
    await until(() => res.destroyed);
    expect(await get(server.url, '/large?again')).toMatchObject({ status: 200, length: LARGE });
  });

  it('with the budget full, a small read still goes (a large one is the 503)', async () => {
    let last: ServerResponse | undefined;
    server = await listen(stand, { port: 0, host: '127.0.0.1', maxAnswerBytesInFlight: LARGE, timeouts: clientTimeouts(600_000) });
    server.server.on('request', (_req: IncomingMessage, res: ServerResponse) => (last = res));
    const holder = await unread(server.url, '/large');
    await until(() => last !== undefined);
    expect(await get(server.url, '/small')).toMatchObject({ status: 200, length: 100 });
    expect(await get(server.url, '/large?second')).toMatchObject({ status: 503 });
    holder.destroy();
  });

  it('an answer larger than the budget goes out when nothing else is held', async () => {
    server = await listen(stand, { port: 0, host: '127.0.0.1', maxAnswerBytesInFlight: 1024, timeouts: clientTimeouts(600_000) });
    expect(await get(server.url, '/large')).toMatchObject({ status: 200, length: LARGE });
  });

  it('a client that reads nothing of its answer for the stall time is cut, and its bytes are given back', async () => {
    server = await listen(stand, { port: 0, host: '127.0.0.1', maxAnswerBytesInFlight: BUDGET, timeouts: { ...clientTimeouts(600_000), sendStallMs: 200 } });
    let last: ServerResponse | undefined;
    server.server.on('request', (_req: IncomingMessage, res: ServerResponse) => (last = res));
    const holder = await unread(server.url, '/large');
    // The server closes it (before: held for as long as the client liked).
    await until(() => last?.destroyed === true);
    expect(await get(server.url, '/large?after')).toMatchObject({ status: 200, length: LARGE });
    holder.destroy();
  });

  it("clients without credentials fill only their half: a signed-in client's large read still goes", async () => {
    // `X-Test-Client` names a client, `X-Test-Signed-In` makes it one with valid credentials (the mock's clientOf
    // decides that from the Authorization header; every test connection comes from 127.0.0.1).
    const clientOf = (req: Pick<MockRequest, 'headers'>): Client => ({ key: req.headers['x-test-client'] ?? '', signedIn: req.headers['x-test-signed-in'] === '1' });
    let held = 0;
    server = await listen(stand, { port: 0, host: '127.0.0.1', maxAnswerBytesInFlight: 2 * LARGE, timeouts: clientTimeouts(600_000), clientOf });
    server.server.on('request', () => held++);
    const holder = await unread(server.url, '/large', 'X-Test-Client: a\r\n');
    await until(() => held === 1);
    // The anonymous pool (one LARGE) is taken by a's unread answer: b's large read is the 503...
    const refused = await get(server.url, '/large?b', { 'x-test-client': 'b' });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).message).toContain('clients without valid credentials hold at most');
    // ...a signed-in client's goes, and so do two at once.
    const signed = await Promise.all(['s1', 's2'].map((c) => get(server!.url, `/large?${c}`, { 'x-test-client': c, 'x-test-signed-in': '1' })));
    expect(signed.map((r) => [r.status, r.length])).toEqual([[200, LARGE], [200, LARGE]]);
    holder.destroy();
  });
});
