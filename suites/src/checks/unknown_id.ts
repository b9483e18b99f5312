// unknown_id: an address that names no record answers 404 (WordPress convention: the posts controller's
// get_post() answers rest_post_invalid_id, the terms controller's get_term() rest_term_invalid, both 404, before
// any permission check, P get_item_permissions_check()). Checked in its own right, not inferred from other
// checks: every read by `{id}` or by slug, and, with credentials, every write and delete by `{id}` of the calendar
// namespaces (a record id no site has, so nothing can change).
//
// The code is held to WordPress's (convention) only on routes built on core's posts controller: a namespace whose
// create documents that controller's own fields (comment_status, ping_status, format, template), as cal/v1 does. A
// plugin's own controllers name their own codes (the legacy rest-event-not-found, Contact Form 7's wpcf7_not_found)
// and the documents show no error codes (000 §7), so there another code on the 404 is at most a warning (assumed).
// Whether the 404 carries WordPress's error envelope is error_envelope's rule, which sees every error answer of the
// run; here only status and code count.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonBody, SAFE_METHODS, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Outcome } from '../report/policy.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { fillTemplate } from '../http/target.ts';
import { UNUSED_ID, UNUSED_SLUG } from './kit/probes.ts';
import { CALENDAR_NAMESPACES, calendarResources, idOf, listRecords, type CalendarResource } from './kit/resources.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { describeAnswer, transportOutcome, wpError } from './kit/wp.ts';

export const UNKNOWN_ID = 'unknown_id';

/** rest_post_invalid_id, rest_user_invalid_id, ... and the terms controller's rest_term_invalid. */
const INVALID_ID_CODE = /^rest_[a-z_]*invalid_id$|^rest_term_invalid$/;

const calendar = (op: Operation): boolean => (CALENDAR_NAMESPACES as readonly string[]).includes(op.namespace);

/** Operations addressed by a record's id or slug, and whether the suite may send them. */
export function unknownIdOperations(contract: Contract): Operation[] {
  return contract.operations.filter((op) => /\{(id|slug)\}/.test(op.path) && (SAFE_METHODS.has(op.method) || (calendar(op) && /\{id\}$/.test(op.path))));
}

export function judgeUnknownId(op: Operation, e: Exchange, core: boolean): { outcome: Outcome; message: string; severity: Severity } {
  const t = transportOutcome(e);
  if (t) return { ...t, severity: 'convention' };
  const r = e.response!;
  const err = wpError(r);
  const byId = op.path.includes('{id}');
  const wantCode = calendar(op) && byId;
  const expected = `expected 404${wantCode ? ' with a rest_*_invalid_id code (rest_post_invalid_id; terms: rest_term_invalid)' : ''} for ${op.method} on a ${byId ? 'record id' : 'slug'} no site has (WordPress convention: get_post()/get_term() before any permission check)`;
  if (r.status === 404) {
    if (!wantCode || (err && INVALID_ID_CODE.test(err.code))) return { outcome: 'pass', message: `answered ${describeAnswer(r)}`, severity: 'convention' };
    if (!err) return { outcome: 'pass', message: `answered 404; its body is no error envelope, so there is no code to check (see error_envelope)`, severity: 'convention' };
    if (!core) {
      return {
        outcome: 'fail',
        severity: 'assumed',
        message: `${expected}; got 404 with code ${err.code}; held as assumed because the route is the plugin's own controller (its namespace does not document the posts controller's fields), which names its own codes, and the documents show no error codes (000 §7)`,
      };
    }
    return { outcome: 'fail', message: `${expected}; got 404 with code ${err.code}`, severity: 'convention' };
  }
  if (!SAFE_METHODS.has(op.method) && (r.status === 401 || r.status === 403)) {
    return { outcome: 'inconclusive', message: `answered ${describeAnswer(r)}: the site checked permission before looking the record up, so whether it knows the id is not shown`, severity: 'convention' };
  }
  return { outcome: 'fail', message: `${expected}; got ${describeAnswer(r)}${r.status >= 200 && r.status < 300 ? ': a record that does not exist was served' : ''}`, severity: 'convention' };
}

