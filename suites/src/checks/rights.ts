// permissions: who may read what through core's posts controller (cal/v1 events; not the legacy namespace, The
// Events Calendar's own controllers, which take no context=edit and filter statuses their own way), and what the REST
// root shows to whom. All reads, on records the site lists; nothing is written.
// - list-edit: GET /cal/v1/events?context=edit is 401 rest_forbidden_context anonymously
//   (get_items_permissions_check(): edit needs edit_posts); the administrator gets 200, each record with title.raw;
// - read-edit: GET /cal/v1/events/{id}?context=edit of a record the list shows: 401 rest_forbidden_context
//   anonymously (get_item_permissions_check(): check_update_permission()); the administrator gets content.raw;
// - status-filter: GET /cal/v1/events?status=draft anonymously is 400 rest_invalid_param whose details.status is
//   rest_forbidden_status with status 401 (sanitize_post_statuses()); the administrator gets 200 with drafts only;
// - theme-link: the root's _links holds wp:active-theme for the administrator and not for an anonymous client
//   (WP_REST_Server::add_active_theme_link_to_index()).
// With --low-auth-env, the same refusals as that user must say 403 (a user who may edit posts is let through:
// inconclusive, with what came back). Severity convention: the documents show no permissions (000 §5).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange, type Outgoing } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { idOf, listRecords, rawOf } from './kit/resources.ts';
import { NO_LOW_USER } from './kit/low_user.ts';
import { describeAnswer, transportOutcome, wpError } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

export const PERMISSIONS = 'permissions';

type Who = 'anonymous' | 'admin' | 'low';
interface Verdict {
  outcome: Outcome;
  message: string;
  exchange?: Exchange;
}

const RULE = 'WordPress convention, WP_REST_Posts_Controller';
const authOf = (who: Who): Outgoing['auth'] => (who === 'anonymous' ? false : who === 'low' ? 'low' : true);

/** Why `who` cannot be asked in this run; undefined when it can. */
function unavailable(env: UnitEnv, who: Who): string | undefined {
  if (who === 'admin' && !env.hasCredentials) return 'no credentials (--auth-env): what the administrator sees is not asked';
  if (who === 'low' && !env.lowAuthEnv) return NO_LOW_USER;
  return undefined;
}

/** A refusal for permission of `who` with `code`: 401 anonymously, 403 signed in (rest_authorization_required_code()). */
function judgeRefusal(e: Exchange, who: Who, code: string, what: string): Verdict {
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const r = e.response!;
  const want = who === 'anonymous' ? 401 : 403;
  const err = wpError(r);
  if (r.status === want && err?.code === code) return { outcome: 'pass', message: `${what} was refused ${want} ${code}`, exchange: e };
  if (who === 'low' && r.status === 200) return { outcome: 'inconclusive', message: `${what} was let through (200): the user from --low-auth-env may edit posts, so the refusal cannot be seen (a subscriber's credentials show it)`, exchange: e };
  return { outcome: 'fail', message: `expected ${what} to be refused ${want} ${code} (${RULE}: context=edit needs the right to edit; 401 only when nobody is signed in); got ${describeAnswer(r)}`, exchange: e };
}


function judgeEditRead(e: Exchange, field: string, what: string, many: boolean): Verdict {
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const r = e.response!;
  if (r.status !== 200) return { outcome: 'fail', message: `expected ${what} to answer 200 to the administrator (${RULE}); got ${describeAnswer(r)}`, exchange: e };
  const body = jsonBody(r);
  const recs = many ? (listRecords(body) ?? []) : [body];
  if (recs.length === 0) return { outcome: 'inconclusive', message: `${what} answered no record, so no ${field}.raw could be seen`, exchange: e };
  const without = recs.filter((x) => typeof rawOf(x, field) !== 'string');
  if (without.length) return { outcome: 'fail', message: `expected each record of ${what} to hold ${field}.raw, as the edit context shows it (${RULE}::prepare_item_for_response()); ${without.length} of ${recs.length} do not (record ${idOf(without[0]) ?? '?'})`, exchange: e };
  return { outcome: 'pass', message: `${what}: ${recs.length} record(s), each with ${field}.raw`, exchange: e };
}

function judgeStatusFilter(e: Exchange, who: Who): Verdict {
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const r = e.response!;
  const what = 'status=draft';
  if (who === 'admin') {
    if (r.status !== 200) return { outcome: 'fail', message: `expected ${what} to answer 200 to the administrator (${RULE}::sanitize_post_statuses(): edit_posts may list drafts); got ${describeAnswer(r)}`, exchange: e };
    const recs = listRecords(jsonBody(r)) ?? [];
    const other = recs.find((x) => isPlainObject(x) && x['status'] !== 'draft');
    if (other) return { outcome: 'fail', message: `expected ${what} to list drafts only; record ${idOf(other) ?? '?'} has status ${JSON.stringify((other as Record<string, unknown>)['status'])}`, exchange: e };
    return recs.length ? { outcome: 'pass', message: `${what}: ${recs.length} draft(s), no other status`, exchange: e } : { outcome: 'inconclusive', message: `${what} answered no record: the site has no draft event to show`, exchange: e };
  }
  const want = who === 'anonymous' ? 401 : 403;
  const err = wpError(r);
  const detail = err?.data?.['details'];
  const inside = isPlainObject(detail) && isPlainObject(detail['status']) ? (detail['status'] as { code?: unknown; data?: unknown }) : undefined;
  const insideStatus = isPlainObject(inside?.data) ? (inside!.data as Record<string, unknown>)['status'] : undefined;
  if (r.status === 400 && err?.code === 'rest_invalid_param' && inside?.code === 'rest_forbidden_status' && insideStatus === want) {
    return { outcome: 'pass', message: `${what} was refused 400 rest_invalid_param with rest_forbidden_status (status ${want}) inside`, exchange: e };
  }
  if (who === 'low' && r.status === 200) return { outcome: 'inconclusive', message: `${what} was let through (200): the user from --low-auth-env may edit posts`, exchange: e };
  const got = inside ? `${describeAnswer(r)} with ${String(inside.code)} (status ${JSON.stringify(insideStatus ?? null)}) inside` : describeAnswer(r);
  return { outcome: 'fail', message: `expected ${what} from ${who === 'anonymous' ? 'an anonymous client' : 'a signed-in user who may not edit posts'} to be 400 rest_invalid_param whose data.details.status is {code: rest_forbidden_status, data: {status: ${want}}} (${RULE}::sanitize_post_statuses(), rest_authorization_required_code()); got ${got}`, exchange: e };
}

