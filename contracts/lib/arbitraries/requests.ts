// Complete valid requests for one operation: every required parameter, some optional ones, path parameters
// filled in, the body as JSON or as a form, in one of the spellings WordPress accepts (WireStyle).
// Requests are built from typed parts (shrinkable records) and rendered to the wire at the end, so a failing
// property shrinks to few parameters with small values.
import fc from 'fast-check';
import type { Operation, ParamLocation, ParamSpec } from '../types.ts';
import type { BodyEncoding, WireRequest, WireValue } from './model.ts';
import { pathSegmentArb } from './formats.ts';
import { plausibleSchema } from './plausible.ts';
import { valueArb } from './values.ts';
import { bodyOf, contentType, fillPath, render, type WireStyle } from './wire.ts';

export interface ValidRequestOptions {
  /** Body encoding; default: any the operation accepts. */
  encoding?: BodyEncoding;
  /** Optional parameters: 'some' (default, each may or may not be sent), 'none', or 'all'. */
  optional?: 'some' | 'none' | 'all';
  /** Fix some of the spellings (e.g. `{arrays: 'brackets'}`); the rest vary. */
  style?: Partial<WireStyle>;
  /**
   * Fill what the schemas leave open the way a client would (plausible.ts): words, URLs and numeric IDs in free
   * strings, chosen by the field's name; integers the documents do not bound within 1..100; an untyped parameter
   * from the typed reading the contract keeps beside it. Still valid by the contract; default false.
   */
  plausible?: boolean;
}

/** Typed values per location plus the spelling and body encoding to render them with. */
interface RequestParts {
  style: WireStyle;
  encoding: BodyEncoding | undefined;
  values: Record<ParamLocation, Record<string, unknown>>;
}

/** Marks a parameter an override removes from the request. */
export const ABSENT: unique symbol = Symbol('absent');

/** A wire value put in place of a parameter after rendering — how violations break exactly one thing. */
export interface Override {
  location: ParamLocation;
  name: string;
  value: WireValue | typeof ABSENT;
}

/** Parameters some parameter must come with (`x-dependent-required`; the validator's dependentRequired on the query). */
export function dependentRequiredOf(op: Operation): Record<string, string[]> {
  return (op.raw['x-dependent-required'] as Record<string, string[]> | undefined) ?? {};
}

export function bodyEncodings(op: Operation): BodyEncoding[] {
  const out: BodyEncoding[] = [];
  if (op.bodyMediaTypes.includes('application/json')) out.push('json');
  if (op.bodyMediaTypes.includes('application/x-www-form-urlencoded')) out.push('form');
  return out;
}

function styleArb(fixed: Partial<WireStyle> = {}): fc.Arbitrary<WireStyle> {
  const pick = <K extends keyof WireStyle>(k: K, all: WireStyle[K][]): fc.Arbitrary<WireStyle[K]> =>
    fixed[k] !== undefined ? fc.constant(fixed[k] as WireStyle[K]) : fc.constantFrom(...all);
  return fc.record(
    {
      arrays: pick('arrays', ['comma', 'brackets']),
      integers: pick('integers', ['plain', 'decimal']),
      booleans: pick('booleans', ['word', 'digit', 'mixed-case']),
      json: pick('json', ['native', 'strings']),
    },
    { noNullPrototype: true },
  );
}

/** Which parameters a generated request must carry or leave out, beyond what the contract requires. */
export interface Forcing {
  present?: ReadonlySet<string>;
  absent?: ReadonlySet<string>;
  encodings?: readonly BodyEncoding[];
}

export const paramKey = (location: ParamLocation, name: string): string => `${location}:${name}`;

function paramArb(p: ParamSpec, plausible: boolean): fc.Arbitrary<unknown> {
  if (p.in === 'path') return pathSegmentArb(p.schema.pattern as string | undefined);
  return plausible ? valueArb(plausibleSchema(p.schema, p.contradictions), { plausible, name: p.name }) : valueArb(p.schema, { name: p.name });
}

