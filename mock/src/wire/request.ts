// From a raw HTTP request to what WordPress's REST server works with: the route (rest_api_register_rewrites(),
// WP::parse_request(), rest_api_loaded()), the method after overrides and the parameters by source
// (WP_REST_Server::serve_request(), WP_REST_Request), as Apache 2.4 + mod_php 8.2 hand them over.

import { base64Decode, utf8Decode, utf8DecodeStrict, utf8Encode } from '../../../contracts/wordpress/bytes.ts';
import { isPhpArrayLike, jsToPhpArray, phpArrayGet, phpArrayHas, phpArrayKey, phpJsonDecode, phpParseMultipart, phpParseStr, phpRawUrlDecode, phpToJs, phpTrim, wpParseList, type JsonDecodeError, type PhpArray, type PhpKey } from '../../../contracts/wordpress/php/index.ts';

/**
 * The login and password of `Authorization: Basic ...` (wp_authenticate_application_password() reads PHP's
 * PHP_AUTH_USER and PHP_AUTH_PW); undefined for another scheme or a value without a colon.
 */
export function basicCredentials(authorization: string | undefined): { login: string; password: string } | undefined {
  if (!authorization) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!m) return undefined;
  const decoded = utf8Decode(base64Decode(m[1]!));
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export interface RawHttpRequest {
  method: string;
  /** The request target: path and query, as sent (not decoded). An absolute URL is accepted too. */
  url: string;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  body?: Uint8Array | string | undefined;
  /** `body`'s text, when the adapter decoded it strictly as it arrived (valid UTF-8 only): not decoded again. */
  text?: string | undefined;
}

type Language = 'en' | 'uk';

/** WP_REST_Request::get_content_type(). */
interface ContentType {
  /** media type, lowercased and trimmed (`application/json`) */
  value: string;
  type: string;
  subtype: string;
  parameters: string;
}

interface JsonpRequest {
  /** the callback as sent (empty when `_jsonp` was an array) */
  callback: string;
  /** wp_check_jsonp_callback(): only `[A-Za-z0-9_.]` */
  valid: boolean;
}

/** The global parameters WordPress handles itself, as serve_request() and its filters read them. */
interface GlobalParams {
  /** `isset($_GET['_envelope'])` */
  _envelope: boolean;
  /** `_fields` from any source (JSON, body, query), split by wp_parse_list() and trimmed; null when absent or empty */
  _fields: string[] | null;
  /** rest_parse_embed_param($_GET['_embed']): true = every embeddable link, a list = those rels, false = absent */
  _embed: true | string[] | false;
  /** `$_GET['_jsonp']` when truthy to PHP (so `_jsonp=0` and `_jsonp=` are no JSONP) */
  _jsonp: JsonpRequest | null;
  /** `$request->has_param('_pretty')`: present in any source, whatever its value */
  _pretty: boolean;
}

export interface ParsedRequest {
  /**
   * The route WordPress dispatches: `/wp/v2/posts`. Trailing `/` and `\` are stripped (untrailingslashit()); `/` for
   * the index. From the pretty URL it is the raw path (WordPress does not decode it: `/posts/%32` is not `/posts/2`);
   * from `rest_route` it is the decoded value, verbatim - `?rest_route=wp/v2/posts` has no leading slash and, as on
   * WordPress, matches no route.
   */
  route: string;
  apiRootStyle: 'pretty' | 'rest_route';
  /** A leading `/en/` or `/uk/` segment (the site's language prefix). */
  language?: Language;
  /** The method WordPress dispatches: REQUEST_METHOD, or `?_method`, else `X-HTTP-Method-Override`, uppercased. */
  method: string;
  /** REQUEST_METHOD as sent (the CORS `Vary: Origin` rule looks at this one). */
  originalMethod: string;
  /**
   * True only when X-HTTP-Method-Override changed the method: serve_request() then adds the no-cache headers to a
   * 4xx answer. `?_method` does not set it.
   */
  methodOverridden: boolean;
  /** $_GET as plain JS (PHP's key mangling and arrays applied). */
  query: Record<string, unknown>;
  /** $_GET in PHP's own order and keys (for rebuilding links exactly). */
  phpQuery: PhpArray;
  /**
   * The body's parameters: the decoded JSON object for a JSON content type, else the form fields; undefined when the
   * body brings none (empty, a JSON scalar, an unknown content type, or undecodable JSON).
   */
  bodyParams?: Record<string, unknown>;
  /** WP_REST_Request params['JSON']: set for a JSON content type with a non-empty body that decoded */
  jsonParams?: unknown;
  /** WP_REST_Request params['POST'] ($_POST, plus parse_body_params() for other methods) */
  postParams: PhpArray;
  /** Set when the content type is JSON and the body does not decode. WordPress reports it (rest_invalid_json) only
   *  once a route matched, before any other parameter check. */
  jsonError: JsonDecodeError | null;
  contentType: ContentType | null;
  /** Request headers, names lowercased, repeated headers joined with `, ` as Apache does. */
  headers: Record<string, string>;
  rawBody: Uint8Array;
  globals: GlobalParams;
}

