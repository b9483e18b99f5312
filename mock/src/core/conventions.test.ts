// WordPress's wire conventions, each checked against what the reference WordPress 6.1.9 answered (the sample
// number is given; expectations are transcribed from the samples, with the contract's routes in place of wp/v2).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { call, freshMock, headerOrder, ORIGIN } from '../testing/harness.ts';

let mock: Mock;
beforeEach(async () => {
  mock = await freshMock();
});

const API = `${ORIGIN}/wp-json/`;

describe('parameter errors (samples 09-18, 39, 55, 59, 63, 67, 69)', () => {
  it('per_page=0 and per_page=101: rest_out_of_bounds with inclusive bounds (09, 10)', () => {
    for (const v of ['0', '101']) {
      const res = call(mock, 'GET', `/wp-json/cal/v1/events?per_page=${v}`);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): per_page',
        data: {
          status: 400,
          params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
          details: { per_page: { code: 'rest_out_of_bounds', message: 'per_page must be between 1 (inclusive) and 100 (inclusive)', data: null } },
        },
      });
      expect(res.headers.Allow).toBe('GET, POST');
    }
  });

  it('per_page=abc: rest_invalid_type with data.param (11)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=abc');
    expect(res.json).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: {
        status: 400,
        params: { per_page: 'per_page is not of type integer.' },
        details: { per_page: { code: 'rest_invalid_type', message: 'per_page is not of type integer.', data: { param: 'per_page' } } },
      },
    });
  });

  it('page=0: greater than or equal to 1 (12)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?page=0');
    expect(res.json.data.params).toEqual({ page: 'page must be greater than or equal to 1' });
    expect(res.json.data.details.page).toEqual({ code: 'rest_out_of_bounds', message: 'page must be greater than or equal to 1', data: null });
  });

  it('an enum value outside the list: rest_not_in_enum, data null (13)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?orderby=bogus');
    expect(res.json.data.details.orderby).toEqual({
      code: 'rest_not_in_enum',
      message: 'orderby is not one of date, event_date, title, menu_order, and modified.',
      data: null,
    });
  });

  it('array-of-enum item: status[0] is not one of ... (15)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?status[]=bogus');
    expect(res.json.data.params).toEqual({ status: 'status[0] is not one of publish, pending, draft, future, and private.' });
    expect(res.json.data.details.status.code).toBe('rest_not_in_enum');
  });

  it('two invalid params in different passes: only the first pass is reported (18)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=abc&order=sideways');
    expect(res.json.message).toBe('Invalid parameter(s): per_page');
    expect(Object.keys(res.json.data.params)).toEqual(['per_page']);
  });

  it('a missing required arg: rest_missing_callback_param with a list (39)', () => {
    const res = call(mock, 'POST', '/wp-json/cal/events/v1/categories', { body: {} });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
  });

  it('malformed JSON: rest_invalid_json with PHP json_last_error (55)', () => {
    const res = call(mock, 'POST', '/wp-json/cal/v1/events', { body: '{"title": "broken",', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' } });
  });

  it('a JSON string for an integer is coerced; a non-numeric one is rest_invalid_type (58, 59)', () => {
    const okRes = call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'coerce int', author: '1', featured_media: '0' } });
    expect(okRes.status).toBe(201);
    expect(okRes.json.author).toBe(1);
    const bad = call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'bad int', author: 'abc' } });
    expect(bad.json.data.details.author).toEqual({ code: 'rest_invalid_type', message: 'author is not of type integer.', data: { param: 'author' } });
  });

  it('booleans: "true", "1", "false" accepted, "yes" rejected (60-64)', () => {
    for (const [v, want] of [['true', true], ['1', true], ['false', false]] as const) {
      const res = call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: `bool ${v}`, featured: v } });
      expect(res.status).toBe(201);
      expect(res.json.featured).toBe(want);
    }
    const bad = call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'bool yes', featured: 'yes' } });
    expect(bad.json.data.params).toEqual({ featured: 'featured is not of type boolean.' });
    const q = call(mock, 'GET', '/wp-json/cal/v1/events?featured=false&per_page=2&_fields=id,featured');
    expect(q.status).toBe(200);
    expect(q.json.every((e: { featured: boolean }) => e.featured === false)).toBe(true);
  });

  it('arrays: comma list and PHP brackets; an invalid item is named with its index (65-67)', () => {
    const csv = call(mock, 'GET', '/wp-json/cal/events/v1/events?include=92,95&_fields=id');
    const brackets = call(mock, 'GET', '/wp-json/cal/events/v1/events?include[]=92&include[]=95&_fields=id');
    expect(csv.status).toBe(200);
    expect(csv.json).toEqual(brackets.json);
    const bad = call(mock, 'GET', '/wp-json/cal/events/v1/events?include=1,abc');
    expect(bad.json.data.details.include).toEqual({ code: 'rest_invalid_type', message: 'include[1] is not of type integer.', data: { param: 'include[1]' } });
  });

  it('unknown parameters are ignored', () => {
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1&no_such_param=whatever').status).toBe(200);
  });

  it('a form-encoded body reads like a JSON body (56)', () => {
    const res = call(mock, 'POST', '/wp-json/cal/v1/events', { body: 'title=Form+post&status=publish&tags[]=28', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(201);
    expect(res.json.title.raw).toBe('Form post');
    expect(res.json.tags).toEqual([28]);
  });

  it('a multipart body (FormData) is read as PHP fills $_POST: fields with brackets, files left out', async () => {
    const form = new FormData();
    form.append('title', "Form's \"data\"");
    form.append('status', 'publish');
    form.append('tags[]', '28');
    form.append('featured_media', new Blob(['not a field'], { type: 'image/png' }), 'photo.png');
    const req = new Request('http://x/', { method: 'POST', body: form });
    const body = await req.text();
    const res = call(mock, 'POST', '/wp-json/cal/v1/events', { body, headers: { 'content-type': req.headers.get('content-type')! } });
    expect(res.status).toBe(201);
    expect(res.json.title.raw).toBe('Form\'s "data"');
    expect(res.json.tags).toEqual([28]);
    expect(res.json.featured_media).toBe(0);
    // Only a POST fills $_POST: the same body under PUT is no parameters at all, as in PHP.
    const put = call(mock, 'PUT', `/wp-json/cal/v1/events/${res.json.id}`, { body, headers: { 'content-type': req.headers.get('content-type')! } });
    expect(put.json.title.raw).toBe('Form\'s "data"');
  });
});

