// The mock against a real WordPress, side by side, on the routes both serve (the API root, batch/v1, oEmbed):
// the same request to each, and the answers compared on what a client relies on (status, error code and message,
// the names in data.params and their detail codes, the answer's keys, and the wire headers WordPress sends).
// The recorded samples the mock was built from are a snapshot; this runs against a live WordPress so a difference
// shows up the day it appears. It needs one, so it runs only when SITE_CONTRACTS_WP_URL is set (CI's
// "mock-vs-wordpress" stage sets it after .ci/wordpress/setup.sh); without it the suite is skipped, visibly.
//
//   set -a; . /tmp/site-contracts-wp/creds.env; set +a
//   SITE_CONTRACTS_WP_URL=$WP_BASE_URL SITE_CONTRACTS_WP_AUTH="$WP_USER:$WP_APP_PASSWORD" \
//     SITE_CONTRACTS_WP_PERMALINK=$WP_SAMPLE_PERMALINK npx vitest run mock/test/wordpress.differential.test.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { listen, type Listening } from '../src/adapters/node-http.ts';
import type { Mock } from '../src/index.ts';
import { freshMock } from '../src/testing/harness.ts';

const WP = process.env.SITE_CONTRACTS_WP_URL?.replace(/\/+$/, '');
/** A published post's permalink on the WordPress side (setup.sh creates one and writes it to the creds file). */
const WP_PERMALINK = process.env.SITE_CONTRACTS_WP_PERMALINK;

// Said once, where a skipped count alone would leave a reader guessing: how to run them.
if (!WP) {
  console.warn(
    'mock-vs-wordpress: these tests skip: SITE_CONTRACTS_WP_URL is not set. They compare the mock with a live WordPress; ' +
      'start one with `bash .ci/wordpress/setup.sh` (root, Debian), then `set -a; . /tmp/site-contracts-wp/creds.env; set +a` and ' +
      'SITE_CONTRACTS_WP_URL=$WP_BASE_URL SITE_CONTRACTS_WP_AUTH="$WP_USER:$WP_APP_PASSWORD" npx vitest run mock/test/wordpress.differential.test.ts',
  );
}

// CI sets SITE_CONTRACTS_REQUIRE_WP=1: there a missing WordPress must fail the stage rather than skip it quietly.
describe.runIf(process.env.SITE_CONTRACTS_REQUIRE_WP === '1')('a WordPress to compare with (SITE_CONTRACTS_REQUIRE_WP=1)', () => {
  it('has SITE_CONTRACTS_WP_URL and SITE_CONTRACTS_WP_AUTH', () => {
    expect({ url: WP !== undefined, auth: process.env.SITE_CONTRACTS_WP_AUTH !== undefined }).toEqual({ url: true, auth: true });
  });
});

