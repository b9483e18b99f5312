// The PHP way of carrying structure in `application/x-www-form-urlencoded` text, which is what WordPress reads
// query strings and form bodies through ($_GET, $_POST, parse_str()):
//   a=1            a is the string "1"
//   a[]=1&a[]=2    a is the list ["1","2"]
//   a[x]=1         a is the map {x: "1"}
//   r[0][m]=POST   nested maps/lists, to any depth
// A list of strings is written with `[]`, anything deeper with explicit indices, so parse(encode(v)) gives back v.
// Empty lists and maps cannot be written at all; callers send "" for them, which WordPress reads as an empty list
// (wp_parse_list) or an empty object (rest_is_object). Reading is the WordPress layer's parse_str().
import { phpParseStr } from '../../wordpress/php/parse-str.ts';
import { phpToJs } from '../../wordpress/php/arrays.ts';
import type { WireValue } from './model.ts';

function encodePart(s: string): string {
  return encodeURIComponent(s);
}

function pairs(name: string, value: WireValue, out: string[]): void {
  if (value === null) throw new Error(`${name}: null has no form-encoded representation`);
  if (typeof value === 'string') {
    out.push(`${name}=${encodePart(value)}`);
    return;
  }
  if (typeof value === 'number') {
    out.push(`${name}=${encodePart(String(value))}`);
    return;
  }
  if (typeof value === 'boolean') {
    // What PHP's http_build_query() prints for booleans.
    out.push(`${name}=${value ? '1' : '0'}`);
    return;
  }
  if (Array.isArray(value)) {
    const flat = value.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
    value.forEach((v, i) => pairs(flat ? `${name}[]` : `${name}[${i}]`, v, out));
    return;
  }
  for (const [k, v] of Object.entries(value)) pairs(`${name}[${encodePart(k)}]`, v, out);
}

/** Encode parameters the PHP way: `a=1&b[]=2&b[]=3&c[0][x]=y`. Brackets are left literal (PHP and URLs accept them). */
export function encodePhpQuery(params: Record<string, WireValue>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(params)) pairs(encodePart(k), v, out);
  return out.join('&');
}

/**
 * Form-encoded text (a query string, a form body) as PHP hands it to WordPress: the WordPress layer's parse_str()
 * (contracts/wordpress/php/parse-str.ts, the mock's own reading), as plain values: lists as arrays, other PHP arrays
 * as objects. So what the generators validate is what the mock and WordPress read, `a[b=1` as `{a_b: "1"}` included.
 */
export function parsePhpQuery(text: string): Record<string, WireValue> {
  const out: Record<string, WireValue> = {};
  // The top level is always a map of names (phpToJs() would make `0=a&1=b`, or nothing, a list).
  for (const [k, v] of phpParseStr(text)) Object.defineProperty(out, String(k), { value: phpToJs(v), enumerable: true, writable: true, configurable: true });
  return out;
}
