// Request reading on the hot path. The wire layer's parseRequest() is the reference (PHP's exact $_GET, json_decode()
// error codes...), but it re-reads everything byte by byte; most requests need none of that care. Two shortcuts,
// each falling back to parseRequest() whenever it might answer differently:
// - a bodyless request's reading depends only on its method, URL and two headers, so it is memoised;
// - a JSON object body that JSON.parse accepts, in valid UTF-8, with no lone surrogate escape and shallow enough for
//   PHP's 512 levels, decodes exactly as json_decode() would, so it is attached to the bodyless reading.
// Copies of a reading are made with Object.assign, not `{ ...base, key }`: V8 (Node 20) adds properties to a spread
// copy slowly, about a microsecond each, and this runs for every request and every batch item.
import { utf8DecodeStrict, utf8Encode } from '../bytes.ts';
import { isJsonMediaType, parseContentType, parseRequest, type ParsedRequest } from '../wire/request.ts';
import type { MockRequest } from './types.ts';

/** Request headers as PHP sees them: names lower-case, only letters/digits/hyphens, repeats joined. */
export function phpHeaders(h: MockRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(h)) {
    const v = h[name] as string | readonly string[] | undefined;
    if (v === undefined || !/^[A-Za-z0-9-]+$/.test(name)) continue;
    out[name.toLowerCase()] = typeof v === 'string' ? v : v.join(', ');
  }
  return out;
}

const memo = new Map<string, ParsedRequest>();

function bodyless(method: string, url: string, contentType: string | undefined, override: string | undefined): ParsedRequest | null {
  const key = `${method} ${url}\u0000${contentType ?? ''}\u0000${override ?? ''}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (override !== undefined) headers['x-http-method-override'] = override;
  const parsed = parseRequest({ method, url, headers });
  if (!parsed) return null;
  if (memo.size > 4096) memo.clear();
  memo.set(key, parsed);
  return parsed;
}

/** Keys a body may carry that change how the whole request is read (globals, the route): those take the slow path. */
const READING_KEYS = ['_fields', '_pretty', 'rest_route'];

function shallowEnough(text: string): boolean {
  let opens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91) opens++;
  }
  return opens < 500;
}

/** A JSON body decoded as json_decode() would, or undefined when only the careful reader can tell. */
function quickJson(bytes: Uint8Array): Record<string, unknown> | undefined {
  const text = utf8DecodeStrict(bytes);
  if (text === undefined) return undefined;
  if (/\\u[dD][89a-fA-F]/.test(text) || !shallowEnough(text)) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  for (const k of READING_KEYS) if (k in v) return undefined;
  return v as Record<string, unknown>;
}

function withBody(base: ParsedRequest, headers: Record<string, string>, rawBody: Uint8Array, json: Record<string, unknown>): ParsedRequest {
  return Object.assign({}, base, { headers, rawBody, jsonParams: json, bodyParams: json, jsonError: null });
}

/** The request as WordPress's REST server reads it; null when WordPress would not serve it as a REST request. */
export function readRequest(mreq: MockRequest): ParsedRequest | null {
  const ct = mreq.headers['content-type'];
  const override = mreq.headers['x-http-method-override'];
  const body = mreq.body;
  if (body === undefined || body.length === 0) {
    const base = bodyless(mreq.method, mreq.url, ct, override);
    return base && Object.assign({}, base, { headers: phpHeaders(mreq.headers) });
  }
  const type = parseContentType(ct);
  if (type && isJsonMediaType(type.value)) {
    const bytes = typeof body === 'string' ? utf8Encode(body) : body;
    const json = quickJson(bytes);
    if (json) {
      const base = bodyless(mreq.method, mreq.url, ct, override);
      return base && withBody(base, phpHeaders(mreq.headers), bytes, json);
    }
  }
  return parseRequest({ method: mreq.method, url: mreq.url, headers: mreq.headers, body });
}

const EMPTY_BODY = new Uint8Array(0);

/** A batch item: method, path under the API root, headers, and its body object (set as JSON params). */
export function readItem(method: string, url: string, headers: Record<string, string>, body: Record<string, unknown> | undefined): ParsedRequest | null {
  const ct = body ? 'application/json' : headers['content-type'];
  const base = bodyless(method, url, ct, undefined);
  if (!base) return null;
  const h = body ? Object.assign({}, headers, { 'content-type': 'application/json' }) : headers;
  if (!body) return Object.assign({}, base, { headers: h, method: method.toUpperCase(), methodOverridden: false });
  for (const k of READING_KEYS) if (k in body) {
    const full = parseRequest({ method, url, headers: h, body: JSON.stringify(body) });
    return full && { ...full, method: method.toUpperCase(), methodOverridden: false };
  }
  // rawBody only matters to decoding, which an item's body object never needs: left empty.
  const item = withBody(base, h, EMPTY_BODY, body);
  item.method = method.toUpperCase();
  item.methodOverridden = false;
  return item;
}
