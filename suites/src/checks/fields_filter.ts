// fields_filter: `?_fields=` as WordPress answers it (WordPress convention, rest_filter_response_fields() in
// rest-api.php, run on rest_post_dispatch for every route, a plugin's own controller's too; checked on WordPress
// 6.1.9, the CI sites):
// - a success keeps only the fields asked for: a list item by item, an object (the root, a legacy list's
//   `{events, total, ...}`) key by key; `_links` may stay (the server adds the root's, a controller its records'
//   when asked), nothing else; each field asked for that the answer without `_fields` holds is there, with the
//   same value (records matched by id: the two requests are apart in time, and another client may write between);
// - an error is not filtered (`is_error()`): GET of an id no site has with `_fields=id` keeps {code, message, data}.
// Subjects: the REST root, the list of each calendar resource, and the read by id of each calendar namespace's
// first resource; all anonymous (what any client may read). The fields asked for are read from the answer without
// `_fields`: `id` and one more field of a record, or two scalar keys of an object, so that the check holds whatever
// the shape a site gives a list (the documents show none: a bare array, or the legacy object).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { firstDifference } from './kit/compare.ts';
import { calendarResources } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome, wpError } from './kit/wp.ts';

export const FIELDS_FILTER = 'fields_filter';

/** An id no site has (as unknown_id's). */
const NO_SUCH_ID = '2000000001';

/** Fields whose value the clock or the request writes: not asked for, so the two answers compare. */
const UNSTABLE = /^(date|modified|count|.*_gmt|.*_utc|.*date.*|rest_url|next_rest_url|previous_rest_url|total|total_pages|_links|_embedded)$/;

/** The fields to ask for, read from the answer without `_fields`; undefined when it offers none to ask for. */
export function fieldsToAsk(plain: unknown): string[] | undefined {
  const sample = Array.isArray(plain) ? plain.find(isPlainObject) : plain;
  if (!isPlainObject(sample)) return undefined;
  const keys = Object.keys(sample).filter((k) => !UNSTABLE.test(k));
  if (Array.isArray(plain)) {
    if (!('id' in sample)) return undefined;
    const other = keys.find((k) => k !== 'id');
    return other ? ['id', other] : ['id'];
  }
  const scalar = keys.filter((k) => sample[k] === null || typeof sample[k] !== 'object');
  const two = (scalar.length >= 2 ? scalar : keys).slice(0, 2);
  return two.length ? two : undefined;
}

/** What is wrong with the filtered answer against the plain one, for the fields asked; [] when nothing is. */
export function fieldsProblems(plain: unknown, filtered: unknown, fields: readonly string[]): string[] {
  const allowed = new Set([...fields, '_links']);
  const extra = (o: Record<string, unknown>): string[] => Object.keys(o).filter((k) => !allowed.has(k));
  if (Array.isArray(plain)) {
    if (!Array.isArray(filtered)) return [`the answer is ${describeValue(filtered)}, not a list as without _fields`];
    const byId = new Map(plain.filter(isPlainObject).map((r) => [String(r['id']), r]));
    const out: string[] = [];
    for (const item of filtered) {
      if (!isPlainObject(item)) return [`an item is ${describeValue(item)}, not a record`];
      const more = extra(item);
      if (more.length) out.push(`record ${JSON.stringify(item['id'] ?? null)} holds ${more.join(', ')} besides the fields asked for`);
      const before = byId.get(String(item['id']));
      if (!before) continue;
      for (const f of fields) {
        if (!(f in before)) continue;
        if (!(f in item)) out.push(`record ${String(item['id'])} lacks ${f}, which it holds without _fields`);
        else {
          const d = firstDifference(before[f], item[f], f);
          if (d) out.push(`record ${String(item['id'])}'s ${d.path} is ${JSON.stringify(d.b)} where it is ${JSON.stringify(d.a)} without _fields`);
        }
      }
      if (out.length >= 3) break;
    }
    if (filtered.length !== plain.length && out.length === 0 && filtered.length === 0) out.push(`the list is empty where it holds ${plain.length} record(s) without _fields`);
    return out;
  }
  if (!isPlainObject(plain)) return [];
  if (!isPlainObject(filtered)) return [`the answer is ${describeValue(filtered)}, not an object as without _fields`];
  const out: string[] = [];
  const more = extra(filtered);
  if (more.length) out.push(`it holds ${more.join(', ')} besides the fields asked for`);
  for (const f of fields) if (f in plain && !(f in filtered)) out.push(`it lacks ${f}, which it holds without _fields`);
  return out;
}