interface Sent {
  method: string;
  /** Path and query, from the site root. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

interface Seen {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const agent = new Agent({ connections: 4 });
afterAll(() => agent.close());

/** The mock over HTTP on 127.0.0.1 for one describe: started before its tests, closed after them. */
function mockOverHttp(options: Parameters<typeof freshMock>[0] = {}): { mock: Mock; url: string } {
  const live = { mock: undefined as unknown as Mock, url: '' };
  let server: Listening | undefined;
  beforeAll(async () => {
    live.mock = await freshMock(options);
    server = await listen(live.mock.handleNow, { port: 0, host: '127.0.0.1' });
    live.url = server.url;
  });
  afterAll(async () => {
    await server?.close();
  });
  return live;
}

async function send(base: string, r: Sent): Promise<Seen> {
  const res = await request(base + r.path, {
    method: r.method as 'GET',
    dispatcher: agent,
    headers: r.headers ?? {},
    ...(r.body !== undefined ? { body: r.body } : {}),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
  return { status: res.statusCode, headers, text };
}

/** Headers WordPress itself sets on REST answers (not Apache's Date/Server/Connection, not lengths). */
const COMPARED_HEADERS = [
  'allow', 'access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods',
  'access-control-allow-headers', 'access-control-expose-headers', 'vary', 'content-type', 'x-robots-tag',
  'x-content-type-options', 'x-wp-total', 'x-wp-totalpages', 'link', 'expires', 'cache-control',
];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * Keys of route args that differ on purpose: every route of this site takes `i18n_language` (core's do not), and
 * arg descriptions are the documents' wording, not WordPress's.
 */
const ARG_KEYS_NOT_COMPARED = new Set(['i18n_language']);
const ARG_FIELDS_NOT_COMPARED = new Set(['description']);

/**
 * What a client relies on in a body: for errors the code, message, status, param names and detail codes; inside a
 * route arg every value (type, enum, default, required...); elsewhere the key tree, since values are each site's own.
 */
function shapeOf(v: Json, depth = 0, parentKey = '', exact = false): unknown {
  if (Array.isArray(v)) return exact ? v.map((x) => shapeOf(x, depth + 1, '', true)) : v.length === 0 ? [] : [shapeOf(v[0]!, depth + 1)];
  if (v === null || typeof v !== 'object') return exact || v === null ? v : typeof v;
  if (typeof v.code === 'string' && typeof v.message === 'string' && 'data' in v) {
    const data = (v.data ?? {}) as { [k: string]: Json };
    const details = data.details as Record<string, { code: string }> | undefined;
    return {
      code: v.code, message: v.message, status: data.status ?? null,
      params: data.params && typeof data.params === 'object' ? Object.keys(data.params).sort() : null,
      details: details && !Array.isArray(details) ? Object.fromEntries(Object.entries(details).map(([k, d]) => [k, d.code])) : null,
    };
  }
  if (depth > 12) return 'object';
  let keys = Object.keys(v).sort();
  if (parentKey === 'args') keys = keys.filter((k) => !ARG_KEYS_NOT_COMPARED.has(k));
  const isArg = parentKey === '@arg';
  if (isArg) keys = keys.filter((k) => !ARG_FIELDS_NOT_COMPARED.has(k));
  return Object.fromEntries(keys.map((k) => [k, shapeOf(v[k]!, depth + 1, parentKey === 'args' ? '@arg' : k, exact || isArg)]));
}

/** An XML answer (oEmbed format=xml) by its element names in order: the texts are each site's own. */
function xmlShape(text: string): string {
  return (text.match(/<\/?[A-Za-z_][\w.-]*/g) ?? []).join(' ');
}

function comparable(seen: Seen, base: string, pick?: (body: Json) => Json): { status: number; headers: Record<string, string | null>; body: unknown } {
  const host = new URL(base).host;
  const headers: Record<string, string | null> = {};
  for (const h of COMPARED_HEADERS) headers[h] = seen.headers[h]?.split(host).join('HOST').split(encodeURIComponent(host)).join('HOST') ?? null;
  let body: unknown = seen.text === '' ? '' : 'non-JSON';
  try {
    if (seen.text !== '') {
      const parsed = JSON.parse(seen.text) as Json;
      body = shapeOf(pick && seen.status === 200 ? pick(parsed) : parsed);
    }
  } catch {
    body = seen.text.startsWith('<?xml') ? xmlShape(seen.text) : seen.text.replace(/^\/\*\*\/([A-Za-z_$.]+)\(.*\)$/s, '/**/$1(...)');
  }
  return { status: seen.status, headers, body };
}

// The comparison itself, without a WordPress: it must tell apart what a client would notice and nothing else.
describe('how two answers are compared', () => {
  const seen = (status: number, body: unknown, headers: Record<string, string> = {}): Seen => ({ status, headers, text: JSON.stringify(body) });
  const error = (code: string, params?: Record<string, string>) => ({ code, message: 'm', data: { status: 400, ...(params ? { params, details: Object.fromEntries(Object.keys(params).map((k) => [k, { code: 'rest_invalid_type', message: 'x', data: null }])) } : {}) } });
  it('sees a different error code, param name, status or WordPress header', () => {
    const a = comparable(seen(400, error('rest_invalid_param', { per_page: 'x' })), 'http://a');
    expect(comparable(seen(400, error('rest_invalid_param', { page: 'x' })), 'http://b')).not.toEqual(a);
    expect(comparable(seen(400, error('rest_missing_callback_param', { per_page: 'x' })), 'http://b')).not.toEqual(a);
    expect(comparable(seen(404, error('rest_invalid_param', { per_page: 'x' })), 'http://b')).not.toEqual(a);
    expect(comparable(seen(400, error('rest_invalid_param', { per_page: 'x' }), { allow: 'GET' }), 'http://b')).not.toEqual(a);
    expect(comparable(seen(200, { a: 1, b: 'x' }), 'http://b')).not.toEqual(comparable(seen(200, { a: 1 }), 'http://a'));
  });
  it('ignores what differs by nature: hosts, values, i18n_language and arg descriptions', () => {
    expect(comparable(seen(200, { a: 1 }, { link: '<http://a/wp-json/>; rel="x"' }), 'http://a')).toEqual(comparable(seen(200, { a: 2 }, { link: '<http://b/wp-json/>; rel="x"' }), 'http://b'));
    const url = { type: 'string', required: true };
    const wordpress = seen(200, { endpoints: [{ args: { url: { description: 'The URL.', ...url } } }] });
    const ours = seen(200, { endpoints: [{ args: { url, i18n_language: { type: 'string', enum: ['en', 'uk'] } } }] });
    expect(comparable(ours, 'http://b')).toEqual(comparable(wordpress, 'http://a'));
    // ...but not an arg's type.
    const otherType = seen(200, { endpoints: [{ args: { url: { ...url, type: 'integer' } } }] });
    expect(comparable(otherType, 'http://b')).not.toEqual(comparable(wordpress, 'http://a'));
  });
});

/** Both sides get the same request, with their own URL for "a page of this site" where one is needed. */
interface Case {
  name: string;
  build: (site: { base: string; permalink: string }) => Sent;
  /** Known differences, by dotted path in the comparable answer, with the reason; anything else must match. */
  ignore?: Record<string, string>;
  /** The part of a JSON answer both sides share (the root lists each site's own routes). */
  pick?: (body: Json) => Json;
}

/** The routes both sites serve, out of a root descriptor; `namespaces` as a yes/no for the shared ones. */
const SHARED_ROUTES = ['/batch/v1', '/oembed/1.0', '/oembed/1.0/embed', '/oembed/1.0/proxy'];
function sharedPartOfRoot(body: Json): Json {
  const root = body as { [k: string]: Json };
  const routes = (root.routes ?? {}) as { [k: string]: Json };
  return {
    ...root,
    namespaces: ['oembed/1.0', 'batch/v1'].map((n) => (root.namespaces as string[]).includes(n)),
    routes: Object.fromEntries(SHARED_ROUTES.map((r) => [r, routes[r] ?? null])),
  };
}

const ORIGIN = 'http://app.example.test';
const json = (v: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(v) });
const batch = (requests: unknown, extra: Record<string, unknown> = {}) => ({ method: 'POST', path: '/wp-json/batch/v1', ...json({ ...extra, requests }) });

/** Where the site this mock stands for differs from a fresh WordPress 6.1, on purpose. */
const ROOT_DIFFERENCES: Record<string, string> = {
  'body.gmt_offset': 'a number for a site with a named zone (the filter wp_timezone_override_offset), "0" for a fresh install without one',
  'body.page_for_posts': 'in the documents\' site descriptor (001); WordPress 6.1 does not send it',
  'body.page_on_front': 'in the documents\' site descriptor (001); WordPress 6.1 does not send it',
  'body.show_on_front': 'in the documents\' site descriptor (001); WordPress 6.1 does not send it',
};

const CASES: Case[] = [
  { name: 'the API root', build: () => ({ method: 'GET', path: '/wp-json/' }), pick: sharedPartOfRoot, ignore: ROOT_DIFFERENCES },
  { name: 'the API root through ?rest_route=/', build: () => ({ method: 'GET', path: '/?rest_route=/' }), pick: sharedPartOfRoot, ignore: ROOT_DIFFERENCES },
  { name: 'the API root, _fields=name,authentication', build: () => ({ method: 'GET', path: '/wp-json/?_fields=name,authentication' }) },
  { name: 'unknown route', build: () => ({ method: 'GET', path: '/wp-json/nothing/here' }) },
  { name: 'route in upper case', build: () => ({ method: 'GET', path: '/wp-json/OEMBED/1.0/EMBED' }) },
  { name: 'route with a trailing slash', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/embed/' }) },
  { name: 'namespace index with a trailing slash', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/' }) },
  { name: '?rest_route= with a trailing slash and upper case', build: () => ({ method: 'GET', path: '/?rest_route=/OEmbed/1.0/embed/' }) },
  { name: 'index.php?rest_route=', build: () => ({ method: 'GET', path: '/index.php?rest_route=/oembed/1.0/embed' }) },
  { name: 'double slashes in the route', build: () => ({ method: 'GET', path: '/wp-json//oembed//1.0/embed' }) },
  // A route is a regex as registered: the dot of oembed/1.0 takes any character (preg_match), so this is the embed route.
  { name: 'a dot in a route matches any character (oembed/1x0/embed)', build: () => ({ method: 'GET', path: '/wp-json/oembed/1x0/embed' }) },
  { name: 'unknown route through ?rest_route=', build: () => ({ method: 'GET', path: '/?rest_route=/nothing/here' }) },
  { name: 'a method the route lacks (GET batch/v1)', build: () => ({ method: 'GET', path: '/wp-json/batch/v1' }) },
  { name: 'a method the route lacks (DELETE oembed)', build: () => ({ method: 'DELETE', path: '/wp-json/oembed/1.0/embed?url=x' }) },
  { name: 'oEmbed embed without url', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/embed' }) },
  { name: 'oEmbed embed with an url of no page', build: ({ base }) => ({ method: 'GET', path: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${base}/no-such-page-anywhere/`)}` }) },
  { name: 'oEmbed embed with a foreign url', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/embed?url=https%3A%2F%2Fexample.org%2Fx' }) },
  { name: 'oEmbed embed of a page of the site', build: ({ permalink }) => ({ method: 'GET', path: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(permalink)}` }) },
  { name: 'oEmbed embed, maxwidth 300', build: ({ permalink }) => ({ method: 'GET', path: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(permalink)}&maxwidth=300` }) },
  { name: 'oEmbed embed, maxwidth abc', build: ({ permalink }) => ({ method: 'GET', path: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(permalink)}&maxwidth=abc` }) },
  { name: 'oEmbed embed, format xml', build: ({ permalink }) => ({ method: 'GET', path: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(permalink)}&format=xml` }) },
  { name: 'oEmbed proxy without credentials', build: ({ permalink }) => ({ method: 'GET', path: `/wp-json/oembed/1.0/proxy?url=${encodeURIComponent(permalink)}` }) },
  { name: 'oEmbed proxy without url or credentials', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/proxy' }) },
  { name: 'oEmbed proxy, bad format, no credentials', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/proxy?url=x&format=yaml' }) },
  { name: 'oEmbed namespace index', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0' }) },
  { name: 'oEmbed namespace index, _fields=namespace (the up link stays)', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0?_fields=namespace' }) },
  { name: 'OPTIONS batch/v1', build: () => ({ method: 'OPTIONS', path: '/wp-json/batch/v1' }) },
  { name: 'OPTIONS oembed embed', build: () => ({ method: 'OPTIONS', path: '/wp-json/oembed/1.0/embed' }) },
  { name: 'CORS: GET with an Origin', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/embed', headers: { origin: ORIGIN } }) },
  { name: 'CORS: Origin null', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/embed', headers: { origin: 'null' } }) },
  { name: 'CORS: an unknown route with an Origin', build: () => ({ method: 'GET', path: '/wp-json/nothing/here', headers: { origin: ORIGIN } }) },
  { name: 'CORS: preflight of an unknown route', build: () => ({ method: 'OPTIONS', path: '/wp-json/nothing/here', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } }) },
  { name: 'CORS: the root with an Origin and credentials', build: ({ base }) => ({ method: 'GET', path: '/wp-json/?_fields=name', headers: { origin: ORIGIN, cookie: 'x=1', referer: `${base}/` } }) },
  {
    name: 'CORS: preflight of a JSON POST with Authorization',
    build: () => ({ method: 'OPTIONS', path: '/wp-json/batch/v1', headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } }),
  },
  { name: 'batch without requests', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', ...json({}) }) },
  { name: 'batch with requests not a list', build: () => batch('x') },
  { name: 'batch, malformed JSON', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: '{"requests": [' }) },
  { name: 'batch of 26', build: () => batch(Array.from({ length: 26 }, () => ({ method: 'POST', path: '/nothing/here' }))) },
  { name: 'batch, JSON sent as text/plain (not read)', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ requests: [] }) }) },
  { name: 'batch, JSON body null', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: 'null' }) },
  { name: 'batch, JSON body a list', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: '[1,2]' }) },
  { name: 'batch, JSON body a string', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: '"requests"' }) },
  { name: 'batch, JSON with a byte-order mark', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: '\uFEFF{"requests":[]}' }) },
  { name: 'batch, JSON nested 600 deep', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: `{"requests":${'['.repeat(600)}${']'.repeat(600)}}` }) },
  { name: 'batch, JSON with invalid UTF-8', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/json; charset=utf-8' }, body: new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]) }) },
  { name: 'batch, JSON content type with charset and odd case', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'Application/JSON; charset=UTF-8' }, body: JSON.stringify({ requests: 'x' }) }) },
  { name: 'batch item with method GET', build: () => batch([{ method: 'GET', path: '/nothing/here' }]) },
  { name: 'batch item without a path', build: () => batch([{ method: 'POST' }]) },
  { name: 'batch item to an unknown route', build: () => batch([{ method: 'POST', path: '/nothing/here' }, { method: 'DELETE', path: '/nothing/else' }]) },
  { name: 'batch item to a route not batchable (oEmbed)', build: () => batch([{ method: 'POST', path: '/oembed/1.0/embed' }]) },
  { name: 'batch, require-all-validate, one item unknown', build: () => batch([{ method: 'POST', path: '/nothing/here' }], { validation: 'require-all-validate' }) },
  { name: 'batch, validation off the enum', build: () => batch([{ method: 'POST', path: '/nothing/here' }], { validation: 'sometimes' }) },
  { name: 'batch as a form body', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'requests[0][method]=POST&requests[0][path]=/nothing/here' }) },
  {
    name: 'batch as a multipart body (FormData)',
    build: () => ({
      method: 'POST',
      path: '/wp-json/batch/v1',
      headers: { 'content-type': 'multipart/form-data; boundary=----sc' },
      body: ['requests[0][method]', 'requests[0][path]'].map((n, i) => `------sc\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${['POST', '/nothing/here'][i]}\r\n`).join('') + '------sc--\r\n',
    }),
  },
  {
    name: 'batch as a multipart body with ?_method=PUT (PHP still fills $_POST; the route has no PUT)',
    build: () => ({
      method: 'POST',
      path: '/wp-json/batch/v1?_method=PUT',
      headers: { 'content-type': 'multipart/form-data; boundary=----sc' },
      body: '------sc\r\nContent-Disposition: form-data; name="requests[0][path]"\r\n\r\n/x\r\n------sc--\r\n',
    }),
  },
  { name: 'method override header to a method the route lacks', build: () => ({ method: 'POST', path: '/wp-json/batch/v1', headers: { 'x-http-method-override': 'DELETE' } }) },
  { name: '_method=GET on batch/v1', build: () => ({ method: 'POST', path: '/wp-json/batch/v1?_method=GET' }) },
  { name: '_envelope of an error', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/embed?_envelope' }) },
  { name: '_jsonp of an error', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/embed?_jsonp=cb' }) },
  { name: '_jsonp with a bad callback', build: () => ({ method: 'GET', path: '/wp-json/oembed/1.0/embed?_jsonp=a(b)' }) },
  { name: 'HEAD of an error', build: () => ({ method: 'HEAD', path: '/wp-json/oembed/1.0/embed' }) },
  {
    name: 'batch: an item path is the route as written (trailing slash; rest_route in its query)',
    build: () => batch([{ method: 'POST', path: '/batch/v1/' }, { method: 'POST', path: '/nothing?rest_route=/batch/v1' }, { method: 'POST', path: '/batch/v1' }]),
  },
];

describe.skipIf(!WP)('the mock beside a real WordPress (SITE_CONTRACTS_WP_URL)', () => {
  // With --auth: permissions as on a real site (the proxy is for logged-in users only).
  const server = mockOverHttp({ auth: true });
  let mockPermalink = '';
  beforeAll(async () => {
    // A published event's page, the mock's counterpart of the WordPress post.
    const first = JSON.parse((await send(server.url, { method: 'GET', path: '/wp-json/cal/v1/events?per_page=1' })).text) as { link: string }[];
    mockPermalink = first[0]!.link;
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const wpSite = { base: WP!, permalink: WP_PERMALINK ?? `${WP}/` };
      const mockSite = { base: server.url, permalink: mockPermalink };
      const [wp, ours] = await Promise.all([send(WP!, c.build(wpSite)), send(server.url, c.build(mockSite))]);
      const a = comparable(wp, WP!, c.pick);
      const b = comparable(ours, server.url, c.pick);
      for (const path of Object.keys(c.ignore ?? {})) {
        for (const side of [a, b] as Record<string, unknown>[]) {
          const keys = path.split('.');
          let cur: Record<string, unknown> = side;
          for (const k of keys.slice(0, -1)) cur = (cur[k] ?? {}) as Record<string, unknown>;
          delete cur[keys[keys.length - 1]!];
        }
      }
      expect(b, `${c.name}\nWordPress: ${wp.status} ${wp.text.slice(0, 400)}\nmock: ${ours.status} ${ours.text.slice(0, 400)}`).toEqual(a);
    });
  }
});

