// A long list is encoded in steps: 100 events each embedding 500 organizers is a 49 MB answer, and encoding it at
// once held every other client 3 s. Counted, not timed: the turns the answer takes and that a small read sent
// meanwhile is answered before it, while a short list is answered in the turn it was asked in. The encoder's steps
// against the whole encoding (a property over any list): contracts/wordpress/php/json.test.ts.
import { describe, expect, it } from 'vitest';
import { LIST_TURN_CHARS } from '../../../../contracts/wordpress/php/index.ts';
import { call, freshMock } from '../../testing/harness.ts';

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
    // A short list of the same records: answered in this turn, no step taken.
    const short = mock.respond({ method: 'GET', url: '/wp-json/cal/v1/events?per_page=5&search=Linked&_fields=id,title', headers: {} });
    expect(short).not.toBeInstanceOf(Promise);
    expect(JSON.parse((short as { body: string }).body)).toHaveLength(5);
  });
});
