import { describe, expect, it } from 'vitest';
import { apacheRejection, getParam, hasParam, parseEmbed, parseRequest, sanitizeOrder, type RawHttpRequest } from './request.ts';

function req(url: string, over: Partial<RawHttpRequest> = {}) {
  return parseRequest({ method: 'GET', url, headers: {}, ...over });
}

describe('route (rest_api_register_rewrites, WP::parse_request, rest_api_loaded)', () => {
  it('recognises the API root in every form (samples 01, 02)', () => {
    for (const url of ['/wp-json/', '/wp-json', '/?rest_route=/', '/index.php?rest_route=/', '/index.php/wp-json/', '/index.php/wp-json']) {
      expect(req(url)?.route, url).toBe('/');
    }
    expect(req('/wp-json/')?.apiRootStyle).toBe('pretty');
    expect(req('/?rest_route=/')?.apiRootStyle).toBe('rest_route');
  });
  it('strips trailing slashes and keeps the query (samples 03, 04)', () => {
    expect(req('/wp-json/wp/v2')?.route).toBe('/wp/v2');
    expect(req('/wp-json/wp/v2/posts/')?.route).toBe('/wp/v2/posts');
    expect(req('/wp-json/wp/v2/posts//')?.route).toBe('/wp/v2/posts');
    const r = req('/?rest_route=/wp/v2/posts&per_page=1')!;
    expect(r.route).toBe('/wp/v2/posts');
    expect(r.query).toEqual({ rest_route: '/wp/v2/posts', per_page: '1' });
    expect(req('/index.php?rest_route=/wp/v2/posts/25')?.route).toBe('/wp/v2/posts/25');
  });
  it('does not decode the pretty path, but decodes rest_route', () => {
    expect(req('/wp-json/wp/v2/posts/%32%35')?.route).toBe('/wp/v2/posts/%32%35');
    expect(req('/wp-json/wp/v2/a+b')?.route).toBe('/wp/v2/a+b');
    expect(req('/?rest_route=%2Fwp%2Fv2%2Fposts%2F25')?.route).toBe('/wp/v2/posts/25');
    expect(req('/?rest_route=/wp/v2/posts/25%5C')?.route).toBe('/wp/v2/posts/25');
    // PATH_INFO is decoded by Apache, then WordPress re-escapes `%`.
    expect(req('/index.php/wp-json/wp/v2/posts/%31')?.route).toBe('/wp/v2/posts/1');
    expect(req('/index.php/wp-json/wp/v2/a%25b')?.route).toBe('/wp/v2/a%25b');
  });
  it('keeps a rest_route without leading slash as WordPress does (it then matches nothing)', () => {
    expect(req('/?rest_route=wp/v2/posts')?.route).toBe('wp/v2/posts');
  });
  it('lets rest_route win over the pretty path, from any front-controller path', () => {
    expect(req('/wp-json/wp/v2/posts?rest_route=/wp/v2/categories')).toMatchObject({ route: '/wp/v2/categories', apiRootStyle: 'rest_route' });
    expect(req('/about/?rest_route=/wp/v2/posts')?.route).toBe('/wp/v2/posts');
    expect(req('/wp-json?rest_route=/x')?.route).toBe('/x');
  });
  it('reads the language prefix', () => {
    expect(req('/uk/wp-json/wp/v2/posts')).toMatchObject({ route: '/wp/v2/posts', language: 'uk' });
    expect(req('/en/wp-json/')).toMatchObject({ route: '/', language: 'en' });
    expect(req('/en/?rest_route=/wp/v2/posts')).toMatchObject({ route: '/wp/v2/posts', language: 'en' });
    expect(req('/wp-json/')?.language).toBeUndefined();
    expect(req('/de/wp-json/')).toBeNull();
  });
  it('returns null for what is not a REST request', () => {
    for (const url of ['/', '/about/', '/WP-JSON/', '/wp-jsonx/', '/?rest_route=', '/?rest_route=0', '/?rest_route[]=x', '/wp-login.php?rest_route=/x', '/wp-admin/?rest_route=/x', '/index.php']) {
      expect(req(url), url).toBeNull();
    }
  });
  it('leaves encoded slashes and bad escapes to Apache', () => {
    expect(apacheRejection('/wp-json/wp/v2/posts%2F25')).toEqual({ status: 404, reason: 'encoded-slash' });
    expect(apacheRejection('/wp-json/wp/v2/posts%2f25')).toEqual({ status: 404, reason: 'encoded-slash' });
    expect(apacheRejection('/wp-json/x%00')).toEqual({ status: 404, reason: 'encoded-nul' });
    expect(apacheRejection('/wp-json/x%zz%2F')).toEqual({ status: 400, reason: 'bad-escape' });
    expect(apacheRejection('/wp-json/?q=%2F%zz')).toBeNull();
    expect(req('/wp-json/wp/v2/posts%2F25')).toBeNull();
  });
  it('accepts an absolute-form target', () => {
    expect(req('http://127.0.0.1:8089/wp-json/wp/v2/posts?per_page=2')).toMatchObject({ route: '/wp/v2/posts', query: { per_page: '2' } });
  });
  it('reads rest_route from a POSTed form too, and refuses a mismatch', () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(req('/', { method: 'POST', headers: form, body: 'rest_route=/wp/v2/posts&title=x' })?.route).toBe('/wp/v2/posts');
    expect(req('/?rest_route=/a', { method: 'POST', headers: form, body: 'rest_route=/b' })).toBeNull();
  });
});

