// PHP and WordPress string helpers the wire texts depend on.
import { isPhpArrayLike, isScalar, jsToPhpArray, type PhpKey } from './arrays.ts';
import { phpStringCast } from './scalars.ts';

/** PHP trim(): spaces, tabs, newlines, carriage returns, NUL and vertical tabs (not JavaScript's Unicode spaces). */
export function phpTrim(s: string): string {
  return s.replace(/^[ \t\n\r\0\x0B]+|(?<![ \t\n\r\0\x0B])[ \t\n\r\0\x0B]+$/g, '');
}

const LIST_SEPARATORS = /[ \t\n\r\v\f,]+/;

/** wp_parse_list() of a string: preg_split('/[\s,]+/') on commas and PHP's whitespace, empties dropped. */
export function splitList(v: string): string[] {
  return v.split(LIST_SEPARATORS).filter((s) => s !== '');
}

/**
 * wp_parse_list(): a scalar is cast to a string and split on commas and PHP's whitespace (splitList()); an array
 * keeps its scalar entries (and their keys).
 */
export function wpParseList(v: unknown): unknown[] | Map<PhpKey, unknown> {
  if (!isPhpArrayLike(v)) return splitList(phpStringCast(v));
  const m = jsToPhpArray(v)!;
  const out = new Map<PhpKey, unknown>();
  for (const [k, val] of m) if (isScalar(val)) out.set(k, val);
  return Array.isArray(v) ? [...out.values()] : out;
}

/** The `%l` list of wp_sprintf_l() in English: `a`, `a and b`, `a, b, and c`. */
export function wpSprintfList(items: readonly string[]): string {
  if (items.length === 0) return '';
  if (items.length === 1) return items[0]!;
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/**
 * PHP 8.2's strtolower(): ASCII letters only, whatever the locale (`Ü` stays `Ü`). wp_insert_term() compares a new
 * term's name with the names the database matched this way, so on a live 6.1.9 (PHP 8.2) "HSLUG ÜNÏ" is a new tag
 * beside "Hslug Ünï" while "HSLUG ALPHA" is refused beside "Hslug Alpha".
 */
export function phpStrToLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}
