// A port of WordPress 6.1's own argument validator and sanitizer (wp-includes/rest-api.php,
// rest_validate_value_from_schema() and rest_sanitize_value_from_schema() with their helpers), run on the raw value
// PHP would hold. The contract's validator says *whether* a request is wrong; this says *what WordPress answers*:
// the first error in WordPress's own walk order, with its exact code, message and data, including WordPress's loose
// coercions (a scalar is an array, `''` is an object, `"1,abc"` is a list).
// Schemas here are WordPress arg schemas (draft-04 style, see convert.ts toWpSchema()).

import { isNumeric, isPhpList, isPhpArrayLike, jsToPhpArray, phpArrayKey, phpStringCast, phpToFloat, type PhpKey } from '../php/index.ts';
import { matchesWpPattern, sanitizeTextField, WP_FORMATS } from './formats.ts';
import { isWpError, WP_SCHEMA_ERRORS as E } from './messages.ts';
import type { WpError, WpSchema } from './types.ts';
import { ALLOWED_TYPES, hasUniqueItems, multiType, valuesEqual, restIsArray, restIsBoolean, restIsInteger, restIsObject, restSanitizeArray, restSanitizeBoolean, sanitizeObjectEntries } from './value-types.ts';

import { isPlainObject } from '../plain-object.ts';
import { sanitizeUrl } from '../url.ts';
export type { WpError, WpSchema };

function isObj(v: unknown): v is WpSchema {
  return isPlainObject(v);
}

// ---------------------------------------------------------------------------------------------------------------
// Combining schemas (anyOf / oneOf)

interface BranchError {
  error: WpError;
  schema: WpSchema;
  index: number;
}

function formatCombiningError(param: string, e: BranchError): WpError {
  return E.branch(param, e.schema.title, e.error.message, e.index);
}

function combiningError(value: unknown, param: string, errors: BranchError[]): WpError {
  if (errors.length === 1) return formatCombiningError(param, errors[0]!);
  const filtered = errors.filter((e) => {
    const d = e.error.data as { param?: unknown } | null;
    return e.error.code !== 'rest_invalid_type' || (isObj(d) && d.param !== undefined && d.param !== param);
  });
  if (filtered.length === 1) return formatCombiningError(param, filtered[0]!);
  if (filtered.length > 1 && filtered[0]!.schema.type === 'object') {
    let result: BranchError | null = null;
    let best = 0;
    const valueKeys = new Set((jsToPhpArray(value) ?? new Map()).keys());
    for (const e of filtered) {
      if (isObj(e.schema.properties)) {
        const n = Object.keys(e.schema.properties).filter((k) => valueKeys.has(phpArrayKey(k))).length;
        if (n > best) {
          result = e;
          best = n;
        }
      }
    }
    if (result) return formatCombiningError(param, result);
  }
  const titles = errors.filter((e) => e.schema.title !== undefined).map((e) => e.schema.title);
  return E.noBranch(param, titles.length === errors.length ? titles : null);
}

function branches(args: WpSchema, key: 'anyOf' | 'oneOf'): WpSchema[] {
  const list = args[key];
  const arr = Array.isArray(list) ? list : isObj(list) ? Object.values(list) : [];
  return arr.map((s) => {
    const schema: WpSchema = isObj(s) ? { ...s } : {};
    if (schema.type === undefined && args.type !== undefined) schema.type = args.type;
    return schema;
  });
}

function findAnyMatching(value: unknown, args: WpSchema, param: string): WpSchema | WpError {
  const errors: BranchError[] = [];
  const list = branches(args, 'anyOf');
  for (let index = 0; index < list.length; index++) {
    const schema = list[index]!;
    const e = wpValidateValue(value, schema, param);
    if (!e) return schema;
    errors.push({ error: e, schema, index });
  }
  return combiningError(value, param, errors);
}

