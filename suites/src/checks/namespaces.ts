// One cause, one finding: a namespace of the contract the site does not serve (its descriptor lists neither the
// namespace nor any route in it) is one route_presence failure, "forms/v1 not served: 11 operations", with the
// namespace index's answer as its evidence. Every other unit that would send to that namespace is not run, and says
// why in one skipped case, instead of a route failure per operation plus an unknown-id failure per missing route.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { LiveDescriptor } from '../diff/descriptor.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { ROUTE_PRESENCE } from './route_presence.ts';
import { describeAnswer, sourceOf, transportOutcome } from './kit/wp.ts';

/**
 * Whether the site's descriptor shows the namespace: listed, or holding a route, or a route under its path (core's
 * /batch/v1 is a route of the root, namespace '', and batch/v1 is not among the namespaces). The root always is.
 */
function serves(descriptor: LiveDescriptor, namespace: string): boolean {
  const prefix = `/${namespace}`.toLowerCase();
  return (
    namespace === '' ||
    descriptor.namespaces.includes(namespace) ||
    descriptor.routes.some((r) => r.namespace === namespace || r.template.toLowerCase() === prefix || r.template.toLowerCase().startsWith(`${prefix}/`))
  );
}

/** The namespaces of the unit's operations that the site does not serve. */
function unservedOf(descriptor: LiveDescriptor, u: Unit): string[] {
  return [...new Set(u.operations.map((o) => o.namespace))].filter((ns) => !serves(descriptor, ns));
}

function namespaceUnitId(namespace: string): string {
  return `${ROUTE_PRESENCE}:namespace:${namespace}`;
}

/** The unit, not run when it would send to a namespace the site does not serve (namespace's own unit says so). */
export function gatedByNamespace(u: Unit): Unit {
  if (u.id.startsWith(`${ROUTE_PRESENCE}:namespace:`)) return u;
  return {
    ...u,
    run: async (env) => {
      const missing = unservedOf(env.descriptor, u);
      if (missing.length === 0) return u.run(env);
      const first = u.operations.find((o) => missing.includes(o.namespace))!;
      env.emit({
        check: u.family,
        operation: first,
        variant: `not-run:${u.id}`,
        severity: 'documented',
        outcome: 'skip',
        message: `not run: ${missing.join(', ')} not served by the site (one finding: ${missing.map(namespaceUnitId).join(', ')})`,
      });
    },
  };
}

async function namespacePresence(env: UnitEnv, namespace: string, ops: readonly Operation[]): Promise<void> {
  const index = ops.find((o) => o.kind === 'index' && o.method === 'GET');
  const op = index ?? ops[0]!;
  const base = { check: ROUTE_PRESENCE, operation: op, variant: `namespace:${namespace}`, severity: 'documented' as const };
  if (serves(env.descriptor, namespace)) return env.emit({ ...base, outcome: 'pass', message: `the site's descriptor shows ${namespace}` });
  const e = await env.send({ method: 'GET', route: `/${namespace}` }, op);
  const t = transportOutcome(e);
  if (t) return env.emit({ ...base, ...t, exchange: e });
  const sources = [...new Set(ops.map((o) => sourceOf(o)))].join('; ');
  env.emit({
    ...base,
    outcome: 'fail',
    message: `${namespace} not served: ${ops.length} operation${ops.length === 1 ? '' : 's'} (${sources}); the site's descriptor lists neither the namespace nor any route in it, and GET /${namespace} answered ${describeAnswer(e.response)}. Its operations' checks are not run (one cause, one finding)`,
    exchange: e,
  });
}

/** One unit per namespace of the contract (the root aside). */
export function planNamespaces(contract: Contract): Unit[] {
  const byNs = new Map<string, Operation[]>();
  for (const op of contract.operations) if (op.namespace !== '') byNs.set(op.namespace, [...(byNs.get(op.namespace) ?? []), op]);
  return [...byNs].map(([ns, ops]) => ({
    id: namespaceUnitId(ns),
    family: ROUTE_PRESENCE,
    checks: [ROUTE_PRESENCE],
    operations: [ops.find((o) => o.kind === 'index' && o.method === 'GET') ?? ops[0]!],
    run: (env: UnitEnv) => namespacePresence(env, ns, ops),
  }));
}
