// JSON Schema 2020-12 (the contract's dialect) → the draft-04-style schemas WordPress registers, validates with and
// exports in its route descriptors (rest_get_allowed_schema_keywords(), rest_validate_value_from_schema()).

import type { JsonSchema, WpSchema } from './types.ts';

import { isPlainObject } from '../plain-object.ts';
/** rest_get_allowed_schema_keywords(): what get_data_for_route() keeps of an arg, in WordPress 6.1. */
export const WP_ALLOWED_ARG_KEYWORDS: readonly string[] = [
  'title',
  'description',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
];

/** Keywords a nested WordPress schema may carry besides the allowed ones (core item schemas use them). */
const WP_NESTED_EXTRA = ['required', 'context', 'readonly'];

const FORMAT_MAP: Record<string, string> = { ipv4: 'ip', ipv6: 'ip' };

export interface ToWpSchemaOptions {
  /**
   * The WordPress `format` a schema's own annotation stands for (the contract names exactly documented formats with
   * `x-format`; a site registers the nearest built-in format instead): that format is printed and checked, and the
   * schema's `pattern` left out. Default: none.
   */
  formatOf?: (schema: JsonSchema) => string | undefined;
  /**
   * Carry the annotations WordPress schemas have (`readonly` from readOnly, `context` from `x-wp-context`); default
   * true. WordPress prints them inside args too (only an arg's top level is filtered), as in sample 51's `title`.
   */
  annotations?: boolean;
}

function isObj(v: unknown): v is JsonSchema {
  return isPlainObject(v);
}

/** Bounds in draft-04 form: a 2020-12 numeric exclusiveMinimum becomes minimum + exclusiveMinimum: true. */
function bound(schema: JsonSchema, inclusiveKey: 'minimum' | 'maximum', exclusiveKey: 'exclusiveMinimum' | 'exclusiveMaximum'): { value: number; exclusive: boolean } | null {
  const inc = typeof schema[inclusiveKey] === 'number' ? (schema[inclusiveKey] as number) : null;
  const exc = typeof schema[exclusiveKey] === 'number' ? (schema[exclusiveKey] as number) : null;
  if (exc === null) return inc === null ? null : { value: inc, exclusive: schema[exclusiveKey] === true };
  if (inc === null) return { value: exc, exclusive: true };
  // Both given: the tighter one decides (an exclusive bound equal to the inclusive one is tighter).
  const tighter = inclusiveKey === 'minimum' ? exc >= inc : exc <= inc;
  return tighter ? { value: exc, exclusive: true } : { value: inc, exclusive: false };
}

function typeWithNull(schema: JsonSchema): unknown {
  const t = schema.type;
  if (schema.nullable === true && t !== undefined) {
    const list = Array.isArray(t) ? [...t] : [t];
    if (!list.includes('null')) list.push('null');
    return list;
  }
  return t;
}

/**
 * Convert one schema (recursively). Key order follows the input, as WordPress prints keys in the order the PHP
 * array was written; bounds and `required` are placed where WordPress's own schemas put them.
 */
