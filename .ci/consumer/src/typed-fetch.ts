// The README's typed client: openapi-fetch driven by site-contracts/types, nothing hand-written. Type-checked with
// the rest (tsconfig.node16.json, tsconfig.bundler.json) and run against the mock by typed-fetch.test.ts.
import createClient from 'openapi-fetch';
import type { paths } from 'site-contracts/types';

export function wordpress(baseUrl: string) {
  return createClient<paths>({ baseUrl: `${baseUrl}/wp-json` });
}

export async function firstEvents(baseUrl: string) {
  const wp = wordpress(baseUrl);
  const { data, error, response } = await wp.GET('/cal/v1/events', { params: { query: { per_page: 2, order: 'ASC' } } });
  return { data, error, total: response.headers.get('x-wp-total'), status: response.status };
}

export async function tooMany(baseUrl: string) {
  // @ts-expect-error: per_page is a number; the types refuse a string before the server would
  await wordpress(baseUrl).GET('/cal/v1/events', { params: { query: { per_page: 'all' } } });
  return wordpress(baseUrl).GET('/cal/v1/events', { params: { query: { per_page: 101 } } });
}