/** What Apache itself answers before WordPress runs, for a path it will not map. */
interface ApacheRejection {
  status: 400 | 404;
  reason: 'bad-escape' | 'encoded-slash' | 'encoded-nul';
}

function splitTarget(url: string): { path: string; query: string } {
  let target = url;
  const abs = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  if (abs) target = target.slice(abs[0].length) || '/';
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/**
 * ap_unescape_url() on the path (AllowEncodedSlashes Off, the default): a malformed `%` escape is 400, an encoded
 * `/` or NUL is 404 - both as Apache HTML pages, WordPress never runs. The query string is not checked.
 */
export function apacheRejection(url: string): ApacheRejection | null {
  const { path } = splitTarget(url);
  let badEscape = false;
  let badPath: ApacheRejection['reason'] | null = null;
  for (let i = 0; i < path.length; i++) {
    if (path[i] !== '%') continue;
    const hex = path.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) {
      badEscape = true;
      continue;
    }
    const byte = parseInt(hex, 16);
    if (byte === 0x2f) badPath ??= 'encoded-slash';
    else if (byte === 0) badPath ??= 'encoded-nul';
    i += 2;
  }
  if (badEscape) return { status: 400, reason: 'bad-escape' };
  return badPath ? { status: 404, reason: badPath } : null;
}

/** Apache's decoding of the path into PATH_INFO: `%XX` only, `+` stays (rawurldecode()). */
const apacheDecode = phpRawUrlDecode;

/** PHP's empty() on a string body. */
function phpEmptyString(s: string): boolean {
  return s === '' || s === '0';
}

/** PHP truthiness of a $_GET value. */
function phpTruthy(v: unknown): boolean {
  if (v instanceof Map) return v.size > 0;
  if (typeof v === 'string') return !phpEmptyString(v);
  return Boolean(v);
}

/** ASCII-only strtoupper(), as PHP 8 does it. */
function asciiUpper(s: string): string {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

function untrailingslashit(s: string): string {
  return s.replace(/(?<![/\\])[/\\]+$/, '');
}

function parseContentType(header: string | undefined): ContentType | null {
  if (!header) return null;
  let value = header;
  let parameters = '';
  const semi = header.indexOf(';');
  // PHP's `if ( strpos( $value, ';' ) )` is false for a `;` in first position.
  if (semi > 0) {
    value = header.slice(0, semi);
    parameters = header.slice(semi + 1);
  }
  value = value.toLowerCase();
  const slash = value.indexOf('/');
  if (slash < 0) return null;
  return { value: phpTrim(value), type: phpTrim(value.slice(0, slash)), subtype: phpTrim(value.slice(slash + 1)), parameters: phpTrim(parameters) };
}

/** wp_is_json_media_type() */
export function isJsonMediaType(mediaType: string): boolean {
  return /(^|\s|,)application\/([\w!#$&-^.+]+\+)?json(\+oembed)?($|\s|;|,)/i.test(mediaType);
}

/** The media type PHP uses to decide whether to fill $_POST (lowercased, up to `;`, `,` or a space). */
function phpPostMediaType(header: string | undefined): string {
  return (header ?? '').split(/[;, ]/)[0]!.toLowerCase();
}

/** The boundary parameter of a multipart Content-Type, quoted or not. */
function multipartBoundary(header: string | undefined): string {
  const m = /;\s*boundary=(?:"([^"]*)"|([^;,\s]*))/i.exec(header ?? '');
  return m ? (m[1] ?? m[2] ?? '') : '';
}

function normalizeHeaders(h: RawHttpRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h)) {
    if (value === undefined) continue;
    // Apache hands PHP no header whose name has anything but letters, digits and hyphens (X_HTTP_METHOD_OVERRIDE).
    if (!/^[A-Za-z0-9-]+$/.test(name)) continue;
    const key = name.toLowerCase();
    const joined = typeof value === 'string' ? value : value.join(', ');
    out[key] = key in out ? `${out[key]}, ${joined}` : joined;
  }
  return out;
}