describe('method (serve_request overrides)', () => {
  it('applies X-HTTP-Method-Override and marks it (sample 41)', () => {
    expect(req('/wp-json/wp/v2/posts/33', { method: 'POST', headers: { 'X-HTTP-Method-Override': 'DELETE' } })).toMatchObject({
      method: 'DELETE',
      originalMethod: 'POST',
      methodOverridden: true,
    });
  });
  it('applies ?_method without marking it (sample 42), and before the header', () => {
    expect(req('/wp-json/wp/v2/posts/35?_method=DELETE&force=true', { method: 'POST' })).toMatchObject({ method: 'DELETE', methodOverridden: false });
    expect(req('/wp-json/wp/v2/posts?_method=post')).toMatchObject({ method: 'POST', originalMethod: 'GET' });
    expect(req('/wp-json/x?_method=put', { headers: { 'x-http-method-override': 'DELETE' } })).toMatchObject({ method: 'PUT', methodOverridden: false });
    expect(req('/wp-json/x?_method=')?.method).toBe('');
  });
  it('uppercases, and ignores header names with underscores as Apache does', () => {
    expect(req('/wp-json/', { method: 'get' })?.method).toBe('GET');
    expect(req('/wp-json/', { method: 'POST', headers: { X_HTTP_METHOD_OVERRIDE: 'DELETE' } })?.method).toBe('POST');
    expect(req('/wp-json/', { method: 'GET', headers: { 'X-HTTP-Method-Override': 'patch' } })?.method).toBe('PATCH');
  });
});

describe('query (PHP $_GET)', () => {
  it('parses brackets and lets the last plain key win', () => {
    expect(req('/wp-json/x?a[]=1&a[]=2&b[c]=d&e=1&e=2&include=25,26')?.query).toEqual({ a: ['1', '2'], b: { c: 'd' }, e: '2', include: '25,26' });
    expect(req('/wp-json/x?search=post%203&t=a+b')?.query).toEqual({ search: 'post 3', t: 'a b' });
  });
});

describe('body', () => {
  const json = { 'content-type': 'application/json' };
  it('decodes JSON bodies (sample 32)', () => {
    const r = req('/wp-json/wp/v2/posts', { method: 'POST', headers: json, body: '{"title":"Created via REST","content":"Hello","status":"publish"}' })!;
    expect(r.bodyParams).toEqual({ title: 'Created via REST', content: 'Hello', status: 'publish' });
    expect(r.jsonError).toBeNull();
  });
  it('keeps the decode error for later (sample 55)', () => {
    const r = req('/wp-json/wp/v2/posts', { method: 'POST', headers: json, body: '{"title": "broken",' })!;
    expect(r.jsonError).toEqual({ ok: false, code: 4, message: 'Syntax error' });
    expect(r.bodyParams).toBeUndefined();
  });
  it('treats an empty body, and "0", as no body', () => {
    expect(req('/wp-json/x', { method: 'POST', headers: json, body: '' })).toMatchObject({ jsonError: null });
    expect(req('/wp-json/x', { method: 'POST', headers: json, body: '0' })?.bodyParams).toBeUndefined();
    expect(req('/wp-json/x', { method: 'POST', headers: json, body: '5' })?.bodyParams).toBeUndefined();
  });
  it('recognises JSON media types like wp_is_json_media_type()', () => {
    expect(req('/wp-json/x', { method: 'POST', headers: { 'Content-Type': 'application/vnd.api+json; charset=utf-8' }, body: '{"a":1}' })?.bodyParams).toEqual({ a: 1 });
    expect(req('/wp-json/x', { method: 'POST', headers: { 'content-type': 'APPLICATION/JSON' }, body: '{"a":1}' })?.bodyParams).toEqual({ a: 1 });
    expect(req('/wp-json/x', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"a":1}' })?.bodyParams).toBeUndefined();
  });
  it('parses form bodies with PHP brackets (sample 56)', () => {
    const r = req('/wp-json/wp/v2/posts', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'title=Form+post&status=publish&categories[]=2' })!;
    expect(r.bodyParams).toEqual({ title: 'Form post', status: 'publish', categories: ['2'] });
  });
  it('parses form bodies of other methods even without a content type, but not of POST', () => {
    expect(req('/wp-json/x', { method: 'PUT', body: 'a=1' })?.bodyParams).toEqual({ a: '1' });
    expect(req('/wp-json/x', { method: 'POST', body: 'a=1' })?.bodyParams).toBeUndefined();
    expect(req('/wp-json/x', { method: 'PATCH', headers: { 'content-type': 'text/plain' }, body: 'a=1' })?.bodyParams).toBeUndefined();
  });
});

