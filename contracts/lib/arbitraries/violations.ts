// Requests that break exactly one constraint and keep every other: a valid request (requests.ts) whose one
// parameter is replaced by a value that is valid everywhere except at the constraint's place. Three pieces:
//   - a leaf builder per keyword: a wire value that breaks that keyword and no other keyword of the same node;
//   - focus: walks from the parameter's schema down to the node (items, properties, additionalProperties),
//     surrounding the broken leaf with valid siblings;
//   - the request: the valid request with that parameter overridden (or removed, for `required`).
// Broken values are chosen so that WordPress still refuses them after its coercion (see wire.ts): "1" is a valid
// boolean, so a boolean is broken with "yes"; a JSON list is a valid object to WordPress, so an object is broken
// with a string. Whether WordPress refuses a wrong-typed value is the WordPress layer's validator port's answer:
// a candidate it would take is never generated.
import fc from 'fast-check';
import type { Contract } from '../loader.ts';
import type { JsonSchema, Operation, ParamLocation, ParamSpec } from '../types.ts';
import type { Constraint, Encoding, ExpectedIssue, Violation, WireValue } from './model.ts';
import { notFormatArb, notPatternArb } from './formats.ts';
import { ABSENT, assemble, bodyEncodings, dependentRequiredOf, paramKey, partsArb, type Forcing, type Override } from './requests.ts';
import { conforms, objectKey, stableKey, valueArb } from './values.ts';
import { encodeSegment, render, textList, type WireStyle } from './wire.ts';
import { wpValidateValue } from '../../wordpress/schema/validate.ts';
import { isPlainObject } from '../../wordpress/plain-object.ts';

/**
 * A broken value and where, below the node it was built for, the validator will point. The value is spelled in the
 * request's style only when the request is assembled, so one arbitrary serves every style.
 */
interface Leaf {
  spell: (style: WireStyle) => WireValue;
  /** Instance segments below the node: `[]` for the node itself, `['path']` for a missing property `path`. */
  at: string[];
}

/** Why a constraint has no generator. */
interface NoGenerator {
  reason: string;
}

/** Tell a generator from the reason there is none. */
export function isGenerator(x: fc.Arbitrary<Violation> | NoGenerator): x is fc.Arbitrary<Violation> {
  return !('reason' in x);
}

type LeafBuilder = (node: JsonSchema, c: Constraint, enc: Encoding) => fc.Arbitrary<Leaf> | undefined;

/** A leaf that reads the same in every style. */
const leaf = (value: WireValue): Leaf => ({ spell: () => value, at: [] });
const spelled = (spell: (style: WireStyle) => WireValue): Leaf => ({ spell, at: [] });
const letters = fc.stringMatching(/^[a-z]{1,8}$/);

function types(node: JsonSchema): string[] {
  return Array.isArray(node.type) ? (node.type as string[]) : node.type !== undefined ? [node.type as string] : [];
}

/** A number that still has the node's type, rendered for the encoding. */
function numberLeaf(node: JsonSchema, arb: fc.Arbitrary<number>, enc: Encoding): fc.Arbitrary<Leaf> {
  return arb.map((n) => spelled((style) => render(node, n, enc, style)));
}

function belowArb(node: JsonSchema, bound: number, inclusive: boolean): fc.Arbitrary<number> {
  if (types(node).includes('integer')) return fc.integer({ min: Math.ceil(bound) - 1000, max: inclusive ? Math.floor(bound) : Math.ceil(bound) - 1 });
  return fc.double({ min: bound - 1000, max: bound, maxExcluded: !inclusive, noNaN: true });
}

function aboveArb(node: JsonSchema, bound: number, inclusive: boolean): fc.Arbitrary<number> {
  if (types(node).includes('integer')) return fc.integer({ min: inclusive ? Math.ceil(bound) : Math.floor(bound) + 1, max: Math.floor(bound) + 1000 });
  return fc.double({ min: bound, max: bound + 1000, minExcluded: !inclusive, noNaN: true });
}

