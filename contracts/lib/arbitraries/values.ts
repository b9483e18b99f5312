// Valid values for a schema, in typed form (what WordPress holds after its coercion). One small arbitrary per
// keyword — type, enum/const, bounds, pattern/format/lengths, items/uniqueItems/min-/maxItems,
// properties/required/additionalProperties, default — combined by valueArb(). wire.ts turns a typed value into
// the strings a query string or a form body carries.
import fc from 'fast-check';
import type { JsonSchema } from '../types.ts';
import { formatArb, patternArb } from './formats.ts';
import { plausibleIntegerArb, plausibleTextArb, textKind } from './plausible.ts';
import { isPlainObject } from '../../wordpress/plain-object.ts';

/** The schema asks for something no generator here can build (an unknown format, a combinator...). */
class UnsupportedSchema extends Error {}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
/** Arrays and maps stay short: long ones add run time, not coverage. */
const MAX_COLLECTION = 4;

/** A deterministic key for equality the way JSON Schema (and WordPress's rest_stabilize_value) sees it. */
export function stableKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableKey).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableKey(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeFits(type: unknown, v: unknown): boolean {
  // WordPress reads a null parameter as an absent one, so null is only a value where the schema says so.
  if (v === null) return type === 'null' || (Array.isArray(type) && type.includes('null'));
  if (type === undefined) return true;
  const types: unknown[] = Array.isArray(type) ? type : [type];
  const t = typeOf(v);
  return types.some((x) => x === t || (x === 'number' && t === 'integer'));
}

/**
 * Does a (typed) value satisfy the keywords this contract uses? Used to decide whether a schema's `default` can be
 * sent as a valid value — the contract has defaults that are not (`null` for a string, for one).
 */
export function conforms(schema: JsonSchema, v: unknown): boolean {
  if (v === undefined) return false;
  if (!typeFits(schema.type, v)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e: unknown) => stableKey(e) === stableKey(v))) return false;
  if ('const' in schema && stableKey(schema.const) !== stableKey(v)) return false;
  if (typeof v === 'number') {
    if (typeof schema.minimum === 'number' && v < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && v > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === 'number' && v <= schema.exclusiveMinimum) return false;
    if (typeof schema.exclusiveMaximum === 'number' && v >= schema.exclusiveMaximum) return false;
  }
  if (typeof v === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(v)) return false;
    if (typeof schema.minLength === 'number' && [...v].length < schema.minLength) return false;
    if (typeof schema.maxLength === 'number' && [...v].length > schema.maxLength) return false;
    if (typeof schema.format === 'string') return false; // formats are checked by the validator, not guessed here
  }
  if (Array.isArray(v)) {
    if (typeof schema.maxItems === 'number' && v.length > schema.maxItems) return false;
    if (typeof schema.minItems === 'number' && v.length < schema.minItems) return false;
    if (schema.uniqueItems === true && new Set(v.map(stableKey)).size !== v.length) return false;
    if (schema.items && !v.every((x) => conforms(schema.items as JsonSchema, x))) return false;
  }
  if (isPlainObject(v)) {
    const o = v as Record<string, unknown>;
    for (const r of (schema.required as string[] | undefined) ?? []) if (!(r in o)) return false;
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [k, x] of Object.entries(o)) if (props[k] && !conforms(props[k]!, x)) return false;
  }
  return true;
}

/** Text for a string without constraints: ASCII, any Unicode, and the site's two languages. */
const plainString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 16 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }), weight: 1 },
  { arbitrary: fc.constantFrom('Concert', 'Open day', 'Концерт', 'День відкритих дверей', 'Київ'), weight: 1 },
);

/** Keys of free-form objects: never numeric-only, which PHP would turn into list indices. */
export const objectKey: fc.Arbitrary<string> = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,9}$/);

/** A value for a parameter the contract leaves untyped: any scalar a client might send. */
const untypedArb: fc.Arbitrary<unknown> = fc.oneof(plainString, fc.integer({ min: -1000, max: 100000 }), fc.boolean());

/**
 * How valueArb() fills what the schema leaves open. By default anything valid (any Unicode text, any integer);
 * `plausible`: what a client would send for a field of that name (plausible.ts), so that a site may not refuse it
 * for reasons the documents do not state.
 */
export interface ValueHints {
  plausible?: boolean;
  /** The field's name, which says what kind of text it holds (website, email, phone...). */
  name?: string;
}

/** Free text in a field that holds an address: no dot, so it never names a host (a site may fetch or mail it). */
const hostlessString = plainString.map((s) => s.replace(/\./g, '_'));

function freeText(hints: ValueHints): fc.Arbitrary<string> {
  if (hints.plausible) return plausibleTextArb(textKind(hints.name ?? ''));
  return ['url', 'media', 'email'].includes(textKind(hints.name ?? '')) ? hostlessString : plainString;
}

