// openapi-fetch typed by the installed package's site-contracts/types, against the installed mock over HTTP.
import { createMock, listen, type Listening } from 'site-contracts/mock';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { firstEvents, tooMany } from './src/typed-fetch.ts';

let server: Listening;
beforeAll(async () => {
  server = await listen((await createMock()).respond, { port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

it('lists events through openapi-fetch', async () => {
  const r = await firstEvents(server.url);
  expect(r.status).toBe(200);
  expect(r.error).toBeUndefined();
  expect(r.total).toBe('137');
  expect(r.data).toHaveLength(2);
});

it("gets WordPress's 400 for per_page=101 as openapi-fetch's error", async () => {
  const { error, response } = await tooMany(server.url);
  expect(response.status).toBe(400);
  expect(error).toMatchObject({ code: 'rest_invalid_param' });
});
