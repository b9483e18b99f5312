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
// - hidden-*:<status>: for each status only some may read (draft, pending, private, future), an event of the site
//   in it, found by the administrator's ?status= list: read by id it is 401 rest_forbidden anonymously, 403 rest_forbidden to a low user refused the edit-context list
//   or read-edit of an event by the same author (check_read_permission(): read_post needs edit_others_posts or
//   read_private_posts, which no role without edit_others_posts has), 200 with that status to the administrator;
//   no anonymous list shows it, by include= or by a word of its title in search=, nor counts it in X-WP-Total; nor
//   does the administrator's list without status= (its default is publish for everyone). Shown is a convention
//   finding; refused another way (404, a code of its own) is assumed. A record whose status changed meanwhile
//   (another run on the same site) leaves the case inconclusive.
// With --low-auth-env, the same refusals as that user must say 403 (a user who may edit posts is let through:
// inconclusive, with what came back). Severity convention: the documents show no permissions (000 §5).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange, type Outgoing } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { idOf, listRecords, nameText, rawOf } from './kit/resources.ts';
import { NO_LOW_USER } from './kit/low_user.ts';
import { describeAnswer, header, transportOutcome, wpError } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

export const PERMISSIONS = 'permissions';

type Who = 'anonymous' | 'admin' | 'low';
interface Verdict {
  outcome: Outcome;
  message: string;
  exchange?: Exchange;
  /** convention unless said: assumed where a plugin's own controllers may answer their own way. */
  severity?: 'assumed';
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
function judgeRefusal(e: Exchange, who: Who, code: string, what: string, lacksEditPosts = false): Verdict {
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const r = e.response!;
  const want = who === 'anonymous' ? 401 : 403;
  const err = wpError(r);
  if (r.status === want && err?.code === code) return { outcome: 'pass', message: `${what} was refused ${want} ${code}`, exchange: e };
  // Refused the list in the edit context, the user lacks edit_posts: it may edit no one's record (edit_others_posts
  // comes with edit_posts in every role), so a read by id let through in that context is a door open, not a right.
  if (who === 'low' && r.status === 200 && lacksEditPosts) return { outcome: 'fail', message: `expected ${what} to be refused ${want} ${code}: the user from --low-auth-env was refused GET ?context=edit of the list (it may not edit posts), so it may not edit this record either (${RULE}::get_item_permissions_check(): check_update_permission()); got ${describeAnswer(r)}`, exchange: e };
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

// Not trash: 000 §4.2.1's status values leave it out, so no list finds a trashed record (the trash check and the
// stateful phase read the run's own trashed records).
const HIDDEN_STATUSES = ['draft', 'pending', 'private', 'future'] as const;
type Hidden = (typeof HIDDEN_STATUSES)[number];

/** A read by id of a record in status `s` that `who` may not read, or (admin) may. */
function judgeHiddenRead(e: Exchange, who: Who, s: Hidden, id: number, lowRefused: boolean | undefined): Verdict {
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const r = e.response!;
  const what = `GET record ${id} (status ${s})`;
  const rule = `${RULE}::check_read_permission(): a record not published reads only to a user who may edit it (read_post)`;
  if (who === 'admin') {
    const b = jsonBody(r);
    const got = isPlainObject(b) ? b['status'] : undefined;
    return r.status === 200 && got === s ? { outcome: 'pass', message: `${what} read 200 to the administrator with status ${s}`, exchange: e } : { outcome: 'fail', message: `expected ${what} to read 200 with status "${s}" to the administrator (${rule}); got ${describeAnswer(r)}${got !== undefined ? ` with status ${JSON.stringify(got)}` : ''}`, exchange: e };
  }
  if (who === 'low' && !lowRefused) return { outcome: 'inconclusive', message: `the user from --low-auth-env was not refused read-edit of another user's record, so it may read ${what}: its refusal cannot be seen (got ${describeAnswer(r)})`, exchange: e };
  const want = who === 'anonymous' ? 401 : 403;
  if (r.status === want && wpError(r)?.code === 'rest_forbidden') return { outcome: 'pass', message: `${what} was refused ${want} rest_forbidden`, exchange: e };
  // Shown is wrong on any site; refused in another way (404 as if unknown, a code of its own) is core's convention only.
  return { ...(r.status >= 300 ? { severity: 'assumed' as const } : {}), outcome: 'fail', message: `expected ${what} to be refused ${want} rest_forbidden to ${who === 'anonymous' ? 'an anonymous client' : 'a signed-in user who may not edit others\' posts'} (${rule}; rest_authorization_required_code()); got ${describeAnswer(r)}`, exchange: e };
}

/** A list that must not hold record `id` (status `s`): neither in its body nor in X-WP-Total when it shows none. */
function judgeHiddenList(e: Exchange, s: Hidden, id: number, what: string): Verdict {
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const r = e.response!;
  if (r.status !== 200) return { outcome: 'fail', message: `expected ${what} to answer 200 (${RULE}::get_items()); got ${describeAnswer(r)}`, exchange: e };
  const recs = listRecords(jsonBody(r)) ?? [];
  const rule = `${RULE}::get_items(): status defaults to publish for everyone, and a list holds only records the client may read`;
  if (recs.some((x) => idOf(x) === id)) return { outcome: 'fail', message: `expected ${what} not to hold record ${id}, whose status is ${s} (${rule}); it does`, exchange: e };
  const total = header(r, 'x-wp-total');
  if (recs.length === 0 && total !== undefined && total.trim() !== '0') return { outcome: 'fail', message: `expected ${what}, which shows no record, to say X-WP-Total: 0 (${rule}: the total counts what the query finds); it says ${total}, counting record ${id} (status ${s})`, exchange: e };
  return { outcome: 'pass', message: `${what} does not hold record ${id} (status ${s})`, exchange: e };
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
    env.emit({ check: PERMISSIONS, operation: op, variant, severity: v.severity ?? 'convention', outcome: v.outcome, message: v.message, ...(v.exchange ? { exchange: v.exchange } : {}), ...(variant.endsWith(':low') && env.lowAuthEnv ? { authEnv: env.lowAuthEnv } : {}) });
  const collection = fillTemplate(list.path, {});
  const everyone: Who[] = ['anonymous', 'admin', 'low'];
  let lowLacksEditPosts = false;
  const ask = async (op: Operation, variant: string, who: Who, o: Omit<Outgoing, 'method' | 'auth'>, judge: (e: Exchange) => Verdict): Promise<void> => {
    const no = unavailable(env, who);
    if (no) return emit(op, variant, { outcome: 'skip', message: no });
    emit(op, variant, judge(await env.send({ method: 'GET', auth: authOf(who), ...o }, op)));
  };
  for (const who of everyone) {
    await ask(list, `list-edit:${who}`, who, { route: collection, query: { context: 'edit', per_page: 5 } }, (e) => {
      if (who === 'low') lowLacksEditPosts = e.response?.status === 403 && wpError(e.response)?.code === 'rest_forbidden_context';
      return who === 'admin' ? judgeEditRead(e, 'title', 'GET ?context=edit', true) : judgeRefusal(e, who, 'rest_forbidden_context', 'GET ?context=edit');
    });
  }
  // A record every client can read: the first the anonymous list shows.
  const shown = await env.send({ method: 'GET', route: collection, query: { per_page: 1 }, auth: false }, list);
  const shownRec = (listRecords(jsonBody(shown.response)) ?? [])[0];
  const id = idOf(shownRec);
  let lowRefusedEdit: boolean | undefined;
  for (const who of everyone) {
    if (id === undefined) {
      const t = transportOutcome(shown);
      emit(read, `read-edit:${who}`, t ? { ...t, exchange: shown } : { outcome: 'inconclusive', message: `the list shows no record to read (${describeAnswer(shown.response)})`, exchange: shown });
      continue;
    }
    await ask(read, `read-edit:${who}`, who, { route: fillTemplate(read.path, { id }), query: { context: 'edit' } }, (e) => {
      const v = who === 'admin' ? judgeEditRead(e, 'content', `GET record ${id} ?context=edit`, false) : judgeRefusal(e, who, 'rest_forbidden_context', `GET record ${id} ?context=edit`, lowLacksEditPosts);
      // Refused editing another user's record: the low user may read none of that user's hidden records either.
      if (who === 'low') lowRefusedEdit = e.response?.status === 403 || lowLacksEditPosts;
      return v;
    });
  }
  for (const who of everyone) await ask(list, `status-filter:${who}`, who, { route: collection, query: { status: 'draft', per_page: 5 } }, (e) => judgeStatusFilter(e, who));
  if (root) for (const who of ['anonymous', 'admin'] as const) await ask(root, `theme-link:${who}`, who, { route: root.path }, (e) => judgeThemeLink(e, who));
  const shownAuthor = isPlainObject(shownRec) && typeof shownRec['author'] === 'number' ? shownRec['author'] : undefined;
  await hidden(env, list, read, emit, ask, shownAuthor, lowRefusedEdit === true || lowLacksEditPosts, lowLacksEditPosts);
}

type Emit = (op: Operation, variant: string, v: Verdict) => void;
type Ask = (op: Operation, variant: string, who: Who, o: Omit<Outgoing, 'method' | 'auth'>, judge: (e: Exchange) => Verdict) => Promise<void>;

/** The hidden-* rows: for each status, a record of the site in it, as each client sees it (see the head of the file). */
async function hidden(env: UnitEnv, list: Operation, read: Operation, emit: Emit, ask: Ask, author: number | undefined, lowRefused: boolean, lowLacksEditPosts: boolean): Promise<void> {
  const collection = fillTemplate(list.path, {});
  const variants = ['read:anonymous', 'read:low', 'read:admin', 'list:anonymous', 'search:anonymous', 'list:admin'];
  const all = (s: Hidden, v: Verdict): void => variants.forEach((x) => emit(x.startsWith('read') ? read : list, `hidden-${x.replace(':', `:${s}:`)}`, v));
  if (!env.hasCredentials) return HIDDEN_STATUSES.forEach((s) => all(s, { outcome: 'skip', message: 'no credentials (--auth-env): the administrator finds the records only some may read' }));
  for (const s of HIDDEN_STATUSES) {
    const found = await env.send({ method: 'GET', route: collection, query: { status: s, per_page: 1, context: 'edit' } }, list);
    const rec = (listRecords(jsonBody(found.response)) ?? [])[0];
    const id = idOf(rec);
    if (id === undefined || !isPlainObject(rec) || rec['status'] !== s) {
      const t = transportOutcome(found);
      all(s, t ? { ...t, exchange: found } : { outcome: 'inconclusive', message: `the administrator's list ?status=${s} shows no ${s} record to ask about (${describeAnswer(found.response)})`, exchange: found });
      continue;
    }
    // A record another run on the same site changed meanwhile says nothing: inconclusive, not a finding.
    const still = async (v: Verdict): Promise<Verdict> => {
      if (v.outcome !== 'fail') return v;
      const again = await env.send({ method: 'GET', route: fillTemplate(read.path, { id }), query: { context: 'edit' } }, read);
      const b = jsonBody(again.response);
      return again.response?.status === 200 && isPlainObject(b) && b['status'] === s ? v : { ...v, outcome: 'inconclusive', message: `record ${id} is no longer ${s} (another client changed it meanwhile: ${describeAnswer(again.response)}), so this says nothing: ${v.message}` };
    };
    // Another user's for sure: refused edit_posts altogether, or by the author whose event the low user was refused.
    const othersForLow = lowRefused === true && (lowLacksEditPosts || (author !== undefined && rec['author'] === author));
    const readAs = (who: Who): Promise<void> => ask(read, `hidden-read:${s}:${who}`, who, { route: fillTemplate(read.path, { id }) }, (e) => judgeHiddenRead(e, who, s, id, othersForLow));
    const withStill = (op: Operation, variant: string, who: Who, o: Omit<Outgoing, 'method' | 'auth'>, judge: (e: Exchange) => Verdict): Promise<void> => {
      const no = unavailable(env, who);
      if (no) return Promise.resolve(emit(op, variant, { outcome: 'skip', message: no }));
      return env.send({ method: 'GET', auth: authOf(who), ...o }, op).then(async (e) => emit(op, variant, await still(judge(e))));
    };
    for (const who of ['anonymous', 'low', 'admin'] as const) {
      if (who === 'admin') await readAs(who);
      else await withStill(read, `hidden-read:${s}:${who}`, who, { route: fillTemplate(read.path, { id }) }, (e) => judgeHiddenRead(e, who, s, id, othersForLow));
    }
    await withStill(list, `hidden-list:${s}:anonymous`, 'anonymous', { route: collection, query: { include: id } }, (e) => judgeHiddenList(e, s, id, `an anonymous GET ?include=${id}`));
    const word = (nameText(rec, 'title') ?? '').split(/\s+/).find((w) => /^[\p{L}\p{N}]{3,}$/u.test(w));
    if (word === undefined) emit(list, `hidden-search:${s}:anonymous`, { outcome: 'inconclusive', message: `record ${id}'s title has no word to search for`, exchange: found });
    else await withStill(list, `hidden-search:${s}:anonymous`, 'anonymous', { route: collection, query: { search: word, per_page: 100 } }, (e) => judgeHiddenList(e, s, id, `an anonymous GET ?search=${word}`));
    await withStill(list, `hidden-list:${s}:admin`, 'admin', { route: collection, query: { include: id } }, (e) => judgeHiddenList(e, s, id, `the administrator's GET ?include=${id} (no status=)`));
  }
}

const getsOf = (contract: Contract, resource: string): { list?: Operation; read?: Operation } => {
  const ops = contract.operations.filter((o) => o.namespace === 'cal/v1' && o.resource === resource && o.method === 'GET');
  return { list: ops.find((o) => o.kind === 'list'), read: ops.find((o) => o.kind === 'read' && /\/\{id\}$/.test(o.path)) };
};

export function planRights(contract: Contract): Unit[] {
  const { list, read } = getsOf(contract, 'event');
  const root = contract.operations.find((o) => o.kind === 'root');
  if (!list || !read) return [];
  return [{ id: `${PERMISSIONS}:rights:cal/v1/event`, family: PERMISSIONS, checks: [PERMISSIONS], operations: [list, read, ...(root ? [root] : [])], run: (env: UnitEnv) => rights(env, list, read, root) }];
}
