// The headers of a WordPress REST answer, in the order they reach the wire on Apache + mod_php:
// WP_REST_Server::serve_request() sends its fixed headers, then the response's own (X-WP-Total, Link, Location,
// Allow...), then rest_send_cors_headers() (on rest_pre_serve_request), then the no-cache headers. PHP's header()
// replaces a header of the same name where it stands, and Apache emits Content-Type last. Apache adds Date, Server,
// Content-Length / Transfer-Encoding and Connection itself; those are the HTTP layer's business.
import { phpTrim } from '../../../contracts/wordpress/php/index.ts';
// sanitize_url(): what WordPress makes of an Origin before echoing it (a scheme outside wp_allowed_protocols() yields
// '', so `chrome-extension://…` is echoed as an empty Access-Control-Allow-Origin).
import { sanitizeUrl } from '../../../contracts/wordpress/url.ts';

/** Header name/value pairs in wire order. */
export type HeaderList = [name: string, value: string][];

const WP_EXPOSE_HEADERS = 'X-WP-Total, X-WP-TotalPages, Link';
export const WP_ALLOW_HEADERS = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';
const WP_CORS_METHODS = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
/**
 * Request headers of the mock's own, unknown to WordPress: `Prefer` forces a status or a delay. A page on another
 * origin can send one only if the CORS preflight allows it, so a preflight that asks for one is allowed it
 * (allowHeadersFor()); every other answer keeps WordPress's Access-Control-Allow-Headers as it is.
 */
const MOCK_REQUEST_HEADERS = ['Prefer'] as const;
/** wp_get_nocache_headers() in WordPress 6.1 (Last-Modified is removed, not sent). */
const WP_NOCACHE_HEADERS: HeaderList = [
  ['Expires', 'Wed, 11 Jan 1984 05:00:00 GMT'],
  ['Cache-Control', 'no-cache, must-revalidate, max-age=0'],
];

/** The `Link` value WordPress sends for the API root: `<http://host/wp-json/>; rel="https://api.w.org/"`. */
function apiRootLink(apiRoot: string): string {
  return `<${sanitizeUrl(apiRoot)}>; rel="https://api.w.org/"`;
}

/**
 * WP_REST_Response::link_header(): `<url>; rel="rel"` plus attributes, `title` quoted, others verbatim
 * (a post's `<permalink>; rel="alternate"; type=text/html`).
 */
export function linkHeaderValue(rel: string, url: string, attributes: Readonly<Record<string, string>> = {}): string {
  let out = `<${url}>; rel="${rel}"`;
  for (const [k, v] of Object.entries(attributes)) out += `; ${k}=${k === 'title' ? `"${v}"` : v}`;
  return out;
}

/**
 * rest_send_allow_header(): the methods whose permission_callback passed for this user, in route order, uppercased,
 * each once; null when there are none (then no Allow header is sent - e.g. a 404 from an item's permission check).
 */
export function allowHeader(methods: readonly string[] | null | undefined): string | null {
  if (!methods) return null;
  const seen: string[] = [];
  for (const m of methods) {
    const up = m.toUpperCase();
    if (!seen.includes(up)) seen.push(up);
  }
  return seen.length === 0 ? null : seen.join(', ');
}

interface CorsInput {
  /** The request's Origin header, if any. */
  origin?: string | undefined;
  /** REQUEST_METHOD as sent, before any override. */
  originalMethod: string;
  loggedIn: boolean;
}

/**
 * rest_send_cors_headers(): with an Origin (PHP-non-empty, so not "0"), echo it (sanitized, `null` kept literally),
 * allow the methods and credentials, and add `Vary: Origin`. Without one, only an anonymous GET gets `Vary: Origin`.
 */
export function corsHeaders(input: CorsInput): HeaderList {
  const origin = input.origin ?? '';
  if (origin !== '' && origin !== '0') {
    return [
      ['Access-Control-Allow-Origin', origin === 'null' ? 'null' : sanitizeUrl(origin)],
      ['Access-Control-Allow-Methods', WP_CORS_METHODS],
      ['Access-Control-Allow-Credentials', 'true'],
      ['Vary', 'Origin'],
    ];
  }
  return input.originalMethod === 'GET' && !input.loggedIn ? [['Vary', 'Origin']] : [];
}

/**
 * Access-Control-Allow-Headers: WordPress's list (WP_REST_Server::serve_request()), plus those of the mock's own request
 * headers that a preflight's Access-Control-Request-Headers asks for. X-HTTP-Method-Override is not added: WordPress
 * does not allow it either, so a browser cannot send it cross-origin to the real site.
 */