function locationArb(params: ParamSpec[], optional: 'some' | 'none' | 'all', force: Forcing, plausible: boolean): fc.Arbitrary<Record<string, unknown>> {
  const chosen = params.filter((p) => !force.absent?.has(paramKey(p.in, p.name)));
  const mustHave = (p: ParamSpec): boolean => p.required || p.in === 'path' || optional === 'all' || (force.present?.has(paramKey(p.in, p.name)) ?? false);
  const model = chosen.filter((p) => optional !== 'none' || mustHave(p));
  return fc.record(Object.fromEntries(model.map((p) => [p.name, paramArb(p, plausible)])), {
    requiredKeys: model.filter(mustHave).map((p) => p.name),
    noNullPrototype: true,
  }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Drop a parameter whose companions are missing, until every dependentRequired pair holds. */
function honourDependencies(query: Record<string, unknown>, deps: Record<string, string[]>): Record<string, unknown> {
  const out = { ...query };
  let changed = true;
  while (changed) {
    changed = false;
    for (const [k, needs] of Object.entries(deps)) {
      if (k in out && needs.some((n) => !(n in out))) {
        delete out[k];
        changed = true;
      }
    }
  }
  return out;
}

/** Typed parts of a valid request (before rendering). */
export function partsArb(op: Operation, opts: ValidRequestOptions = {}, force: Forcing = {}): fc.Arbitrary<RequestParts> {
  const optional = opts.optional ?? 'some';
  const at = (loc: ParamLocation): ParamSpec[] => op.params.filter((p) => p.in === loc);
  let encodings = bodyEncodings(op);
  if (opts.encoding) encodings = encodings.filter((e) => e === opts.encoding);
  if (force.encodings) encodings = encodings.filter((e) => force.encodings!.includes(e));
  if (op.bodyMediaTypes.length > 0 && encodings.length === 0) throw new Error(`${op.id}: no body encoding left to use`);
  const deps = dependentRequiredOf(op);
  return fc
    .record(
      {
        style: styleArb(opts.style),
        encoding: encodings.length ? fc.constantFrom(...encodings) : fc.constant(undefined),
        path: locationArb(at('path'), optional, force, opts.plausible === true),
        query: locationArb(at('query'), optional, force, opts.plausible === true),
        body: locationArb(at('body'), optional, force, opts.plausible === true),
      },
      { noNullPrototype: true },
    )
    .map(({ style, encoding, path, query, body }) => ({
      style,
      encoding,
      values: { path, query: honourDependencies(query, deps), body },
    }));
}

function renderLocation(op: Operation, location: ParamLocation, values: Record<string, unknown>, parts: RequestParts, overrides: readonly Override[]): Record<string, WireValue> {
  const encoding = location === 'body' ? (parts.encoding ?? 'json') : 'query';
  const schemas = new Map(op.params.filter((p) => p.in === location).map((p) => [p.name, p.schema]));
  const out: Record<string, WireValue> = {};
  for (const [k, v] of Object.entries(values)) out[k] = render(schemas.get(k), v, encoding, parts.style);
  for (const o of overrides) {
    if (o.location !== location) continue;
    if (o.value === ABSENT) delete out[o.name];
    else out[o.name] = o.value;
  }
  return out;
}

/** Render typed parts into a wire request, then apply overrides (wire values or removals). */
export function assemble(op: Operation, parts: RequestParts, overrides: readonly Override[] = []): WireRequest {
  const pathWire = renderLocation(op, 'path', parts.values.path, parts, overrides);
  const pathParams = Object.fromEntries(Object.entries(pathWire).map(([k, v]) => [k, typeof v === 'string' ? v : String(v)]));
  const headers: Record<string, string> = { accept: 'application/json' };
  const request: WireRequest = {
    operationId: op.id,
    method: op.method,
    path: fillPath(op.path, pathParams),
    pathParams,
    query: renderLocation(op, 'query', parts.values.query, parts, overrides),
    headers,
  };
  if (parts.encoding) {
    request.body = bodyOf(parts.encoding, renderLocation(op, 'body', parts.values.body, parts, overrides));
    headers['content-type'] = contentType(parts.encoding);
  }
  return request;
}

/** Complete valid requests for an operation. */
export function validRequestArb(op: Operation, opts: ValidRequestOptions = {}): fc.Arbitrary<WireRequest> {
  return partsArb(op, opts).map((parts) => assemble(op, parts));
}
