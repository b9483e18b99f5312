// batch/v1 against samples 72-82: 207 with one {body, status, headers} per item, at most 25 items, the method
// enum, require-all-validate versus normal, items run in order against the same state.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { call, freshMock, ORIGIN } from '../testing/harness.ts';

let mock: Mock;
beforeEach(async () => {
  mock = await freshMock();
});

const batch = (body: unknown) => call(mock, 'POST', '/wp-json/batch/v1', { body });
const create = (title: string, extra: Record<string, unknown> = {}) => ({ method: 'POST', path: '/cal/v1/events', body: { title, ...extra } });

describe('batch/v1', () => {
  it('two creates: 207, each item enveloped with 201 and Location (72)', () => {
    const res = batch({ requests: [create('Batch A', { status: 'publish' }), create('Batch B', { status: 'draft' })] });
    expect(res.status).toBe(207);
    expect(res.headers.Allow).toBe('POST');
    expect(res.json.responses).toHaveLength(2);
    const [a, b] = res.json.responses;
    expect(a.status).toBe(201);
    expect(a.body.title.raw).toBe('Batch A');
    expect(a.headers).toEqual({ Location: `${ORIGIN}/wp-json/cal/v1/events/${a.body.id}`, Allow: 'GET, POST' });
    expect(b.body.status).toBe('draft');
    expect(b.body.id).toBe(a.body.id + 1);
  });

  it('25 requests are accepted, 26 rejected as a whole with rest_too_many_items (74)', () => {
    const ok25 = batch({ requests: Array.from({ length: 25 }, (_, i) => create(`ok ${i}`)) });
    expect(ok25.status).toBe(207);
    expect(ok25.json.responses.every((r: { status: number }) => r.status === 201)).toBe(true);
    const over = batch({ requests: Array.from({ length: 26 }, (_, i) => create(`over ${i}`)) });
    expect(over.status).toBe(400);
    expect(over.json).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): requests',
      data: {
        status: 400,
        params: { requests: 'requests must contain at most 25 items.' },
        details: { requests: { code: 'rest_too_many_items', message: 'requests must contain at most 25 items.', data: null } },
      },
    });
  });

  it('require-all-validate with one invalid item: nothing runs, failed: validation (75)', () => {
    const before = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1').headers['X-WP-Total'];
    const res = batch({ validation: 'require-all-validate', requests: [create('valid item'), create('invalid item', { status: 'bogus' })] });
    expect(res.status).toBe(207);
    expect(res.json).toEqual({
      failed: 'validation',
      responses: [
        null,
        {
          body: {
            code: 'rest_invalid_param',
            message: 'Invalid parameter(s): status',
            data: {
              status: 400,
              params: { status: 'status is not one of publish, pending, draft, future, and private.' },
              details: { status: { code: 'rest_not_in_enum', message: 'status is not one of publish, pending, draft, future, and private.', data: null } },
            },
          },
          status: 400,
          headers: [],
        },
      ],
    });
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1').headers['X-WP-Total']).toBe(before);
  });

  it('normal validation: the valid item runs, the invalid one answers its error with Allow (76)', () => {
    const res = batch({ requests: [create('valid item (normal)'), create('invalid item', { status: 'bogus' })] });
    expect(res.json.responses[0].status).toBe(201);
    expect(res.json.responses[1]).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' }, headers: { Allow: 'GET, POST' } });
  });

  it('items run in order against the same state: create, update, trash, force-delete', () => {
    const first = batch({ requests: [create('Ordered')] }).json.responses[0].body.id as number;
    const res = batch({
      requests: [
        { method: 'PUT', path: `/cal/v1/events/${first}`, body: { title: 'Ordered (batch-updated)' } },
        { method: 'DELETE', path: `/cal/v1/events/${first}` },
        { method: 'DELETE', path: `/cal/v1/events/${first}` },
        { method: 'DELETE', path: `/cal/v1/events/${first}?force=true` },
        { method: 'PATCH', path: `/cal/v1/events/${first}`, body: { title: 'gone' } },
      ],
    });
    expect(res.json.responses.map((r: { status: number }) => r.status)).toEqual([200, 200, 410, 200, 404]);
    expect(res.json.responses[0].body.title.raw).toBe('Ordered (batch-updated)');
    expect(res.json.responses[3].body.deleted).toBe(true);
  });

  it('an item method outside POST/PUT/PATCH/DELETE is a 400 for the whole batch (77)', () => {
    const res = batch({ requests: [{ method: 'GET', path: '/cal/v1/events' }] });
    expect(res.status).toBe(400);
    expect(res.json.data.params).toEqual({ requests: 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.' });
  });

  it('a route that does not allow batching, and one that does not exist (78, 79)', () => {
    const res = batch({ requests: [{ method: 'POST', path: '/seo/v1/updateMode', body: { mode: 'easy' } }, { method: 'POST', path: '/cal/v1/nope' }] });
    expect(res.status).toBe(207);
    expect(res.json.responses[0]).toEqual({
      body: { code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.', data: { status: 400 } },
      status: 400,
      headers: { Allow: 'POST, PUT, PATCH' },
    });
    expect(res.json.responses[1]).toEqual({
      body: { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } },
      status: 404,
      headers: [],
    });
  });

  it('requests as a string, and requests missing (80, 81); GET /batch/v1 is no route (83)', () => {
    expect(batch({ requests: 'not-an-array' }).json.data.params).toEqual({ requests: 'requests[0] is not of type object.' });
    expect(batch({}).json).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): requests', data: { status: 400, params: ['requests'] } });
    expect(call(mock, 'GET', '/wp-json/batch/v1').status).toBe(404);
  });

  it("cal/v1 takes batch items; the legacy namespace's routes refuse them as The Events Calendar's do (rest_batch_not_allowed), and nothing of theirs runs", () => {
    const before = call(mock, 'GET', '/wp-json/cal/events/v1/tags?search=batch-tag').json.tags?.length ?? 0;
    const res = batch({ requests: [create('via cal/v1'), { path: '/cal/events/v1/events', body: { title: 'via legacy', start_date: '2026-12-24 18:00:00', end_date: '2026-12-24 20:00:00' } }, { path: '/cal/events/v1/tags', body: { name: 'batch-tag' } }] });
    expect(res.json.responses.map((r: { status: number }) => r.status)).toEqual([201, 400, 400]);
    expect(res.json.responses[1].body).toEqual({ code: 'rest_batch_not_allowed', message: 'The requested route does not support batch requests.', data: { status: 400 } });
    expect(call(mock, 'GET', '/wp-json/cal/events/v1/tags?search=batch-tag').json.tags?.length ?? 0).toBe(before);
    const index = call(mock, 'GET', '/wp-json/').json.routes;
    expect(index['/cal/v1/venues'].endpoints.map((e: { allow_batch?: unknown }) => e.allow_batch)).toEqual([{ v1: true }, { v1: true }]);
    expect(index['/cal/events/v1/venues'].endpoints.map((e: { allow_batch?: unknown }) => e.allow_batch)).toEqual([undefined, undefined]);
  });

  it('runs its items in its own environment: sent to /uk/wp-json/, a create is filed in Ukrainian as a single create there is', () => {
    const single = call(mock, 'POST', '/uk/wp-json/cal/v1/events', { body: { title: 'Мовний тест', status: 'publish' } });
    const res = call(mock, 'POST', '/uk/wp-json/batch/v1', { body: { requests: [create('Мовний тест у пакеті', { status: 'publish' })] } });
    const item = res.json.responses[0];
    expect(item.status).toBe(201);
    expect(single.json.link).toMatch(/^http:\/\/127\.0\.0\.1:4010\/uk\/event\//);
    expect(item.body.link).toMatch(/^http:\/\/127\.0\.0\.1:4010\/uk\/event\//);
    expect(item.headers.Location).toBe(`${ORIGIN}/uk/wp-json/cal/v1/events/${item.body.id}`);
    const ids = (url: string) => call(mock, 'GET', url).json.map((e: { id: number }) => e.id);
    expect(ids('/uk/wp-json/cal/v1/events?search=%D0%BF%D0%B0%D0%BA%D0%B5%D1%82%D1%96&_fields=id')).toEqual([item.body.id]);
    expect(ids('/wp-json/cal/v1/events?search=%D0%BF%D0%B0%D0%BA%D0%B5%D1%82%D1%96&_fields=id')).toEqual([]);
  });

  it('an item path is the route as written: no trailing slash dropped, no rest_route or _method read from its query', () => {
    const id = batch({ requests: [create('Written as is')] }).json.responses[0].body.id as number;
    const res = batch({
      requests: [
        { method: 'DELETE', path: `/cal/v1/events/${id}/` },
        { method: 'DELETE', path: `/cal/v1/events/${id}?_method=GET` },
        { method: 'DELETE', path: `/cal/v1/events/999999?rest_route=/cal/v1/events` },
        { method: 'DELETE', path: '///x' },
      ],
    });
    // Recorded on WordPress 6.1.9 with /wp/v2/posts/<id>: 404 rest_no_route, the delete, 404 rest_post_invalid_id.
    // `///x` is no URL to wp_parse_url(); WordPress itself then fails with a fatal error, the mock with the error
    // serve_batch_request_v1() means to give.
    expect(res.json.responses.map((r: { status: number; body: { code?: string } }) => [r.status, r.body.code])).toEqual([
      [404, 'rest_no_route'],
      [200, undefined],
      [404, 'rest_post_invalid_id'],
      [400, 'parse_path_failed'],
    ]);
  });
});