export function toWpSchema(schema: JsonSchema, opts: ToWpSchemaOptions = {}, nested = false): WpSchema {
  const out: WpSchema = {};
  const requiredList = Array.isArray(schema.required) ? (schema.required as unknown[]).map(String) : [];
  const min = bound(schema, 'minimum', 'exclusiveMinimum');
  const max = bound(schema, 'maximum', 'exclusiveMaximum');
  let minDone = false;
  let maxDone = false;
  for (const key of Object.keys(schema)) {
    const v = schema[key];
    switch (key) {
      case 'type':
        out.type = typeWithNull(schema);
        break;
      case 'const':
        if (!('enum' in schema)) out.enum = [v];
        break;
      case 'enum':
        out.enum = Array.isArray(v) ? [...v] : v;
        break;
      case 'format':
        out.format = typeof v === 'string' ? (FORMAT_MAP[v] ?? v) : v;
        break;
      case 'x-format': {
        // A documented exact format is the WordPress format it stands for (cal/v1's date-time): the descriptor
        // prints that rather than the pattern, and a bad value gets that format's error (rest_invalid_date).
        const wp = opts.formatOf?.(schema);
        if (wp) out.format = wp;
        break;
      }
      case 'pattern':
        if (!opts.formatOf?.(schema)) out.pattern = v;
        break;
      case 'minimum':
      case 'exclusiveMinimum':
        if (!minDone && min) {
          out.minimum = min.value;
          if (min.exclusive) out.exclusiveMinimum = true;
          minDone = true;
        }
        break;
      case 'maximum':
      case 'exclusiveMaximum':
        if (!maxDone && max) {
          out.maximum = max.value;
          if (max.exclusive) out.exclusiveMaximum = true;
          maxDone = true;
        }
        break;
      case 'items':
        if (isObj(v)) out.items = toWpSchema(v, opts, true);
        break;
      case 'properties':
        if (isObj(v)) {
          const props: WpSchema = {};
          for (const [name, sub] of Object.entries(v)) {
            if (!isObj(sub)) continue;
            const converted = toWpSchema(sub, opts, true);
            // WordPress core marks required properties on the property itself (the "v3" style it prints).
            if (requiredList.includes(name)) converted.required = true;
            props[name] = converted;
          }
          // An empty PHP array prints as [], which is what WordPress shows for `properties` with nothing in it.
          out.properties = Object.keys(props).length === 0 ? [] : props;
        }
        break;
      case 'additionalProperties':
        out.additionalProperties = isObj(v) ? toWpSchema(v, opts, true) : v;
        break;
      case 'patternProperties':
        if (isObj(v)) out.patternProperties = Object.fromEntries(Object.entries(v).filter(([, s]) => isObj(s)).map(([p, s]) => [p, toWpSchema(s as JsonSchema, opts, true)]));
        break;
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(v)) out[key] = v.filter(isObj).map((s) => toWpSchema(s, opts, true));
        break;
      case 'readOnly':
        if (opts.annotations !== false && v === true) out.readonly = true;
        break;
      case 'x-wp-context':
        if (opts.annotations !== false) out.context = v;
        break;
      case 'required':
        // Property-level `required: true` (WordPress's own v3 style) is kept on nested schemas; the array form was
        // moved onto the properties above, unless there are no properties to carry it.
        if (typeof v === 'boolean' && nested) out.required = v;
        else if (Array.isArray(v) && !isObj(schema.properties)) out.required = [...v];
        break;
      default:
        if (WP_ALLOWED_ARG_KEYWORDS.includes(key) || (nested && WP_NESTED_EXTRA.includes(key))) out[key] = v;
        break;
    }
  }
  // Required properties the contract lists but never describes still have to be enforced.
  if (isObj(schema.properties) && requiredList.some((r) => !(r in (schema.properties as JsonSchema)))) {
    out.required = [...requiredList];
  }
  return out;
}

/**
 * One entry of an endpoint's `args` as get_data_for_route() prints it: only the allowed keywords, in the schema's
 * order, then `required` as a boolean.
 */
export function toWpArg(schema: JsonSchema, required: boolean, opts: ToWpSchemaOptions = {}): WpSchema {
  const converted = toWpSchema(schema, opts);
  const out: WpSchema = {};
  for (const key of Object.keys(converted)) if (WP_ALLOWED_ARG_KEYWORDS.includes(key)) out[key] = converted[key];
  out.required = required;
  return out;
}

/**
 * A route's item schema as WordPress prints it under `schema` in OPTIONS (get_item_schema()): draft-04 `$schema`
 * first, then the title, then the converted schema with its annotations.
 */
export function toWpItemSchema(schema: JsonSchema, title?: string, opts: Omit<ToWpSchemaOptions, 'annotations'> = {}): WpSchema {
  const converted = toWpSchema(schema, { ...opts, annotations: true });
  const out: WpSchema = { $schema: 'http://json-schema.org/draft-04/schema#' };
  const t = title ?? (typeof schema.title === 'string' ? schema.title : undefined);
  if (t !== undefined) out.title = t;
  for (const [k, v] of Object.entries(converted)) if (k !== 'title' && k !== '$schema') out[k] = v;
  return out;
}
