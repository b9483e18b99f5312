// Wire values → typed values, the way WordPress reads them before validating.
//
// WordPress validates a parameter with rest_validate_value_from_schema() and then converts it with
// rest_sanitize_value_from_schema() (wp-includes/rest-api.php). Their type tests decide what a string from a
// query string or a form body may stand for:
//   integer  rest_is_integer(): is_numeric() and integral — "5", "5.0", 5.0 (rejects "5.5", "abc", "")
//   number   is_numeric() — "1.5", "1e3", "-2"
//   boolean  rest_is_boolean(): true/false, "true"/"false"/"1"/"0" (case-insensitive), 1/0
//   array    rest_is_array(): a real list, or a scalar split by wp_parse_list() on commas and whitespace;
//            PHP arrays with numeric keys (`a[0]=1&a[1]=2`) count as lists
//   object   rest_is_object(): an object, or the empty string "" (read as {})
//   string   is_string() only: a JSON number sent for a string parameter is NOT converted, it is rejected
//   null     PHP null only; the string "null" is not null
// The same rules apply to JSON bodies (WordPress coerces "5" for an integer there too).
// A value that cannot be read as its type is returned unchanged, so the validator reports the type error.
import { isNumericString } from '../wordpress/php/scalars.ts';
import { splitList } from '../wordpress/php/strings.ts';
import type { JsonSchema } from './types.ts';

/** PHP 8 is_numeric() on a string (the WordPress layer's rule). */
export { isNumericString };

/** WordPress's wp_parse_list() of a string: split on commas and PHP's whitespace, empties dropped. */
export const wpParseList = splitList;

function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return wpParseList(value);
  // wp_parse_list() casts a scalar to a string first: 5 → ['5'], true → ['1'], false → [].
  if (typeof value === 'number') return wpParseList(String(value));
  if (typeof value === 'boolean') return value ? ['1'] : [];
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.every((k) => /^\d+$/.test(k))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => (value as Record<string, unknown>)[k]);
    }
  }
  return undefined;
}

function coerceAs(type: string, schema: JsonSchema, value: unknown): { ok: boolean; value: unknown } {
  switch (type) {
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return { ok: true, value };
      if (typeof value === 'string' && isNumericString(value) && Number.isInteger(Number(value))) {
        return { ok: true, value: Number(value) };
      }
      return { ok: false, value };
    case 'number':
      if (typeof value === 'number') return { ok: true, value };
      if (typeof value === 'string' && isNumericString(value)) return { ok: true, value: Number(value) };
      return { ok: false, value };
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 1 || value === 0) return { ok: true, value: value === 1 };
      if (typeof value === 'string') {
        const l = value.toLowerCase();
        if (l === 'true' || l === '1') return { ok: true, value: true };
        if (l === 'false' || l === '0') return { ok: true, value: false };
      }
      return { ok: false, value };
    case 'array': {
      const list = asList(value);
      if (!list) return { ok: false, value };
      const items = schema.items as JsonSchema | undefined;
      return { ok: true, value: items ? list.map((v) => coerceValue(items, v)) : list };
    }
    case 'object': {
      if (value === '') return { ok: true, value: {} };
      if (value === null || typeof value !== 'object') return { ok: false, value };
      // rest_is_object() accepts any PHP array, and a JSON list is one: its keys are the indexes.
      const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const extra = schema.additionalProperties;
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries) {
        const sub = props[k] ?? (extra && typeof extra === 'object' ? (extra as JsonSchema) : undefined);
        out[k] = sub ? coerceValue(sub, v) : v;
      }
      return { ok: true, value: out };
    }
    case 'string':
      return { ok: typeof value === 'string', value };
    case 'null':
      return { ok: value === null, value };
    default:
      return { ok: false, value };
  }
}

/**
 * Coerce one wire value to its schema's type; unchanged when it cannot be read as that type.
 * A union (`type: [a, b]`) is read as rest_get_best_type_for_value() does: the schema's own order, first
 * type whose test passes, except that "" prefers string when string is allowed.
 */
export function coerceValue(schema: JsonSchema, value: unknown): unknown {
  const t = schema.type;
  if (t === undefined) return value;
  const types: string[] = Array.isArray(t) ? t : [t];
  if (value === '' && types.length > 1 && types.includes('string')) return value;
  for (const ty of types) {
    const r = coerceAs(ty, schema, value);
    if (r.ok) return r.value;
  }
  return value;
}
