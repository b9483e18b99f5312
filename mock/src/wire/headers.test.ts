import { describe, expect, it } from 'vitest';
import { allowHeader, corsHeaders, linkHeaderValue, needsNoCache, responseHeaders, type HeaderList } from './headers.ts';
import { sanitizeUrl } from '../../../contracts/wordpress/url.ts';

// Expected lists are the samples' response headers in wire order (samples.json), minus what Apache adds itself
// (Date, Server, Content-Length, Transfer-Encoding, Connection).

const ROOT = 'http://127.0.0.1:8089/wp-json/';
const FIXED: HeaderList = [
  ['X-Robots-Tag', 'noindex'],
  ['Link', '<http://127.0.0.1:8089/wp-json/>; rel="https://api.w.org/"'],
  ['X-Content-Type-Options', 'nosniff'],
  ['Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link'],
  ['Access-Control-Allow-Headers', 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type'],
];
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json; charset=UTF-8'];
const NOCACHE: HeaderList = [
  ['Expires', 'Wed, 11 Jan 1984 05:00:00 GMT'],
  ['Cache-Control', 'no-cache, must-revalidate, max-age=0'],
];
const CORS: HeaderList = [
  ['Access-Control-Allow-Origin', 'http://localhost:3000'],
  ['Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE'],
  ['Access-Control-Allow-Credentials', 'true'],
  ['Vary', 'Origin'],
];
const withLink = (link: string): HeaderList => FIXED.map(([n, v]) => [n, n === 'Link' ? link : v]);

describe('responseHeaders in wire order', () => {
  it('01: anonymous GET', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 200, originalMethod: 'GET', loggedIn: false, allow: ['GET'] })).toEqual([...FIXED, ['Allow', 'GET'], ['Vary', 'Origin'], JSON_TYPE]);
  });
  it('05: a paginated list replaces the root Link in place', () => {
    const link = '<http://127.0.0.1:8089/wp-json/wp/v2/posts?per_page=2&page=2>; rel="next"';
    const got = responseHeaders({
      apiRoot: ROOT,
      status: 200,
      originalMethod: 'GET',
      loggedIn: false,
      responseHeaders: [['X-WP-Total', 5], ['X-WP-TotalPages', 3], ['Link', link]],
      allow: ['GET'],
    });
    expect(got).toEqual([...withLink(link), ['X-WP-Total', '5'], ['X-WP-TotalPages', '3'], ['Allow', 'GET'], ['Vary', 'Origin'], JSON_TYPE]);
  });
  it('15: logged in - no Vary, no-cache after Allow', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 400, originalMethod: 'GET', loggedIn: true, allow: ['GET', 'POST'] })).toEqual([...FIXED, ['Allow', 'GET, POST'], ...NOCACHE, JSON_TYPE]);
  });
  it('17 and 44: no Allow when no method is permitted', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 401, originalMethod: 'GET', loggedIn: false, allow: [] })).toEqual([...FIXED, ['Vary', 'Origin'], JSON_TYPE]);
  });
  it('20: HEAD gets no Vary', () => {
    const link = '<http://127.0.0.1:8089/wp-json/wp/v2/posts?per_page=2&page=2>; rel="next"';
    const got = responseHeaders({ apiRoot: ROOT, status: 200, originalMethod: 'HEAD', loggedIn: false, responseHeaders: { 'X-WP-Total': 5, 'X-WP-TotalPages': 3, Link: link }, allow: ['GET'] });
    expect(got).toEqual([...withLink(link), ['X-WP-Total', '5'], ['X-WP-TotalPages', '3'], ['Allow', 'GET'], JSON_TYPE]);
  });
  it('22: a post sends its permalink as rel="alternate"', () => {
    const link = linkHeaderValue('alternate', 'http://127.0.0.1:8089/2026/11/22/sample-post-1/', { type: 'text/html' });
    expect(link).toBe('<http://127.0.0.1:8089/2026/11/22/sample-post-1/>; rel="alternate"; type=text/html');
    expect(responseHeaders({ apiRoot: ROOT, status: 200, originalMethod: 'GET', loggedIn: false, responseHeaders: [['Link', link]], allow: ['GET'] })).toEqual([
      ...withLink(link),
      ['Allow', 'GET'],
      ['Vary', 'Origin'],
      JSON_TYPE,
    ]);
  });
  it('28: no route, logged in', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 404, originalMethod: 'DELETE', loggedIn: true, allow: null })).toEqual([...FIXED, ...NOCACHE, JSON_TYPE]);
  });
  it('30: anonymous POST gets no Vary', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 401, originalMethod: 'POST', loggedIn: false, allow: ['GET'] })).toEqual([...FIXED, ['Allow', 'GET'], JSON_TYPE]);
  });
  it('32: Location from the handler comes before Allow', () => {
    const got = responseHeaders({
      apiRoot: ROOT,
      status: 201,
      originalMethod: 'POST',
      loggedIn: true,
      responseHeaders: [['Location', 'http://127.0.0.1:8089/wp-json/wp/v2/posts/30']],
      allow: ['GET', 'POST'],
    });
    expect(got).toEqual([...FIXED, ['Location', 'http://127.0.0.1:8089/wp-json/wp/v2/posts/30'], ['Allow', 'GET, POST'], ...NOCACHE, JSON_TYPE]);
  });
  it('49: JSONP is application/javascript', () => {
    const got = responseHeaders({ apiRoot: ROOT, status: 200, originalMethod: 'GET', loggedIn: false, jsonp: true, allow: ['GET'] });
    expect(got.at(-1)).toEqual(['Content-Type', 'application/javascript; charset=UTF-8']);
  });
  it('52, 53: an Origin is echoed with the CORS set', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 200, originalMethod: 'OPTIONS', origin: 'http://localhost:3000', loggedIn: false, allow: ['GET'] })).toEqual([
      ...FIXED,
      ['Allow', 'GET'],
      ...CORS,
      JSON_TYPE,
    ]);
  });
  it('54: CORS before no-cache', () => {
    expect(
      responseHeaders({ apiRoot: ROOT, status: 200, originalMethod: 'GET', origin: 'http://localhost:3000', loggedIn: true, allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] }),
    ).toEqual([...FIXED, ['Allow', 'GET, POST, PUT, PATCH, DELETE'], ...CORS, ...NOCACHE, JSON_TYPE]);
  });
  it('71: anonymous OPTIONS', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 200, originalMethod: 'OPTIONS', loggedIn: false, allow: ['POST'] })).toEqual([...FIXED, ['Allow', 'POST'], JSON_TYPE]);
  });
  it('an invalid JSONP callback stops before dispatch: fixed headers only', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 400, originalMethod: 'GET', origin: 'http://a.test', loggedIn: false, jsonp: true, early: true, allow: ['GET'] })).toEqual([
      ...FIXED,
      ['Content-Type', 'application/javascript; charset=UTF-8'],
    ]);
  });
  it('X-HTTP-Method-Override ending in 4xx adds no-cache after Vary', () => {
    expect(responseHeaders({ apiRoot: ROOT, status: 404, originalMethod: 'GET', loggedIn: false, methodOverridden: true })).toEqual([...FIXED, ['Vary', 'Origin'], ...NOCACHE, JSON_TYPE]);
    expect(needsNoCache(false, true, 200)).toBe(false);
    expect(needsNoCache(false, false, 404)).toBe(false);
    expect(needsNoCache(true, false, 200)).toBe(true);
  });
  it('keeps a handler Content-Type, still last', () => {
    const got = responseHeaders({ apiRoot: ROOT, status: 200, originalMethod: 'GET', loggedIn: false, responseHeaders: [['Content-Type', 'text/xml; charset=UTF-8']], allow: ['GET'] });
    expect(got.at(-1)).toEqual(['Content-Type', 'text/xml; charset=UTF-8']);
    expect(got.filter(([n]) => n === 'Content-Type')).toHaveLength(1);
  });
});

