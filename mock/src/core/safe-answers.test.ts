// Which answers an adapter short of room may refuse (MockResponse.safe, answer-budget.ts): those of requests
// dispatched as GET, HEAD or OPTIONS, after WordPress's method overrides, and errors answered before dispatch; never a
// write's, whose refusal would invite a second write.
import { describe, expect, it } from 'vitest';
import { freshMock } from '../testing/harness.ts';

const EVENT = JSON.stringify({ title: 'Safe or not', status: 'publish', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' });

describe('safe answers', () => {
  it('reads are safe, writes are not, whatever the wire method; a read from the response memo stays safe', async () => {
    const mock = await freshMock();
    const ask = (method: string, url: string, body?: string) =>
      mock.handleNow({ method, url, headers: body ? { 'content-type': 'application/json' } : {}, ...(body ? { body } : {}) });
    const list = ask('GET', '/wp-json/cal/v1/events?per_page=1');
    expect([list.status, list.safe]).toEqual([200, true]);
    expect(ask('GET', '/wp-json/cal/v1/events?per_page=1').safe).toBe(true);
    expect(ask('HEAD', '/wp-json/cal/v1/events?per_page=1').safe).toBe(true);
    expect(ask('POST', '/wp-json/cal/v1/events?_method=GET&per_page=1').safe).toBe(true);
    const created = ask('POST', '/wp-json/cal/v1/events', EVENT);
    expect(created.status).toBe(201);
    expect(created.safe).toBeUndefined();
    const id = (JSON.parse(created.body) as { id: number }).id;
    const deleted = ask('GET', `/wp-json/cal/v1/events/${id}?_method=DELETE`);
    expect(deleted.status).toBe(200);
    expect(deleted.safe).toBeUndefined();
  });
});
