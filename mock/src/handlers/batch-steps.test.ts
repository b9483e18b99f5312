// A large batch does not hold everyone else: its long items run one per turn of the event loop (base/work.ts), so a
// small read from another client is answered between two items, not after all 25; short items share a turn, so small
// batches do not interleave item by item. Counted, not timed: the number of items a batch runs per turn, and how
// many had run when the other client's answer came.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Mock } from '../index.ts';
import { call, freshMock } from '../testing/harness.ts';
import { listen, type Listening } from '../adapters/node-http.ts';
import { ITEM_TURN_CHARS, textChars } from './batch.ts';

const ITEMS = 25;
const content = '<p>Open-air cinema &amp; talks -- "late" shows...</p>\n'.repeat(3000);
const batchBody = (tag: string) => JSON.stringify({ requests: Array.from({ length: ITEMS }, (_, i) => ({ method: 'POST', path: '/cal/v1/events', body: { title: `${tag} ${i}`, content } })) });
const created = (mock: Mock, tag: string) => mock.store.events.values().filter((e) => e.title.startsWith(`${tag} `)).length;

let mock: Mock;
let server: Listening;
beforeAll(async () => {
  mock = await freshMock();
  server = await listen((req) => mock.respond(req), { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server.close();
});

describe('a large batch runs in steps', () => {
  it('at most one item per turn of the event loop; the answer is the same as run at once', async () => {
    const perTurn: number[] = [];
    const pending = mock.respond({ method: 'POST', url: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: batchBody('steps') });
    expect(pending).toBeInstanceOf(Promise);
    // Nothing has run yet in this turn: validation only.
    expect(created(mock, 'steps')).toBe(0);
    let done = false;
    void (pending as Promise<unknown>).then(() => (done = true));
    let last = 0;
    while (!done) {
      await new Promise((r) => setImmediate(r));
      const now = created(mock, 'steps');
      perTurn.push(now - last);
      last = now;
    }
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(1);
    expect(created(mock, 'steps')).toBe(ITEMS);
    const res = await pending;
    expect(res.status).toBe(207);
    expect((JSON.parse(res.body) as { responses: { status: number }[] }).responses.map((r) => r.status)).toEqual(Array(ITEMS).fill(201));
    // handleNow() runs the same steps through at once: same shape of answer.
    const now = call(mock, 'POST', '/wp-json/batch/v1', { body: batchBody('at-once'), headers: { 'content-type': 'application/json' } });
    expect(now.json.responses.map((r: { status: number }) => r.status)).toEqual(Array(ITEMS).fill(201));
  });

  it('short items share turns: a batch of 25 small creates runs in one turn after validation', async () => {
    const small = JSON.stringify({ requests: Array.from({ length: ITEMS }, (_, i) => ({ method: 'POST', path: '/cal/v1/events', body: { title: `small ${i}` } })) });
    const pending = mock.respond({ method: 'POST', url: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: small });
    expect(created(mock, 'small')).toBe(0);
    let done = false;
    void (pending as Promise<unknown>).then(() => (done = true));
    let turns = 0;
    while (!done) {
      await new Promise((r) => setImmediate(r));
      turns++;
    }
    expect(created(mock, 'small')).toBe(ITEMS);
    // One turn for the items (and one for the promise to settle), where a turn per item took 25.
    expect(turns).toBeLessThanOrEqual(2);
  });

  it('weighs an item by the characters of its text, keys included', () => {
    expect(textChars({ title: 'abc', tags: ['de', 1, null, { x: 'f' }] })).toBe('title'.length + 3 + 'tags'.length + 2 + 'x'.length + 1);
    expect(textChars(undefined)).toBe(0);
    expect(textChars({ content })).toBeGreaterThan(ITEM_TURN_CHARS);
  });

  it('over HTTP: a small read sent while a batch runs is answered before the batch has run all its items', async () => {
    const batch = fetch(`${server.url}/wp-json/batch/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: batchBody('http') });
    // Wait until the batch has started running items.
    while (created(mock, 'http') === 0) await new Promise((r) => setTimeout(r, 5));
    const read = await fetch(`${server.url}/wp-json/cal/v1/venues?per_page=1`);
    expect(read.status).toBe(200);
    const ranBeforeRead = created(mock, 'http');
    expect(ranBeforeRead).toBeLessThan(ITEMS);
    expect((await batch).status).toBe(207);
    expect(created(mock, 'http')).toBe(ITEMS);
  });

  it("the answer is encoded item by item: no one step stringifies more than an item's answer (a small read waited behind 16 MB at once)", async () => {
    const body = batchBody('encoded');
    const lengths: number[] = [];
    const stringify = JSON.stringify;
    const spy = vi.spyOn(JSON, 'stringify').mockImplementation(function (this: JSON, ...args: Parameters<typeof JSON.stringify>) {
      const out = stringify.apply(this, args);
      if (typeof out === 'string') lengths.push(out.length);
      return out;
    } as typeof JSON.stringify);
    let res;
    try {
      res = await mock.respond({ method: 'POST', url: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body });
    } finally {
      spy.mockRestore();
    }
    const answer = JSON.parse(res.body) as { responses: { status: number }[] };
    expect(answer.responses.map((r) => r.status)).toEqual(Array(ITEMS).fill(201));
    // Each item's answer holds its content twice (raw and rendered); the whole answer holds it 50 times.
    const item = res.body.length / ITEMS;
    expect(Math.max(...lengths)).toBeLessThan(1.5 * item);
  });
});
