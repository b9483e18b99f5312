// What WordPress does to a response body on the way out (WP_REST_Server::serve_request(), response_to_data(),
// embed_links(), envelope_response(); rest_filter_response_fields() and rest_is_field_included() in rest-api.php):
// `_fields` filtering, `_embed`, `_envelope`, `_jsonp`, `_pretty`, and PHP's JSON encoding.

import { isNumericArray, isPhpArrayLike, jsToPhpArray, phpArrayKey, wpJsonEncode, type PhpKey } from '../../../contracts/wordpress/php/index.ts';

// ---------------------------------------------------------------------------------------------------------------
// _fields

/** The nested field tree rest_filter_response_fields() builds: `true` = keep the whole value. */
type FieldTree = { [field: string]: true | FieldTree };

/**
 * Build the tree from `_fields` entries, dot-notation nesting. Reproduces WordPress's `break 2`: a `parent.child`
 * after `parent` was already taken whole stops the processing of every later field, so
 * `_fields=title,title.rendered,id` keeps only `title` (checked on the reference server).
 */
export function fieldTree(fields: readonly string[]): FieldTree {
  const tree: FieldTree = {};
  for (const field of fields) {
    const parts = field.split('.');
    let ref: FieldTree = tree;
    while (parts.length > 1) {
      const next = parts.shift()!;
      if (ref[next] === true) return tree;
      if (ref[next] === undefined) ref[next] = {};
      ref = ref[next] as FieldTree;
    }
    ref[parts[0]!] = true;
  }
  return tree;
}

function intersect(value: unknown, tree: FieldTree): unknown {
  const m = jsToPhpArray(value);
  if (!m) return value;
  const treeKeys = new Map<PhpKey, true | FieldTree>();
  for (const [k, v] of Object.entries(tree)) treeKeys.set(phpArrayKey(k), v);
  const kept = new Map<PhpKey, unknown>();
  for (const [k, v] of m) {
    if (!treeKeys.has(k)) continue;
    const sub = treeKeys.get(k)!;
    kept.set(k, sub !== true && isPhpArrayLike(v) ? intersect(v, sub) : v);
  }
  return fromPhpArray(kept);
}

