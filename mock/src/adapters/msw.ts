// MSW (Mock Service Worker) adapter: the same stateful mock, in-process, for a frontend's own vitest or browser
// tests. No port: MSW intercepts fetch/XMLHttpRequest and hands REST requests to the mock's core.
//
//   import { setupServer } from 'msw/node';
//   import { createMock } from 'site-contracts/mock';
//   import { wordpressHandlers } from 'site-contracts/mock/msw';
//   const mock = await createMock();
//   const server = setupServer(...wordpressHandlers(mock, { origin: 'https://events.example.org' }));
//
// Only requests to the REST API (`/wp-json/...`, `/<lang>/wp-json/...`, `/?rest_route=...`) and to the mock's
// control routes (`/__mock/...`) are answered; anything else falls through to other handlers or the network.
// Links in the answers are built on the mock's `siteUrl` when it has one, else on the `origin` option, else on the
// intercepted request's origin (the app's own fetches: no Host header is involved).
import { http, HttpResponse } from 'msw';
// From assemble.ts, not index.ts: the declarations a browser project reads from here must not reach node:http.
import type { Mock } from '../assemble.ts';

export interface MswOptions {
  /** Only intercept requests to this origin (`https://events.example.org`); default: any origin. */
  origin?: string;
}

const REST_PATH = /^(?:\/[a-z]{2})?\/wp-json(?:\/|$)|^\/__mock(?:\/|$)/;

function isMockUrl(url: URL): boolean {
  return REST_PATH.test(url.pathname) || ((url.pathname === '/' || url.pathname === '/index.php' || /^\/[a-z]{2}\/?$/.test(url.pathname)) && url.searchParams.has('rest_route'));
}

export function wordpressHandlers(mock: Pick<Mock, 'handle'>, options: MswOptions = {}) {
  const origin = options.origin?.replace(/\/+$/, '');
  return [
    http.all('*', async ({ request }) => {
      const url = new URL(request.url);
      if (origin !== undefined && url.origin !== origin) return undefined;
      if (!isMockUrl(url)) return undefined;
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      headers.host ??= url.host;
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
      const res = await mock.handle({
        method: request.method,
        url: url.pathname + url.search,
        headers,
        origin: url.origin,
        ...(body && body.length > 0 ? { body } : {}),
      });
      const noBody = res.status === 204 || res.status === 304 || request.method === 'HEAD' || res.body === '';
      return new HttpResponse(noBody ? null : res.body, { status: res.status, headers: res.headers });
    }),
  ];
}