function describeValue(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

async function filtered(env: UnitEnv, op: Operation, route: string): Promise<void> {
  const emit = (outcome: Outcome, message: string, e?: Exchange): void => env.emit({ check: FIELDS_FILTER, operation: op, variant: 'success', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const query = op.kind === 'list' ? { per_page: 5 } : {};
  const plainE = await env.send({ method: 'GET', route, query, auth: false }, op);
  const t = transportOutcome(plainE);
  if (t) return emit(t.outcome, t.message, plainE);
  const plain = jsonBody(plainE.response);
  if (plainE.response!.status !== 200 || plain === undefined) return emit('inconclusive', `GET ${route} answered ${describeAnswer(plainE.response)} anonymously: there is no answer to filter`, plainE);
  const fields = fieldsToAsk(plain);
  if (!fields) return emit('inconclusive', `GET ${route} answered ${Array.isArray(plain) ? 'a list without records with an id' : 'no field'} to ask for`, plainE);
  const e = await env.send({ method: 'GET', route, query: { ...query, _fields: fields.join(',') }, auth: false }, op);
  const t2 = transportOutcome(e);
  if (t2) return emit(t2.outcome, t2.message, e);
  if (e.response!.status !== 200) return emit('fail', `expected GET ${route}?_fields=${fields.join(',')} to answer 200 as without _fields (WordPress convention, rest_filter_response_fields()); it answered ${describeAnswer(e.response)}`, e);
  const problems = fieldsProblems(plain, jsonBody(e.response), fields);
  if (problems.length) return emit('fail', `expected GET ${route}?_fields=${fields.join(',')} to keep only ${fields.join(', ')} (and _links), as without _fields (WordPress convention, rest_filter_response_fields()); ${problems.join('; ')}`, e);
  emit('pass', `_fields=${fields.join(',')} kept those fields${Array.isArray(plain) ? ' of each record' : ''}, as without _fields`, e);
}

async function error(env: UnitEnv, op: Operation): Promise<void> {
  const route = op.path.replace(/\{[^}]+\}/, NO_SUCH_ID);
  const e = await env.send({ method: 'GET', route, query: { _fields: 'id' }, auth: false }, op);
  const emit = (outcome: Outcome, message: string): void => env.emit({ check: FIELDS_FILTER, operation: op, variant: 'error', severity: 'convention', outcome, message, exchange: e });
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message);
  const r = e.response!;
  if (r.status < 400) return emit('inconclusive', `GET ${route} answered ${describeAnswer(r)}: no error to judge`);
  const b = jsonBody(r);
  const err = wpError(r);
  if (!isPlainObject(b) || !err || !isPlainObject(b['data'])) {
    return emit('fail', `expected the error of GET ${route}?_fields=id to keep its whole envelope {code, message, data} (WordPress convention, rest_filter_response_fields() leaves errors alone: WP_REST_Response::is_error()); it answered ${r.status} ${describeValue(b ?? r.body.slice(0, 80))}`);
  }
  emit('pass', `${describeAnswer(r)} kept {code, message, data} under _fields=id`);
}

export function planFieldsFilter(contract: Contract): Unit[] {
  const units: Unit[] = [];
  const root = contract.operations.find((o) => o.kind === 'root');
  if (root) units.push({ id: `${FIELDS_FILTER}:${root.id}`, family: FIELDS_FILTER, checks: [FIELDS_FILTER], operations: [root], run: (env) => filtered(env, root, root.path) });
  const seen = new Set<string>();
  for (const r of calendarResources(contract)) {
    units.push({ id: `${FIELDS_FILTER}:${r.list.id}`, family: FIELDS_FILTER, checks: [FIELDS_FILTER], operations: [r.list], run: (env) => filtered(env, r.list, r.list.path) });
    if (seen.has(r.namespace)) continue;
    seen.add(r.namespace);
    units.push({ id: `${FIELDS_FILTER}:${r.read.id}`, family: FIELDS_FILTER, checks: [FIELDS_FILTER], operations: [r.read], run: (env) => error(env, r.read) });
  }
  return units;
}