/** Back to JS: a list (an empty result included) is an array, other keys make an object, as json_encode prints them. */
function fromPhpArray(m: Map<PhpKey, unknown>): unknown {
  let i = 0;
  let list = true;
  for (const k of m.keys()) if (k !== i++) list = false;
  if (list) return [...m.values()];
  const o: Record<string, unknown> = {};
  for (const [k, v] of m) Object.defineProperty(o, String(k), { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

/**
 * rest_filter_response_fields(): keep only the requested fields, applied to each item of a list. Not applied to
 * errors (status >= 400) nor when `_fields` is absent or empty (pass `null`). Key order is the data's, not the
 * request's.
 */
export function filterFields(data: unknown, fields: readonly string[] | null, status = 200): unknown {
  if (!fields || fields.length === 0 || status >= 400) return data;
  if (!isPhpArrayLike(data)) return data;
  const tree = fieldTree(fields.map((f) => f.trim()));
  if (isNumericArray(data)) return [...jsToPhpArray(data)!.values()].map((item) => intersect(item, tree));
  return intersect(data, tree);
}

/**
 * rest_is_field_included(): whether a controller should compute a field (`title` is included by `title.raw`, and
 * `title.raw` by `title`). Controllers add `_links` only when `_links` or `_embedded` is included.
 */
export function isFieldIncluded(field: string, fields: readonly string[] | null): boolean {
  if (!fields) return true;
  if (fields.includes(field)) return true;
  return fields.some((accepted) => accepted.startsWith(`${field}.`) || field.startsWith(`${accepted}.`));
}

// ---------------------------------------------------------------------------------------------------------------
// _embed

/** A link as it stands in `_links`: href plus attributes (`embeddable`, `taxonomy`, ...). */
interface LinkObject {
  href: string;
  embeddable?: boolean;
  [attribute: string]: unknown;
}

/**
 * embed_links(): for each rel in `_links` (all, or those listed), fetch the embeddable links through `resolve`
 * (the data of a GET of that URL with context=embed, errors included; undefined when the URL is not a REST route)
 * and add `_embedded` at the end. Non-embeddable links keep their place as `[]`; a rel with nothing embedded is left
 * out. Lists are embedded item by item. `resolve` is called once per distinct href.
 */
export function embedLinks(data: unknown, embed: true | readonly string[] | false, resolve: (href: string) => unknown): unknown {
  if (!embed) return data;
  const cache = new Map<string, unknown>();
  const fetch = (href: string) => {
    if (!cache.has(href)) cache.set(href, resolve(href));
    return cache.get(href);
  };
  const one = (item: unknown): unknown => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const links = (item as { _links?: unknown })._links;
    if (!links || typeof links !== 'object' || Object.keys(links).length === 0) return item;
    const embedded: Record<string, unknown[]> = {};
    for (const [rel, list] of Object.entries(links as Record<string, unknown>)) {
      if (embed !== true && !embed.includes(rel)) continue;
      const embeds: unknown[] = [];
      for (const link of Array.isArray(list) ? (list as LinkObject[]) : []) {
        if (!link?.embeddable) {
          embeds.push([]);
          continue;
        }
        const got = fetch(link.href);
        embeds.push(got === undefined ? [] : got);
      }
      // array_filter(): empty arrays, null, false, 0 and '' do not count as embedded.
      if (embeds.some((e) => !(Array.isArray(e) && e.length === 0) && e !== null && e !== false && e !== 0 && e !== '' && e !== '0')) embedded[rel] = embeds;
    }
    if (Object.keys(embedded).length === 0) return item;
    return { ...(item as Record<string, unknown>), _embedded: embedded };
  };
  return Array.isArray(data) ? data.map(one) : one(data);
}

// ---------------------------------------------------------------------------------------------------------------
// _envelope

interface Enveloped {
  /** always 200: the envelope is a new response */
  status: 200;
  body: { body: unknown; status: number; headers: Record<string, string | number> | [] };
}

/** Headers the controllers set as PHP integers. */
const INTEGER_HEADERS = new Set(['X-WP-Total', 'X-WP-TotalPages']);

/**
 * envelope_response(): the final body (after `_fields` and `_embed`), the real status and the response's own headers
 * (X-WP-Total as numbers, Link, Location, Allow - not the server's fixed headers) become the body of a 200 answer.
 * Headers printed as `[]` when there are none (an empty PHP array), as in sample 44. Send the envelope with no
 * response headers and no Allow: they are inside it.
 */
export function envelope(
  data: unknown,
  status: number,
  headers: ReadonlyArray<readonly [string, string | number]> | Readonly<Record<string, string | number>> = [],
): Enveloped {
  const entries = Array.isArray(headers) ? (headers as ReadonlyArray<readonly [string, string | number]>) : Object.entries(headers);
  const h: Record<string, string | number> = {};
  // The wire carries every header as text, but the controllers set X-WP-Total and X-WP-TotalPages as PHP integers,
  // and the envelope shows the values as set: `"X-WP-Total":4`, not `"4"`.
  for (const [k, v] of entries) h[k] = typeof v === 'string' && INTEGER_HEADERS.has(k) && /^[0-9]+$/.test(v) ? Number(v) : v;
  return { status: 200, body: { body: data, status, headers: entries.length === 0 ? [] : h } };
}

// ---------------------------------------------------------------------------------------------------------------
// Serialization (_pretty, _jsonp)

interface SerializeOptions {
  /** `_pretty` present: JSON_PRETTY_PRINT */
  pretty?: boolean;
  /** a valid `_jsonp` callback: `/**\/cb(...)` */
  jsonpCallback?: string | null;
}

/**
 * The body bytes serve_request() echoes: wp_json_encode() (so `\/` and `\uXXXX`), pretty-printed for `_pretty`,
 * wrapped as `/**\/cb(...)` for JSONP. Null means no body at all: a 204 or a null result.
 */
export function serializeBody(data: unknown, status: number, opts: SerializeOptions = {}): string | null {
  if (status === 204 || data === null || data === undefined) return null;
  const json = wpJsonEncode(data, { pretty: opts.pretty ?? false });
  return opts.jsonpCallback ? `/**/${opts.jsonpCallback}(${json})` : json;
}

/** Content-Type of a REST body: JSON, or JavaScript when a JSONP callback is used. */
export function contentTypeFor(jsonp: boolean, charset = 'UTF-8'): string {
  return `${jsonp ? 'application/javascript' : 'application/json'}; charset=${charset}`;
}
