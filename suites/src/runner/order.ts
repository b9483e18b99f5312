// The order a run takes its units in: what a release depends on most comes first, so that a run cut short by
// --max-duration, --max-requests or Ctrl-C has already judged it. A family's rank is its registry row's rank:
//
// 1. Is the interface there: the documented routes are served and the descriptor lists them. Cheap (a request
//    per operation, or none), and a missing route explains every finding after it.
// 2. Does it keep the documents' promises about records: made, read, changed and deleted in both calendar
//    namespaces; then each documented value taken and each documented constraint refused (refusing a valid
//    value breaks a client; taking an invalid one is the lesser harm), and the documented defaults.
// 3. Does a request do what the documents say: the semantic oracles (filters, order).
// 4. WordPress's conventions: they fail the run by default, but --conventions warn relaxes them.
// 5. What the documents never state (response shapes, the translation add-on's behaviour): they only warn.
//
// Units that only read still run before units that may write (that send any write method, probes included), but
// per part of the table: the documented checks (ranks 1-3) read, then write; then the rest reads, then writes. No
// write runs beside a read that compares two answers of a list, and a documented write does not wait for every
// convention read. The cases are reported in this order, which a seed does not change, whatever --workers is.

import { SAFE_METHODS } from '../http/types.ts';
import { CHECKS } from '../checks/registry.ts';
import type { Unit } from '../checks/kit/unit.ts';

/** Where a family of checks stands (its registry row's rank); one the table does not place goes last (order.test.ts keeps it complete). */
export function rankOf(family: string): number {
  return CHECKS.find((c) => c.name === family)?.rank ?? 6;
}

/**
 * Whether a unit may change what a list shows: it says it writes, or it sends a write method at all. A probe built
 * to be refused can be taken (negative_rejection sends a refused anonymous create again with credentials), so a
 * unit that sends one runs with the writers, never beside a read that compares two answers of a list.
 */
function mayWrite(u: Unit): boolean {
  return u.writes === true || u.operations.some((op) => !SAFE_METHODS.has(op.method));
}

/**
 * The units in the order they run and are reported, as phases: each runs whole before the next starts. Within a
 * phase, by rank, then as planned.
 */
export function phases(units: readonly Unit[]): Unit[][] {
  const part = (u: Unit): number => (rankOf(u.family) < 4 ? 0 : 2) + (mayWrite(u) ? 1 : 0);
  const order = units.map((unit, i) => ({ unit, i, part: part(unit), rank: rankOf(unit.family) }));
  order.sort((a, b) => a.part - b.part || a.rank - b.rank || a.i - b.i);
  const out: Unit[][] = [];
  for (const { unit, part: p } of order) (out[p] ??= []).push(unit);
  return out.filter((phase) => phase !== undefined && phase.length > 0);
}
