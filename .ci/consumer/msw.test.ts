// The mock in a frontend team's vitest, through MSW, with no port: fetch() to the site's origin is answered by the
// installed package's mock, and what the test writes is there to read back.
import { setupServer } from 'msw/node';
import { createMock } from 'site-contracts/mock';
import { wordpressHandlers } from 'site-contracts/mock/msw';
import { afterAll, beforeAll, expect, it } from 'vitest';

const origin = 'https://events.example.org';
const mock = await createMock();
const server = setupServer(...wordpressHandlers(mock, { origin }));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('lists events with WordPress headers, and links on the origin', async () => {
  const res = await fetch(`${origin}/wp-json/cal/v1/events?per_page=3`);
  expect(res.status).toBe(200);
  expect(res.headers.get('x-wp-total')).toBe('137');
  expect(res.headers.get('link')).toContain(`<${origin}/wp-json/cal/v1/events?per_page=3&page=2>; rel="next"`);
  expect((await res.json()) as unknown[]).toHaveLength(3);
});

it('keeps what is written: created through cal/v1, read through cal/events/v1', async () => {
  const created = await fetch(`${origin}/wp-json/cal/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Consumer test', start_date: '2026-05-01 20:00:00', end_date: '2026-05-01 22:00:00' }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const read = await fetch(`${origin}/wp-json/cal/events/v1/events/${id}`);
  expect(read.status).toBe(200);
  expect(((await read.json()) as { title: string }).title).toBe('Consumer test');
});

it("refuses per_page=101 with WordPress's 400", async () => {
  const res = await fetch(`${origin}/wp-json/cal/v1/events?per_page=101`);
  expect(res.status).toBe(400);
  expect(((await res.json()) as { code: string }).code).toBe('rest_invalid_param');
});