// Rendered text and oEmbed HTML: the same post written to both sites (WordPress's wp/v2/posts, the mock's
// cal/v1/events, which follow the same controller), read back and compared byte for byte, with each site's own
// names, addresses and random secrets replaced. Needs credentials for the WordPress side (user:application-password).
const WP_AUTH = process.env.SITE_CONTRACTS_WP_AUTH;
const WP_AUTH_HEADER = { authorization: `Basic ${Buffer.from(WP_AUTH ?? '').toString('base64')}` };

const TEXTS: { title: string; content: string; excerpt: string }[] = [
  { title: "Curator's Tour", content: "It's the curator's tour -- \"late\" edition... :)", excerpt: '' },
  { title: '  Rock \'n\' Roll "Night" -- 5x5 (tm)  ', content: 'One.\n\nTwo lines\nhere & there.', excerpt: "The '90s are back" },
  { title: "Кураторська екскурсія: п'ять залів", content: "<!-- wp:paragraph -->\n<p>Перший абзац із \"лапками\".</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>Другий -- тут.</p>\n<!-- /wp:paragraph -->", excerpt: '' },
  { title: 'Wordpress meetup & Q&A', content: Array.from({ length: 70 }, (_, i) => `word${i}`).join(' '), excerpt: '' },
  { title: 'Images', content: '<img src="a.png" width="10" height="20"> and <img src="b.png"><pre>keep "this"\n\nas is</pre>', excerpt: '<b>Bold</b> <code>x--y</code>' },
];