const THEME_LINK = ['wp:active-theme', 'https://api.w.org/active-theme'];

function judgeThemeLink(e: Exchange, who: Who): Verdict {
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const r = e.response!;
  const body = jsonBody(r);
  if (r.status !== 200 || !isPlainObject(body) || !isPlainObject(body['_links'])) return { outcome: 'inconclusive', message: `the root answered ${describeAnswer(r)} without _links`, exchange: e };
  const has = THEME_LINK.some((k) => k in (body['_links'] as Record<string, unknown>));
  const rule = 'WordPress convention, WP_REST_Server::add_active_theme_link_to_index(): only for a user who may switch themes or edit posts';
  if (who === 'anonymous') return has ? { outcome: 'fail', message: `expected the root's _links to hold no wp:active-theme for an anonymous client (${rule}); it does`, exchange: e } : { outcome: 'pass', message: 'the root shows an anonymous client no wp:active-theme', exchange: e };
  return has ? { outcome: 'pass', message: "the root shows the administrator wp:active-theme", exchange: e } : { outcome: 'fail', message: `expected the root's _links to hold wp:active-theme for the administrator (${rule}); they hold ${Object.keys(body['_links'] as object).join(', ')}`, exchange: e };
}

async function rights(env: UnitEnv, list: Operation, read: Operation, root: Operation | undefined): Promise<void> {
  const emit = (op: Operation, variant: string, v: Verdict): void =>
    env.emit({ check: PERMISSIONS, operation: op, variant, severity: 'convention', outcome: v.outcome, message: v.message, ...(v.exchange ? { exchange: v.exchange } : {}), ...(variant.endsWith(':low') && env.lowAuthEnv ? { authEnv: env.lowAuthEnv } : {}) });
  const collection = fillTemplate(list.path, {});
  const everyone: Who[] = ['anonymous', 'admin', 'low'];
  const ask = async (op: Operation, variant: string, who: Who, o: Omit<Outgoing, 'method' | 'auth'>, judge: (e: Exchange) => Verdict): Promise<void> => {
    const no = unavailable(env, who);
    if (no) return emit(op, variant, { outcome: 'skip', message: no });
    emit(op, variant, judge(await env.send({ method: 'GET', auth: authOf(who), ...o }, op)));
  };
  for (const who of everyone) {
    await ask(list, `list-edit:${who}`, who, { route: collection, query: { context: 'edit', per_page: 5 } }, (e) =>
      who === 'admin' ? judgeEditRead(e, 'title', 'GET ?context=edit', true) : judgeRefusal(e, who, 'rest_forbidden_context', 'GET ?context=edit'));
  }
  // A record every client can read: the first the anonymous list shows.
  const shown = await env.send({ method: 'GET', route: collection, query: { per_page: 1 }, auth: false }, list);
  const id = idOf((listRecords(jsonBody(shown.response)) ?? [])[0]);
  for (const who of everyone) {
    if (id === undefined) {
      const t = transportOutcome(shown);
      emit(read, `read-edit:${who}`, t ? { ...t, exchange: shown } : { outcome: 'inconclusive', message: `the list shows no record to read (${describeAnswer(shown.response)})`, exchange: shown });
      continue;
    }
    await ask(read, `read-edit:${who}`, who, { route: fillTemplate(read.path, { id }), query: { context: 'edit' } }, (e) =>
      who === 'admin' ? judgeEditRead(e, 'content', `GET record ${id} ?context=edit`, false) : judgeRefusal(e, who, 'rest_forbidden_context', `GET record ${id} ?context=edit`));
  }
  for (const who of everyone) await ask(list, `status-filter:${who}`, who, { route: collection, query: { status: 'draft', per_page: 5 } }, (e) => judgeStatusFilter(e, who));
  if (root) for (const who of ['anonymous', 'admin'] as const) await ask(root, `theme-link:${who}`, who, { route: root.path }, (e) => judgeThemeLink(e, who));
}

export function planRights(contract: Contract): Unit[] {
  const ops = contract.operations.filter((o) => o.namespace === 'cal/v1' && o.resource === 'event' && o.method === 'GET');
  const list = ops.find((o) => o.kind === 'list');
  const read = ops.find((o) => o.kind === 'read' && /\/\{id\}$/.test(o.path));
  const root = contract.operations.find((o) => o.kind === 'root');
  if (!list || !read) return [];
  return [{ id: `${PERMISSIONS}:rights:cal/v1/event`, family: PERMISSIONS, checks: [PERMISSIONS], operations: [list, read, ...(root ? [root] : [])], run: (env: UnitEnv) => rights(env, list, read, root) }];
}
