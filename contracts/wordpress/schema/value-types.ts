// WordPress's type tests and the conversions tied to them (rest_is_boolean(), rest_is_integer(), rest_is_array(),
// rest_is_object(), rest_sanitize_array(), rest_sanitize_boolean(), rest_get_best_type_for_value()), on the value PHP
// holds: a scalar is a list to rest_is_array(), '' is an object, "1" a boolean.
import { isNumeric, isNumericArray, isPhpArrayLike, isScalar, jsToPhpArray, phpToFloat, wpParseList, type PhpKey } from '../php/index.ts';

/** The types rest_validate_value_from_schema() knows. */
export const ALLOWED_TYPES = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'] as const;

export function restIsBoolean(v: unknown): boolean {
  if (typeof v === 'boolean') return true;
  if (typeof v === 'string') return ['false', 'true', '0', '1'].includes(v.toLowerCase());
  if (typeof v === 'number') return v === 0 || v === 1;
  return false;
}

export function restIsInteger(v: unknown): boolean {
  if (!isNumeric(v)) return false;
  const f = phpToFloat(v);
  return Math.round(f) === f;
}

export function restIsArray(v: unknown): boolean {
  if (isScalar(v)) return true; // wp_parse_list() of any scalar is a list
  return isNumericArray(v);
}

export function restIsObject(v: unknown): boolean {
  return v === '' || isPhpArrayLike(v);
}

/** rest_sanitize_array(): scalars split like wp_parse_list(), arrays re-indexed, anything else empty. */
export function restSanitizeArray(v: unknown): unknown[] {
  if (isScalar(v)) return wpParseList(v) as unknown[];
  if (Array.isArray(v)) return v.slice();
  const m = isPhpArrayLike(v) ? jsToPhpArray(v) : null;
  return m ? [...m.values()] : [];
}

/** rest_sanitize_object() as an ordered PHP array. */
export function sanitizeObjectEntries(v: unknown): Map<PhpKey, unknown> {
  if (v === '') return new Map();
  return (isPhpArrayLike(v) ? jsToPhpArray(v) : null) ?? new Map();
}

export function restSanitizeBoolean(v: unknown): boolean {
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (s === 'false' || s === '0') return false;
    return s !== '';
  }
  if (isPhpArrayLike(v)) return (jsToPhpArray(v)?.size ?? 0) > 0;
  return Boolean(v);
}

/** The test of each type, as rest_get_best_type_for_value() runs them. */
export const TYPE_TESTS: Readonly<Record<string, (v: unknown) => boolean>> = {
  array: restIsArray,
  object: restIsObject,
  integer: restIsInteger,
  number: isNumeric,
  boolean: restIsBoolean,
  string: (v) => typeof v === 'string',
  null: (v) => v === null,
};

/** rest_get_best_type_for_value(): the first type of the list whose test passes ('' prefers string); '' when none does. */
export function bestType(value: unknown, types: readonly unknown[]): string {
  if (value === '' && types.includes('string')) return 'string';
  for (const t of types) if (typeof t === 'string' && Object.prototype.hasOwnProperty.call(TYPE_TESTS, t) && TYPE_TESTS[t]!(value)) return t;
  return '';
}

/** rest_handle_multi_type_schema(): '' when nothing fits (unless the list holds a non-standard type). */
export function multiType(value: unknown, types: readonly unknown[]): string {
  const invalid = types.filter((t) => !(ALLOWED_TYPES as readonly unknown[]).includes(t));
  const best = bestType(value, types);
  if (!best && invalid.length > 0) return String(invalid[0]);
  return best;
}

/** A PHP value's identity for uniqueItems (rest_validate_array_contains_unique_items(): types and keys kept apart). */
function stableKey(v: unknown): string {
  if (v === null || v === undefined) return 'N';
  if (typeof v === 'boolean') return `b:${v ? 1 : 0}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `i:${v}` : `d:${v}`;
  if (typeof v === 'string') return `s:${JSON.stringify(v)}`;
  const m = jsToPhpArray(v);
  if (!m) return `?:${String(v)}`;
  const entries = [...m].sort(([a], [b]) => (typeof a === typeof b ? (a < b ? -1 : a > b ? 1 : 0) : typeof a === 'number' ? -1 : 1));
  return `a{${entries.map(([k, x]) => `${typeof k === 'number' ? 'i' : 's'}:${k}=${stableKey(x)}`).join(';')}}`;
}

export function hasUniqueItems(items: readonly unknown[]): boolean {
  return new Set(items.map(stableKey)).size === items.length;
}

/** PHP's loose array comparison as rest_validate_enum() makes it, on values seen as PHP arrays. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  const ma = isPhpArrayLike(a) ? jsToPhpArray(a) : null;
  const mb = isPhpArrayLike(b) ? jsToPhpArray(b) : null;
  if (ma && mb) {
    if (ma.size !== mb.size) return false;
    for (const [k, v] of ma) if (!mb.has(k) || !valuesEqual(v, mb.get(k))) return false;
    return true;
  }
  return a === b;
}
