// forced_delete: a DELETE with force=true answers 200 {"deleted": true, "previous": {the record as it was}}
// (WordPress convention, WP_REST_Posts_Controller::delete_item(); sample 37 of WordPress 6.1.9). Where the documents
// give DELETE a `force` (cal/v1, 000 §3), a client reads what it deleted from `previous`; an answer without it is
// a finding of its own, not one shape warning among the record shapes the documents never show.

import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Finding } from './kit/unit.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';

export const FORCED_DELETE = 'forced_delete';

/** What is wrong with a forced DELETE's 2xx answer for record `id`; empty when it is WordPress's. */
function forcedDeleteProblems(body: unknown, id: number): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [`the body is ${JSON.stringify(body ?? '(not JSON)')?.slice(0, 60)}, not {deleted, previous}`];
  const b = body as Record<string, unknown>;
  const out: string[] = [];
  if (b['deleted'] !== true) out.push(`deleted is ${JSON.stringify(b['deleted'] ?? '(absent)')}, not true`);
  const prev = b['previous'];
  if (typeof prev !== 'object' || prev === null || Array.isArray(prev)) out.push(`previous is ${JSON.stringify(prev ?? '(absent)')?.slice(0, 60)}, not the record as it was`);
  else if ((prev as Record<string, unknown>)['id'] !== id) out.push(`previous.id is ${JSON.stringify((prev as Record<string, unknown>)['id'] ?? '(absent)')}, not ${id}`);
  return out;
}

/** The finding on the answer to DELETE ?force=true of record `id` (only when it was a success: the lifecycle judges the rest). */
export function forcedDeleteFinding(op: Operation, e: Exchange, id: number, variant: string): Finding {
  const base = { check: FORCED_DELETE, operation: op, variant, severity: 'convention' as const, exchange: e };
  const t = transportOutcome(e);
  if (t) return { ...base, ...t };
  const r = e.response!;
  if (r.status < 200 || r.status >= 300) return { ...base, outcome: 'skip', message: `force=true answered ${describeAnswer(r)} (see lifecycle)` };
  const problems = forcedDeleteProblems(jsonBody(r), id);
  if (problems.length) return { ...base, outcome: 'fail', message: `expected DELETE ?force=true of record ${id} to answer {"deleted": true, "previous": {"id": ${id}, ...}} (WordPress convention, WP_REST_Posts_Controller::delete_item()); got ${r.status} where ${problems.join('; ')}` };
  return { ...base, outcome: 'pass', message: `{"deleted": true, "previous": {"id": ${id}, ...}}` };
}
