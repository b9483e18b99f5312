// A long list is encoded in steps: 100 events each embedding 500 organizers is a 49 MB answer, and encoding it at
// once held every other client 3 s. Counted, not timed: the turns the answer takes and that a small read sent
// meanwhile is answered before it; the stepped encoding is the whole one (a property over any JSON list).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wpJsonEncode } from '../../../../contracts/wordpress/php/index.ts';
import { call, freshMock } from '../../testing/harness.ts';
import { runNow } from '../work.ts';
import { encodeAnswer, LIST_TURN_CHARS } from './respond.ts';

describe('encodeAnswer()', () => {
  it('is wpJsonEncode() of the value, a list in steps or not', () => {
    const list = fc.array(fc.jsonValue(), { maxLength: 40 });
    fc.assert(fc.property(list, fc.boolean(), (v, pretty) => runNow(encodeAnswer(v, pretty)) === wpJsonEncode(v, { pretty })), { numRuns: 500 });
    // Long enough to take steps: items with text past LIST_TURN_CHARS, non-ASCII and slashes included.
    const long = Array.from({ length: 40 }, (_, i) => ({ id: i, text: `é/${'x'.repeat(LIST_TURN_CHARS / 8)}😀`, list: [i, null, true, 1.5] }));
    const stepped = encodeAnswer(long, false);
    expect(typeof stepped).not.toBe('string');
    expect(runNow(stepped)).toBe(wpJsonEncode(long));
    expect(encodeAnswer([{ a: 1 }], false)).toBe('[{"a":1}]');
  });
});

describe('a long embedded list', () => {
  it('is answered in turns of the event loop, and a small read sent after it is answered before it', async () => {
    const mock = await freshMock();
    const orgs: number[] = [];
    for (let i = 0; i < 200; i++) orgs.push(call(mock, 'POST', '/wp-json/cal/v1/organizers', { body: { title: `Org ${i}`, status: 'publish' } }).json.id as number);
    for (let e = 0; e < 50; e++) {
      expect(call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: `Linked ${e}`, status: 'publish', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', organizers: orgs } }).status).toBe(201);
    }
    const url = '/wp-json/cal/v1/events?per_page=50&search=Linked&_embed';
    const order: string[] = [];
    const big = Promise.resolve(mock.respond({ method: 'GET', url, headers: {} })).then((r) => (order.push('big'), r));
    const small = Promise.resolve(mock.respond({ method: 'GET', url: '/wp-json/cal/v1/events/109?_fields=id', headers: {} })).then((r) => (order.push('small'), r));
    let turns = 0;
    let done = false;
    void big.then(() => (done = true));
    while (!done) {
      await new Promise((r) => setImmediate(r));
      turns++;
    }
    const res = await big;
    expect((await small).status).toBe(200);
    expect(order).toEqual(['small', 'big']);
    expect(res.body.length).toBeGreaterThan(20 * LIST_TURN_CHARS);
    expect(turns).toBeGreaterThan(10);
    // The same bytes as answered at once.
    expect(res.body).toBe(call(mock, 'GET', url).body);
  }, 120_000);
});