function stringArb(schema: JsonSchema, hints: ValueHints): fc.Arbitrary<string> {
  if (typeof schema.pattern === 'string') {
    if (typeof schema.format === 'string') throw new UnsupportedSchema(`pattern together with format ${schema.format}`);
    return patternArb(schema.pattern);
  }
  if (typeof schema.format === 'string') {
    const arb = formatArb(schema.format);
    if (!arb) throw new UnsupportedSchema(`format ${schema.format}`);
    return arb;
  }
  if (typeof schema.minLength === 'number' || typeof schema.maxLength === 'number') {
    const minLength = (schema.minLength as number | undefined) ?? 0;
    const maxLength = (schema.maxLength as number | undefined) ?? minLength + 16;
    return fc.string({ minLength, maxLength });
  }
  return freeText(hints);
}

function bounds(schema: JsonSchema, integral: boolean): { min: number; max: number } {
  const step = integral ? 1 : Number.EPSILON;
  let min = integral ? INT_MIN : -1e9;
  let max = integral ? INT_MAX : 1e9;
  if (typeof schema.minimum === 'number') min = Math.max(min, schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number') min = Math.max(min, schema.exclusiveMinimum + step);
  if (typeof schema.maximum === 'number') max = Math.min(max, schema.maximum);
  if (typeof schema.exclusiveMaximum === 'number') max = Math.min(max, schema.exclusiveMaximum - step);
  return integral ? { min: Math.ceil(min), max: Math.floor(max) } : { min, max };
}

function integerArb(schema: JsonSchema, hints: ValueHints): fc.Arbitrary<number> {
  return hints.plausible ? plausibleIntegerArb(schema) : fc.integer(bounds(schema, true));
}

function numberArb(schema: JsonSchema, hints: ValueHints): fc.Arbitrary<number> {
  if (hints.plausible) return plausibleIntegerArb(schema);
  const { min, max } = bounds(schema, false);
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
  );
}

function arrayArb(schema: JsonSchema, hints: ValueHints): fc.Arbitrary<unknown[]> {
  const item = schema.items ? valueArb(schema.items as JsonSchema, hints) : hints.plausible ? freeText(hints) : untypedArb;
  const minLength = (schema.minItems as number | undefined) ?? 0;
  const maxLength = Math.max(minLength, Math.min((schema.maxItems as number | undefined) ?? MAX_COLLECTION, MAX_COLLECTION));
  if (schema.uniqueItems === true) return fc.uniqueArray(item, { selector: stableKey, minLength, maxLength });
  return fc.array(item, { minLength, maxLength });
}

function objectArb(schema: JsonSchema, hints: ValueHints): fc.Arbitrary<Record<string, unknown>> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = ((schema.required as string[] | undefined) ?? []).filter((r) => r in props);
  const known = fc.record(
    Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueArb(s, { ...hints, name: k })])),
    { requiredKeys: required, noNullPrototype: true },
  ) as fc.Arbitrary<Record<string, unknown>>;
  const ap = schema.additionalProperties;
  if (ap === false) return known;
  // A schema that names its properties gets extra ones only when it asks for them explicitly.
  if (ap === undefined && Object.keys(props).length > 0) return known;
  const extraValue = ap && typeof ap === 'object' ? valueArb(ap as JsonSchema, hints) : hints.plausible ? freeText(hints) : untypedArb;
  const extra = fc.dictionary(objectKey.filter((k) => !(k in props)), extraValue, { maxKeys: 3, noNullPrototype: true });
  return fc.tuple(known, extra).map(([k, e]) => ({ ...e, ...k }));
}

function byType(type: string, schema: JsonSchema, hints: ValueHints): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArb(schema, hints);
    case 'integer':
      return integerArb(schema, hints);
    case 'number':
      return numberArb(schema, hints);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayArb(schema, hints);
    case 'object':
      return objectArb(schema, hints);
    default:
      throw new UnsupportedSchema(`type ${type}`);
  }
}

/** Valid typed values for a schema. Throws UnsupportedSchema for a schema it cannot honour. */
export function valueArb(schema: JsonSchema, hints: ValueHints = {}): fc.Arbitrary<unknown> {
  for (const k of ['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref']) if (k in schema) throw new UnsupportedSchema(k);
  let base: fc.Arbitrary<unknown>;
  if (Array.isArray(schema.enum)) base = fc.constantFrom(...(schema.enum as unknown[]));
  else if ('const' in schema) base = fc.constant(schema.const);
  else if (schema.type === undefined) base = hints.plausible ? freeText(hints) : untypedArb;
  else if (Array.isArray(schema.type)) base = fc.oneof(...(schema.type as string[]).map((t) => byType(t, { ...schema, type: t }, hints)));
  else base = byType(schema.type as string, schema, hints);
  // A default that is itself valid is a value clients really send (often on purpose, to be explicit).
  if (conforms(schema, schema.default)) return fc.oneof({ arbitrary: base, weight: 4 }, { arbitrary: fc.constant(schema.default), weight: 1 });
  return base;
}
