// Comparing two answers that should be the same one (the same request by another address form, or with a
// documented default written out). Fields derived from the clock are not a difference: a legacy list's default
// start_date is "now", its rest_url repeats it, a new record's date and modified are the moment it was made, so
// two requests a second apart differ there and nowhere else. Nor is the secret WordPress draws afresh for every
// oEmbed answer (wp_filter_oembed_result(): `data-secret="…"`, `#?secret=…`). The first real difference is
// named by its place in the body (`body.events[3].title`), so a failure says which field differed.

import { isDeepStrictEqual } from 'node:util';
import { jsonBody, type Exchange } from '../../http/types.ts';
import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';

/** Date-times as they appear in bodies and in URLs inside bodies (`2026-11-23 10:00:01`, `2026-11-23T10%3A00%3A01`). */
const DATE_TIME = /\d{4}-\d\d-\d\d(?:[T ]|%20|\+)\d\d(?::|%3A)\d\d(?:(?::|%3A)\d\d)?(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?/gi;

/** Names of fields whose numbers are clock readings (unix times) rather than data. */
const CLOCK_NAMES = /(^|_)(time|timestamp|now|modified|expires|date)(_gmt|_utc)?$/i;

/** oEmbed's per-answer secret, in the iframe's address and in its data attribute. */
const EMBED_SECRET = /(secret=\\?"?)[A-Za-z0-9]{10}/g;

function masked(s: string): string {
  return s.replace(DATE_TIME, '<date-time>').replace(EMBED_SECRET, '$1<secret>');
}

/** The two strings are the same once every date-time (and oEmbed secret) in them is masked: only the clock differs. */
export function differOnlyByClock(a: string, b: string): boolean {
  return a !== b && masked(a) === masked(b);
}

interface Difference {
  /** `body`, `body.routes["/cal/v1"].methods[0]`, `status`. */
  path: string;
  a: unknown;
  b: unknown;
}

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** The first place two JSON values differ in more than the clock; undefined when they do not. */
export function firstDifference(a: unknown, b: unknown, path = 'body', key = ''): Difference | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (typeof a === 'string' && typeof b === 'string') return differOnlyByClock(a, b) ? undefined : { path, a, b };
  if (typeof a === 'number' && typeof b === 'number' && CLOCK_NAMES.test(key)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return { path: `${path}.length`, a: a.length, b: b.length };
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], child(path, i), key);
      if (d) return d;
    }
    return undefined;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!(k in x) || !(k in y)) return { path: child(path, k), a: k in x ? x[k] : '(absent)', b: k in y ? y[k] : '(absent)' };
      const d = firstDifference(x[k], y[k], child(path, k), k);
      if (d) return d;
    }
    return undefined;
  }
  return { path, a, b };
}

function shown(v: unknown): string {
  const s = typeof v === 'string' && v === '(absent)' ? v : JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** How two answers differ (status, then the JSON body field by field, or the text), clock aside; undefined when they do not. */
export function answerDifference(first: Exchange, second: Exchange, headers: readonly string[] = []): string | undefined {
  const ra = first.response!;
  const rb = second.response!;
  if (ra.status !== rb.status) return `status ${rb.status} instead of ${ra.status}`;
  for (const h of headers) if (ra.headers[h] !== rb.headers[h]) return `header ${h} ${shown(rb.headers[h] ?? '(absent)')} instead of ${shown(ra.headers[h] ?? '(absent)')}`;
  const ja = jsonBody(ra);
  const jb = jsonBody(rb);
  if (ja === undefined && jb === undefined) return ra.body === rb.body || differOnlyByClock(ra.body, rb.body) ? undefined : 'a different (non-JSON) body';
  const d = firstDifference(ja, jb);
  return d ? `${d.path} ${shown(d.b)} instead of ${shown(d.a)}` : undefined;
}
