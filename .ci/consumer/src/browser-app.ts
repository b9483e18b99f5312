// A browser app's TypeScript, checked with no Node types at all (tsconfig.browser.json, types: [], DOM lib, no
// skipLibCheck): what it imports of the package must not reach a node: module's declarations.
import { setupWorker } from 'msw/browser';
import { createBrowserMock, type BrowserMockOptions } from 'site-contracts/mock/browser';
import { wordpressHandlers } from 'site-contracts/mock/msw';
import type { operations } from 'site-contracts/types';

export type EventsQuery = NonNullable<operations['getCalV1Events']['parameters']['query']>;

export async function startMock(contractYaml: string): Promise<void> {
  const options: BrowserMockOptions = { contract: contractYaml, latencyMs: 200 };
  const mock = await createBrowserMock(options);
  await setupWorker(...wordpressHandlers(mock)).start({ onUnhandledRequest: 'bypass' });
}

export async function firstEvents(query: EventsQuery): Promise<unknown> {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return (await fetch(`/wp-json/cal/v1/events?${params}`)).json();
}