// Pagination links: WordPress rebuilds them from the query as sent (add_query_arg( urlencode_deep() )); the same
// query on its posts and on the mock's events must give the same links but for the collection's path.
const LINK_QUERIES = [
  'per_page=1&page=2',
  'per_page=1&page=2&search=e&_fields=id',
  'page=2&per_page=1&foo[bar]=1&foo[baz][]=2&x=%20a+b',
  'per_page=1&page=2&categories=1,2',
  'per_page=1&page=2&_embed=author',
  'per_page=1&page=2&tags[]=3&tags[]=4&_jsonp=cb',
  // PHP's parse_str() where a simpler reader differs: an unclosed bracket, a bracket written %5B, text after a
  // closing bracket, malformed escapes (WordPress prints a_b=1&c_d=2&e%5Bf%5D=3&w=%25zz&v=a%252).
  'per_page=1&page=2&a[b=1&c%5Bd=2&e[f]g=3&w=%zz&v=a%2',
  // Bytes that are no UTF-8: PHP keeps them as they are, and urlencode() gives them back (x=%FF&z=%E2%82).
  'per_page=1&page=2&x=%ff&z=%e2%82&y=%C2%A0',
];

describe.skipIf(!WP)('pagination links beside a real WordPress', () => {
  const server = mockOverHttp();
  for (const q of LINK_QUERIES) {
    it(q, async () => {
      const [wp, ours] = await Promise.all([send(WP!, { method: 'GET', path: `/wp-json/wp/v2/posts?${q}` }), send(server.url, { method: 'GET', path: `/wp-json/cal/v1/events?${q}` })]);
      expect(ours.headers.link?.split(`${server.url}/wp-json/cal/v1/events`).join('COLLECTION'), q).toBe(wp.headers.link?.split(`${WP}/wp-json/wp/v2/posts`).join('COLLECTION'));
    });
  }
});