/** Valid typed items for an array node; `count` of them, distinct when the node asks for uniqueItems. */
function itemsArb(node: JsonSchema, count: { min: number; max: number }): fc.Arbitrary<unknown[]> {
  const items = (node.items ?? {}) as JsonSchema;
  return node.uniqueItems === true
    ? fc.uniqueArray(valueArb(items), { selector: stableKey, minLength: count.min, maxLength: count.max })
    : fc.array(valueArb(items), { minLength: count.min, maxLength: count.max });
}

function renderItems(node: JsonSchema, items: unknown[], enc: Encoding, style: WireStyle): WireValue[] {
  return items.map((v) => render((node.items ?? {}) as JsonSchema, v, enc, style));
}

function listValue(node: JsonSchema, items: WireValue[], enc: Encoding, style: WireStyle): WireValue {
  return enc === 'json' ? items : textList(items, style, !Array.isArray(node.type));
}

/** Values of every other type than the node's, that WordPress's type tests refuse too. */
function wrongTypeArb(node: JsonSchema, enc: Encoding): fc.Arbitrary<WireValue> | undefined {
  const ts = types(node);
  const text = enc !== 'json';
  if (ts.length === 1 && ts[0] === 'string') {
    // Text carries only strings, except what PHP's brackets make: `name[]=x` is an array.
    return text ? fc.string({ maxLength: 8 }).map((s) => [s]) : fc.oneof(fc.integer(), fc.boolean());
  }
  if (ts.includes('string')) {
    // string or array (batch headers): a map with word keys is neither to WordPress nor to the contract.
    return ts.every((t) => t === 'string' || t === 'array') ? fc.dictionary(objectKey, fc.string({ maxLength: 6 }), { minKeys: 1, maxKeys: 2, noNullPrototype: true }) : undefined;
  }
  const candidates: fc.Arbitrary<WireValue>[] = [];
  if (ts.every((t) => t === 'integer' || t === 'number')) {
    // Not numeric to is_numeric() either; "1e3" would be a number, so letters only. In text, a number next to a
    // space PHP does not skip (U+00A0, U+2003: JavaScript's `\s` would) is no number either.
    candidates.push(letters, fc.constant(''));
    if (text) candidates.push(fc.tuple(fc.nat(999), fc.constantFrom('\u00a0', '\u2003'), fc.boolean()).map(([n, space, before]) => (before ? `${space}${n}` : `${n}${space}`)));
    if (!text) candidates.push(fc.boolean());
    if (ts.every((t) => t === 'integer')) {
      const lo = typeof node.minimum === 'number' ? node.minimum : -1000;
      const hi = typeof node.maximum === 'number' ? node.maximum : 1000;
      // Fractions inside the bounds break the type alone (outside them, minimum/maximum would break as well).
      if (hi - lo >= 1) candidates.push(fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) - 1 }).map((n) => (text ? `${n}.5` : n + 0.5)));
    }
  } else if (ts.length === 1 && ts[0] === 'boolean') {
    // rest_is_boolean() takes true/false/1/0 in any case, nothing else.
    candidates.push(fc.constantFrom('yes', 'no', 'on', 'off', '2', '-1', '', 'maybe', 't', 'f'));
    if (!text) candidates.push(fc.constantFrom(2, -1, 0.5));
  } else if (ts.length === 1 && ts[0] === 'array') {
    // A map with word keys is not a list (wp_is_numeric_array); a scalar would be split into one.
    candidates.push(fc.dictionary(objectKey, letters, { minKeys: 1, maxKeys: 2, noNullPrototype: true }));
  } else if (ts.length === 1 && ts[0] === 'object') {
    // rest_is_object() takes any PHP array (a JSON list too) and "", so a non-empty word.
    candidates.push(letters);
    if (!text) candidates.push(fc.integer(), fc.boolean());
  } else {
    return undefined;
  }
  return fc.oneof(...candidates);
}

/**
 * Whether WordPress's validator (the layer's port of rest_validate_value_from_schema()) refuses the value as PHP
 * holds it (a query or form leaf is its string or bracket array, a JSON leaf its JSON value) for the node's type.
 */
function refusedForType(node: JsonSchema, v: WireValue): boolean {
  return wpValidateValue(v, { type: node.type }, 'value') !== null;
}

/** Values clients send by mistake to enums of every kind: other HTTP methods, catch-alls, empty-ish words. */
const PLAUSIBLE_WRONG = ['GET', 'HEAD', 'OPTIONS', 'all', 'any', 'none', 'null', 'default', 'true', '0', ''];

