// Held answers (`Prefer: latency=`) are bounded: at most `maxHeldAnswers` at once, past it a 503 at once and the
// request does not run; a held answer whose client leaves is dropped and its place given back; a client without
// credentials may ask for at most ANONYMOUS_MAX_LATENCY_MS. Over a real socket on 127.0.0.1.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { call, freshMock } from '../testing/harness.ts';
import { listen, type Listening } from '../adapters/node-http.ts';
import { ANONYMOUS_MAX_LATENCY_MS } from './held.ts';

const MAX = 5;
let mock: Mock;
let server: Listening;

beforeAll(async () => {
  mock = await freshMock({ maxHeldAnswers: MAX, auth: true });
  server = await listen((req) => mock.respond(req), { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
});

/** A request left waiting for its held answer; `abort()` is its client going away. */
function hold(path: string, latency: number): { req: ClientRequest; done: Promise<number> } {
  const req = httpRequest(`${server.url}${path}`, { headers: { prefer: `latency=${latency}` } });
  const done = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(-1));
  });
  req.end();
  return { req, done };
}

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, json: (await res.json()) as { code?: string; message?: string; data?: { status: number } } };
}

describe('held answers', () => {
  it(`at most ${MAX} at once: the next is a 503 at once and does not run; a client that leaves gives its place back`, async () => {
    const held = Array.from({ length: MAX }, () => hold('/wp-json/cal/v1/events?per_page=1', 20_000));
    // Wait until all of them are held (the mock answers the next one 503 only once they are).
    let over = await send('POST', '/wp-json/cal/v1/venues', { prefer: 'latency=1' }, { title: 'Never made' });
    for (let i = 0; over.status !== 503 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      over = await send('GET', '/wp-json/', { prefer: 'latency=1' });
    }
    const version = mock.store.version;
    over = await send('POST', '/wp-json/cal/v1/venues', { prefer: 'latency=1' }, { title: 'Never made' });
    expect(over.status).toBe(503);
    expect(over.json).toEqual({ code: 'mock_too_many_held', message: `The mock holds at most ${MAX} delayed answers at once (Prefer: latency, --latency); this request did not run. Try again.`, data: { status: 503 } });
    expect(mock.store.version).toBe(version);
    // Answers that are not held are not bounded by it.
    expect((await send('GET', '/wp-json/cal/v1/events?per_page=1')).status).toBe(200);
    // The clients leave: their answers are dropped and the places given back, long before the 20 s are up.
    for (const h of held) h.req.destroy();
    let again = await send('GET', '/wp-json/', { prefer: 'latency=1' });
    for (let i = 0; again.status === 503 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      again = await send('GET', '/wp-json/', { prefer: 'latency=1' });
    }
    expect(again.status).toBe(200);
    // All of them at once again: every place came back.
    const next = Array.from({ length: MAX }, () => hold('/wp-json/', 50));
    expect(await Promise.all(next.map((h) => h.done))).toEqual(Array(MAX).fill(200));
  });

  it(`a client without credentials asks for at most ${ANONYMOUS_MAX_LATENCY_MS} ms; with an administrator's, up to 600000`, async () => {
    const m = await freshMock();
    const edge = call(m, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { prefer: `latency=${ANONYMOUS_MAX_LATENCY_MS}` } });
    expect(edge.status).toBe(200);
    expect(edge.delayMs).toBe(ANONYMOUS_MAX_LATENCY_MS);
    const over = call(m, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { prefer: `latency=${ANONYMOUS_MAX_LATENCY_MS + 1}` } });
    expect(over.status).toBe(400);
    expect(over.json.code).toBe('mock_invalid_prefer');
    expect(over.json.data.params.Prefer).toBe(`latency takes at most ${ANONYMOUS_MAX_LATENCY_MS} milliseconds without valid credentials (up to 600000 with them), got "${ANONYMOUS_MAX_LATENCY_MS + 1}"`);
    const admin = m.credentials()!;
    const long = call(m, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { prefer: 'latency=600000' }, auth: admin });
    expect(long.status).toBe(200);
    expect(long.delayMs).toBe(600000);
  });
});
