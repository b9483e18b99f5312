// route_presence: every operation of the contract answers at its route and method, instead of
// WordPress's `404 rest_no_route` (which it sends for an unknown route and for a known route with a
// method it does not serve; it never sends 405).
//
// A read is probed with a valid request. A write is probed with a request that breaks one parameter, so
// that a conforming server refuses it while validating, before any handler runs: a route that exists
// answers 400, a route that does not answers rest_no_route, and nothing is written either way. Under
// --read-only no write method is sent; OPTIONS, which WordPress answers for every route with the
// methods it serves, stands in.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Exchange, Outgoing, Received } from '../http/types.ts';
import { jsonBody, SAFE_METHODS } from '../http/types.ts';
import { declaresArg } from '../diff/descriptor.ts';
import type { Finding, Unit, UnitEnv } from './kit/unit.ts';
import { constraints, toOutgoing, validRequests, violations, withPath, type Constraint } from './kit/generate.ts';
import { baseOf, unusedPathValues } from './kit/probes.ts';
import { referenceFields, referenceValues, withReferences } from './kit/references.ts';
import { describeAnswer, isNoRoute, sourceOf, transportOutcome, wpError } from './kit/wp.ts';
import { contentTypeProblem } from './content_type.ts';
import { responseSpec } from './response_shape.ts';

export const ROUTE_PRESENCE = 'route_presence';

/** The route is absent: rest_no_route, a 405, or a 404 that is not a WordPress answer at all. */
function routeMissing(r: Received): string | undefined {
  if (isNoRoute(r)) return 'answered 404 rest_no_route: the target has no route for this method and path';
  if (r.status === 405) return 'answered 405: the target serves the route but not this method';
  if (r.status === 404 && !wpError(r)) return 'answered 404 without a WordPress error body: no REST route here';
  return undefined;
}

/** A write that a conforming server refuses while validating: a required parameter left out, or one broken. */
function rejectedProbe(env: UnitEnv, op: Operation): Outgoing | undefined {
  const declared = (name: string): boolean => declaresArg(env.descriptor, op.path, op.method, name) !== false;
  const usable = constraints(env.contract, op).filter((c) => c.wire.kind === 'wire' && c.location !== 'path');
  // Prefer what the target is surest to check: a missing required parameter, then a parameter the
  // target says it has (a broken value of one it ignores would be executed), in the body before the
  // query (WordPress reads a body value first when both are sent).
  const score = (c: Constraint): number => (c.keyword === 'required' ? 0 : 2) + (declared(c.param) ? 0 : 4) + (c.location === 'body' ? 0 : 1);
  const ranked = [...usable].sort((a, b) => score(a) - score(b));
  for (const c of ranked) {
    const [v] = violations(env.contract, op, c, env.seed, 1);
    if (!v) continue;
    return { ...toOutgoing(withPath(op, baseOf(env, op, c, v.request), unusedPathValues(op)), 'probe'), auth: false };
  }
  return undefined;
}

async function routePresence(env: UnitEnv, op: Operation): Promise<Finding> {
  const base = { check: ROUTE_PRESENCE, operation: op, severity: 'documented' as const };
  let e: Exchange;
  let via = '';
  if (SAFE_METHODS.has(op.method)) {
    // A read by id or slug names a record the target lists, so that what comes back is the route's own answer.
    const [generated] = validRequests(env.contract, op, env.seed, 1, { optional: 'none' });
    const fields = referenceFields(env.contract, op).filter((f) => f.location === 'path');
    const req = fields.length ? withReferences(op, generated!, fields, await referenceValues(env, fields, op)).req : generated!;
    e = await env.send(toOutgoing(req), op);
  } else if (env.readOnly) {
    via = ' (OPTIONS, as --read-only sends no write)';
    const [req] = validRequests(env.contract, op, env.seed, 1, { optional: 'none' });
    e = await env.send({ method: 'OPTIONS', route: withPath(op, req!, unusedPathValues(op)).path }, op);
    const r = e.response;
    if (r && !transportOutcome(e)) {
      const missing = routeMissing(r);
      if (missing) return { ...base, outcome: 'fail', message: `expected ${op.method} ${op.path} to be served (${sourceOf(op)}); OPTIONS ${missing}`, exchange: e };
      const methods = (jsonBody(r) as { methods?: unknown } | undefined)?.methods;
      if (r.status === 200 && Array.isArray(methods)) {
        return methods.includes(op.method)
          ? { ...base, outcome: 'pass', message: `OPTIONS lists ${op.method}${via}`, exchange: e }
          : { ...base, outcome: 'fail', message: `expected ${op.method} ${op.path} to be served (${sourceOf(op)}); OPTIONS lists ${methods.join(', ')} but not ${op.method}`, exchange: e };
      }
      return { ...base, outcome: 'skip', message: `--read-only: OPTIONS answered ${describeAnswer(r)}, which does not say whether ${op.method} is served`, exchange: e };
    }
  } else {
    const probe = rejectedProbe(env, op);
    if (!probe) return { ...base, outcome: 'skip', message: 'no parameter can be broken to make a harmless probe of this write' };
    e = await env.send(probe, op);
  }
  const t = transportOutcome(e);
  if (t) return { ...base, ...t, exchange: e };
  const r = e.response!;
  const missing = routeMissing(r);
  if (missing) return { ...base, outcome: 'fail', message: `expected ${op.method} ${op.path} to be served (${sourceOf(op)}); it ${missing}`, exchange: e };
  // An answer of another type than the REST server's (a theme's text/html page) is no sign of the route.
  const typed = contentTypeProblem(e);
  if (typed) {
    const spec = responseSpec(op, r.status);
    // Where the documents show no payload (an action, a view rendered as HTML), the route may answer as it likes.
    if ((spec?.basis ?? 'assumed') === 'assumed' && r.status >= 200 && r.status < 300 && op.kind !== 'list' && op.kind !== 'read') {
      return { ...base, outcome: 'inconclusive', message: `${typed}: the documents show no payload here, so whether the route answered or a page did is not shown (see content_type)`, exchange: e };
    }
    return { ...base, outcome: 'fail', message: `expected ${op.method} ${op.path} to be served by the REST API (${sourceOf(op)}); ${typed}: not a REST answer (see content_type)`, exchange: e };
  }
  return { ...base, outcome: 'pass', message: `answered ${describeAnswer(r)}${via}`, exchange: e };
}

export function planRoutePresence(contract: Contract): Unit[] {
  return contract.operations.map((op) => ({
    id: `${ROUTE_PRESENCE}:${op.id}`,
    family: ROUTE_PRESENCE,
    checks: [ROUTE_PRESENCE],
    operations: [op],
    run: async (env) => env.emit(await routePresence(env, op)),
  }));
}