function notInEnumArb(node: JsonSchema): fc.Arbitrary<WireValue> | undefined {
  const allowed = new Set((node.enum as unknown[]).map(stableKey));
  const ts = types(node);
  const rest: JsonSchema = { ...node };
  delete rest.enum;
  delete rest.default;
  const fits = (v: unknown): boolean => !allowed.has(stableKey(v)) && conforms(rest, v);
  if (ts.length === 1 && ts[0] === 'string') {
    const near = fc.constantFrom(...(node.enum as string[])).chain((e) => fc.constantFrom(e.toUpperCase(), e.toLowerCase(), `${e}x`, ` ${e}`, e.slice(1)));
    return fc.oneof(near, fc.constantFrom(...PLAUSIBLE_WRONG), fc.string({ maxLength: 10 })).filter(fits);
  }
  if (ts.length === 1 && ts[0] === 'integer') return fc.integer().filter(fits);
  return undefined;
}

const LEAVES: Record<string, LeafBuilder> = {
  minimum: (node, _c, enc) => numberLeaf(node, belowArb(node, node.minimum as number, false), enc),
  maximum: (node, _c, enc) => numberLeaf(node, aboveArb(node, node.maximum as number, false), enc),
  exclusiveMinimum: (node, _c, enc) => numberLeaf(node, belowArb(node, node.exclusiveMinimum as number, true), enc),
  exclusiveMaximum: (node, _c, enc) => numberLeaf(node, aboveArb(node, node.exclusiveMaximum as number, true), enc),
  enum: (node) => notInEnumArb(node)?.map(leaf),
  const: (node) => (types(node).includes('string') ? fc.string({ maxLength: 8 }).filter((s) => s !== node.const).map(leaf) : undefined),
  pattern: (node, c) => {
    const pattern = node.pattern as string;
    const route = new RegExp(pattern, 'u');
    const rest: JsonSchema = { ...node };
    delete rest.pattern;
    let arb = notPatternArb(pattern).filter((s) => conforms(rest, s));
    // A path value must also stay off the pattern once URL-encoded, or the route would still match it.
    if (c.location === 'path') arb = arb.filter((s) => !route.test(encodeSegment(s)));
    return arb.map(leaf);
  },
  format: (node, c) => notFormatArb(c.detail ?? String(node.format))?.map(leaf),
  minLength: (node) => fc.string({ maxLength: Math.max(0, (node.minLength as number) - 1) }).filter((s) => [...s].length < (node.minLength as number)).map(leaf),
  maxLength: (node) => fc.string({ minLength: (node.maxLength as number) + 1, maxLength: (node.maxLength as number) + 8 }).filter((s) => [...s].length > (node.maxLength as number)).map(leaf),
  minItems: (node, _c, enc) => {
    const min = node.minItems as number;
    return min < 1 ? undefined : itemsArb(node, { min: 0, max: min - 1 }).map((items) => spelled((style) => listValue(node, renderItems(node, items, enc, style), enc, style)));
  },
  maxItems: (node, _c, enc) => {
    const n = (node.maxItems as number) + 1;
    return itemsArb(node, { min: n, max: n }).map((items) => spelled((style) => listValue(node, renderItems(node, items, enc, style), enc, style)));
  },
  uniqueItems: (node, _c, enc) => {
    const room = Math.min(3, ((node.maxItems as number | undefined) ?? 4) - 1);
    if (room < 1) return undefined;
    // The duplicate is the very same wire value, so it is equal before coercion (WordPress's first check) and after.
    return fc
      .tuple(itemsArb(node, { min: 1, max: room }), fc.nat(), fc.nat())
      .map(([items, from, to]) => {
        const out = [...items];
        out.splice(to % (out.length + 1), 0, items[from % items.length]);
        return spelled((style) => listValue(node, renderItems(node, out, enc, style), enc, style));
      });
  },
  type: (node, _c, enc) => wrongTypeArb(node, enc)?.filter((v) => refusedForType(node, v)).map(leaf),
  required: (node, c, enc) => {
    const missing = c.detail;
    if (missing === undefined) return undefined;
    return valueArb(node).map((v) => {
      const obj = { ...(v as Record<string, unknown>) };
      delete obj[missing];
      return { spell: (style: WireStyle) => renderObject(node, obj, enc, style), at: [missing] };
    });
  },
  additionalProperties: (node, _c, enc) =>
    fc.tuple(valueArb(node), objectKey.filter((k) => !(k in ((node.properties ?? {}) as object)))).map(([v, k]) => {
      const obj = { ...(v as Record<string, unknown>), [k]: 'extra' };
      return spelled((style) => renderObject(node, obj, enc, style));
    }),
};

