// Held answers (`Prefer: latency=`) are bounded, fairly: at most `maxHeldAnswers` for signed-in clients together,
// half of that for clients without credentials together, and half of its pool for one client (byte-budget.ts); past
// a bound a 503 at once and the request does not run; a held answer whose client leaves is dropped and its place
// given back; a client without credentials may ask for at most ANONYMOUS_MAX_LATENCY_MS; one anonymous client holding
// every place it may does not stop an administrator's reads. Over a real socket on 127.0.0.1.
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { call, freshMock } from '../testing/harness.ts';
import { listen, type Listening } from '../adapters/node-http.ts';
import { ANONYMOUS_MAX_LATENCY_MS } from './held.ts';

const MAX = 20;
/** One anonymous client's bound: half of the anonymous pool, itself half of MAX. */
const ONE_ANONYMOUS = 5;
let mock: Mock;
let server: Listening;

beforeAll(async () => {
  mock = await freshMock({ maxHeldAnswers: MAX, auth: true });
  server = await listen((req) => mock.respond(req), { port: 0, host: '127.0.0.1', clientOf: (req) => mock.clientOf(req) });
});
afterAll(async () => {
  await server.close();
});

/** A request left waiting for its held answer; `abort()` is its client going away. */
function hold(path: string, latency: number, url = server.url, headers: Record<string, string> = {}): { req: ClientRequest; done: Promise<number> } {
  const req = httpRequest(`${url}${path}`, { headers: { prefer: `latency=${latency}`, ...headers }, agent: false });
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

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: unknown, url = server.url) {
  const res = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json: (await res.json()) as { code?: string; message?: string; data?: { status: number } } };
}

const basic = (c: { username: string; password: string }) => `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;

describe('held answers', () => {
  it(`one anonymous client holds at most ${ONE_ANONYMOUS} at once: its next is a 503 at once and does not run; a client that leaves gives its place back`, async () => {
    const held = Array.from({ length: ONE_ANONYMOUS }, () => hold('/wp-json/cal/v1/events?per_page=1', 20_000));
    // Wait until all of them are held (the mock answers the next one 503 only once they are).
    let over = await send('POST', '/wp-json/cal/v1/venues', { prefer: 'latency=1' }, { title: 'Never made' });
    for (let i = 0; over.status !== 503 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      over = await send('GET', '/wp-json/', { prefer: 'latency=1' });
    }
    const version = mock.store.version;
    over = await send('POST', '/wp-json/cal/v1/venues', { prefer: 'latency=1' }, { title: 'Never made' });
    expect(over.status).toBe(503);
    expect(over.retryAfter).toBe('1');
    expect(over.json).toEqual({
      code: 'mock_too_many_held',
      message: `The mock holds delayed answers (Prefer: latency, --latency) within bounds: one client (an address, with its credentials) holds at most ${ONE_ANONYMOUS} answers at once, and this one holds that much already. This request did not run. Try again.`,
      data: { status: 503 },
    });
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
    const next = Array.from({ length: ONE_ANONYMOUS }, () => hold('/wp-json/', 50));
    expect(await Promise.all(next.map((h) => h.done))).toEqual(Array(ONE_ANONYMOUS).fill(200));
  });

  it('anonymous clients from several addresses share half of the places; signed-in clients have theirs', () => {
    // In process the adapter's address is the request's `client`: four addresses, each holding what it may.
    const m = mock;
    const ask = (client: string | undefined, auth?: string) =>
      m.respond({ method: 'GET', url: '/wp-json/', origin: 'http://127.0.0.1:4010', headers: { host: '127.0.0.1:4010', prefer: 'latency=20000', ...(auth ? { authorization: auth } : {}) }, ...(client ? { client } : {}) }) as { status: number; body: string; release?: () => void };
    const answers = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].flatMap((a) => Array.from({ length: ONE_ANONYMOUS }, () => ask(a)));
    const statuses = answers.map((a) => a.status);
    // The anonymous pool is MAX / 2: two addresses fill it, the third gets nothing.
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX / 2);
    expect(statuses.slice(0, 2 * ONE_ANONYMOUS)).toEqual(Array(2 * ONE_ANONYMOUS).fill(200));
    const refused = answers.at(-1)!;
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).message).toContain(`clients without valid credentials hold at most ${MAX / 2} answers at once together (${ONE_ANONYMOUS} answers each); signed-in clients have ${MAX} answers of their own`);
    // An administrator from the third address is a client of the other pool: up to half of it.
    const admin = basic(m.credentials()!);
    const signed = Array.from({ length: MAX / 2 + 1 }, () => ask('10.0.0.3', admin));
    expect(signed.map((a) => a.status)).toEqual([...Array(MAX / 2).fill(200), 503]);
    for (const a of [...answers, ...signed]) a.release?.();
  });
});

describe('one anonymous client holding every place it can, on a mock started with --auth --latency 200', () => {
  it("does not stop an administrator's 20 reads, and is still refused its own next one", async () => {
    // The mock's defaults (200 held answers), as `npm run mock -- --auth --latency 200` starts it.
    const m = await freshMock({ auth: true, latencyMs: 200 });
    const s = await listen((req) => m.respond(req), { port: 0, host: '127.0.0.1', clientOf: (req) => m.clientOf(req) });
    try {
      const hostile = Array.from({ length: 200 }, () => hold('/wp-json/cal/v1/events?per_page=1', 30_000, s.url));
      // Its first 50 are held (half of the anonymous half of 200); the rest were answered 503 at once.
      const early = await Promise.race([Promise.all(hostile.slice(50).map((h) => h.done)), new Promise<undefined>((r) => setTimeout(r, 20_000, undefined))]);
      expect(early).toEqual(Array(150).fill(503));
      const admin = basic(m.credentials()!);
      const reads = await Promise.all(Array.from({ length: 20 }, (_, i) => send('GET', `/wp-json/cal/v1/events?per_page=1&page=${i + 1}`, { authorization: admin }, undefined, s.url)));
      expect(reads.map((r) => r.status)).toEqual(Array(20).fill(200));
      // The bound still holds for the anonymous client: its next request is refused, as before, with Retry-After.
      const more = await send('GET', '/wp-json/cal/v1/events?per_page=1', { prefer: 'latency=1000' }, undefined, s.url);
      expect(more.status).toBe(503);
      expect(more.retryAfter).toBe('1');
      expect(more.json.code).toBe('mock_too_many_held');
      for (const h of hostile) h.req.destroy();
    } finally {
      await s.close();
    }
  });
});

describe('the latency a client may ask for', () => {
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
