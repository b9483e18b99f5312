// A port of WordPress 6.1's own argument validator and sanitizer (wp-includes/rest-api.php,
// rest_validate_value_from_schema() and rest_sanitize_value_from_schema() with their helpers), run on the raw value
// PHP would hold. The contract's validator says *whether* a request is wrong; this says *what WordPress answers*:
// the first error in WordPress's own walk order, with its exact code, message and data, including WordPress's loose
// coercions (a scalar is an array, `''` is an object, `"1,abc"` is a list).
// Schemas here are WordPress arg schemas (draft-04 style, see convert.ts toWpSchema()).

import { utf8Length } from '../bytes.ts';
import type { WpError, WpSchema } from './types.ts';
import { removePercentOctets, removeScriptStyle, stripAngleTags } from '../linear-text.ts';
import {
  isNumeric,
  isNumericArray,
  isPhpList,
  isPhpArrayLike,
  isScalar,
  jsToPhpArray,
  numberFormatI18n,
  phpArrayKey,
  phpIntFormat,
  phpStringCast,
  phpToFloat,
  wpJsonEncode,
  wpParseList,
  wpSprintfList,
  type PhpKey,
} from '../php/index.ts';

export type { WpError, WpSchema };

const ALLOWED_TYPES = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'] as const;

// Marks errors this module creates, so a sanitized value that merely looks like {code, message, data} is not one.
const WP_ERROR = Symbol('WpError');

function err(code: string, message: string, data: unknown = null): WpError {
  const e = { code, message, data };
  Object.defineProperty(e, WP_ERROR, { value: true, enumerable: false });
  return e;
}

function isObj(v: unknown): v is WpSchema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------------------------
// Type predicates (rest_is_*)

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
  const m = isPhpArrayLike(v) ? jsToPhpArray(v) : null;
  return m ? [...m.values()] : [];
}