function findOneMatching(value: unknown, args: WpSchema, param: string): WpSchema | WpError {
  const matching: { schema: WpSchema; index: number }[] = [];
  const errors: BranchError[] = [];
  branches(args, 'oneOf').forEach((schema, index) => {
    const e = wpValidateValue(value, schema, param);
    if (e) errors.push({ error: e, schema, index });
    else matching.push({ schema, index });
  });
  if (matching.length === 0) return combiningError(value, param, errors);
  if (matching.length > 1) {
    const positions = matching.map((m) => m.index);
    const titles = matching.filter((m) => m.schema.title !== undefined).map((m) => m.schema.title);
    return E.oneOfMany(param, titles.length === matching.length ? titles : null, positions);
  }
  return matching[0]!.schema;
}

const isError = isWpError;

// ---------------------------------------------------------------------------------------------------------------
// Validation

function validateNumber(value: unknown, args: WpSchema, param: string): WpError | null {
  if (!isNumeric(value)) return E.type(param, args.type);
  const v = phpToFloat(value);
  if (args.multipleOf !== undefined && v % phpToFloat(args.multipleOf) !== 0) {
    return E.multipleOf(param, args.multipleOf);
  }
  const hasMin = args.minimum !== undefined && args.minimum !== null;
  const hasMax = args.maximum !== undefined && args.maximum !== null;
  const min = phpToFloat(args.minimum);
  const max = phpToFloat(args.maximum);
  const exMin = Boolean(args.exclusiveMinimum);
  const exMax = Boolean(args.exclusiveMaximum);
  const below = hasMin && (exMin ? v <= min : v < min);
  const above = hasMax && (exMax ? v >= max : v > max);
  return below || above ? E.bounds(param, args) : null;
}

function validateString(value: unknown, args: WpSchema, param: string): WpError | null {
  if (typeof value !== 'string') return E.type(param, 'string');
  const len = [...value].length;
  if (args.minLength !== undefined && len < phpToFloat(args.minLength)) return E.minLength(param, args.minLength);
  if (args.maxLength !== undefined && len > phpToFloat(args.maxLength)) return E.maxLength(param, args.maxLength);
  if (args.pattern !== undefined && !matchesWpPattern(phpStringCast(args.pattern), value)) return E.pattern(param, args.pattern);
  return null;
}

function validateArray(value: unknown, args: WpSchema, param: string): WpError | null {
  if (!restIsArray(value)) return E.type(param, 'array');
  const list = restSanitizeArray(value);
  if (args.items !== undefined) {
    for (let i = 0; i < list.length; i++) {
      const e = wpValidateValue(list[i], isObj(args.items) ? args.items : {}, `${param}[${i}]`);
      if (e) return e;
    }
  }
  if (args.minItems !== undefined && list.length < phpToFloat(args.minItems)) return E.minItems(param, args.minItems);
  if (args.maxItems !== undefined && list.length > phpToFloat(args.maxItems)) return E.maxItems(param, args.maxItems);
  if (args.uniqueItems && !hasUniqueItems(list)) return E.uniqueItems(param);
  return null;
}

function patternPropertySchema(property: PhpKey, args: WpSchema): WpSchema | null {
  if (!isObj(args.patternProperties)) return null;
  for (const [pattern, schema] of Object.entries(args.patternProperties)) {
    if (matchesWpPattern(pattern, String(property))) return isObj(schema) ? schema : {};
  }
  return null;
}