const LANGUAGE_PREFIX = /^\/(en|uk)(?=\/|$)/;
const PRETTY_ROOT = /^wp-json\/?$/;
const PRETTY_ROUTE = /^wp-json\/(.*)?/;

/** Where the path sends the request: the pretty REST URL, or WordPress's front controller (where rest_route works). */
function routeFromPath(path: string): { pretty: string | null; frontController: boolean } {
  if (/^\/index\.php(\/|$)/.test(path)) {
    // PATH_INFO after index.php, decoded by Apache; WordPress re-escapes `%` before matching its rules.
    const info = apacheDecode(path.slice('/index.php'.length)).replace(/%/g, '%25').replace(/^\/+|(?<!\/)\/+$/g, '');
    if (info === '') return { pretty: null, frontController: true };
    if (PRETTY_ROOT.test(info)) return { pretty: '/', frontController: true };
    const m = PRETTY_ROUTE.exec(info);
    return { pretty: m ? `/${m[1] ?? ''}` : null, frontController: true };
  }
  const req = path.replace(/^\/+|(?<!\/)\/+$/g, '');
  if (PRETTY_ROOT.test(req)) return { pretty: '/', frontController: true };
  const m = PRETTY_ROUTE.exec(req);
  if (m) return { pretty: `/${m[1] ?? ''}`, frontController: true };
  // Real PHP files and WordPress's own directories are served without WordPress's front controller.
  const direct = /\.php$/i.test(req) || /^(wp-admin|wp-includes|wp-content)(\/|$)/.test(req);
  return { pretty: null, frontController: !direct };
}

function jsonpOf(v: unknown): JsonpRequest | null {
  if (v === undefined || !phpTruthy(v)) return null;
  if (typeof v !== 'string') return { callback: '', valid: false };
  return { callback: v, valid: /^[A-Za-z0-9_.]*$/.test(v) };
}

/** rest_parse_embed_param() */
export function parseEmbed(v: unknown): true | string[] {
  if (!phpTruthy(v) || v === 'true' || v === '1') return true;
  const list = wpParseList(v instanceof Map ? v : String(v));
  const rels = (Array.isArray(list) ? list : [...list.values()]).map(String);
  return rels.length === 0 ? true : rels;
}

/** `_fields` as rest_filter_response_fields() reads it: wp_parse_list(), trimmed; null = no filtering. */
function parseFields(v: unknown): string[] | null {
  if (v === undefined || v === null) return null;
  const list = wpParseList(v instanceof Map ? v : isPhpArrayLike(v) ? v : String(v));
  const fields = (Array.isArray(list) ? list : [...list.values()]).map((f) => String(f).trim());
  return fields.length === 0 ? null : fields;
}

function phpHas(source: unknown, key: string): boolean {
  return phpArrayHas(source, phpArrayKey(key));
}

function phpGet(source: unknown, key: string): unknown {
  return phpArrayGet(source, phpArrayKey(key));
}

/** get_parameter_order(): the sources WordPress looks in, first match wins. */
function parameterSources(p: Pick<ParsedRequest, 'contentType' | 'method' | 'jsonParams' | 'postParams' | 'phpQuery'>, urlParams?: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  if (p.contentType && isJsonMediaType(p.contentType.value)) out.push(p.jsonParams);
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(p.method)) out.push(p.postParams);
  out.push(p.phpQuery);
  if (urlParams) out.push(urlParams);
  return out;
}

/** WP_REST_Request::get_param(): JSON body, then form body (body methods only), query, path params. */
export function getParam(p: ParsedRequest, key: string, urlParams?: Record<string, unknown>): unknown {
  for (const src of parameterSources(p, urlParams)) {
    const v = phpGet(src, key);
    if (v !== undefined && v !== null) return phpToJs(v);
  }
  return undefined;
}

/** WP_REST_Request::has_param(): the key exists in any source (even as null). */
export function hasParam(p: ParsedRequest, key: string, urlParams?: Record<string, unknown>): boolean {
  return parameterSources(p, urlParams).some((src) => phpHas(src, key));
}

