// --only / --skip / --shard. Items name a namespace (`cal/v1`, `root`), a route (`/cal/v1/events`,
// which also covers the routes under it), an operationId or a check. Kinds combine with AND, items of
// one kind with OR: `--only cal/v1,negative_rejection` is negative rejection in cal/v1.
// An item that names nothing is a usage error: a typo must not turn into a silently empty run.
// --only also takes a report's case id (`check:operationId:variant`, e.g. `route_presence:getCalV1:`): the
// check on that operation runs, and only that case is reported, so a FAIL line's replay command is exact.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { UsageError } from '../errors.ts';
import type { ShardInfo } from '../report/model.ts';
import { fnv1a } from '../checks/kit/hash.ts';
import type { Unit } from '../checks/kit/unit.ts';

export interface Filter {
  namespaces: Set<string>;
  routes: Set<string>;
  operations: Set<string>;
  checks: Set<string>;
  /** Case ids given to --only: the run reports these cases alone. */
  cases: Set<string>;
}

/** A report's case id: `check:operationId:variant`, operationId `-` for a check not tied to one. */
function caseIdParts(item: string): { check: string; operationId: string; variant: string } | undefined {
  const first = item.indexOf(':');
  const second = item.indexOf(':', first + 1);
  if (first <= 0 || second < 0) return undefined;
  return { check: item.slice(0, first), operationId: item.slice(first + 1, second), variant: item.slice(second + 1) };
}

const ROOT_NAMES = new Set(['root', '(root)', '/']);

export function parseFilter(items: readonly string[], contract: Contract, checks: readonly string[], flag: '--only' | '--skip'): Filter {
  const f: Filter = { namespaces: new Set(), routes: new Set(), operations: new Set(), checks: new Set(), cases: new Set() };
  const namespaces = new Set(contract.operations.map((o) => o.namespace));
  for (const raw of items) {
    const item = raw.trim();
    const id = caseIdParts(item);
    if (id && checks.includes(id.check)) {
      if (flag === '--skip') throw new UsageError(`--skip ${item}: a case id replays one case with --only; --skip takes namespaces, routes, operationIds or checks`, 'skip');
      if (id.operationId !== '-' && !contract.operations.some((o) => o.id === id.operationId)) {
        throw new UsageError(`--only ${item}: the case id names the operation ${id.operationId}, which the contract does not have`, 'only');
      }
      f.checks.add(id.check);
      if (id.operationId !== '-') f.operations.add(id.operationId);
      f.cases.add(item);
    } else if (ROOT_NAMES.has(item)) f.namespaces.add('');
    else if (checks.includes(item)) f.checks.add(item);
    else if (namespaces.has(item)) f.namespaces.add(item);
    else if (item.startsWith('/')) {
      const route = item.replace(/\/+$/, '');
      if (!contract.operations.some((o) => routeMatches(o.path, route))) {
        throw new UsageError(`${flag} ${item}: no route of the contract is or starts with ${route}`);
      }
      f.routes.add(route);
    } else if (contract.operations.some((o) => o.id === item)) f.operations.add(item);
    else {
      throw new UsageError(
        `${flag} ${item}: not a namespace, route, operationId, check${flag === '--only' ? ' or case id (check:operationId:variant)' : ''}; namespaces: root, ${[...namespaces].filter((n) => n !== '').sort().join(', ')}; checks: ${[...checks].join(', ')}`,
      );
    }
  }
  return f;
}

function routeMatches(path: string, route: string): boolean {
  const p = path.toLowerCase();
  const r = route.toLowerCase();
  return p === r || p.startsWith(`${r}/`) || (r === '' && p === '/');
}

function targetsSomething(f: Filter): boolean {
  return f.namespaces.size + f.routes.size + f.operations.size > 0;
}

function opMatches(op: Operation, f: Filter): boolean {
  return f.namespaces.has(op.namespace) || f.operations.has(op.id) || [...f.routes].some((r) => routeMatches(op.path, r));
}

function unitMatches(unit: Unit, f: Filter, every: boolean): boolean {
  const tests = [...unit.operations.map((op) => opMatches(op, f)), ...(unit.namespaces ?? []).map((ns) => f.namespaces.has(ns))];
  if (tests.length === 0) return false;
  return every ? tests.every(Boolean) : tests.some(Boolean);
}

interface Selected {
  units: Unit[];
  /** Checks whose findings are reported. */
  checks: Set<string>;
}

/**
 * A unit runs when --only names all it touches (a unit reaching into a namespace nobody asked for
 * stays out) and --skip names none of it; and when at least one of its checks is still wanted.
 */
export function select(units: readonly Unit[], allChecks: readonly string[], only: Filter, skip: Filter): Selected {
  const checks = new Set(allChecks.filter((c) => (only.checks.size === 0 || only.checks.has(c)) && !skip.checks.has(c)));
  const out = units.filter((u) => {
    if (!u.checks.some((c) => checks.has(c))) return false;
    // A case id names one operation of a unit that may touch several (a low user's writes and reads): the unit runs
    // whole when it touches that operation, and only that case is reported.
    if (targetsSomething(only) && !unitMatches(u, only, only.cases.size === 0)) return false;
    if (targetsSomething(skip) && unitMatches(u, skip, false)) return false;
    return true;
  });
  return { units: out, checks };
}

export function inShard(unitId: string, shard: ShardInfo | undefined): boolean {
  if (!shard) return true;
  return (fnv1a(unitId) % shard.total) + 1 === shard.index;
}

/** Seed of one unit: the run's seed mixed with the unit id, so a unit generates the same cases alone or among all. */
export function unitSeed(runSeed: number, unitId: string): number {
  return (fnv1a(`${runSeed}:${unitId}`) ^ runSeed) >>> 0;
}
