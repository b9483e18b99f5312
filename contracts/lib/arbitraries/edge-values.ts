// The pieces edge cases are built from (edges.ts, singles.ts): the typed values of a request per location, the
// plausible value of each parameter, and how to reach or replace the node a constraint sits on inside a value.
import type { JsonSchema, Operation, ParamLocation, ParamSpec } from '../types.ts';
import { dottedPath } from './constraints.ts';
import type { Constraint, ExpectedIssue, WireRequest } from './model.ts';
import { plausibleSchema, plausibleValue } from './plausible.ts';

export type EdgeFamily = 'minimal' | 'full' | 'alone' | 'zero' | 'empty' | 'type' | 'bound' | 'length' | 'enum' | 'pattern' | 'format' | 'required' | 'items' | 'unique' | 'dependent' | 'properties';

export interface EdgeCase {
  /** Stable: `<constraint id> <tag>` (`getCalV1Events query.per_page maximum max+1`), or `<operationId> minimal|full`. */
  id: string;
  operationId: string;
  family: EdgeFamily;
  /** `accept`: valid by the contract; `refuse`: breaks exactly `constraint`. */
  expect: 'accept' | 'refuse';
  /** The constraint the value sits on (accept) or breaks (refuse); absent for minimal and full. */
  constraint?: Constraint;
  location?: ParamLocation;
  /** Top-level parameter the edge is about. */
  param?: string;
  /** Which edge: min, min-1, max, max+1, case, spaces, neighbour, t-for-space, no-seconds, trailing-space, month-13, missing, ... */
  tag: string;
  /** What was sent, for messages: `per_page=101`, `requests: 26 items`, `title left out`. */
  label: string;
  request: WireRequest;
  /** For refuse: what the contract's validator reports. */
  expected?: ExpectedIssue;
}

export interface DroppedEdge {
  id: string;
  reason: string;
}

/** Marks a property an edge leaves out of an object. */
export const REMOVE: unique symbol = Symbol('remove');

export type Values = Record<ParamLocation, Record<string, unknown>>;

export function valueOf(p: ParamSpec): unknown {
  return plausibleValue(plausibleSchema(p.schema, p.contradictions), p.name);
}

/** Path parameters and the required ones (minimal), or every parameter (full). */
export function baseValues(op: Operation, full: boolean): Values {
  const values: Values = { path: {}, query: {}, body: {} };
  for (const p of op.params) if (p.in === 'path' || p.required || full) values[p.in][p.name] = valueOf(p);
  return values;
}

export function nodeName(param: string, schemaPath: readonly string[]): string {
  for (let i = schemaPath.length - 1; i >= 0; i--) if (schemaPath[i - 1] === 'properties') return schemaPath[i]!;
  return param;
}

/** The value at `path` inside a parameter's value, made plausible where it is missing. */
export function valueAt(schema: JsonSchema, value: unknown, path: readonly string[]): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (head === 'items') {
    const items = (schema.items ?? {}) as JsonSchema;
    const first = Array.isArray(value) && value.length > 0 ? value[0] : plausibleValue(items, '');
    return valueAt(items, first, rest);
  }
  if (head === 'properties') {
    const name = rest[0]!;
    const sub = ((schema.properties ?? {}) as Record<string, JsonSchema>)[name] ?? {};
    const obj = (value ?? {}) as Record<string, unknown>;
    return valueAt(sub, name in obj ? obj[name] : plausibleValue(sub, name), rest.slice(1));
  }
  return value;
}

/** The parameter's value with the node at `path` replaced (or, with REMOVE under `properties`, taken out). */
export function place(schema: JsonSchema, value: unknown, path: readonly string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  if (head === 'items') {
    const items = (schema.items ?? {}) as JsonSchema;
    const list = Array.isArray(value) && value.length > 0 ? [...value] : [plausibleValue(items, '')];
    list[0] = place(items, list[0], rest, leaf);
    return list;
  }
  if (head === 'properties') {
    const name = rest[0]!;
    const sub = ((schema.properties ?? {}) as Record<string, JsonSchema>)[name] ?? {};
    const obj = { ...((value ?? {}) as Record<string, unknown>) };
    if (rest.length === 1 && leaf === REMOVE) delete obj[name];
    else obj[name] = place(sub, name in obj ? obj[name] : plausibleValue(sub, name), rest.slice(1), leaf);
    return obj;
  }
  return value;
}

export interface Pick {
  tag: string;
  value: unknown;
  expect: 'accept' | 'refuse';
}

export function without(schema: JsonSchema, ...keys: string[]): JsonSchema {
  const rest = { ...schema };
  for (const k of keys) delete rest[k];
  return rest;
}

export function describe(param: string, schemaPath: readonly string[], value: unknown): string {
  const where = `${param}${dottedPath(schemaPath)}`;
  if (value === REMOVE) return `${where} left out`;
  if (Array.isArray(value) && value.length > 3) return `${where}: ${value.length} items`;
  return `${where}=${JSON.stringify(value)}`;
}

/** An edge case before its request is rendered and checked: typed values per location. */
export type Draft = Omit<EdgeCase, 'operationId' | 'request'> & { values: Values };
