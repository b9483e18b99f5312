// A typed client without writing one: openapi-fetch driven by the contract's types (site-contracts/types) against
// the mock over HTTP, as the README shows it (the consumer stage runs the same from the installed package:
// .ci/consumer/src/typed-fetch.ts). The types type the call and the answer; the mock answers as WordPress.
import createClient from 'openapi-fetch';
import { createMock, listen, type Listening } from 'site-contracts/mock';
import type { paths } from 'site-contracts/types';
import { afterAll, beforeAll, expect, it } from 'vitest';

let server: Listening;
beforeAll(async () => {
  const mock = await createMock();
  server = await listen(mock.respond, { port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

it('lists events with typed query parameters and reads the typed answer', async () => {
  const wp = createClient<paths>({ baseUrl: `${server.url}/wp-json` });
  const { data, error, response } = await wp.GET('/cal/v1/events', { params: { query: { per_page: 2, order: 'ASC' } } });
  expect(error).toBeUndefined();
  expect(response.headers.get('x-wp-total')).toBe('137');
  expect(data).toHaveLength(2);
  expect(typeof data?.[0]?.id).toBe('number');
});

it("gets WordPress's error for per_page=101, typed as the error", async () => {
  const wp = createClient<paths>({ baseUrl: `${server.url}/wp-json` });
  const { data, error, response } = await wp.GET('/cal/v1/events', { params: { query: { per_page: 101 } } });
  expect(response.status).toBe(400);
  expect(data).toBeUndefined();
  expect(error).toMatchObject({ code: 'rest_invalid_param', data: { params: { per_page: expect.any(String) } } });
});

it('reads one event by its path parameter', async () => {
  const wp = createClient<paths>({ baseUrl: `${server.url}/wp-json` });
  const list = await wp.GET('/cal/v1/events', { params: { query: { per_page: 1 } } });
  const id = list.data![0]!.id;
  const one = await wp.GET('/cal/v1/events/{id}', { params: { path: { id: String(id) } } });
  expect(one.response.status).toBe(200);
  expect(one.data?.id).toBe(id);
});
