// Wire values → typed values, the way WordPress reads them before validating: the type tests of the validator port
// (value-types.ts: rest_is_integer(), rest_is_boolean(), rest_is_array(), rest_is_object(), is_numeric()) decide
// whether a value can stand for its schema's type, and rest_get_best_type_for_value() picks among a union. The
// contract's validator checks the result, so what it judges is what WordPress reads:
//   integer  "5", "5.0", 5.0 (not "5.5", "abc", "")     number   "1.5", "1e3", "-2", PHP whitespace around
//   boolean  true/false, "true"/"false"/"1"/"0" in any case, 1/0
//   array    a real list, a PHP array without string keys, or a scalar split by wp_parse_list()
//   object   any PHP array (a JSON list too), or "" (read as {})
//   string   only a string: a JSON number sent for a string parameter is not converted
//   null     PHP null only; the string "null" is not null
// The same rules apply to JSON bodies (WordPress coerces "5" for an integer there too). A value that cannot be read
// as its type is returned unchanged, so the validator reports the type error.
import { isNumericString, jsToPhpArray, phpToFloat, splitList } from '../php/index.ts';
import type { JsonSchema } from './types.ts';
import { bestType, restSanitizeArray, restSanitizeBoolean, TYPE_TESTS } from './value-types.ts';

/** PHP 8 is_numeric() on a string (php/scalars.ts). */
export { isNumericString };

/** wp_parse_list() of a string: split on commas and PHP's whitespace, empties dropped (php/strings.ts). */
export const wpParseList = splitList;

/**
 * A numeric value as a number the contract's validator compares as WordPress does: PHP reads "1e400" as INF, which
 * is integral to rest_is_integer() (round(INF) == INF) and beyond every maximum; JSON Schema has no infinite
 * numbers, so it stands as the largest finite one, which compares alike with every bound and is integral too.
 */
function asNumber(value: unknown): number {
  const f = phpToFloat(value);
  return f === Infinity ? Number.MAX_VALUE : f === -Infinity ? -Number.MAX_VALUE : f;
}

function coerceAs(type: string, schema: JsonSchema, value: unknown): unknown {
  switch (type) {
    case 'integer':
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : asNumber(value);
    case 'boolean':
      return restSanitizeBoolean(value);
    case 'array': {
      const list = restSanitizeArray(value);
      const items = schema.items as JsonSchema | undefined;
      return items ? list.map((v) => coerceValue(items, v)) : list;
    }
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const extra = schema.additionalProperties;
      const out: Record<string, unknown> = {};
      // rest_is_object() takes any PHP array, and a JSON list is one: its keys are the indexes.
      for (const [k, v] of jsToPhpArray(value === '' ? {} : value) ?? new Map()) {
        const key = String(k);
        const sub = props[key] ?? (extra && typeof extra === 'object' ? (extra as JsonSchema) : undefined);
        Object.defineProperty(out, key, { value: sub ? coerceValue(sub, v) : v, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    default:
      return value;
  }
}

/**
 * Coerce one wire value to its schema's type; unchanged when it cannot be read as that type. A union (`type: [a,
 * b]`) is read as rest_get_best_type_for_value() does: the schema's own order, the first type whose test passes,
 * except that "" prefers string when string is allowed.
 */
export function coerceValue(schema: JsonSchema, value: unknown): unknown {
  const t = schema.type;
  if (t === undefined) return value;
  const types: unknown[] = Array.isArray(t) ? t : [t];
  // One type is read only as itself: rest_get_best_type_for_value()'s "" → string preference is for unions.
  const type = types.length === 1 ? (typeof t === 'string' && Object.prototype.hasOwnProperty.call(TYPE_TESTS, t) && TYPE_TESTS[t]!(value) ? t : '') : bestType(value, types);
  return type === '' ? value : coerceAs(type, schema, value);
}
