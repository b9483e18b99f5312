// A frontend team's TypeScript, checked strictly (tsconfig.node16.json, tsconfig.bundler.json; no skipLibCheck): the
// operation types from 'site-contracts/types' and every public entry point, as the README shows them.
import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { loadContractFile, type Contract } from 'site-contracts';
import { toUrl, validRequest, violatingRequest, type WireRequest } from 'site-contracts/arbitraries';
import { createMock, listen, type Listening, type Mock, type MockOptions } from 'site-contracts/mock';
import { createBrowserMock, type BrowserMockOptions } from 'site-contracts/mock/browser';
import { wordpressHandlers } from 'site-contracts/mock/msw';
import type { components, operations, paths } from 'site-contracts/types';

// Typed requests: what the events list takes, and what an event create sends.
type EventsQuery = NonNullable<operations['getCalV1Events']['parameters']['query']>;
type CreateEvent = NonNullable<operations['postCalV1Events']['requestBody']>['content']['application/json'];

export const firstPage: EventsQuery = { per_page: 10, page: 1, order: 'ASC' };
export const newEvent: CreateEvent = { title: 'Jazz night', start_date: '2026-05-01 20:00:00', end_date: '2026-05-01 23:00:00' };
export const eventsPath: keyof paths = '/cal/v1/events';
export type Schemas = keyof components['schemas'];

// @ts-expect-error: per_page is a number, not a string
export const wrongType: EventsQuery = { per_page: 'ten' };

export function eventsUrl(base: string, query: EventsQuery): string {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return `${base}/wp-json/cal/v1/events?${params}`;
}

const contract: Contract = loadContractFile();
export const samples: WireRequest[] = fc.sample(validRequest(contract, 'getCalV1Events'), 3);
export const tooMany = fc.sample(violatingRequest(contract, 'getCalV1Events', 'getCalV1Events query.per_page maximum'), 1)[0]?.expected.keyword;
export const sampleUrl: string = toUrl('https://events.example.org', '/wp-json', samples[0]!);

export async function serve(options: MockOptions = {}): Promise<{ mock: Mock; server: Listening }> {
  const mock = await createMock({ ...options, contract });
  const server = await listen(mock.respond, { port: 0, host: '127.0.0.1' });
  return { mock, server };
}

export async function inTests(): Promise<void> {
  const mock = await createMock();
  const server = setupServer(...wordpressHandlers(mock, { origin: 'https://events.example.org' }));
  server.listen({ onUnhandledRequest: 'error' });
  const res = await fetch(eventsUrl('https://events.example.org', firstPage));
  const events = (await res.json()) as { id: number; title: { rendered: string } }[];
  console.log(events.map((e) => e.title.rendered));
  server.close();
}

// The declarations are the package's real types, not `any`: each line below must be refused.
export async function misuse(): Promise<void> {
  // @ts-expect-error: createMock takes options, not a fixture directory
  await createMock('fixtures/');
  // @ts-expect-error: an operation is named by its operationId, a string
  validRequest(contract, 42);
  // @ts-expect-error: the MSW adapter needs a mock, not its options
  wordpressHandlers({ origin: 'https://events.example.org' });
}

export async function inBrowser(contractYaml: string): Promise<Mock> {
  const options: BrowserMockOptions = { contract: contractYaml, seed: 1 };
  return createBrowserMock(options);
}