/**
 * The order sanitize_params() meets parameters in: each source in get_parameter_order() order, keys in their own
 * order, first sighting kept. For invalidParams()'s requestOrder.
 */
export function sanitizeOrder(p: ParsedRequest, urlParams?: Record<string, unknown>): string[] {
  const seen: string[] = [];
  for (const src of parameterSources(p, urlParams)) {
    const m = isPhpArrayLike(src) ? jsToPhpArray(src) : null;
    for (const k of m?.keys() ?? []) if (!seen.includes(String(k))) seen.push(String(k));
  }
  return seen;
}

/**
 * Parse a raw request the way it reaches WordPress's REST server. Returns null when WordPress would not serve it as
 * a REST request: another path without `rest_route`, a `rest_route` that is empty or `0`, a PHP file other than
 * index.php, a path Apache refuses (see apacheRejection()), or `rest_route` given as an array (a PHP fatal error on
 * WordPress).
 */
export function parseRequest(raw: RawHttpRequest): ParsedRequest | null {
  if (apacheRejection(raw.url)) return null;
  const { path: fullPath, query } = splitTarget(raw.url);
  let path = fullPath;
  let language: Language | undefined;
  const lang = LANGUAGE_PREFIX.exec(path);
  if (lang) {
    language = lang[1] as Language;
    path = path.slice(lang[0].length) || '/';
  }

  const headers = normalizeHeaders(raw.headers);
  const rawBody = typeof raw.body === 'string' ? utf8Encode(raw.body) : raw.body ? new Uint8Array(raw.body) : new Uint8Array(0);
  // Decoded once: strictly, so the JSON decoder can take it as it is (a body near the 8 MiB cap was decoded twice).
  const strictText = raw.text ?? utf8DecodeStrict(rawBody);
  const bodyText = strictText ?? utf8Decode(rawBody);
  const originalMethod = raw.method;
  const phpQuery = phpParseStr(query);
  const contentType = parseContentType(headers['content-type']);

  // $_POST: PHP fills it for POST requests with a form content type.
  const postMedia = phpPostMediaType(headers['content-type']);
  const phpPost: PhpArray =
    originalMethod !== 'POST'
      ? new Map()
      : postMedia === 'application/x-www-form-urlencoded'
        ? phpParseStr(bodyText)
        : postMedia === 'multipart/form-data'
          ? phpParseMultipart(bodyText, multipartBoundary(headers['content-type']))
          : new Map();

  // rest_route: $_POST beats $_GET beats the pretty permalink (WP::parse_request()).
  const located = routeFromPath(path);
  const postRoute = phpPost.get('rest_route');
  const getRoute = phpQuery.get('rest_route');
  let routeVar: unknown;
  let style: ParsedRequest['apiRootStyle'] = 'pretty';
  if (postRoute !== undefined && getRoute !== undefined && !samePhpValue(postRoute, getRoute)) return null; // wp_die(): "A variable mismatch has been detected."
  if (postRoute !== undefined || getRoute !== undefined) {
    if (!located.frontController) return null;
    routeVar = postRoute ?? getRoute;
    style = 'rest_route';
  } else if (located.pretty !== null) {
    routeVar = located.pretty;
  } else return null;
  if (typeof routeVar !== 'string') return null;
  if (phpEmptyString(routeVar)) return null;
  const route = untrailingslashit(routeVar) || '/';

  // Method overrides (serve_request()): ?_method first, then the header; only the header counts as "overridden".
  let method = asciiUpper(originalMethod);
  let methodOverridden = false;
  const qMethod = phpQuery.get('_method');
  if (qMethod !== undefined) {
    if (typeof qMethod === 'string') method = asciiUpper(qMethod);
  } else if (headers['x-http-method-override'] !== undefined) {
    method = asciiUpper(headers['x-http-method-override']);
    methodOverridden = true;
  }

  // Body parameters (WP_REST_Request::parse_json_params() / parse_body_params()).
  let jsonParams: unknown;
  let jsonError: JsonDecodeError | null = null;
  const isJson = contentType !== null && isJsonMediaType(contentType.value);
  if (isJson && !phpEmptyString(bodyText)) {
    const decoded = phpJsonDecode(rawBody, undefined, strictText);
    if (decoded.ok) jsonParams = decoded.value;
    else jsonError = decoded;
  }
  const postParams: PhpArray = new Map(phpPost);
  if (method !== 'POST' && !phpEmptyString(bodyText) && (contentType === null || contentType.value === 'application/x-www-form-urlencoded')) {
    for (const [k, v] of phpParseStr(bodyText)) if (!postParams.has(k)) postParams.set(k, v);
  }

  let bodyParams: Record<string, unknown> | undefined;
  if (isJson) {
    if (jsonParams !== null && typeof jsonParams === 'object') bodyParams = jsonParams as Record<string, unknown>;
  } else if (postParams.size > 0) bodyParams = phpToJs(postParams) as Record<string, unknown>;

  const parsed: ParsedRequest = {
    route,
    apiRootStyle: style,
    method,
    originalMethod,
    methodOverridden,
    query: phpToJs(phpQuery) as Record<string, unknown>,
    phpQuery,
    postParams,
    jsonError,
    contentType,
    headers,
    rawBody,
    globals: { _envelope: false, _fields: null, _embed: false, _jsonp: null, _pretty: false },
  };
  if (language) parsed.language = language;
  if (bodyParams !== undefined) parsed.bodyParams = bodyParams;
  if (jsonParams !== undefined) parsed.jsonParams = jsonParams;

  parsed.globals = globalsOf(parsed);
  return parsed;
}