function validateObject(value: unknown, args: WpSchema, param: string): WpError | null {
  if (!restIsObject(value)) return E.type(param, 'object');
  const obj = sanitizeObjectEntries(value);
  const props = isObj(args.properties) ? args.properties : {};
  if (Array.isArray(args.required)) {
    for (const name of args.required) {
      if (!obj.has(phpArrayKey(String(name)))) return E.required(param, name);
    }
  } else {
    for (const [name, prop] of Object.entries(props)) {
      if (isObj(prop) && prop.required === true && !obj.has(phpArrayKey(name))) {
        return E.required(param, name);
      }
    }
  }
  for (const [property, v] of obj) {
    const child = props[String(property)];
    if (child !== undefined && child !== null) {
      const e = wpValidateValue(v, isObj(child) ? child : {}, `${param}[${property}]`);
      if (e) return e;
      continue;
    }
    const pattern = patternPropertySchema(property, args);
    if (pattern) {
      const e = wpValidateValue(v, pattern, `${param}[${property}]`);
      if (e) return e;
      continue;
    }
    if (args.additionalProperties === false) {
      return E.additionalProperties(property);
    }
    if (isObj(args.additionalProperties)) {
      const e = wpValidateValue(v, args.additionalProperties, `${param}[${property}]`);
      if (e) return e;
    }
  }
  if (args.minProperties !== undefined && obj.size < phpToFloat(args.minProperties)) return E.minProperties(param, args.minProperties);
  if (args.maxProperties !== undefined && obj.size > phpToFloat(args.maxProperties)) return E.maxProperties(param, args.maxProperties);
  return null;
}

function validateEnum(value: unknown, args: WpSchema, param: string): WpError | null {
  const sanitized = wpSanitizeValue(value, args, param);
  if (isError(sanitized)) return sanitized;
  const allowed = Array.isArray(args.enum) ? args.enum : isObj(args.enum) ? Object.values(args.enum) : [];
  if (allowed.some((e) => valuesEqual(sanitized, e))) return null;
  return E.enum(param, allowed);
}

/**
 * rest_validate_value_from_schema(): null when WordPress accepts the value, else the error it reports.
 * `param` is the name used in messages (`per_page`, `requests[0][method]`).
 */