describe.skipIf(!WP || !WP_AUTH)('rendered texts and oEmbed HTML beside a real WordPress (SITE_CONTRACTS_WP_AUTH)', () => {
  const server = mockOverHttp();
  const wpIds: number[] = [];
  const authHeader = WP_AUTH_HEADER;
  afterAll(async () => {
    // Leave the WordPress as it was: everything written here is deleted for good.
    for (const id of wpIds) await send(WP!, { method: 'DELETE', path: `/wp-json/wp/v2/posts/${id}?force=true`, headers: authHeader });
  });

  async function writeBoth(t: { title: string; content: string; excerpt: string }) {
    const body = JSON.stringify({ ...t, status: 'publish' });
    const wp = JSON.parse((await send(WP!, { method: 'POST', path: '/wp-json/wp/v2/posts', headers: { ...authHeader, 'content-type': 'application/json' }, body })).text) as Post;
    if (typeof wp.id !== 'number') throw new Error(`WordPress refused the post: ${JSON.stringify(wp)}`);
    wpIds.push(wp.id);
    const ours = JSON.parse((await send(server.url, { method: 'POST', path: '/wp-json/cal/v1/events', headers: { 'content-type': 'application/json' }, body })).text) as Post;
    return { wp, ours };
  }

  interface Post {
    id: number;
    link: string;
    title: { raw: string; rendered: string };
    content: { rendered: string };
    excerpt: { rendered: string };
  }

  for (const [i, t] of TEXTS.entries()) {
    it(`title, content and excerpt render alike (${i}: ${JSON.stringify(t.title)})`, async () => {
      const { wp, ours } = await writeBoth(t);
      expect({ raw: ours.title.raw, title: ours.title.rendered, content: ours.content.rendered, excerpt: ours.excerpt.rendered }).toEqual({
        raw: wp.title.raw, title: wp.title.rendered, content: wp.content.rendered, excerpt: wp.excerpt.rendered,
      });
    });
  }

  it('creates decide status, slug and dates as wp_insert_post() does (scheduling, unique slugs, empty content)', async () => {
    // date_gmt is compared only where the input fixes it in UTC: the two sites sit in different time zones.
    const cases: { body: Record<string, unknown>; utc?: boolean }[] = [
      { body: { title: 'Future thing', status: 'publish', date_gmt: '2030-01-01T10:00:00' }, utc: true },
      { body: { title: 'Past future', status: 'future', date_gmt: '2020-01-01T10:00:00' }, utc: true },
      { body: { title: 'Same Title', status: 'publish' } },
      { body: { title: 'Same Title', status: 'publish' } },
      { body: { title: 'xxxxx', slug: 'same-title', status: 'publish' } },
      { body: { title: 'Київ Тур — «нічний»', status: 'publish' } },
      { body: { title: 'Ünïcödé & Spaces  Here!', status: 'publish' } },
      { body: { title: 'Slugged', slug: 'My Custom Slug!', status: 'publish' } },
      { body: { title: 'Draft one', status: 'draft' } },
      { body: { title: 'Draft with date', status: 'draft', date_gmt: '2026-12-01T10:00:00' }, utc: true },
      { body: { title: 'Offset date', status: 'publish', date: '2030-12-01T10:00:00+02:00' }, utc: true },
      { body: { title: 'Z date', status: 'publish', date: '2030-12-01T10:00:00Z' }, utc: true },
      { body: { title: 'Private', status: 'private' } },
      { body: { status: 'publish' } },
      { body: { title: 'Bad date', date: '2026-12-01' } },
      { body: { title: 'Bad date', date: 'tomorrow' } },
      { body: { title: 'Bad date', date_gmt: '2026-13-01T10:00:00' } },
    ];
    const view = (text: string, utc: boolean) => {
      const j = JSON.parse(text) as { code?: string; message?: string; data?: { status: number }; status?: string; slug?: string; date_gmt?: string; modified_gmt?: string; title?: { rendered: string } };
      if (j.code) return { code: j.code, message: j.message, status: j.data?.status };
      return { status: j.status, slug: j.slug, title: j.title?.rendered, modifiedIsDate: j.modified_gmt === j.date_gmt, ...(utc ? { date_gmt: j.date_gmt } : {}) };
    };
    for (const c of cases) {
      const body = JSON.stringify(c.body);
      const wp = await send(WP!, { method: 'POST', path: '/wp-json/wp/v2/posts', headers: { ...authHeader, 'content-type': 'application/json' }, body });
      const id = (JSON.parse(wp.text) as { id?: number }).id;
      if (typeof id === 'number') wpIds.push(id);
      const ours = await send(server.url, { method: 'POST', path: '/wp-json/cal/v1/events', headers: { 'content-type': 'application/json' }, body });
      expect({ http: ours.status, ...view(ours.text, c.utc === true) }, body).toEqual({ http: wp.status, ...view(wp.text, c.utc === true) });
    }
  });

  it('an update sequence (title, status, slug, trash, edit in the trash, untrash by update, delete) answers alike', async () => {
    const steps: [string, string, Record<string, unknown> | null][] = [
      ['PATCH', '', { title: '' }], ['PATCH', '', { title: 'Renamed Post' }], ['PATCH', '', { status: 'draft' }],
      ['PATCH', '', { title: 'Still a draft' }], ['PATCH', '', { status: 'publish' }], ['PATCH', '', { slug: 'Custom One' }],
      ['PATCH', '', { slug: '' }], ['PUT', '', { status: 'pending' }], ['PATCH', '', { status: 'private' }], ['DELETE', '', null],
      ['PATCH', '', { title: 'Edit while trashed' }], ['GET', '', null], ['PATCH', '', { status: 'publish' }],
      ['DELETE', '?force=true', null], ['GET', '', null], ['PATCH', '', { title: 'gone' }],
    ];
    const run = async (base: string, collection: string, headers: Record<string, string>) => {
      const created = JSON.parse((await send(base, { method: 'POST', path: `/wp-json/${collection}`, headers, body: JSON.stringify({ title: 'Update Me', content: 'c', status: 'publish' }) })).text) as { id: number };
      if (base === WP) wpIds.push(created.id);
      const out: unknown[] = [];
      for (const [method, query, body] of steps) {
        const res = await send(base, { method, path: `/wp-json/${collection}/${created.id}${query}`, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
        const j = JSON.parse(res.text) as { code?: string; message?: string; status?: string; slug?: string; deleted?: boolean; title?: { raw?: string; rendered: string } };
        out.push(j.code ? { http: res.status, code: j.code, message: j.message } : { http: res.status, status: j.status, slug: j.slug, title: j.title?.raw ?? j.title?.rendered, deleted: j.deleted });
      }
      return out;
    };
    const json = { 'content-type': 'application/json' };
    expect(await run(server.url, 'cal/v1/events', json)).toEqual(await run(WP!, 'wp/v2/posts', { ...authHeader, ...json }));
  });

  it('a category sequence (duplicates, parents, self-parent, slugs, delete) answers like wp/v2/categories', async () => {
    // Left out on purpose: an empty name (WordPress: 500 empty_term_name; the mock never answers 500 and says 400),
    // DELETE without force (core's terms controller: 501; the legacy routes take no force, so the mock deletes), and
    // the body of a DELETE (the legacy namespace answers the term, core {deleted, previous}). A slug already taken
    // is compared without its status: WordPress sends duplicate_term_slug with none (a 500), the mock a 400.
    const run = async (base: string, collection: string, headers: Record<string, string>) => {
      const call = async (method: string, path: string, body?: Record<string, unknown>) => {
        const res = await send(base, { method, path: `/wp-json/${collection}${path}`, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
        return { http: res.status, j: JSON.parse(res.text) as { id?: number; code?: string; message?: string; name?: string; slug?: string; parent?: number; deleted?: boolean; previous?: { name: string } } };
      };
      const a = await call('POST', '', { name: 'Diff Cat A', description: "It's" });
      const id = a.j.id!;
      const view = (r: Awaited<ReturnType<typeof call>>, method: string) => {
        if (r.j.code === 'duplicate_term_slug') return { code: r.j.code, message: r.j.message };
        if (r.j.code) return { http: r.http, code: r.j.code, message: r.j.message };
        if (method === 'DELETE') return { http: r.http };
        if (base === WP && typeof r.j.id === 'number' && r.j.id !== id) wpTermIds.push(r.j.id);
        return { http: r.http, name: r.j.name ?? r.j.previous?.name, slug: r.j.slug, parent: r.j.parent === undefined ? undefined : r.j.parent === 0 ? 0 : r.j.parent === id ? 'A' : 'other', deleted: r.j.deleted };
      };
      const out: unknown[] = [view(a, 'POST')];
      for (const [method, path, body] of [
        ['POST', '', { name: 'Diff Cat A' }], ['POST', '', { name: 'diff cat a' }], ['POST', '', { name: 'Diff Cat B', parent: 999999 }],
        ['POST', '', { name: 'Diff Cat C', parent: id, slug: 'Custom Slug C' }], ['POST', '', { name: 'Diff Cat A', parent: id }],
        ['PATCH', `/${id}`, { name: 'Diff Cat A2' }], ['PATCH', `/${id}`, { parent: id }], ['PATCH', `/${id}`, { slug: 'custom-slug-c' }],
        ['PATCH', `/${id}`, { slug: 'Fresh Slug' }], ['DELETE', `/${id}?force=true`, undefined], ['GET', `/${id}`, undefined],
      ] as [string, string, Record<string, unknown> | undefined][]) out.push(view(await call(method, path, body), method));
      return out;
    };
    const json = { 'content-type': 'application/json' };
    const wpTermIds: number[] = [];
    try {
      expect(await run(server.url, 'cal/events/v1/categories', json)).toEqual(await run(WP!, 'wp/v2/categories', { ...authHeader, ...json }));
    } finally {
      for (const id of wpTermIds) await send(WP!, { method: 'DELETE', path: `/wp-json/wp/v2/categories/${id}?force=true`, headers: authHeader });
    }
  });

  it('a batch of creates, an invalid item and an unknown ID: the same statuses, headers and errors per item', async () => {
    // Each site's own post collection; everything else is the same request.
    const batchFor = (collection: string, validation: string) => JSON.stringify({
      validation,
      requests: [
        { method: 'POST', path: collection, body: { title: 'Batch one', status: 'draft' } },
        { method: 'POST', path: collection, body: { title: 'Batch two', status: 'no-such-status' } },
        { method: 'DELETE', path: `${collection}/999999` },
        { method: 'PATCH', path: `${collection}/999999`, body: { title: 'x' } },
      ],
    });
    const shape = (text: string) => {
      const body = JSON.parse(text) as { failed?: string; responses: ({ status: number; headers: Record<string, unknown> | []; body: Json } | null)[] };
      return {
        failed: body.failed ?? null,
        responses: body.responses.map((r) => r && { status: r.status, headers: Array.isArray(r.headers) ? [] : Object.keys(r.headers).sort(), body: r.status >= 400 ? shapeOf(r.body) : 'record' }),
      };
    };
    for (const validation of ['normal', 'require-all-validate']) {
      const wp = await send(WP!, { method: 'POST', path: '/wp-json/batch/v1', headers: { ...authHeader, 'content-type': 'application/json' }, body: batchFor('/wp/v2/posts', validation) });
      const ours = await send(server.url, { method: 'POST', path: '/wp-json/batch/v1', headers: { 'content-type': 'application/json' }, body: batchFor('/cal/v1/events', validation) });
      for (const r of (JSON.parse(wp.text) as { responses: ({ status: number; body: { id?: number } } | null)[] }).responses) {
        if (r?.status === 201 && typeof r.body.id === 'number') wpIds.push(r.body.id);
      }
      expect({ status: ours.status, ...shape(ours.text) }, validation).toEqual({ status: wp.status, ...shape(wp.text) });
    }
  });

  it('oEmbed html and XML of a post are the same bytes, but for each site\'s names, links and secrets', async () => {
    const { wp, ours } = await writeBoth({ title: 'Curator\'s "Late" Tour -- & more', content: 'x', excerpt: '' });
    const site = async (base: string, link: string, format: string) => {
      const res = await send(base, { method: 'GET', path: `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(link)}&format=${format}` });
      expect(res.status).toBe(200);
      const provider = format === 'json' ? (JSON.parse(res.text) as { provider_name: string }).provider_name : /<provider_name>([^<]*)</.exec(res.text)![1]!;
      const author = format === 'json' ? (JSON.parse(res.text) as { author_name: string }).author_name : /<author_name>([^<]*)</.exec(res.text)![1]!;
      const text = format === 'json' ? (JSON.parse(res.text) as { html: string }).html : res.text;
      return text
        .replace(/data-secret="[A-Za-z0-9]{10}"|secret=[A-Za-z0-9]{10}/g, 'SECRET')
        .split(link).join('LINK')
        .split(provider).join('SITE')
        .split(author).join('AUTHOR')
        .split(new URL(base).host).join('HOST')
        .replace(/<author_url>[^<]*<\/author_url>/, '<author_url/>');
    };
    for (const format of ['json', 'xml']) {
      expect(await site(server.url, ours.link, format), format).toBe(await site(WP!, wp.link, format));
    }
  });
});

// Permissions: the mock started with --auth against the same WordPress, anonymous or with a wrong application
// password, on its posts and the mock's events: the same refusals, in the same order as validation.
// REST discovery: every front-end page carries the API's address (rest_output_link_header()), a 404 with WordPress's
// no-cache headers. Compared by status and headers; the pages themselves are each site's own HTML.
describe.skipIf(!WP)('front-end pages beside a real WordPress', () => {
  const server = mockOverHttp();
  const FRONT: [string, string][] = [
    ['GET', '/'],
    ['HEAD', '/'],
    ['GET', '/no-such-page-for-site-contracts/'],
    ['HEAD', '/no-such-page-for-site-contracts/'],
  ];
  for (const [method, path] of FRONT) {
    it(`${method} ${path}`, async () => {
      const headersOf = async (base: string) => {
        const res = await send(base, { method, path });
        const host = new URL(base).host;
        const pick = ['link', 'content-type', 'expires', 'cache-control'].map((h) => [h, res.headers[h]?.split(host).join('HOST') ?? null]);
        return { status: res.status, headers: Object.fromEntries(pick), apiLinkInPage: method === 'GET' ? res.text.includes(`<link rel="https://api.w.org/" href="${base}/wp-json/" />`) : null };
      };
      expect(await headersOf(server.url)).toEqual(await headersOf(WP!));
    });
  }
});

describe.skipIf(!WP || !WP_AUTH)('permissions with --auth beside a real WordPress (SITE_CONTRACTS_WP_AUTH)', () => {
  const server = mockOverHttp({ auth: true });
  const wpAuth = WP_AUTH_HEADER;
  const made: Record<string, { published: number; draft: number }> = {};
  beforeAll(async () => {
    const admin = server.mock.store.table('users').find((u) => u.username === 'admin')!;
    const mockAuth = { authorization: `Basic ${Buffer.from(`admin:${admin.application_passwords[0]!.password}`).toString('base64')}` };
    for (const [base, collection, auth] of [[WP!, 'wp/v2/posts', wpAuth], [server.url, 'cal/v1/events', mockAuth]] as const) {
      const create = async (status: string) =>
        (JSON.parse((await send(base, { method: 'POST', path: `/wp-json/${collection}`, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: `Auth ${status}`, status }) })).text) as { id: number }).id;
      made[base] = { published: await create('publish'), draft: await create('draft') };
    }
  });
  afterAll(async () => {
    for (const id of Object.values(made[WP!] ?? {})) await send(WP!, { method: 'DELETE', path: `/wp-json/wp/v2/posts/${id}?force=true`, headers: wpAuth });
  });

  const wrongPassword = { authorization: `Basic ${Buffer.from('admin:wrong wrong wrong').toString('base64')}` };
  const CASES: [string, string, Record<string, string>, Record<string, unknown> | null][] = [
    ['POST', '', {}, { title: 'anonymous' }],
    ['POST', '', wrongPassword, { title: 'wrong password' }],
    ['POST', '', {}, { title: 'anonymous', status: 'bogus' }],
    // create_item_permissions_check() asks about the author before create_posts: rest_cannot_edit_others, 401.
    ['POST', '', {}, { title: 'as the administrator', author: 1 }],
    ['GET', '?status=draft', {}, null],
    ['GET', '?status=bogus', {}, null],
    ['GET', '?status=draft&orderby=sideways', {}, null],
    ['GET', '?status=draft&per_page=abc', {}, null],
    ['DELETE', '/999999', {}, null],
    ['PUT', '/999999', {}, { title: 'x' }],
    ['DELETE', '/PUBLISHED', {}, null],
    ['PATCH', '/PUBLISHED', wrongPassword, { title: 'x' }],
    ['GET', '/DRAFT', {}, null],
    ['GET', '/PUBLISHED', {}, null],
    // The posts controller's context (issue 27): edit needs edit_posts on a list, edit_post on an item, after the
    // lookup and after validation; its value is checked in the validate pass, before per_page.
    ['GET', '?context=edit', {}, null],
    ['GET', '?context=edit', wrongPassword, null],
    ['GET', '/PUBLISHED?context=edit', {}, null],
    ['GET', '/DRAFT?context=edit', {}, null],
    ['GET', '/999999?context=edit', {}, null],
    ['GET', '?context=bogus', {}, null],
    ['GET', '?per_page=abc&context=bogus', {}, null],
    ['GET', '/PUBLISHED?context=EDIT', {}, null],
    ['GET', '?context=embed&per_page=1', {}, null],
  ];
  for (const [method, path, headers, body] of CASES) {
    it(`${method} ${path} ${headers.authorization ? '(wrong password)' : '(anonymous)'}`, async () => {
      const answer = async (base: string, collection: string) => {
        const p = path.replace('PUBLISHED', String(made[base]!.published)).replace('DRAFT', String(made[base]!.draft));
        const res = await send(base, { method, path: `/wp-json/${collection}${p}`, headers: { ...headers, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
        const j = JSON.parse(res.text) as { code?: string };
        return { status: res.status, allow: res.headers.allow ?? null, error: j.code ? shapeOf(j as Json) : null };
      };
      expect(await answer(server.url, 'cal/v1/events')).toEqual(await answer(WP!, 'wp/v2/posts'));
    });
  }

  /** The administrator's credentials on each side. */
  const adminOf = (base: string): Record<string, string> => {
    if (base === WP) return wpAuth;
    const admin = server.mock.store.table('users').find((u) => u.username === 'admin')!;
    return { authorization: `Basic ${Buffer.from(`admin:${admin.application_passwords[0]!.password}`).toString('base64')}` };
  };

  it("an administrator's edit context shows the controller's raw fields, and the embed context its embeddable ones", async () => {
    const RAW = ['guid.raw', 'title.raw', 'content.raw', 'content.block_version', 'excerpt.raw', 'password', 'permalink_template', 'generated_slug'];
    const fields = async (base: string, collection: string) => {
      const edit = JSON.parse((await send(base, { method: 'GET', path: `/wp-json/${collection}/${made[base]!.published}?context=edit`, headers: adminOf(base) })).text) as Record<string, Record<string, unknown>>;
      const embed = JSON.parse((await send(base, { method: 'GET', path: `/wp-json/${collection}/${made[base]!.published}?context=embed` })).text) as Record<string, unknown>;
      const view = JSON.parse((await send(base, { method: 'GET', path: `/wp-json/${collection}/${made[base]!.published}`, headers: adminOf(base) })).text) as Record<string, Record<string, unknown>>;
      const has = (o: Record<string, Record<string, unknown>>, f: string) => {
        const [a, b] = f.split('.');
        return b === undefined ? a! in o : typeof o[a!] === 'object' && b in o[a!]!;
      };
      return { edit: RAW.filter((f) => has(edit, f)), view: RAW.filter((f) => has(view, f)), embed: Object.keys(embed), generatedIsSlug: edit.generated_slug === (edit.slug as unknown) };
    };
    expect(await fields(server.url, 'cal/v1/events')).toEqual(await fields(WP!, 'wp/v2/posts'));
  });

  it('no-cache headers go to a signed-in user only, in both of the mock\'s modes as on WordPress; Vary: Origin to the others', async () => {
    const open = await freshMock();
    const openServer = await listen(open.handleNow, { port: 0, host: '127.0.0.1' });
    try {
      const headersOf = async (base: string, collection: string, who: 'admin' | 'wrong' | 'nobody' | 'none') => {
        const auth =
          who === 'admin' ? (base === openServer.url ? { authorization: `Basic ${Buffer.from(`admin:${open.store.table('users').find((u) => u.username === 'admin')!.application_passwords[0]!.password}`).toString('base64')}` } : adminOf(base))
          : who === 'wrong' ? wrongPassword
          : who === 'nobody' ? { authorization: `Basic ${Buffer.from('nobody-here:abc').toString('base64')}` }
          : {};
        const res = await send(base, { method: 'GET', path: `/wp-json/${collection}?per_page=1`, headers: auth });
        return { status: res.status, expires: res.headers.expires ?? null, cacheControl: res.headers['cache-control'] ?? null, vary: res.headers.vary ?? null };
      };
      for (const who of ['admin', 'wrong', 'nobody', 'none'] as const) {
        const wp = await headersOf(WP!, 'wp/v2/posts', who);
        expect(await headersOf(server.url, 'cal/v1/events', who), `--auth, ${who}`).toEqual(wp);
        expect(await headersOf(openServer.url, 'cal/v1/events', who), `open mode, ${who}`).toEqual(wp);
      }
    } finally {
      await openServer.close();
    }
  });
});

describe.skipIf(!WP || !WP_AUTH)('category parents that would make a loop, beside a real WordPress (SITE_CONTRACTS_WP_AUTH)', () => {
  const server = mockOverHttp();
  it('wp_check_term_hierarchy_for_loops(): the parent that would close the loop is dropped, the others stay', async () => {
    const wpTermIds: number[] = [];
    const json = { 'content-type': 'application/json' };
    const run = async (base: string, collection: string, headers: Record<string, string>) => {
      const write = async (method: string, path: string, body: Record<string, unknown>) => {
        const j = JSON.parse((await send(base, { method, path: `/wp-json/${collection}${path}`, headers, body: JSON.stringify(body) })).text) as { id: number; parent: number };
        if (base === WP && method === 'POST' && path === '') wpTermIds.push(j.id);
        return j;
      };
      const tag = `${Date.now() % 100000}`;
      const x = await write('POST', '', { name: `Loop X ${tag}` });
      const a = await write('POST', '', { name: `Loop A ${tag}`, parent: x.id });
      const b = await write('POST', '', { name: `Loop B ${tag}`, parent: a.id });
      const names = new Map([[x.id, 'X'], [a.id, 'A'], [b.id, 'B'], [0, '0']]);
      const parents = async () => {
        const out: Record<string, string> = {};
        for (const [id, n] of [[x.id, 'X'], [a.id, 'A'], [b.id, 'B']] as const) {
          const t = JSON.parse((await send(base, { method: 'GET', path: `/wp-json/${collection}/${id}` })).text) as { parent: number };
          out[n] = names.get(t.parent) ?? 'other';
        }
        return out;
      };
      const steps: unknown[] = [];
      // A under its own child B, then B under itself, then A back under X.
      steps.push(names.get((await write('POST', `/${a.id}`, { parent: b.id })).parent), await parents());
      steps.push(names.get((await write('POST', `/${b.id}`, { parent: b.id })).parent), await parents());
      steps.push(names.get((await write('POST', `/${a.id}`, { parent: x.id })).parent), await parents());
      return steps;
    };
    try {
      expect(await run(server.url, 'cal/events/v1/categories', json)).toEqual(await run(WP!, 'wp/v2/categories', { ...WP_AUTH_HEADER, ...json }));
    } finally {
      for (const id of wpTermIds.reverse()) await send(WP!, { method: 'DELETE', path: `/wp-json/wp/v2/categories/${id}?force=true`, headers: WP_AUTH_HEADER });
    }
  });
});
