// Every operation of the contract is routed under the three API-root styles, and what WordPress answers for an
// unknown route or a method the route lacks: 404 rest_no_route, never 405 (samples 24-29, 83).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Mock } from '../index.ts';
import { call, freshMock, sharedContract } from '../testing/harness.ts';

const NO_ROUTE = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };

/** A concrete path for an operation's template, with values its path patterns accept. */
export function samplePath(op: Operation): string {
  const values: Record<string, string> = { id: '5', slug: 'sample', slider: 'home-hero', import_id: 'imp_ad7de042e170', jobId: '100' };
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (op.path.includes('/stream/')) return '1,2';
    return values[name] ?? 'x';
  });
}

let mock: Mock;
beforeAll(async () => {
  mock = await freshMock();
});

describe('every operation is routed', () => {
  const ops = sharedContract().operations;
  it('has all 204 operations', () => {
    expect(ops).toHaveLength(204);
  });
  const styles: [string, (path: string) => string][] = [
    ['/wp-json', (p) => `/wp-json${p === '/' ? '/' : p}`],
    ['/uk/wp-json', (p) => `/uk/wp-json${p === '/' ? '/' : p}`],
    ['?rest_route=', (p) => `/?rest_route=${p}`],
  ];
  for (const [style, url] of styles) {
    it(`under ${style}`, () => {
      const misses: string[] = [];
      for (const op of ops) {
        const res = call(mock, op.method, url(samplePath(op)), op.bodyMediaTypes.length ? { body: {} } : {});
        if (res.status >= 500 || res.json?.code === 'rest_no_route') misses.push(`${op.method} ${op.path} → ${res.status} ${res.json?.code ?? ''}`);
      }
      expect(misses).toEqual([]);
    });
  }
});

describe('no route', () => {
  it('unknown route, unknown namespace, non-matching id pattern: 404 rest_no_route (samples 24, 25, 27)', () => {
    for (const url of ['/wp-json/cal/v1/nope', '/wp-json/nope/v1', '/wp-json/cal/v1/events/abc', '/?rest_route=/nope']) {
      const res = call(mock, 'GET', url);
      expect(res.status, url).toBe(404);
      expect(res.json).toEqual(NO_ROUTE);
      expect(res.headers.Allow).toBeUndefined();
    }
  });

  it('a method the route lacks is 404 rest_no_route, not 405 (samples 28, 29, 83)', () => {
    for (const [method, url] of [['DELETE', '/wp-json/cal/v1/events'], ['PATCH', '/wp-json/cal/events/v1/categories'], ['GET', '/wp-json/batch/v1'], ['POST', '/wp-json/cal/v1/events/1']]) {
      const res = call(mock, method!, url!, { body: {} });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.json).toEqual(NO_ROUTE);
    }
  });

  it('routes match case-insensitively and without a trailing slash, as WordPress does', () => {
    expect(call(mock, 'GET', '/wp-json/CAL/V1/Events/?per_page=1').status).toBe(200);
  });

  it('a non-REST path is not a JSON API answer', () => {
    const res = call(mock, 'GET', '/some/page/');
    expect(res.status).toBe(404);
    expect(res.headers['Content-Type']).toMatch(/^text\/html/);
  });
});