describe('items and pages (samples 05-08, 23, 32-38)', () => {
  it('an unknown ID is 404 rest_post_invalid_id without Allow (23)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events/999999');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
    expect(res.headers.Allow).toBeUndefined();
  });

  it('pagination headers and Link rel=prev/next rebuilt from the query (05-07)', () => {
    const total = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=2').headers['X-WP-Total'];
    const pages = Math.ceil(Number(total) / 2);
    const first = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=2&page=1');
    expect(first.headers.Link).toBe(`<${API}cal/v1/events?per_page=2&page=2>; rel="next"`);
    expect(first.headers['X-WP-TotalPages']).toBe(String(pages));
    const mid = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=2&page=2');
    expect(mid.headers.Link).toBe(`<${API}cal/v1/events?per_page=2&page=1>; rel="prev", <${API}cal/v1/events?per_page=2&page=3>; rel="next"`);
    const last = call(mock, 'GET', `/wp-json/cal/v1/events?per_page=2&page=${pages}`);
    expect(last.headers.Link).toBe(`<${API}cal/v1/events?per_page=2&page=${pages - 1}>; rel="prev"`);
    expect(headerOrder(first)).toEqual([
      'X-Robots-Tag', 'Link', 'X-Content-Type-Options', 'Access-Control-Expose-Headers', 'Access-Control-Allow-Headers',
      'X-WP-Total', 'X-WP-TotalPages', 'Allow', 'Vary', 'Content-Type',
    ]);
    expect(first.headers['Access-Control-Expose-Headers']).toBe('X-WP-Total, X-WP-TotalPages, Link');
    expect(first.headers['Access-Control-Allow-Headers']).toBe('Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type');
    expect(first.headers['Content-Type']).toBe('application/json; charset=UTF-8');
  });

  it('a page past the last one is 400 rest_post_invalid_page_number (08)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=2&page=999');
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: 'rest_post_invalid_page_number', message: 'The page number requested is larger than the number of pages available.', data: { status: 400 } });
    expect(res.headers.Link).toBe(`<${API}>; rel="https://api.w.org/"`);
  });

  it('create 201 + Location, PUT and PATCH 200, DELETE trash, again 410, force {deleted, previous}, then 404 (32-38)', () => {
    const created = call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'Created via REST', content: 'Hello', status: 'publish' } });
    expect(created.status).toBe(201);
    const id = created.json.id as number;
    expect(created.headers.Location).toBe(`${API}cal/v1/events/${id}`);
    expect(call(mock, 'PUT', `/wp-json/cal/v1/events/${id}`, { body: { title: 'Updated via PUT' } }).json.title.raw).toBe('Updated via PUT');
    expect(call(mock, 'PATCH', `/wp-json/cal/v1/events/${id}`, { body: { excerpt: 'Patched excerpt' } }).json.excerpt.raw).toBe('Patched excerpt');
    const trashed = call(mock, 'DELETE', `/wp-json/cal/v1/events/${id}`);
    expect(trashed.status).toBe(200);
    expect(trashed.json.status).toBe('trash');
    expect(trashed.json.slug).toBe('created-via-rest__trashed');
    const again = call(mock, 'DELETE', `/wp-json/cal/v1/events/${id}`);
    expect(again.status).toBe(410);
    expect(again.json).toEqual({ code: 'rest_already_trashed', message: 'The post has already been deleted.', data: { status: 410 } });
    const forced = call(mock, 'DELETE', `/wp-json/cal/v1/events/${id}?force=true`);
    expect(forced.status).toBe(200);
    expect(forced.json.deleted).toBe(true);
    expect(forced.json.previous.id).toBe(id);
    // get_data(): no links (sample 37).
    expect(forced.json.previous._links).toBeUndefined();
    expect(forced.headers.Allow).toBeUndefined();
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${id}`).status).toBe(404);
  });
});

describe('global parameters (samples 41-50)', () => {
  it('X-HTTP-Method-Override and ?_method on a POST run as DELETE (41, 42)', () => {
    const byHeader = call(mock, 'POST', '/wp-json/cal/v1/events/92', { headers: { 'x-http-method-override': 'DELETE' } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.json.status).toBe('trash');
    const byQuery = call(mock, 'POST', '/wp-json/cal/v1/events/95?_method=DELETE&force=true');
    expect(byQuery.json.deleted).toBe(true);
  });

  it('_envelope: 200 with {body, status, headers}; an error too, with headers [] (43, 44)', () => {
    const okRes = call(mock, 'GET', '/wp-json/cal/v1/events/92?_envelope');
    expect(okRes.status).toBe(200);
    expect(okRes.json.status).toBe(200);
    expect(okRes.json.body.id).toBe(92);
    expect(okRes.json.headers.Allow).toBe('GET, PUT, PATCH, DELETE');
    const err = call(mock, 'GET', '/wp-json/cal/v1/events/999999?_envelope');
    expect(err.status).toBe(200);
    expect(err.json).toEqual({ body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } }, status: 404, headers: [] });
  });

  it('_fields keeps the links the API root and the namespace indexes always add (help, up)', () => {
    expect(call(mock, 'GET', '/wp-json/?_fields=name').json).toEqual({ name: expect.any(String), _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] } });
    expect(call(mock, 'GET', '/wp-json/oembed/1.0?_fields=namespace').json).toEqual({ namespace: 'oembed/1.0', _links: { up: [{ href: `${API}` }] } });
  });

  it('_envelope of a list keeps X-WP-Total and X-WP-TotalPages as integers, as the controllers set them', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1&_envelope&_fields=id');
    const plain = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1&_fields=id');
    expect(res.json.headers['X-WP-Total']).toBe(Number(plain.headers['X-WP-Total']));
    expect(res.json.headers['X-WP-TotalPages']).toBe(Number(plain.headers['X-WP-TotalPages']));
    expect(res.json.headers['X-WP-Total']).toBeGreaterThan(1);
    expect(res.body).toMatch(/"X-WP-Total":[0-9]+,"X-WP-TotalPages":[0-9]+,"Link":/);
  });

  it('_fields: top level and dot notation, _links only when asked (45, 46)', () => {
    expect(call(mock, 'GET', '/wp-json/cal/v1/events/92?_fields=id,title').json).toEqual({ id: 92, title: { rendered: expect.any(String) } });
    const nested = call(mock, 'GET', '/wp-json/cal/v1/events?_fields=id,title.rendered,_links&per_page=1');
    expect(Object.keys(nested.json[0])).toEqual(['id', 'title', '_links']);
    expect(nested.headers.Link).toBe(`<${API}cal/v1/events?_fields=id%2Ctitle.rendered%2C_links&per_page=1&page=2>; rel="next"`);
  });

  it('_embed puts venues and organizers inside events; _embed=venue limits it (47, 48)', () => {
    const event = call(mock, 'GET', '/wp-json/cal/v1/events/92').json;
    expect(event.venues.length).toBeGreaterThan(0);
    const embedded = call(mock, 'GET', '/wp-json/cal/v1/events/92?_embed').json._embedded;
    expect(embedded.venue.map((v: { id: number }) => v.id)).toEqual(event.venues);
    expect(embedded.venue[0].type).toBe('cal_venue');
    if (event.organizers.length) expect(embedded.organizer.map((o: { id: number }) => o.id)).toEqual(event.organizers);
    const only = call(mock, 'GET', '/wp-json/cal/v1/events/92?_embed=venue&_fields=id,_links,_embedded').json;
    expect(Object.keys(only._embedded)).toEqual(['venue']);
  });

  it('_jsonp wraps the body as JavaScript (49); _pretty indents by four spaces (50)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?_jsonp=cb&per_page=1&_fields=id');
    expect(res.headers['Content-Type']).toBe('application/javascript; charset=UTF-8');
    expect(res.body).toMatch(/^\/\*\*\/cb\(\[\{"id":\d+\}\]\)$/);
    const bad = call(mock, 'GET', '/wp-json/cal/v1/events?_jsonp=alert(1)');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' });
    // The Content-Type follows a truthy _jsonp before the callback is checked (a live WordPress 6.1.9 does the same).
    expect(bad.headers['Content-Type']).toBe('application/javascript; charset=UTF-8');
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?_jsonp=0&per_page=1').headers['Content-Type']).toBe('application/json; charset=UTF-8');
    const pretty = call(mock, 'GET', '/wp-json/cal/v1/events?_pretty&per_page=1&_fields=id');
    expect(pretty.body).toMatch(/^\[\n {4}\{\n {8}"id": \d+\n {4}\}\n\]$/);
  });

  it('bodies are encoded as PHP json_encode() does: \\/ and \\uXXXX', () => {
    const res = call(mock, 'GET', '/uk/wp-json/cal/events/v1/categories?per_page=1');
    expect(res.body).toContain('\\/');
    expect(res.body).toMatch(/\\u04[0-9a-f]{2}/);
  });
});

describe('OPTIONS, CORS, HEAD (samples 20, 51-54, 71)', () => {
  it('OPTIONS answers the route description with args and schema, and Allow (51, 71)', () => {
    const res = call(mock, 'OPTIONS', '/wp-json/batch/v1');
    expect(res.status).toBe(200);
    expect(res.headers.Allow).toBe('POST');
    expect(res.json.namespace).toBe('');
    expect(res.json.methods).toEqual(['POST']);
    const args = res.json.endpoints[0].args;
    expect(args.validation).toEqual({ type: 'string', default: 'normal', enum: ['require-all-validate', 'normal'], required: false });
    expect(args.requests.maxItems).toBe(25);
    expect(args.requests.required).toBe(true);
    expect(args.requests.items.properties.path).toEqual({ type: 'string', required: true });
    expect(res.json._links).toEqual({ self: [{ href: `${API}batch/v1` }] });
    const events = call(mock, 'OPTIONS', '/wp-json/cal/v1/events');
    expect(events.json.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['POST']]);
    expect(events.json.schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
    expect(Object.keys(events.json.schema.properties)).toContain('start_date');
    expect(call(mock, 'OPTIONS', '/wp-json/nothing/here').json).toEqual([]);
  });

  it('CORS: the Origin is echoed with methods and credentials, Vary: Origin (52)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1&_fields=id', { headers: { origin: 'http://localhost:3000' } });
    expect(res.headers['Access-Control-Allow-Origin']).toBe('http://localhost:3000');
    expect(res.headers['Access-Control-Allow-Methods']).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
    expect(res.headers['Access-Control-Allow-Credentials']).toBe('true');
    expect(res.headers.Vary).toBe('Origin');
  });

  it('a preflight is 200 with the CORS headers and the route description (53)', () => {
    const res = call(mock, 'OPTIONS', '/wp-json/cal/v1/events', {
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['Access-Control-Allow-Origin']).toBe('http://localhost:3000');
    expect(res.json.namespace).toBe('cal/v1');
  });

  it('without Origin only an anonymous GET gets Vary: Origin (01, 20, 30)', () => {
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1').headers.Vary).toBe('Origin');
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'x' } }).headers.Vary).toBeUndefined();
  });

  it('HEAD answers the headers of GET and no body (20)', () => {
    const res = call(mock, 'HEAD', '/wp-json/cal/v1/events?per_page=2');
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['X-WP-Total']).toBeDefined();
    expect(res.headers.Link).toBe(`<${API}cal/v1/events?per_page=2&page=2>; rel="next"`);
  });

  it('?rest_route= answers like /wp-json/ and keeps rest_route in rebuilt links (02, 04, 26)', () => {
    const res = call(mock, 'GET', '/?rest_route=/cal/v1/events&per_page=1');
    expect(res.status).toBe(200);
    expect(res.headers.Link).toBe(`<${API}cal/v1/events?rest_route=%2Fcal%2Fv1%2Fevents&per_page=1&page=2>; rel="next"`);
    expect(call(mock, 'GET', '/?rest_route=/').json.namespaces).toContain('cal/v1');
  });
});

describe('single records (sample 22)', () => {
  it('a published record points at its page with Link rel=alternate; Allow is the route methods', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/events/92');
    expect(res.headers.Link).toBe(`<${res.json.link}>; rel="alternate"; type=text/html`);
    expect(res.headers.Allow).toBe('GET, PUT, PATCH, DELETE');
    expect(headerOrder(res)).toEqual(['X-Robots-Tag', 'Link', 'X-Content-Type-Options', 'Access-Control-Expose-Headers', 'Access-Control-Allow-Headers', 'Allow', 'Vary', 'Content-Type']);
  });
});

describe('response cache', () => {
  it('serves repeated reads from cache only until the next write', () => {
    const before = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1');
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1').headers['X-WP-Total']).toBe(before.headers['X-WP-Total']);
    call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'Fresh' } });
    expect(Number(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1').headers['X-WP-Total'])).toBe(Number(before.headers['X-WP-Total']) + 1);
    // a GET that writes (?_method=DELETE) is never answered from the cache
    expect(call(mock, 'GET', '/wp-json/cal/v1/events/95?_method=DELETE').status).toBe(200);
    expect(call(mock, 'GET', '/wp-json/cal/v1/events/95?_method=DELETE').status).toBe(410);
  });

  it('keys on who asks: credentials and Origin change the answer', () => {
    const anon = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1');
    const cors = call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { headers: { origin: 'http://localhost:3000' } });
    expect(anon.headers['Access-Control-Allow-Origin']).toBeUndefined();
    expect(cors.headers['Access-Control-Allow-Origin']).toBe('http://localhost:3000');
  });
});