export function wpValidateValue(value: unknown, schema: WpSchema, param = ''): WpError | null {
  const args: WpSchema = { ...schema };
  if (args.anyOf !== undefined) {
    const m = findAnyMatching(value, args, param);
    if (isError(m)) return m;
    if (args.type === undefined && m.type !== undefined) args.type = m.type;
  }
  if (args.oneOf !== undefined) {
    const m = findOneMatching(value, args, param);
    if (isError(m)) return m;
    if (args.type === undefined && m.type !== undefined) args.type = m.type;
  }
  if (Array.isArray(args.type)) {
    const best = multiType(value, args.type);
    if (!best) return E.type(param, args.type);
    args.type = best;
  }
  let e: WpError | null = null;
  switch (args.type) {
    case 'null':
      e = value === null ? null : E.type(param, 'null');
      break;
    case 'boolean':
      e = restIsBoolean(value) ? null : E.type(param, 'boolean');
      break;
    case 'object':
      e = validateObject(value, args, param);
      break;
    case 'array':
      e = validateArray(value, args, param);
      break;
    case 'number':
      e = validateNumber(value, args, param);
      break;
    case 'string':
      e = validateString(value, args, param);
      break;
    case 'integer':
      e = validateNumber(value, args, param);
      if (!e && !restIsInteger(value)) e = E.type(param, 'integer');
      break;
    default:
      break;
  }
  if (e) return e;
  const hasEnum = Array.isArray(args.enum) ? args.enum.length > 0 : isObj(args.enum) && Object.keys(args.enum).length > 0;
  if (hasEnum) {
    const en = validateEnum(value, args, param);
    if (en) return en;
  }
  const typeIsStandard = typeof args.type === 'string' && (ALLOWED_TYPES as readonly string[]).includes(args.type);
  if (args.format !== undefined && (args.type === undefined || args.type === 'string' || !typeIsStandard)) {
    const check = typeof args.format === 'string' && Object.prototype.hasOwnProperty.call(WP_FORMATS, args.format) ? WP_FORMATS[args.format] : undefined;
    if (check && !check.accepts(value)) return check.error(param);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Sanitization


function phpIntCast(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null || v === undefined) return 0;
  if (isPhpArrayLike(v)) return (jsToPhpArray(v)?.size ?? 0) > 0 ? 1 : 0;
  const f = phpToFloat(v);
  return Number.isFinite(f) ? Math.trunc(f) || 0 : 0;
}

/**
 * rest_sanitize_value_from_schema(): the value WordPress stores back into the request (and so into pagination links):
 * `"5"` → 5, `"1,2"` → [1, 2] for an integer array, `"false"` → false. May fail (duplicate items, combining schemas).
 */
export function wpSanitizeValue(value: unknown, schema: WpSchema, param = ''): unknown {
  const args: WpSchema = { ...schema };
  let v = value;
  if (args.anyOf !== undefined) {
    const m = findAnyMatching(v, args, param);
    if (isError(m)) return m;
    if (args.type === undefined) args.type = m.type;
    v = wpSanitizeValue(v, m, param);
  }
  if (args.oneOf !== undefined) {
    const m = findOneMatching(v, args, param);
    if (isError(m)) return m;
    if (args.type === undefined) args.type = m.type;
    v = wpSanitizeValue(v, m, param);
  }
  if (Array.isArray(args.type)) {
    const best = multiType(v, args.type);
    if (!best) return null;
    args.type = best;
  }
  if (args.type === 'array') {
    const list = restSanitizeArray(v);
    const out = isObj(args.items) && Object.keys(args.items).length > 0 ? list.map((x, i) => wpSanitizeValue(x, args.items as WpSchema, `${param}[${i}]`)) : list;
    if (args.uniqueItems && !hasUniqueItems(out)) return E.uniqueItems(param);
    return out;
  }
  if (args.type === 'object') {
    const entries = sanitizeObjectEntries(v);
    const props = isObj(args.properties) ? args.properties : {};
    const out = new Map<PhpKey, unknown>();
    for (const [property, x] of entries) {
      const child = props[String(property)];
      if (child !== undefined && child !== null) {
        out.set(property, wpSanitizeValue(x, isObj(child) ? child : {}, `${param}[${property}]`));
        continue;
      }
      const pattern = patternPropertySchema(property, args);
      if (pattern) {
        out.set(property, wpSanitizeValue(x, pattern, `${param}[${property}]`));
        continue;
      }
      if (args.additionalProperties === false) continue;
      out.set(property, isObj(args.additionalProperties) ? wpSanitizeValue(x, args.additionalProperties, `${param}[${property}]`) : x);
    }
    // A PHP array with keys 0..n-1 (an empty one included) is a list to PHP, and prints as one.
    if (isPhpList(out)) return [...out.values()];
    if (v instanceof Map) return out;
    const obj: Record<string, unknown> = {};
    for (const [k, x] of out) Object.defineProperty(obj, String(k), { value: x, enumerable: true, writable: true, configurable: true });
    return obj;
  }
  if (args.type === 'null') return null;
  if (args.type === 'integer') return phpIntCast(v);
  if (args.type === 'number') return isPhpArrayLike(v) ? phpIntCast(v) : phpToFloat(v);
  if (args.type === 'boolean') return restSanitizeBoolean(v);
  const typeIsStandard = typeof args.type === 'string' && (ALLOWED_TYPES as readonly string[]).includes(args.type);
  if (args.format !== undefined && (args.type === undefined || args.type === 'string' || !typeIsStandard)) {
    switch (args.format) {
      case 'hex-color':
        return WP_FORMATS['hex-color']!.accepts(v) ? phpStringCast(v) : '';
      case 'date-time':
      case 'email':
      case 'ip':
      case 'uuid':
      case 'text-field':
        return sanitizeTextField(v);
      case 'textarea-field':
        return isPhpArrayLike(v) ? '' : phpStringCast(v).trim();
      case 'uri':
        return sanitizeUrl(phpStringCast(v));
      default:
        break;
    }
  }
  if (args.type === 'string') return isPhpArrayLike(v) ? 'Array' : phpStringCast(v);
  return v;
}

/** Whether wpSanitizeValue() gave an error rather than a value. */
