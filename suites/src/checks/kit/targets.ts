// Which record a negative case names in its path. A site that checks the `{id}` before the body (the legacy
// calendar plugin answers 400 rest_invalid_param naming `id` for an id it does not have) refuses a request to
// 2000000001 for its id, and the body rule the case is about is never judged. So a write names a record of the
// route's own type that the suite made for the purpose (created once per unit, in the ledger, removed at the end),
// and a read one the target lists for that route. Where neither can be had (no credentials, a route whose records
// the suite cannot make or find), the path names no record, as before: the case is then judged as it comes.

import type { Operation } from '../../../../contracts/lib/types.ts';
import { jsonBody, SAFE_METHODS } from '../../http/types.ts';
import type { UnitEnv } from './unit.ts';
import { unusedPathValues } from './probes.ts';
import { changesWhatItNames, referenceFields, referenceValues, refKey } from './references.ts';
import { createOwn, resourceFor } from './resources.ts';

export interface PathTarget {
  values: Record<string, string>;
  /** --disposable-target: fields outside the path that name what the write changes (an add-on's objectID), set to a record of the run's own. */
  fields?: { location: 'query' | 'body'; param: string; value: number | string }[];
  /** What the path names, for messages and the identifier check: 'own' (the suite's record), 'listed', 'none'. */
  kind: 'own' | 'listed' | 'none';
}

function addressed(op: Operation): string[] {
  return op.params.filter((p) => p.in === 'path' && (p.name === 'id' || p.name === 'slug')).map((p) => p.name);
}

/** The path values negative cases on `op` use; creates the suite's own record when a write needs one. */
export async function negativeTarget(env: UnitEnv, op: Operation, unitId: string): Promise<PathTarget> {
  const none: PathTarget = { values: unusedPathValues(op), kind: 'none' };
  const names = addressed(op);
  if (!SAFE_METHODS.has(op.method) && !resourceFor(env.contract, op) && env.disposable) return ownTarget(env, op, none);
  if (names.length === 0) return none;
  if (!SAFE_METHODS.has(op.method)) {
    const res = resourceFor(env.contract, op);
    if (!res || env.readOnly || !env.hasCredentials || (op.kind !== 'update' && op.kind !== 'delete')) return none;
    const { record } = await createOwn(env, res, unitId, 'negative target');
    if (!record) return none;
    const slug = (jsonBody(record.exchange.response) as { slug?: unknown } | undefined)?.slug;
    if (names.includes('slug') && typeof slug !== 'string') return none;
    return { values: { ...(names.includes('id') ? { id: String(record.id) } : {}), ...(typeof slug === 'string' && names.includes('slug') ? { slug } : {}) }, kind: 'own' };
  }
  const fields = referenceFields(env.contract, op).filter((f) => f.location === 'path');
  if (fields.length === 0) return none;
  const found = await referenceValues(env, fields, op);
  const values: Record<string, string> = { ...none.values };
  for (const f of fields) {
    const first = found.ids.get(refKey(f))?.[0];
    if (first === undefined) return none;
    values[f.param] = String(first);
  }
  return { values, kind: 'listed' };
}

/**
 * --disposable-target: a write outside the calendar, sent with credentials when its anonymous twin is refused, names
 * records of the run's own wherever it names what it changes (its path's {id}, an objectID): never the site's.
 */
async function ownTarget(env: UnitEnv, op: Operation, none: PathTarget): Promise<PathTarget> {
  const fields = referenceFields(env.contract, op).filter((f) => changesWhatItNames(env, f, op));
  if (fields.length === 0) return none;
  const found = await referenceValues(env, fields, op);
  const values: Record<string, string> = { ...none.values };
  const named: NonNullable<PathTarget['fields']> = [];
  for (const f of fields) {
    const own = found.ids.get(refKey(f))?.[0];
    if (own === undefined) return none;
    if (f.location === 'path') values[f.param] = String(own);
    else if (f.location === 'query' || f.location === 'body') named.push({ location: f.location, param: f.param, value: own });
  }
  return { values, ...(named.length ? { fields: named } : {}), kind: 'own' };
}
