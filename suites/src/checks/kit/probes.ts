// Requests built to be refused: the base of every negative case and of the probes that look for a
// write route without writing. They carry nothing but the broken parameter and what the operation
// requires, and on `{id}`/`{slug}` routes they name no record of the site's.

import type { Operation } from '../../../../contracts/lib/types.ts';
import type { UnitEnv } from './unit.ts';
import { bodyValues } from '../../../../contracts/lib/arbitraries/index.ts';
import { keepOnly, withBody, type Constraint, type WireRequest, type WireValue } from './generate.ts';
import { minimalCreateBody, resourceFor } from './resources.ts';
import { topName } from './wp.ts';

/** An id no site has yet: probes of writes on `{id}` routes must not touch a record of the site's. */
export const UNUSED_ID = 2_000_000_001;
export const UNUSED_SLUG = 'site-contracts-no-such-record';

/** Fills `{id}`/`{slug}` with values that name no record, so even a misbehaving server changes nothing real. */
export function unusedPathValues(op: Operation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.params.filter((x) => x.in === 'path')) {
    if (p.name === 'id') out[p.name] = String(UNUSED_ID);
    else if (p.name === 'slug') out[p.name] = UNUSED_SLUG;
  }
  return out;
}

/**
 * The violation with nothing else to object to: optional parameters other than the broken one are
 * left out (a server that refuses one of those would hide whether it checks the broken one), and a
 * calendar create gets the same known-good name and dates the lifecycle uses, with the marker so
 * cleanup finds the record should the server wrongly accept it.
 */
export function baseOf(env: UnitEnv, op: Operation, c: Constraint, req: WireRequest): WireRequest {
  const param = topName(c.param);
  const keep = (loc: 'query' | 'body'): Set<string> =>
    new Set(op.params.filter((p) => p.in === loc && (p.required || (c.location === loc && p.name === param))).map((p) => p.name));
  let out = keepOnly(req, keep('query'), keep('body'));
  const res = resourceFor(env.contract, op);
  if (res && op.kind === 'create') {
    const good = minimalCreateBody(res, `${env.marker} negative`, env.now());
    const fill = Object.fromEntries(Object.entries(good).filter(([k]) => !(c.location === 'body' && k === param) && op.params.some((p) => p.in === 'body' && p.name === k)));
    out = withBody(out, fill);
  }
  return out;
}


/** A route no site has: what every batch item the suite sends points at, so that no item can change anything. */
export function noSuchRoute(env: UnitEnv, i: number): string {
  return `/site-contracts-${env.runId}/no-such-route/${i}`;
}

/** The batch with each item's path (where it has one) pointing at a route that does not exist. */
export function harmlessBatch(env: UnitEnv, req: WireRequest): WireRequest {
  if (!req.body) return req;
  const requests = bodyValues(req.body)['requests'];
  if (!Array.isArray(requests)) return req;
  const items = requests.map((item, i): WireValue => {
    if (typeof item !== 'object' || item === null || Array.isArray(item) || typeof item['path'] !== 'string') return item;
    return { ...item, path: noSuchRoute(env, i) };
  });
  return withBody(req, { requests: items });
}