function allowHeadersFor(requested: string | undefined): string {
  if (!requested) return WP_ALLOW_HEADERS;
  const asked = requested.toLowerCase().split(',').map((h) => h.trim());
  const extra = MOCK_REQUEST_HEADERS.filter((h) => asked.includes(h.toLowerCase()));
  return extra.length ? `${WP_ALLOW_HEADERS}, ${extra.join(', ')}` : WP_ALLOW_HEADERS;
}

/** serve_request(): no-cache headers for a logged-in user, or for a 4xx after X-HTTP-Method-Override. */
export function needsNoCache(loggedIn: boolean, methodOverridden: boolean, status: number): boolean {
  return loggedIn || (methodOverridden && String(status).startsWith('4'));
}

interface ResponseHeadersInput {
  /** get_rest_url() of the site: `http://127.0.0.1:8089/wp-json/`. */
  apiRoot: string;
  /** The answer's HTTP status (for the method-override no-cache rule). */
  status: number;
  /** REQUEST_METHOD as sent. */
  originalMethod: string;
  /** Request Origin header. */
  origin?: string | undefined;
  /** Access-Control-Request-Headers of a CORS preflight (see allowHeadersFor()). */
  requestedHeaders?: string | undefined;
  loggedIn: boolean;
  /** X-HTTP-Method-Override changed the method (ParsedRequest.methodOverridden). */
  methodOverridden?: boolean;
  /** A `_jsonp` PHP finds truthy, valid or not: the Content-Type is JavaScript. */
  jsonp?: boolean;
  /** blog_charset, UTF-8 on the reference site. */
  charset?: string;
  /**
   * The response's own headers in the order the handler set them (X-WP-Total, X-WP-TotalPages, Link, Location...).
   * Numbers are printed as PHP prints them. An enveloped answer has none: they went into the envelope.
   */
  responseHeaders?: ReadonlyArray<readonly [string, string | number]> | Readonly<Record<string, string | number>>;
  /** Methods for the Allow header (see allowHeader()); added after the response's headers, as rest_post_dispatch does. */
  allow?: readonly string[] | null;
  /**
   * serve_request() gave up before dispatching (an invalid `_jsonp` callback): only the fixed headers are sent -
   * no Allow, no CORS, no no-cache.
   */
  early?: boolean;
}

function setHeader(list: HeaderList, name: string, value: string): void {
  const i = list.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
  if (i >= 0) {
    list[i] = [list[i]![0], value];
    // header() with replace also drops any later duplicates.
    for (let j = list.length - 1; j > i; j--) if (list[j]![0].toLowerCase() === name.toLowerCase()) list.splice(j, 1);
  } else list.push([name, value]);
}

/** The full header list of a REST answer, in wire order, Content-Type last. */
export function responseHeaders(input: ResponseHeadersInput): HeaderList {
  const list: HeaderList = [];
  setHeader(list, 'X-Robots-Tag', 'noindex');
  setHeader(list, 'Link', apiRootLink(input.apiRoot));
  setHeader(list, 'X-Content-Type-Options', 'nosniff');
  setHeader(list, 'Access-Control-Expose-Headers', WP_EXPOSE_HEADERS);
  setHeader(list, 'Access-Control-Allow-Headers', allowHeadersFor(input.requestedHeaders));
  const contentType = `${input.jsonp ? 'application/javascript' : 'application/json'}; charset=${input.charset ?? 'UTF-8'}`;
  if (!input.early) {
    const own = Array.isArray(input.responseHeaders)
      ? (input.responseHeaders as ReadonlyArray<readonly [string, string | number]>)
      : Object.entries(input.responseHeaders ?? {});
    for (const [name, value] of own) setHeader(list, name, String(value));
    const allow = allowHeader(input.allow);
    if (allow) setHeader(list, 'Allow', allow);
    for (const [name, value] of corsHeaders({ origin: input.origin, originalMethod: input.originalMethod, loggedIn: input.loggedIn })) {
      if (name === 'Vary') list.push([name, value]); // header('Vary: Origin', false) adds rather than replaces
      else setHeader(list, name, value);
    }
    if (needsNoCache(input.loggedIn, input.methodOverridden ?? false, input.status)) {
      for (const [name, value] of WP_NOCACHE_HEADERS) setHeader(list, name, value);
      const lm = list.findIndex(([n]) => n.toLowerCase() === 'last-modified');
      if (lm >= 0) list.splice(lm, 1);
    }
  }
  // A handler may send its own type (oEmbed's text/xml); either way Apache puts it last.
  const ct = list.findIndex(([n]) => n.toLowerCase() === 'content-type');
  const finalType = ct >= 0 ? list[ct]![1] : contentType;
  if (ct >= 0) list.splice(ct, 1);
  list.push(['Content-Type', finalType]);
  return list;
}
