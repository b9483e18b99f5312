// The MSW adapter in a frontend-style test: msw/node's setupServer intercepts fetch, no port is opened, and the
// mock keeps its state across requests.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { freshMock } from '../testing/harness.ts';
import { wordpressHandlers } from './msw.ts';

// Port 9 (discard) on loopback: if interception ever failed, the request would be refused locally.
const SITE = 'http://127.0.0.1:9';
let mock: Mock;
const server = setupServer();

beforeAll(async () => {
  mock = await freshMock();
  server.use(...wordpressHandlers(mock, { origin: SITE }));
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

describe('MSW adapter', () => {
  it('answers REST requests with WordPress headers and bodies', async () => {
    const res = await fetch(`${SITE}/wp-json/cal/v1/events?per_page=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-wp-total')).toMatch(/^\d+$/);
    expect(res.headers.get('link')).toBe(`<${SITE}/wp-json/cal/v1/events?per_page=2&page=2>; rel="next"`);
    const body = (await res.json()) as { id: number }[];
    expect(body).toHaveLength(2);
  });

  it('is stateful: a created event is then listed and readable through the other namespace', async () => {
    const created = await fetch(`${SITE}/wp-json/cal/v1/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'MSW Evening', start_date: '2026-12-12 19:00:00', end_date: '2026-12-12 21:00:00' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect(created.headers.get('location')).toBe(`${SITE}/wp-json/cal/v1/events/${id}`);
    const legacy = await fetch(`${SITE}/wp-json/cal/events/v1/events/${id}`);
    expect(((await legacy.json()) as { title: string }).title).toBe('MSW Evening');
  });

  it('serves errors, ?rest_route=, the language root and the reset route', async () => {
    const missing = await fetch(`${SITE}/?rest_route=/cal/v1/events/999999`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
    const uk = await fetch(`${SITE}/uk/wp-json/cal/v1/events?per_page=1`);
    expect(uk.status).toBe(200);
    const reset = await fetch(`${SITE}/__mock/reset`, { method: 'POST' });
    expect(((await reset.json()) as { reset: boolean }).reset).toBe(true);
  });

  it('HEAD and 207 pass through', async () => {
    const head = await fetch(`${SITE}/wp-json/cal/v1/events?per_page=1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const batch = await fetch(`${SITE}/wp-json/batch/v1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests: [{ path: '/cal/v1/events', body: { title: 'in batch' } }] }) });
    expect(batch.status).toBe(207);
  });
});
