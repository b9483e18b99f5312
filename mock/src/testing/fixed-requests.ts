// A fixed set of requests of every kind, for tests that hold two ways of building the mock to the same answers (a
// warm validator cache against a cold start, validator-cache.test.ts; the bundled entries against the sources,
// .ci/packaging/bundle.test.ts): each collection read plainly and with values refused at their edges, a create
// accepted and one refused, a read with _embed, a 25-request batch with one bad item and a 26-request one.
import type { Contract } from '../../../contracts/lib/loader.ts';

interface FixedRequest {
  method: string;
  url: string;
  body?: unknown;
}

export function fixedRequests(contract: Pick<Contract, 'operations'>): FixedRequest[] {
  const lists = contract.operations.filter((op) => op.method === 'GET' && !op.path.includes('{'));
  return [
    ...lists.flatMap((op) => [
      { method: 'GET', url: `/wp-json${op.path}` },
      { method: 'GET', url: `/wp-json${op.path}?per_page=101&page=0&order=sideways&context=nowhere` },
    ]),
    { method: 'POST', url: '/wp-json/cal/v1/events', body: { title: 'Warm', start_date: '2026-05-01 20:00:00', end_date: '2026-05-01 22:00:00' } },
    { method: 'POST', url: '/wp-json/cal/v1/events', body: { title: 'Warm', start_date: '2026-13-01 20:00:00', cost: ['x'] } },
    { method: 'GET', url: '/wp-json/cal/v1/events/92?_embed=1' },
    {
      method: 'POST',
      url: '/wp-json/batch/v1',
      body: { requests: Array.from({ length: 25 }, (_, i) => ({ method: 'POST', path: '/cal/v1/events', body: i === 3 ? { title: 'B', cost: ['x'] } : { title: `B${i}` } })) },
    },
    { method: 'POST', url: '/wp-json/batch/v1', body: { requests: Array.from({ length: 26 }, () => ({ method: 'POST', path: '/cal/v1/events', body: { title: 'B' } })) } },
  ];
}