/** An object rendered property by property (render() would write an empty one as ""). */
function renderObject(node: JsonSchema, obj: Record<string, unknown>, enc: Encoding, style: WireStyle): WireValue {
  const props = (node.properties ?? {}) as Record<string, JsonSchema>;
  const ap = node.additionalProperties;
  const entries = Object.entries(obj).map(([k, v]) => [k, render(props[k] ?? (ap && typeof ap === 'object' ? (ap as JsonSchema) : undefined), v, enc, style)] as const);
  if (entries.length === 0) return enc === 'json' ? {} : '';
  return Object.fromEntries(entries);
}

/** Surround the leaf with valid siblings along the schema path: array items around it, object properties beside it. */
function focusArb(schema: JsonSchema, path: readonly string[], build: (node: JsonSchema) => fc.Arbitrary<Leaf> | undefined, enc: Encoding): fc.Arbitrary<Leaf> | undefined {
  if (path.length === 0) return build(schema);
  const [head, ...rest] = path;
  if (head === 'items') {
    const items = (schema.items ?? {}) as JsonSchema;
    const inner = focusArb(items, rest, build, enc);
    if (!inner) return undefined;
    const room = Math.min(2, ((schema.maxItems as number | undefined) ?? 3) - 1);
    return fc.tuple(itemsArb(schema, { min: 0, max: Math.max(0, room) }), inner, fc.nat()).map(([others, f, k]) => {
      const i = k % (others.length + 1);
      const spell = (style: WireStyle): WireValue => {
        const list = renderItems(schema, others, enc, style);
        list.splice(i, 0, f.spell(style));
        return listValue(schema, list, enc, style);
      };
      return { spell, at: [String(i), ...f.at] };
    });
  }
  if (head === 'properties' || head === 'additionalProperties') {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const named = head === 'properties' ? rest[0] : undefined;
    const sub = named !== undefined ? props[named] : (schema.additionalProperties as JsonSchema);
    if (!sub) return undefined;
    const inner = focusArb(sub, head === 'properties' ? rest.slice(1) : rest, build, enc);
    if (!inner) return undefined;
    const key = named !== undefined ? fc.constant(named) : objectKey.filter((k) => !(k in props));
    return fc.tuple(valueArb(schema), key, inner).map(([v, k, f]) => {
      const others = { ...(v as Record<string, unknown>) };
      delete others[k];
      const spell = (style: WireStyle): WireValue => {
        const rendered = renderObject(schema, others, enc, style);
        const base = isPlainObject(rendered) ? rendered : {};
        return { ...base, [k]: f.spell(style) };
      };
      return { spell, at: [k, ...f.at] };
    });
  }
  return undefined;
}

