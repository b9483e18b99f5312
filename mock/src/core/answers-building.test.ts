// The long answers being built at once (core/byte-budget.ts), through the mock: two long embedded lists asked for
// together within a budget smaller than both are answered once in full and once 503 (a WordPress-shaped error with
// Retry-After and the REST API's headers), and the budget is whole again afterwards; one alone is answered however
// long it is. Counted in characters, not timed.
import { describe, expect, it } from 'vitest';
import { call, freshMock } from '../testing/harness.ts';
import type { Mock } from '../assemble.ts';
import { LIST_TURN_CHARS } from '../../../contracts/wordpress/php/index.ts';

const URL = '/wp-json/cal/v1/events?per_page=20&search=Linked&_embed';
const BUDGET = 1024 * 1024;

/** 20 events each linking the same 100 organizers: an embedded list of about 2 MB, encoded in steps. */
async function linkedMock(): Promise<Mock> {
  const mock = await freshMock({ maxAnswerCharsBuilding: BUDGET });
  const orgs: number[] = [];
  for (let i = 0; i < 100; i++) orgs.push(call(mock, 'POST', '/wp-json/cal/v1/organizers', { body: { title: `Org ${i}`, status: 'publish' } }).json.id as number);
  for (let e = 0; e < 20; e++) {
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: `Linked ${e}`, status: 'publish', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', organizers: orgs } }).status).toBe(201);
  }
  return mock;
}

const get = (mock: Mock, n: number, extra = '') => Promise.resolve(mock.respond({ method: 'GET', url: `${URL}${extra}&n=${n}`, headers: { origin: 'http://app.example' } }));

describe('long answers being built at once', () => {
  it('one alone is answered whole, even past the budget', async () => {
    const mock = await linkedMock();
    const res = await get(mock, 0);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(BUDGET);
    expect(res.body.length).toBeGreaterThan(4 * LIST_TURN_CHARS);
  });

  it('two together past the budget: one whole, one 503 to try again, and then the budget is whole again', async () => {
    const mock = await linkedMock();
    const whole = call(mock, 'GET', URL).body;
    const [a, b] = await Promise.all([get(mock, 1), get(mock, 2)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 503]);
    const [ok, refused] = a.status === 200 ? [a, b] : [b, a];
    expect(ok.body).toBe(whole);
    expect(refused.headers['Retry-After']).toBe('1');
    // Sent as the REST API sends its answers: CORS for a page's own requests, JSON.
    expect(refused.headers['Access-Control-Allow-Origin']).toBe('http://app.example');
    expect(refused.headers['Content-Type']).toBe('application/json; charset=UTF-8');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'mock_too_many_answer_bytes', data: { status: 503 } });
    // Both from one client (in process, no address): past its own bound, a quarter of the budget.
    expect(JSON.parse(refused.body).message).toContain(`one client (an address, with its credentials) holds at most ${(BUDGET / 4).toLocaleString('en')} characters at once`);
    // Nothing kept: two more, one after the other, are both answered whole.
    expect((await get(mock, 3)).status).toBe(200);
    expect((await get(mock, 4)).status).toBe(200);
  });

  // `_envelope` wraps the list in an object, and `_pretty` prints it through the walk: both were built at once, beside
  // the budget (eight `?_embed&_envelope` at once: 1.9 GB; eight `&_pretty`, 122 MB each: 2.8 GB).
  it.each([['_envelope', '&_envelope'], ['_pretty', '&_pretty'], ['both', '&_envelope&_pretty']])('%s: the same, one whole and one 503', async (_, extra) => {
    const mock = await linkedMock();
    const whole = call(mock, 'GET', `${URL}${extra}`).body;
    expect(whole.length).toBeGreaterThan(BUDGET);
    const [a, b] = await Promise.all([get(mock, 1, extra), get(mock, 2, extra)]);
    expect([a.status, b.status].sort()).toEqual([200, 503]);
    const [ok, refused] = a.status === 200 ? [a, b] : [b, a];
    expect(ok.body).toBe(whole);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'mock_too_many_answer_bytes' });
    expect((await get(mock, 3, extra)).status).toBe(200);
  });

  it('within the budget, two together are both answered', async () => {
    const mock = await linkedMock();
    const small = `/wp-json/cal/v1/events?per_page=3&search=Linked&_embed`;
    const [a, b] = await Promise.all([0, 1].map((n) => Promise.resolve(mock.respond({ method: 'GET', url: `${small}&n=${n}`, headers: {} }))));
    expect([a!.status, b!.status]).toEqual([200, 200]);
  });
});
