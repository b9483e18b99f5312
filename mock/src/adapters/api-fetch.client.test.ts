// The mock through WordPress's own JavaScript client, @wordpress/api-fetch, as a block editor or a headless
// frontend uses it against a real site: root URL middleware, `per_page=-1` followed through the Link headers
// (fetchAllMiddleware), PUT and DELETE sent as POST with X-HTTP-Method-Override (httpV1Middleware), `parse: false`
// for the pagination headers, `_locale=user` on every request, and WordPress errors thrown as {code, message, data}.
import * as apiFetchModule from '@wordpress/api-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { freshMock } from '../testing/harness.ts';
import { listen, type Listening } from './node-http.ts';

// The package ships ESM types without "type": "module", so under NodeNext TypeScript reads them as CommonJS and
// types `default` as the whole module; at run time the ESM build's `default` is the client itself.
const apiFetch = apiFetchModule.default as unknown as typeof apiFetchModule.default.default;

let mock: Mock;
let server: Listening;
/** Every request the client made, as the mock saw it. */
const seen: { method: string; url: string; override?: string }[] = [];

interface Event {
  id: number;
  title: { rendered: string; raw?: string };
  status: string;
}

beforeAll(async () => {
  mock = await freshMock();
  server = await listen(
    (req) => {
      seen.push({ method: req.method, url: req.url, ...(req.headers['x-http-method-override'] ? { override: req.headers['x-http-method-override'] } : {}) });
      return mock.handleNow(req);
    },
    { port: 0, host: '127.0.0.1' },
  );
  apiFetch.use(apiFetch.createRootURLMiddleware(`${server.url}/wp-json/`));
});
afterAll(async () => {
  await server.close();
});

describe('@wordpress/api-fetch against the mock', () => {
  it('reads a page, and the pagination headers with parse: false', async () => {
    const page = await apiFetch<Event[]>({ path: '/cal/v1/events?per_page=5' });
    expect(page).toHaveLength(5);
    const res = await apiFetch<Response, false>({ path: '/cal/v1/events?per_page=5', parse: false });
    const total = Number(res.headers.get('X-WP-Total'));
    expect(total).toBeGreaterThan(5);
    expect(Number(res.headers.get('X-WP-TotalPages'))).toBe(Math.ceil(total / 5));
    // The client adds _locale=user to every request; WordPress (and the mock) take it as a global parameter.
    expect(seen.at(-1)!.url).toContain('_locale=user');
  });

  it('per_page=-1 collects every page by following the Link headers (fetchAllMiddleware)', async () => {
    const before = seen.length;
    const total = Number((await apiFetch<Response, false>({ path: '/cal/v1/events?per_page=1', parse: false })).headers.get('X-WP-Total'));
    const all = await apiFetch<Event[]>({ path: '/cal/v1/events?per_page=-1' });
    expect(all).toHaveLength(total);
    expect(new Set(all.map((e) => e.id)).size).toBe(total);
    // per_page=100 pages, one request each: the client followed rel="next" (or counted X-WP-TotalPages).
    expect(seen.length - before - 1).toBe(Math.ceil(total / 100));
  });

  it('creates, updates with PUT and deletes, PUT and DELETE going out as POST with X-HTTP-Method-Override', async () => {
    const created = await apiFetch<Event>({ path: '/cal/v1/events', method: 'POST', data: { title: "Client's night", status: 'publish' } });
    expect(created.title.rendered).toBe('Client&#8217;s night');
    const updated = await apiFetch<Event>({ path: `/cal/v1/events/${created.id}`, method: 'PUT', data: { title: 'Renamed' } });
    expect(updated.title.raw).toBe('Renamed');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', override: 'PUT' });
    const trashed = await apiFetch<Event>({ path: `/cal/v1/events/${created.id}`, method: 'DELETE' });
    expect(trashed.status).toBe('trash');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', override: 'DELETE' });
    const again = await apiFetch<Event>({ path: `/cal/v1/events/${created.id}` });
    expect(again.status).toBe('trash');
  });

  it('throws WordPress errors as the client expects them: {code, message, data}', async () => {
    await expect(apiFetch({ path: '/cal/v1/events?per_page=500' })).rejects.toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { per_page: expect.any(String) } } });
    await expect(apiFetch({ path: '/cal/v1/events/999999' })).rejects.toMatchObject({ code: 'rest_post_invalid_id', data: { status: 404 } });
    await expect(apiFetch({ path: '/cal/v1/nothing' })).rejects.toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
    // A second DELETE of a trashed event: 410, which the client also throws.
    const created = await apiFetch<Event>({ path: '/cal/v1/events', method: 'POST', data: { title: 'Twice' } });
    await apiFetch({ path: `/cal/v1/events/${created.id}`, method: 'DELETE' });
    await expect(apiFetch({ path: `/cal/v1/events/${created.id}`, method: 'DELETE' })).rejects.toMatchObject({ code: 'rest_already_trashed', data: { status: 410 } });
  });

  it('batches through batch/v1 as the block editor does', async () => {
    const res = await apiFetch<{ responses: { status: number; body: Event }[] }>({
      path: '/batch/v1',
      method: 'POST',
      data: { validation: 'require-all-validate', requests: [{ method: 'POST', path: '/cal/v1/events', body: { title: 'One' } }, { method: 'POST', path: '/cal/v1/events', body: { title: 'Two' } }] },
    });
    expect(res.responses.map((r) => [r.status, r.body.title.raw])).toEqual([[201, 'One'], [201, 'Two']]);
  });
});