async function unknownId(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (outcome: Outcome, message: string, e?: Exchange, severity: Severity = 'convention'): void =>
    env.emit({ check: UNKNOWN_ID, operation: op, variant: op.path.includes('{id}') ? 'id' : 'slug', severity, outcome, message, ...(e ? { exchange: e } : {}) });
  const safe = SAFE_METHODS.has(op.method);
  if (!safe && env.readOnly) return emit('skip', `--read-only: ${op.method} is not sent`);
  if (!safe && !env.hasCredentials) return emit('skip', `no credentials: an anonymous ${op.method} may be refused for permission before the record is looked up`);
  const route = fillTemplate(op.path, { id: String(UNUSED_ID), slug: UNUSED_SLUG });
  // A write names a record no site has: nothing can change. It carries no body, so nothing but the id is judged.
  const e = await env.send({ method: op.method, route, ...(safe ? {} : { intent: 'probe' as const, ...(op.method === 'DELETE' ? {} : { body: { kind: 'json' as const, value: {} } }) }) }, op);
  const v = judgeUnknownId(op, e, builtOnCoreControllers(env.contract, op));
  emit(v.outcome, v.message, e, v.severity);
}

const TERMS = new Set(['category', 'tag']);

/**
 * The resource of the same namespace whose ids come from the same table as `res`'s (events, venues and organizers are
 * all posts; categories and tags are all terms), so its ids are ids that exist, of another type.
 */
function otherType(contract: Contract, res: CalendarResource): CalendarResource | undefined {
  return calendarResources(contract).find((o) => o.namespace === res.namespace && o.resource !== res.resource && TERMS.has(o.resource) === TERMS.has(res.resource));
}

/**
 * A record that exists, read through the route of another type: 404 as for an id no site has (WordPress convention:
 * get_post() compares the post's type with the controller's, get_term() the term's taxonomy), never that record.
 */
async function otherTypeId(env: UnitEnv, res: CalendarResource, other: CalendarResource): Promise<void> {
  const op = res.read;
  const emit = (outcome: Outcome, message: string, e?: Exchange, severity: Severity = 'convention'): void =>
    env.emit({ check: UNKNOWN_ID, operation: op, variant: 'other-type', severity, outcome, message, ...(e ? { exchange: e } : {}) });
  const list = await env.send({ method: 'GET', route: fillTemplate(other.list.path, {}), query: { per_page: 1 }, auth: false }, other.list);
  const t = transportOutcome(list);
  if (t) return emit(t.outcome, t.message, list);
  const id = list.response?.status === 200 ? idOf(listRecords(jsonBody(list.response))?.[0]) : undefined;
  if (id === undefined) return emit('inconclusive', `${other.list.path} lists no ${other.resource} to read through ${op.path} (${describeAnswer(list.response)})`, list);
  const e = await env.send({ method: 'GET', route: fillTemplate(op.path, { id: String(id) }), auth: false }, op);
  const v = judgeUnknownId(op, e, builtOnCoreControllers(env.contract, op));
  const r = e.response;
  const served = r !== undefined && r.status >= 200 && r.status < 300;
  emit(v.outcome, v.outcome === 'pass' ? `${other.resource} ${id}, read as a ${res.resource}: ${v.message}` : `${v.message.replace(/ no site has /, ` of another type (${other.resource} ${id}, which ${other.list.path} lists) `)}${served ? `, served through the ${res.resource} route` : ''}`, e, v.severity);
}

export function planUnknownId(contract: Contract): Unit[] {
  const units: Unit[] = unknownIdOperations(contract).map((op) => ({ id: `${UNKNOWN_ID}:${op.id}`, family: UNKNOWN_ID, checks: [UNKNOWN_ID], operations: [op], run: (env) => unknownId(env, op) }));
  for (const res of calendarResources(contract)) {
    const other = otherType(contract, res);
    if (other) units.push({ id: `${UNKNOWN_ID}:${res.read.id}:other-type`, family: UNKNOWN_ID, checks: [UNKNOWN_ID], operations: [res.read, other.list], run: (env) => otherTypeId(env, res, other) });
  }
  return units;
}