/** The global parameters of a request, read from its sources as serve_request() and its filters read them. */
function globalsOf(parsed: ParsedRequest): GlobalParams {
  const { phpQuery } = parsed;
  const fieldsSource = parameterSources(parsed).map((s) => phpGet(s, '_fields')).find((v) => v !== undefined && v !== null);
  return {
    _envelope: phpQuery.has('_envelope'),
    _fields: parseFields(fieldsSource),
    _embed: phpQuery.has('_embed') ? parseEmbed(phpQuery.get('_embed')) : false,
    _jsonp: jsonpOf(phpQuery.get('_jsonp')),
    _pretty: hasParam(parsed, '_pretty'),
  };
}

/** A request made inside WordPress: a batch item, or the URL of an embedded link. */
interface RestRequestInit {
  method: string;
  path: string;
  /** Header names lower-case. */
  headers: Record<string, string>;
  body?: Record<string, unknown> | undefined;
}

/**
 * The parts wp_parse_url() gives of such a request's path, or null where it returns false (`///x`, `//`). A path that
 * starts with `//` names a host and no path: WordPress then matches no route.
 */
function batchPathParts(path: string): { path: string; query: string } | null {
  const hash = path.indexOf('#');
  const target = hash < 0 ? path : path.slice(0, hash);
  if (target.startsWith('//')) return /^\/\/[^/?]+/.test(target) ? { path: '', query: '' } : null;
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/**
 * `new WP_REST_Request( $method, $path )` as serve_batch_request_v1() builds it from a batch item and
 * WP_REST_Request::from_url() from an embedded link's URL: the route is the path as written (not decoded, no
 * trailing slash dropped, no `rest_route` or `_method` read from its query: those belong to the HTTP request), the
 * query parsed by wp_parse_str(), the method as given and the body object as the body parameters (held as JSON
 * parameters, which WP_REST_Request::get_param() reads first). Null when wp_parse_url() fails.
 */
export function wpRestRequest(item: RestRequestInit): ParsedRequest | null {
  const parts = batchPathParts(item.path);
  if (!parts) return null;
  const method = asciiUpper(item.method);
  const phpQuery = phpParseStr(parts.query);
  const headers = item.body ? Object.assign({}, item.headers, { 'content-type': 'application/json' }) : item.headers;
  const parsed: ParsedRequest = {
    route: parts.path,
    apiRootStyle: 'pretty',
    method,
    originalMethod: method,
    methodOverridden: false,
    query: phpToJs(phpQuery) as Record<string, unknown>,
    phpQuery,
    postParams: new Map(),
    jsonError: null,
    contentType: parseContentType(headers['content-type']),
    headers,
    rawBody: new Uint8Array(0),
    globals: { _envelope: false, _fields: null, _embed: false, _jsonp: null, _pretty: false },
  };
  if (item.body) {
    parsed.jsonParams = item.body;
    parsed.bodyParams = item.body;
  }
  parsed.globals = globalsOf(parsed);
  return parsed;
}

function samePhpValue(a: unknown, b: unknown): boolean {
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k as PhpKey) || !samePhpValue(v, b.get(k as PhpKey))) return false;
    return true;
  }
  return a === b;
}