/** rest_sanitize_object() as an ordered PHP array. */
function sanitizeObjectEntries(v: unknown): Map<PhpKey, unknown> {
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

function bestType(value: unknown, types: readonly unknown[]): string {
  if (value === '' && types.includes('string')) return 'string';
  const checks: Record<string, (v: unknown) => boolean> = {
    array: restIsArray,
    object: restIsObject,
    integer: restIsInteger,
    number: isNumeric,
    boolean: restIsBoolean,
    string: (v) => typeof v === 'string',
    null: (v) => v === null,
  };
  for (const t of types) if (typeof t === 'string' && checks[t]?.(value)) return t;
  return '';
}

/** rest_handle_multi_type_schema(): '' when nothing fits (unless the list holds a non-standard type). */
function multiType(value: unknown, types: readonly unknown[]): string {
  const invalid = types.filter((t) => !(ALLOWED_TYPES as readonly unknown[]).includes(t));
  const best = bestType(value, types);
  if (!best && invalid.length > 0) return String(invalid[0]);
  return best;
}

// ---------------------------------------------------------------------------------------------------------------
// Formats

function phpDateToTimestamp(s: string): number | false {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:(Z)|([+-])(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (!m) return false;
  const [, y, mo, d, h, mi, se, , sign, th, tm] = m;
  // strtotime()'s ranges for this shape (checked on PHP 8.2): month 0-12, day 0-31, hour 0-24, minute 0-59, second 0-60.
  if (+mo! > 12 || +d! > 31 || +h! > 24 || +mi! > 59 || +se! > 60) return false;
  let offset = 0;
  if (sign) {
    if (tm !== undefined && (+th! > 24 || +tm > 59)) return false;
    offset = (sign === '-' ? -1 : 1) * (+th! * 3600 + (tm ? +tm * 60 : 0));
  }
  const date = new Date(0);
  date.setUTCFullYear(+y!, +mo! - 1, +d!);
  date.setUTCHours(+h!, +mi!, +se!, 0);
  // Dates without a zone are read in the site's zone, UTC on the reference site.
  return date.getTime() / 1000 - offset;
}

/** rest_parse_date(): the RFC 3339 shape, then strtotime(); a timestamp of 0 counts as a failure, as in WordPress. */
export function restParseDate(v: unknown): boolean {
  const t = phpDateToTimestamp(phpStringCast(v));
  return t !== false && t !== 0;
}

export function isEmail(v: unknown): boolean {
  const email = phpStringCast(v);
  if (utf8Length(email) < 6) return false;
  const at = email.indexOf('@', 1);
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (domain.replace(/^[ \t\n\r\0\x0B.]+|(?<![ \t\n\r\0\x0B.])[ \t\n\r\0\x0B.]+$/g, '') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  for (const sub of subs) {
    if (sub.replace(/^[ \t\n\r\0\x0B-]+|(?<![ \t\n\r\0\x0B-])[ \t\n\r\0\x0B-]+$/g, '') !== sub) return false;
    if (!/^[a-z0-9-]+$/i.test(sub)) return false;
  }
  return true;
}

function checkIpv6(ip0: string): boolean {
  let ip = ip0;
  if (ip.split('::').length - 1 === 1) {
    const [ip1, ip2] = ip.split('::') as [string, string];
    const c1 = ip1 === '' ? -1 : ip1.split(':').length - 1;
    let c2 = ip2 === '' ? -1 : ip2.split(':').length - 1;
    if (ip2.includes('.')) c2++;
    if (c1 === -1 && c2 === -1) ip = '0:0:0:0:0:0:0:0';
    else if (c1 === -1) ip = ip.replace('::', '0:'.repeat(Math.max(0, 7 - c2)));
    else if (c2 === -1) ip = ip.replace('::', ':0'.repeat(Math.max(0, 7 - c1)));
    else ip = ip.replace('::', ':' + '0:'.repeat(Math.max(0, 6 - c2 - c1)));
  }
  let v6 = ip;
  let v4 = '';
  if (ip.includes('.')) {
    const pos = ip.lastIndexOf(':');
    v6 = ip.slice(0, pos);
    v4 = ip.slice(pos + 1);
  }
  const p6 = v6.split(':');
  const p4 = v4.split('.');
  if (!((p6.length === 8 && p4.length === 1) || (p6.length === 6 && p4.length === 4))) return false;
  for (const part of p6) {
    if (part === '' || part.length > 4) return false;
    const stripped = part.replace(/^0+/, '') || '0';
    if (!/^[0-9a-fA-F]+$/.test(stripped)) return false;
    if (parseInt(stripped, 16).toString(16) !== stripped.toLowerCase()) return false;
  }
  if (p4.length === 4) {
    for (const part of p4) {
      const n = parseInt(part, 10);
      if (String(n) !== part || n < 0 || n > 255) return false;
    }
  }
  return true;
}

export function restIsIpAddress(v: unknown): boolean {
  const ip = phpStringCast(v);
  return /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$/.test(ip) || checkIpv6(ip);
}

export function wpIsUuid(v: unknown): boolean {
  return typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v);
}

export function restParseHexColor(v: unknown): boolean {
  return /^#([A-Fa-f0-9]{3}){1,2}$/.test(phpStringCast(v));
}

/**
 * rest_validate_json_schema_pattern(): PCRE `#pattern#u`, unanchored. JavaScript's `u` mode rejects a few escapes
 * PCRE accepts, so the pattern is retried without it; a pattern neither engine reads is taken as matching (the
 * contract validator has already judged the value).
 */
export function matchesWpPattern(pattern: string, value: string): boolean {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags).test(value);
    } catch {
      // try the next flag set
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Combining schemas (anyOf / oneOf)

interface BranchError {
  error: WpError;
  schema: WpSchema;
  index: number;
}

function formatCombiningError(param: string, e: BranchError): WpError {
  const reason = e.error.message;
  if (e.schema.title !== undefined) {
    return err('rest_no_matching_schema', `${param} is not a valid ${phpStringCast(e.schema.title)}. Reason: ${reason}`, { position: e.index });
  }
  return err('rest_no_matching_schema', `${param} does not match the expected format. Reason: ${reason}`, { position: e.index });
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
  const titles = errors.filter((e) => e.schema.title !== undefined).map((e) => phpStringCast(e.schema.title));
  if (titles.length === errors.length) return err('rest_no_matching_schema', `${param} is not a valid ${wpSprintfList(titles)}.`);
  return err('rest_no_matching_schema', `${param} does not match any of the expected formats.`);
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
    const titles = matching.filter((m) => m.schema.title !== undefined).map((m) => phpStringCast(m.schema.title));
    if (titles.length === matching.length) {
      return err('rest_one_of_multiple_matches', `${param} matches ${wpSprintfList(titles)}, but should match only one.`, { positions });
    }
    return err('rest_one_of_multiple_matches', `${param} matches more than one of the expected formats.`, { positions });
  }
  return matching[0]!.schema;
}

function isError(v: unknown): v is WpError {
  return isObj(v) && (v as { [WP_ERROR]?: boolean })[WP_ERROR] === true;
}

// ---------------------------------------------------------------------------------------------------------------
// Validation

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

function validateNumber(value: unknown, args: WpSchema, param: string): WpError | null {
  if (!isNumeric(value)) return err('rest_invalid_type', `${param} is not of type ${phpStringCast(args.type)}.`, { param });
  const v = phpToFloat(value);
  if (args.multipleOf !== undefined && v % phpToFloat(args.multipleOf) !== 0) {
    return err('rest_invalid_multiple', `${param} must be a multiple of ${phpStringCast(args.multipleOf)}.`);
  }
  const hasMin = args.minimum !== undefined && args.minimum !== null;
  const hasMax = args.maximum !== undefined && args.maximum !== null;
  const min = phpToFloat(args.minimum);
  const max = phpToFloat(args.maximum);
  const exMin = Boolean(args.exclusiveMinimum);
  const exMax = Boolean(args.exclusiveMaximum);
  const dMin = phpIntFormat(args.minimum);
  const dMax = phpIntFormat(args.maximum);
  if (hasMin && !hasMax) {
    if (exMin && v <= min) return err('rest_out_of_bounds', `${param} must be greater than ${dMin}`);
    if (!exMin && v < min) return err('rest_out_of_bounds', `${param} must be greater than or equal to ${dMin}`);
  }
  if (hasMax && !hasMin) {
    if (exMax && v >= max) return err('rest_out_of_bounds', `${param} must be less than ${dMax}`);
    if (!exMax && v > max) return err('rest_out_of_bounds', `${param} must be less than or equal to ${dMax}`);
  }
  if (hasMin && hasMax) {
    const lo = exMin ? v <= min : v < min;
    const hi = exMax ? v >= max : v > max;
    if (lo || hi) {
      const w = (ex: boolean) => (ex ? 'exclusive' : 'inclusive');
      return err('rest_out_of_bounds', `${param} must be between ${dMin} (${w(exMin)}) and ${dMax} (${w(exMax)})`);
    }
  }
  return null;
}

function validateString(value: unknown, args: WpSchema, param: string): WpError | null {
  if (typeof value !== 'string') return err('rest_invalid_type', `${param} is not of type string.`, { param });
  const len = [...value].length;
  if (args.minLength !== undefined && len < phpToFloat(args.minLength)) {
    const n = phpToFloat(args.minLength);
    return err('rest_too_short', `${param} must be at least ${numberFormatI18n(n)} ${plural(n, 'character', 'characters')} long.`);
  }
  if (args.maxLength !== undefined && len > phpToFloat(args.maxLength)) {
    const n = phpToFloat(args.maxLength);
    return err('rest_too_long', `${param} must be at most ${numberFormatI18n(n)} ${plural(n, 'character', 'characters')} long.`);
  }
  if (args.pattern !== undefined && !matchesWpPattern(phpStringCast(args.pattern), value)) {
    return err('rest_invalid_pattern', `${param} does not match pattern ${phpStringCast(args.pattern)}.`);
  }
  return null;
}

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

function hasUniqueItems(items: readonly unknown[]): boolean {
  return new Set(items.map(stableKey)).size === items.length;
}

function validateArray(value: unknown, args: WpSchema, param: string): WpError | null {
  if (!restIsArray(value)) return err('rest_invalid_type', `${param} is not of type array.`, { param });
  const list = restSanitizeArray(value);
  if (args.items !== undefined) {
    for (let i = 0; i < list.length; i++) {
      const e = wpValidateValue(list[i], isObj(args.items) ? args.items : {}, `${param}[${i}]`);
      if (e) return e;
    }
  }
  if (args.minItems !== undefined && list.length < phpToFloat(args.minItems)) {
    const n = phpToFloat(args.minItems);
    return err('rest_too_few_items', `${param} must contain at least ${numberFormatI18n(n)} ${plural(n, 'item', 'items')}.`);
  }
  if (args.maxItems !== undefined && list.length > phpToFloat(args.maxItems)) {
    const n = phpToFloat(args.maxItems);
    return err('rest_too_many_items', `${param} must contain at most ${numberFormatI18n(n)} ${plural(n, 'item', 'items')}.`);
  }
  if (args.uniqueItems && !hasUniqueItems(list)) return err('rest_duplicate_items', `${param} has duplicate items.`);
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
  if (!restIsObject(value)) return err('rest_invalid_type', `${param} is not of type object.`, { param });
  const obj = sanitizeObjectEntries(value);
  const props = isObj(args.properties) ? args.properties : {};
  if (Array.isArray(args.required)) {
    for (const name of args.required) {
      if (!obj.has(phpArrayKey(String(name)))) return err('rest_property_required', `${phpStringCast(name)} is a required property of ${param}.`);
    }
  } else {
    for (const [name, prop] of Object.entries(props)) {
      if (isObj(prop) && prop.required === true && !obj.has(phpArrayKey(name))) {
        return err('rest_property_required', `${name} is a required property of ${param}.`);
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
      return err('rest_additional_properties_forbidden', `${property} is not a valid property of Object.`);
    }
    if (isObj(args.additionalProperties)) {
      const e = wpValidateValue(v, args.additionalProperties, `${param}[${property}]`);
      if (e) return e;
    }
  }
  if (args.minProperties !== undefined && obj.size < phpToFloat(args.minProperties)) {
    const n = phpToFloat(args.minProperties);
    return err('rest_too_few_properties', `${param} must contain at least ${numberFormatI18n(n)} ${plural(n, 'property', 'properties')}.`);
  }
  if (args.maxProperties !== undefined && obj.size > phpToFloat(args.maxProperties)) {
    const n = phpToFloat(args.maxProperties);
    return err('rest_too_many_properties', `${param} must contain at most ${numberFormatI18n(n)} ${plural(n, 'property', 'properties')}.`);
  }
  return null;
}

function valuesEqual(a: unknown, b: unknown): boolean {
  const ma = isPhpArrayLike(a) ? jsToPhpArray(a) : null;
  const mb = isPhpArrayLike(b) ? jsToPhpArray(b) : null;
  if (ma && mb) {
    if (ma.size !== mb.size) return false;
    for (const [k, v] of ma) if (!mb.has(k) || !valuesEqual(v, mb.get(k))) return false;
    return true;
  }
  return a === b;
}

/** How rest_validate_enum() prints an allowed value: scalars as PHP strings, anything else as JSON. */
export function enumValueText(v: unknown): string {
  return isScalar(v) ? phpStringCast(v) : wpJsonEncode(v);
}

function validateEnum(value: unknown, args: WpSchema, param: string): WpError | null {
  const sanitized = wpSanitizeValue(value, args, param);
  if (isError(sanitized)) return sanitized;
  const allowed = Array.isArray(args.enum) ? args.enum : isObj(args.enum) ? Object.values(args.enum) : [];
  if (allowed.some((e) => valuesEqual(sanitized, e))) return null;
  const texts = allowed.map(enumValueText);
  if (texts.length === 1) return err('rest_not_in_enum', `${param} is not ${texts[0]}.`);
  return err('rest_not_in_enum', `${param} is not one of ${wpSprintfList(texts)}.`);
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
    if (!best) return err('rest_invalid_type', `${param} is not of type ${args.type.map(phpStringCast).join(',')}.`, { param });
    args.type = best;
  }
  let e: WpError | null = null;
  switch (args.type) {
    case 'null':
      e = value === null ? null : err('rest_invalid_type', `${param} is not of type null.`, { param });
      break;
    case 'boolean':
      e = restIsBoolean(value) ? null : err('rest_invalid_type', `${param} is not of type boolean.`, { param });
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
      if (!e && !restIsInteger(value)) e = err('rest_invalid_type', `${param} is not of type integer.`, { param });
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
    switch (args.format) {
      case 'hex-color':
        if (!restParseHexColor(value)) return err('rest_invalid_hex_color', 'Invalid hex color.');
        break;
      case 'date-time':
        if (!restParseDate(value)) return err('rest_invalid_date', 'Invalid date.');
        break;
      case 'email':
        if (!isEmail(value)) return err('rest_invalid_email', 'Invalid email address.');
        break;
      case 'ip':
        if (!restIsIpAddress(value)) return err('rest_invalid_ip', `${param} is not a valid IP address.`);
        break;
      case 'uuid':
        if (!wpIsUuid(value)) return err('rest_invalid_uuid', `${param} is not a valid UUID.`);
        break;
      default:
        break;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// Sanitization

/** sanitize_text_field(), minus its invalid-UTF-8 pass (JS strings are already valid) and with a simpler tag strip. */
export function sanitizeTextField(v: unknown): string {
  if (isPhpArrayLike(v)) return '';
  let s = phpStringCast(v);
  if (s.includes('<')) {
    s = s.replace(/<[^>]*?((?=<)|>|$)/g, (m) => (m.includes('>') ? m : m.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')));
    s = stripAngleTags(removeScriptStyle(s)).trim();
    s = s.replaceAll('<\n', '&lt;\n');
  }
  s = s.replace(/[\r\n\t ]+/g, ' ').trim();
  const octets = removePercentOctets(s);
  if (octets.found) s = octets.text.replace(/ +/g, ' ').trim();
  return s;
}

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
    if (args.uniqueItems && !hasUniqueItems(out)) return err('rest_duplicate_items', `${param} has duplicate items.`);
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
        return restParseHexColor(v) ? phpStringCast(v) : '';
      case 'date-time':
      case 'email':
      case 'ip':
      case 'uuid':
      case 'text-field':
        return sanitizeTextField(v);
      case 'textarea-field':
        return isPhpArrayLike(v) ? '' : phpStringCast(v).trim();
      case 'uri':
        return phpStringCast(v);
      default:
        break;
    }
  }
  if (args.type === 'string') return isPhpArrayLike(v) ? 'Array' : phpStringCast(v);
  return v;
}

/** Whether wpSanitizeValue() gave an error rather than a value. */
export function isWpError(v: unknown): v is WpError {
  return isError(v);
}
