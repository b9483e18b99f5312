// The contract's generators (contracts/lib/arbitraries) as the checks use them: a fixed number of
// samples from a seed, turned into requests the HTTP client sends, with the changes a check needs on
// top (its own record's id in the path, the run's marker in a title).

import fc from 'fast-check';
import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { Operation } from '../../../../contracts/lib/types.ts';
import {
  constraintsOf,
  encodeBody,
  encodePhpQuery,
  parsePhpQuery,
  queryString,
  validRequest,
  violatingRequest,
  type Constraint,
  type ValidRequestOptions,
  type Violation,
  type WireRequest,
  type WireValue,
} from '../../../../contracts/lib/arbitraries/index.ts';
import { fillTemplate } from '../../http/target.ts';
import type { Intent, Outgoing, WireMethod } from '../../http/types.ts';

export type { Constraint, WireRequest, WireValue };

/** `n` values of an arbitrary, the same ones for the same seed. */
function samples<T>(arb: fc.Arbitrary<T>, seed: number, n: number): T[] {
  return fc.sample(arb, { seed, numRuns: n });
}

export function validRequests(contract: Contract, op: Operation, seed: number, n: number, opts: ValidRequestOptions = {}): WireRequest[] {
  return samples(validRequest(contract, op.id, { encoding: 'json', ...opts }), seed, n);
}

export function constraints(contract: Contract, op: Operation): Constraint[] {
  return constraintsOf(contract, op);
}

export function violations(contract: Contract, op: Operation, c: Constraint, seed: number, n: number): Violation[] {
  return samples(violatingRequest(contract, op.id, c.id), seed, n);
}

/** The request as the HTTP client sends it. */
export function toOutgoing(req: WireRequest, intent?: Intent): Outgoing {
  const body = encodeBody(req);
  const rawQuery = queryString(req);
  return {
    method: req.method as WireMethod,
    route: req.path,
    ...(rawQuery ? { rawQuery } : {}),
    ...(body ? { body: { kind: 'raw', text: body.payload, contentType: body.contentType } } : {}),
    ...(intent ? { intent } : {}),
  };
}

/** Replaces path parameters (`{id: 12}`) and rebuilds the concrete path. */
export function withPath(op: Operation, req: WireRequest, values: Record<string, string | number>): WireRequest {
  const pathParams = { ...req.pathParams, ...Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])) };
  return { ...req, pathParams, path: fillTemplate(op.path, pathParams) };
}

/** Sets body fields (the marker in a title) in either body encoding; adds a JSON body when there is none. */
export function withBody(req: WireRequest, values: Record<string, WireValue>): WireRequest {
  if (!req.body) return { ...req, body: { json: { ...values } }, headers: { ...req.headers, 'content-type': 'application/json' } };
  if ('json' in req.body) return { ...req, body: { json: { ...req.body.json, ...values } } };
  return { ...req, body: { form: encodePhpQuery({ ...parsePhpQuery(req.body.form), ...values }) } };
}

/** Removes body fields. */
export function withoutBody(req: WireRequest, names: readonly string[]): WireRequest {
  if (!req.body) return req;
  const drop = (o: Record<string, WireValue>): Record<string, WireValue> => Object.fromEntries(Object.entries(o).filter(([k]) => !names.includes(k)));
  if ('json' in req.body) return { ...req, body: { json: drop(req.body.json) } };
  return { ...req, body: { form: encodePhpQuery(drop(parsePhpQuery(req.body.form))) } };
}

/** Names of the parameters a request carries, by location. */
export function sentParams(req: WireRequest): { query: string[]; body: string[]; path: string[] } {
  const body = !req.body ? [] : 'json' in req.body ? Object.keys(req.body.json) : Object.keys(parsePhpQuery(req.body.form));
  return { query: Object.keys(req.query), body, path: Object.keys(req.pathParams) };
}

/** Keeps only the named query and body parameters (path parameters always stay). */
export function keepOnly(req: WireRequest, query: ReadonlySet<string>, body: ReadonlySet<string>): WireRequest {
  const q = Object.fromEntries(Object.entries(req.query).filter(([k]) => query.has(k)));
  if (!req.body) return { ...req, query: q };
  const names = sentParams(req).body.filter((k) => !body.has(k));
  return { ...withoutBody({ ...req, query: q }, names) };
}