describe('CORS', () => {
  it('echoes null literally, drops unknown schemes, ignores "0"', () => {
    expect(corsHeaders({ origin: 'null', originalMethod: 'GET', loggedIn: false })[0]).toEqual(['Access-Control-Allow-Origin', 'null']);
    expect(corsHeaders({ origin: 'chrome-extension://abc', originalMethod: 'GET', loggedIn: false })[0]).toEqual(['Access-Control-Allow-Origin', '']);
    expect(corsHeaders({ origin: 'localhost:3000/<x> y', originalMethod: 'GET', loggedIn: false })[0]).toEqual(['Access-Control-Allow-Origin', '']);
    expect(corsHeaders({ origin: '0', originalMethod: 'GET', loggedIn: false })).toEqual([['Vary', 'Origin']]);
    expect(corsHeaders({ originalMethod: 'GET', loggedIn: true })).toEqual([]);
    expect(corsHeaders({ originalMethod: 'POST', loggedIn: false })).toEqual([]);
  });
  it('sanitizes like esc_url_raw()', () => {
    expect(sanitizeUrl('http://localhost:3000')).toBe('http://localhost:3000');
    expect(sanitizeUrl('example.com')).toBe('http://example.com');
    expect(sanitizeUrl('https://a.test/<b>')).toBe('https://a.test/b');
    expect(sanitizeUrl('http://[::1]:8080')).toBe('http://[::1]:8080');
    expect(sanitizeUrl('javascript:alert(1)')).toBe('');
    expect(sanitizeUrl('http://a.test/%0d%0aX')).toBe('http://a.test/X');
  });
});

describe('Allow', () => {
  it('uppercases, dedupes, keeps route order', () => {
    expect(allowHeader(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])).toBe('GET, POST, PUT, PATCH, DELETE');
    expect(allowHeader(['get', 'GET', 'post'])).toBe('GET, POST');
    expect(allowHeader([])).toBeNull();
    expect(allowHeader(null)).toBeNull();
  });
});