function pointer(segments: readonly string[]): string {
  return segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

function specOf(op: Operation, c: Constraint): ParamSpec | undefined {
  return op.params.find((p) => p.in === c.location && p.name === c.param);
}

/**
 * WordPress keeps one value per argument name: get_param() takes it from the JSON body, then the form body, then
 * the query, then the path (WP_REST_Request::get_parameter_order), and validates only that one. A parameter the
 * contract declares in two places (i18n_language in query and body, slug in path and body) is therefore shadowed by
 * its namesake in a stronger place: a broken query value next to a body value would never be looked at.
 */
const PRECEDENCE: Record<ParamLocation, number> = { body: 3, query: 2, path: 1 };

function namesakes(op: Operation, location: ParamLocation, name: string, stronger: boolean): string[] {
  return op.params.filter((p) => p.name === name && p.in !== location && (!stronger || PRECEDENCE[p.in] > PRECEDENCE[location])).map((p) => paramKey(p.in, p.name));
}

/** Parameters whose presence demands `name` (dependentRequired): they must go when `name` goes. */
function dependants(op: Operation, name: string): string[] {
  return Object.entries(dependentRequiredOf(op))
    .filter(([, needs]) => needs.includes(name))
    .map(([k]) => paramKey('query', k));
}

function alongsideOf(c: Constraint, place: string): ExpectedIssue[] {
  // Every value of another type is outside an enum of strings as well: the validator reports both.
  return c.keyword === 'type' && Array.isArray(c.node.enum) ? [{ keyword: 'enum', instancePath: place }] : [];
}

/**
 * Requests that break exactly the given constraint — or the reason there can be none. The constraint's wire status
 * says whether WordPress would refuse them too (contract-only ones break the contract, not WordPress).
 */
export function violationArb(contract: Contract, c: Constraint): fc.Arbitrary<Violation> | NoGenerator {
  if (c.wire.kind === 'not-applicable') return { reason: c.wire.reason };
  const op = contract.operation(c.operationId);
  const spec = specOf(op, c);

  if (c.keyword === 'dependentRequired') {
    if (!spec || c.detail === undefined) return { reason: `dependentRequired on ${c.param}, which is not a query parameter of ${op.id}` };
    const need = c.detail;
    const force: Forcing = { absent: new Set([paramKey('query', need)]) };
    return fc.tuple(partsArb(op, {}, force), valueArb(spec.schema)).map(([parts, v]) => {
      const overrides: Override[] = [{ location: 'query', name: c.param, value: render(spec.schema, v, 'query', parts.style) }];
      return { constraintId: c.id, request: assemble(op, parts, overrides), expected: { keyword: 'dependentRequired', instancePath: `/query/${need}` }, alongside: [] };
    });
  }

  if (!spec) return { reason: `no parameter ${c.location}.${c.param} in ${op.id}` };

  if (c.keyword === 'required' && c.schemaPath.length === 0 && c.detail === undefined) {
    const key = paramKey(c.location, c.param);
    // A namesake anywhere would answer WordPress's required check in its place.
    const force: Forcing = { absent: new Set([key, ...dependants(op, c.param), ...namesakes(op, c.location, c.param, false)]) };
    return partsArb(op, {}, force).map((parts) => ({
      constraintId: c.id,
      request: assemble(op, parts, [{ location: c.location, name: c.param, value: ABSENT }]),
      expected: { keyword: 'required', instancePath: `/${c.location}/${c.param}` },
      alongside: [],
    }));
  }

  const builder = LEAVES[c.keyword];
  if (!builder) return { reason: `no generator for the keyword ${c.keyword}` };
  const focusIn = (e: Encoding): fc.Arbitrary<Leaf> | undefined => focusArb(spec.schema, c.schemaPath, (node) => builder(node, c, e), e);
  const encodings: Encoding[] = c.location === 'body' ? bodyEncodings(op) : ['query'];
  const key = paramKey(c.location, c.param);
  const companions = c.location === 'query' ? (dependentRequiredOf(op)[c.param] ?? []).map((n) => paramKey('query', n)) : [];
  const present = new Set([key, ...companions]);
  const absent = new Set(namesakes(op, c.location, c.param, true));
  // One arbitrary per encoding, the encoding picked first: no chain, so samples shrink as well as valid ones do.
  const perEncoding = encodings.flatMap((enc) => {
    const focus = focusIn(enc);
    if (!focus) return [];
    const force: Forcing = enc === 'query' ? { present, absent } : { present, absent, encodings: [enc] };
    return [
      fc.tuple(partsArb(op, {}, force), focus).map(([parts, f]): Violation => {
        const place = `/${c.location}/${c.param}${pointer(f.at)}`;
        return {
          constraintId: c.id,
          request: assemble(op, parts, [{ location: c.location, name: c.param, value: f.spell(parts.style) }]),
          expected: { keyword: c.keyword, instancePath: place },
          alongside: alongsideOf(c, place),
        };
      }),
    ];
  });
  if (perEncoding.length === 0) return { reason: `no value can break ${c.keyword} here in any encoding ${op.id} accepts` };
  return perEncoding.length === 1 ? perEncoding[0]! : fc.oneof(...perEncoding);
}
