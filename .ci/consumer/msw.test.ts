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

it('takes the request validators from the cache, not compiled in each test file', async () => {
  // Ajv's standalone code of every operation's request validator ships in the package (dist/contract-cache/, written
  // by `npm run build`), keyed by the contract and the package's and Ajv's versions; where this project's Ajv is
  // another version, the first file writes them under node_modules/.cache/site-contracts/ and later files read them.
  const { readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const folders = (dir: string) => {
    try {
      return readdirSync(dir).filter((f) => f.startsWith('validators-')).map((f) => join(dir, f));
    } catch {
      return [];
    }
  };
  const shipped = folders('node_modules/site-contracts/dist/contract-cache');
  expect(shipped).toHaveLength(1);
  expect(readdirSync(shipped[0]!).filter((f) => f.endsWith('.cjs')).length).toBeGreaterThanOrEqual(204);
  expect((await fetch(`${origin}/wp-json/cal/v1/events?per_page=2`)).status).toBe(200);
  const entries = [...shipped, ...folders('node_modules/.cache/site-contracts')].flatMap((dir) => readdirSync(dir).filter((f) => f.startsWith('getCalV1Events-')));
  expect(entries.length).toBeGreaterThan(0);
});