describe('globals', () => {
  it('reads _envelope, _embed, _fields, _jsonp, _pretty (samples 43-50)', () => {
    expect(req('/wp-json/wp/v2/posts/25?_envelope')?.globals).toEqual({ _envelope: true, _fields: null, _embed: false, _jsonp: null, _pretty: false });
    expect(req('/wp-json/x?_embed')?.globals._embed).toBe(true);
    expect(req('/wp-json/x?_embed=author&_fields=id,_links,_embedded')?.globals).toMatchObject({ _embed: ['author'], _fields: ['id', '_links', '_embedded'] });
    expect(req('/wp-json/x?_fields=id,%20title.rendered,,_links')?.globals._fields).toEqual(['id', 'title.rendered', '_links']);
    expect(req('/wp-json/x?_fields=')?.globals._fields).toBeNull();
    expect(req('/wp-json/x?_jsonp=cb&per_page=1')?.globals._jsonp).toEqual({ callback: 'cb', valid: true });
    expect(req('/wp-json/x?_jsonp=bad-cb')?.globals._jsonp).toEqual({ callback: 'bad-cb', valid: false });
    expect(req('/wp-json/x?_jsonp[]=x')?.globals._jsonp).toEqual({ callback: '', valid: false });
    expect(req('/wp-json/x?_jsonp=0')?.globals._jsonp).toBeNull();
    expect(req('/wp-json/x?_jsonp=')?.globals._jsonp).toBeNull();
    expect(req('/wp-json/x?_pretty&per_page=1')?.globals._pretty).toBe(true);
    expect(req('/wp-json/x?_pretty=0')?.globals._pretty).toBe(true);
  });
  it('takes _fields and _pretty from the body too', () => {
    const r = req('/wp-json/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"_fields":"id","_pretty":null}' })!;
    expect(r.globals._fields).toEqual(['id']);
    expect(r.globals._pretty).toBe(true);
  });
  it('parses _embed like rest_parse_embed_param()', () => {
    expect(parseEmbed('true')).toBe(true);
    expect(parseEmbed('1')).toBe(true);
    expect(parseEmbed('')).toBe(true);
    expect(parseEmbed('0')).toBe(true);
    expect(parseEmbed(',')).toBe(true);
    expect(parseEmbed('author,wp:term')).toEqual(['author', 'wp:term']);
  });
});

describe('parameter sources', () => {
  it('follow get_parameter_order(): JSON, form body, query, path', () => {
    const r = req('/wp-json/x?a=q&b=q&c=q', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"json","n":null}' })!;
    expect(getParam(r, 'a')).toBe('json');
    expect(getParam(r, 'b')).toBe('q');
    expect(getParam(r, 'id', { id: '5' })).toBe('5');
    expect(getParam(r, 'n')).toBeUndefined();
    expect(hasParam(r, 'n')).toBe(true);
    expect(sanitizeOrder(r, { id: '5' })).toEqual(['a', 'n', 'b', 'c', 'id']);
  });
  it('ignores the form body of a GET', () => {
    const r = req('/wp-json/x?b=q', { method: 'GET', body: 'a=1&b=2' })!;
    expect(getParam(r, 'a')).toBeUndefined();
    expect(sanitizeOrder(r)).toEqual(['b']);
  });
});
