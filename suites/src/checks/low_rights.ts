// What core's posts controller (cal/v1) refuses or changes for a signed-in user with fewer rights than an
// administrator (--low-auth-env), each judged only for the rights that user has:
// - permissions: author=<another user> without edit_others_posts is 403 rest_cannot_edit_others, sticky=true without
//   publish_posts and edit_others_posts 403 rest_cannot_assign_sticky (create_item_permissions_check()); tags without
//   the taxonomy's assign_terms 403 rest_cannot_assign_term (check_assign_terms_permission()); status=publish without
//   publish_posts 403 rest_cannot_publish while status=pending is taken (handle_status_param()); the edit context's
//   _links offer wp:action-publish and wp:action-assign-tags exactly to whom may (get_available_actions());
// - allow_header: the low user's Allow on a record of the run's lists none of the writes that user is refused
//   (rest_send_allow_header() asks each callback as that user);
// - slugs: a post left pending by a user who may not publish has no slug (wp_insert_post());
// - write_read_back: a user without unfiltered_html has content through kses (kses_init(); pre_kses turns a lone `<`
//   into &lt;), the administrator's the same body unchanged (contracts/wordpress/save-filters.ts predicts both).
//
// The user's role is not known in advance. WordPress says it in two places a client can read: GET /wp/v2/users/me?
// context=edit (its capabilities, when the site serves that route), else the wp:action-* links of the user's own
// record in the edit context (get_available_actions(): current_user_can() for each). The rows are judged against the
// first; against the second only where the answer judged is not that link (the link is then judged against the
// publish answer instead). A right the user has makes its refusal unobservable: inconclusive, never a failure.
// Only cal/v1: the legacy namespace is The Events Calendar's own controllers, which check the type's edit_posts alone
// (Single_Venue::can_create()) and answer no action links. Severity convention: the documents show no permissions
// (000 §5). Every record made goes to the ledger, whoever made it; the administrator removes them.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { postTextForDb } from '../../../contracts/wordpress/save-filters.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { liveEndpoint } from '../diff/descriptor.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange, type Outgoing } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { ALLOW_HEADER } from './allow_header.ts';
import { createdId } from './kit/ledger.ts';
import { calendarResources, listRecords, rawOf, type CalendarResource } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, header, transportOutcome, wpError } from './kit/wp.ts';
import { PERMISSIONS } from './rights.ts';
import { SLUGS } from './slugs.ts';
import { WRITE_READ_BACK } from './write_read_back.ts';

const LOW_RIGHTS = 'low_rights';

interface Verdict {
  outcome: Outcome;
  message: string;
  exchange?: Exchange;
}

/** What the low user may do, and where the site said so. */
interface Rights {
  publish: boolean;
  editOthers: boolean;
  unfilteredHtml: boolean;
  assignTags: boolean;
  /** 'me': users/me's capabilities; 'links': the wp:action-* links of the user's own record. */
  from: 'me' | 'links';
}

const RULE = 'WordPress convention, WP_REST_Posts_Controller';
const NO_LOW_WRITER = "no --low-auth-env: what core's posts controller refuses or changes for a user with fewer rights (a contributor shows the most) needs that user's credentials";
const PUBLISH_LINK = ['wp:action-publish', 'https://api.w.org/action-publish'];
const TAGS_LINK = ['wp:action-assign-tags', 'https://api.w.org/action-assign-tags'];
const UNFILTERED_LINK = ['wp:action-unfiltered-html', 'https://api.w.org/action-unfiltered-html'];
const AUTHOR_LINK = ['wp:action-assign-author', 'https://api.w.org/action-assign-author'];
/** The bodies of the kses rows: a lone `<` (pre_kses), an attribute and an element kses takes out. */
const LESS_THAN = 'a < b';
const UNSAFE = '<p onclick="x()">a</p><script>b()</script>';

function linksOf(e: Exchange | undefined): Record<string, unknown> | undefined {
  const b = jsonBody(e?.response);
  return isPlainObject(b) && isPlainObject(b['_links']) ? (b['_links'] as Record<string, unknown>) : undefined;
}
const hasLink = (links: Record<string, unknown>, names: readonly string[]): boolean => names.some((n) => n in links);

/** users/me?context=edit's capabilities, when it answered them. */
function rightsFromMe(e: Exchange | undefined): Rights | undefined {
  const b = jsonBody(e?.response);
  if (e?.response?.status !== 200 || !isPlainObject(b) || !isPlainObject(b['capabilities'])) return undefined;
  const caps = b['capabilities'] as Record<string, unknown>;
  const can = (c: string): boolean => caps[c] === true;
  // The calendar's types map their capabilities as `post` does; a post_tag is assigned with edit_posts.
  return { publish: can('publish_posts'), editOthers: can('edit_others_posts'), unfilteredHtml: can('unfiltered_html'), assignTags: can('edit_posts'), from: 'me' };
}

function rightsFromLinks(links: Record<string, unknown>): Rights {
  return { publish: hasLink(links, PUBLISH_LINK), editOthers: hasLink(links, AUTHOR_LINK), unfilteredHtml: hasLink(links, UNFILTERED_LINK), assignTags: hasLink(links, TAGS_LINK), from: 'links' };
}

const said = (r: Rights): string => (r.from === 'me' ? "the user's capabilities (GET /wp/v2/users/me?context=edit)" : "the wp:action-* links of the user's own record (?context=edit)");

/** A write the low user should be refused 403 `code`, when `lacks` (else the refusal cannot be seen). */
function judgeRefusal(e: Exchange, code: string, what: string, lacks: boolean, right: string, rights: Rights, rule: string): Verdict {
  const t = transportOutcome(e);
  if (t) return { ...t, exchange: e };
  const r = e.response!;
  if (!lacks) return { outcome: 'inconclusive', message: `the user from --low-auth-env may ${right} by ${said(rights)}, so ${what}'s refusal cannot be seen (got ${describeAnswer(r)})`, exchange: e };
  if (r.status === 403 && wpError(r)?.code === code) return { outcome: 'pass', message: `${what} was refused 403 ${code} (the user may not ${right}, by ${said(rights)})`, exchange: e };
  return { outcome: 'fail', message: `expected ${what} to be refused 403 ${code} for a user who may not ${right} (by ${said(rights)}; ${rule}); got ${describeAnswer(r)}`, exchange: e };
}

/** The record's field `field`.raw of a read in the edit context. */
function rawRead(e: Exchange | undefined, field: string): unknown {
  return e?.response?.status === 200 ? rawOf(jsonBody(e.response), field) : undefined;
}

function judgeKses(create: Exchange, read: Exchange | undefined, sent: string, unfiltered: boolean, who: string, rights?: Rights): Verdict {
  const t = transportOutcome(create) ?? (read ? transportOutcome(read) : undefined);
  if (t) return { ...t, exchange: read ?? create };
  if (createdId(create) === undefined) return { outcome: 'inconclusive', message: `${who}'s create was not taken (${describeAnswer(create.response)}), so nothing was read back`, exchange: create };
  if (rights && unfiltered) return { outcome: 'inconclusive', message: `the user from --low-auth-env may post unfiltered HTML by ${said(rights)}, so kses does not apply to it`, exchange: read ?? create };
  const want = postTextForDb(sent, { unfilteredHtml: unfiltered });
  const got = rawRead(read, 'content');
  if (want === undefined || typeof got !== 'string') return { outcome: 'inconclusive', message: `${who}'s record was not read back with content.raw (${describeAnswer(read?.response)})`, exchange: read ?? create };
  const rule = unfiltered ? 'a user with unfiltered_html stores content as sent (kses_init())' : 'kses_init(): wp_filter_post_kses for a user without unfiltered_html, pre_kses turning a lone < into &lt;';
  return got === want
    ? { outcome: 'pass', message: `${who}'s content ${JSON.stringify(sent)} read back as ${JSON.stringify(want)}`, exchange: read! }
    : { outcome: 'fail', message: `expected ${who}'s content ${JSON.stringify(sent)} to read back as content.raw ${JSON.stringify(want)} (WordPress convention, ${rule}); got ${JSON.stringify(got)}`, exchange: read! };
}

interface Ops {
  venue: CalendarResource;
  event: CalendarResource;
}

async function lowRights(env: UnitEnv, ops: Ops, unitId: string): Promise<void> {
  const { venue, event } = ops;
  const emit = (check: string, op: Operation, variant: string, v: Verdict, low = true): void =>
    env.emit({ check, operation: op, variant, severity: 'convention', outcome: v.outcome, message: v.message, ...(v.exchange ? { exchange: v.exchange } : {}), ...(low && env.lowAuthEnv ? { authEnv: env.lowAuthEnv } : {}) });
  const rows: [string, Operation, string][] = [
    [WRITE_READ_BACK, event.create, 'low-kses-pre'], [WRITE_READ_BACK, event.create, 'low-kses'], [WRITE_READ_BACK, event.create, 'admin-kses'],
    [PERMISSIONS, event.read, 'action-links:admin'], [PERMISSIONS, event.read, 'action-links:low'], [PERMISSIONS, venue.create, 'create-sticky:low'],
    [PERMISSIONS, venue.create, 'create-as-other:low'], [PERMISSIONS, venue.create, 'publish:low'], [SLUGS, venue.create, 'pending-slug:low'],
    [PERMISSIONS, event.create, 'assign-terms:low'], [ALLOW_HEADER, venue.read, 'allow:low'],
  ];
  const why = !env.lowAuthEnv ? NO_LOW_WRITER : !env.hasCredentials ? 'no credentials (--auth-env): the run cannot make and remove the records these rows need' : env.readOnly ? '--read-only: these rows write records' : undefined;
  if (why) {
    for (const [check, op, variant] of rows) emit(check, op, variant, { outcome: 'skip', message: why });
    return;
  }
  const label = (what: string): string => `${env.marker} ${unitId} ${what}`;
  const keep = (res: CalendarResource, e: Exchange): number | undefined => {
    const id = createdId(e);
    if (id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
    return id;
  };
  const post = async (res: CalendarResource, body: Record<string, unknown>, auth: Outgoing['auth']): Promise<{ e: Exchange; id?: number }> => {
    const e = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: body }, intent: 'write', auth }, res.create);
    const id = keep(res, e);
    return id === undefined ? { e } : { e, id };
  };
  const readEdit = (res: CalendarResource, id: number | undefined, auth: Outgoing['auth']): Promise<Exchange> | undefined =>
    id === undefined ? undefined : env.send({ method: 'GET', route: fillTemplate(res.read.path, { id }), query: { context: 'edit' }, auth }, res.read);

  // The low user's own drafts (a draft: a contributor may make one), read back as that user in the edit context.
  const lessThan = await post(event, { title: label('kses-pre'), status: 'draft', content: LESS_THAN }, 'low');
  const lessThanRead = await readEdit(event, lessThan.id, 'low');
  const unsafe = await post(event, { title: label('kses'), status: 'draft', content: UNSAFE }, 'low');
  const unsafeRead = await readEdit(event, unsafe.id, 'low');
  const admin = await post(event, { title: label('kses admin'), status: 'draft', content: UNSAFE }, true);
  const adminRead = await readEdit(event, admin.id, true);

  const me = liveEndpoint(env.descriptor, '/wp/v2/users/me', 'GET') ? await env.send({ method: 'GET', route: '/wp/v2/users/me', query: { context: 'edit' }, auth: 'low' }) : undefined;
  const ownLinks = linksOf(lessThanRead) ?? linksOf(unsafeRead);
  const rights = rightsFromMe(me) ?? (ownLinks ? rightsFromLinks(ownLinks) : undefined);

  emit(WRITE_READ_BACK, event.create, 'admin-kses', judgeKses(admin.e, adminRead, UNSAFE, true, "the administrator"), false);
  for (const [variant, made, read, sent] of [['low-kses-pre', lessThan, lessThanRead, LESS_THAN], ['low-kses', unsafe, unsafeRead, UNSAFE]] as const) {
    emit(WRITE_READ_BACK, event.create, variant, rights || createdId(made.e) === undefined ? judgeKses(made.e, read, sent, rights?.unfilteredHtml ?? false, 'the user from --low-auth-env', rights) : { outcome: 'inconclusive', message: `neither users/me nor the user's own record (${describeAnswer(read?.response)}) said whether it may post unfiltered HTML`, exchange: read ?? made.e });
  }

  // The administrator's action links on its own event.
  const adminLinks = linksOf(adminRead);
  const tAdmin = adminRead ? transportOutcome(adminRead) : transportOutcome(admin.e);
  emit(PERMISSIONS, event.read, 'action-links:admin', tAdmin ? { ...tAdmin, exchange: adminRead ?? admin.e }
    : !adminLinks ? { outcome: 'inconclusive', message: `the administrator's own event was not read back with _links (${describeAnswer((adminRead ?? admin.e).response)})`, exchange: adminRead ?? admin.e }
    : hasLink(adminLinks, PUBLISH_LINK) && hasLink(adminLinks, TAGS_LINK) ? { outcome: 'pass', message: "the administrator's own event offers wp:action-publish and wp:action-assign-tags in the edit context", exchange: adminRead! }
    : { outcome: 'fail', message: `expected the administrator's own event read with ?context=edit to hold wp:action-publish and wp:action-assign-tags in _links (${RULE}::get_available_actions()); it holds ${Object.keys(adminLinks).join(', ')}`, exchange: adminRead! });

  if (!rights) {
    const no: Verdict = { outcome: 'inconclusive', message: `what the user from --low-auth-env may do could not be read: no GET /wp/v2/users/me?context=edit on the site, and its own record was not made or read (${describeAnswer((lessThanRead ?? lessThan.e).response)})`, exchange: lessThanRead ?? lessThan.e };
    for (const [check, op, variant] of rows.slice(4)) emit(check, op, variant, no);
    return;
  }

  // status=publish, then status=pending with a slug: the user's refusal, and what it may do instead.
  const publish = await post(venue, { title: label('publish'), status: 'publish' }, 'low');
  const pendingSlug = `${env.marker.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-pending`;
  const pending = await post(venue, { title: label('pending'), status: 'pending', slug: pendingSlug }, 'low');
  const refused = judgeRefusal(publish.e, 'rest_cannot_publish', 'POST status=publish', !rights.publish, 'publish', rights, `${RULE}::handle_status_param()`);
  const pendingBody = jsonBody(pending.e.response);
  const pendingStatus = isPlainObject(pendingBody) ? pendingBody['status'] : undefined;
  const tp = transportOutcome(pending.e);
  emit(PERMISSIONS, venue.create, 'publish:low', refused.outcome !== 'pass' ? refused
    : tp ? { ...tp, exchange: pending.e }
    : pending.e.response!.status === 201 && pendingStatus === 'pending' ? { ...refused, message: `${refused.message}; status=pending was taken (201 pending)` }
    : { outcome: 'fail', message: `expected POST status=pending from a user who may create but not publish to answer 201 with status pending (${RULE}::handle_status_param()); got ${describeAnswer(pending.e.response)}${typeof pendingStatus === 'string' ? ` status ${pendingStatus}` : ''}`, exchange: pending.e });
  emit(SLUGS, venue.create, 'pending-slug:low', tp ? { ...tp, exchange: pending.e }
    : rights.publish ? { outcome: 'inconclusive', message: `the user from --low-auth-env may publish by ${said(rights)}, so its pending post keeps its slug`, exchange: pending.e }
    : pending.id === undefined || pendingStatus !== 'pending' ? { outcome: 'inconclusive', message: `the pending venue was not made (${describeAnswer(pending.e.response)})`, exchange: pending.e }
    : (pendingBody as Record<string, unknown>)['slug'] === '' ? { outcome: 'pass', message: `a pending venue of a user who may not publish, sent slug ${pendingSlug}, has slug ""`, exchange: pending.e }
    : { outcome: 'fail', message: `expected a venue left pending by a user who may not publish to have slug "" whatever was sent (WordPress convention, wp_insert_post(): contributors do not set the slug of a post pending review); sent ${pendingSlug}, got ${JSON.stringify((pendingBody as Record<string, unknown>)['slug'])}`, exchange: pending.e });

  // The low user's action links: against users/me, or else against the two answers that show the publish right
  // without a link (POST status=publish taken or refused; the pending slug kept or emptied), when they agree.
  const lowRead = lessThanRead ?? unsafeRead;
  const publishShown = publish.e.response?.status === 201 ? true : publish.e.response?.status === 403 && wpError(publish.e.response)?.code === 'rest_cannot_publish' ? false : undefined;
  const slugShown = pending.id === undefined || pendingStatus !== 'pending' ? undefined : (pendingBody as Record<string, unknown>)['slug'] !== '';
  const mayPublish = rights.from === 'me' ? rights.publish : publishShown !== undefined && publishShown === slugShown ? publishShown : undefined;
  const shownBy = rights.from === 'me' ? 'GET /wp/v2/users/me?context=edit' : `POST status=publish answered ${describeAnswer(publish.e.response)} and a pending venue ${slugShown ? 'kept' : 'lost'} its slug`;
  emit(PERMISSIONS, event.read, 'action-links:low', !ownLinks || !lowRead ? { outcome: 'inconclusive', message: `the user's own event was not read back with _links (${describeAnswer((lowRead ?? lessThan.e).response)})`, exchange: lowRead ?? lessThan.e }
    : mayPublish === undefined ? { outcome: 'inconclusive', message: `whether the user from --low-auth-env may publish was not shown: POST status=publish answered ${describeAnswer(publish.e.response)}, POST status=pending ${describeAnswer(pending.e.response)}${slugShown === undefined ? '' : ` with the slug ${slugShown ? 'kept' : 'emptied'}`}`, exchange: lowRead }
    : hasLink(ownLinks, PUBLISH_LINK) === mayPublish ? { outcome: 'pass', message: `the user's own event ${mayPublish ? 'offers' : 'does not offer'} wp:action-publish, as ${shownBy} shows`, exchange: lowRead }
    : { outcome: 'fail', message: `expected the user's own event read with ?context=edit ${mayPublish ? 'to offer' : 'not to offer'} wp:action-publish in _links: the user ${mayPublish ? 'may' : 'may not'} publish (${shownBy}; ${RULE}::get_available_actions())`, exchange: lowRead });

  // sticky=true and author=<the administrator>: refused by create_item_permissions_check() before the write.
  const sticky = await post(venue, { title: label('sticky'), status: 'draft', sticky: true }, 'low');
  emit(PERMISSIONS, venue.create, 'create-sticky:low', judgeRefusal(sticky.e, 'rest_cannot_assign_sticky', 'POST sticky=true', !rights.publish && !rights.editOthers, 'publish or edit the posts of others', rights, `${RULE}::create_item_permissions_check()`));
  const adminBody = jsonBody(admin.e.response);
  const lowBody = jsonBody((lessThan.id !== undefined ? lessThan : unsafe).e.response);
  const adminId = isPlainObject(adminBody) ? adminBody['author'] : undefined;
  const lowId = isPlainObject(lowBody) ? lowBody['author'] : undefined;
  if (typeof adminId !== 'number' || adminId === 0 || adminId === lowId) {
    emit(PERMISSIONS, venue.create, 'create-as-other:low', { outcome: 'inconclusive', message: `no other user's id to name: the administrator's own event answered author ${JSON.stringify(adminId ?? null)}${lowId !== undefined ? `, the low user's ${JSON.stringify(lowId)}` : ''}`, exchange: admin.e });
  } else {
    const other = await post(venue, { title: label('as other'), status: 'draft', author: adminId }, 'low');
    emit(PERMISSIONS, venue.create, 'create-as-other:low', judgeRefusal(other.e, 'rest_cannot_edit_others', `POST author=${adminId} (the administrator)`, !rights.editOthers, "edit the posts of others", rights, `${RULE}::create_item_permissions_check()`));
  }

  // tags=[a tag the site's events carry], from a user who may create but not assign tags.
  if (rights.assignTags) {
    emit(PERMISSIONS, event.create, 'assign-terms:low', { outcome: 'inconclusive', message: `the user from --low-auth-env may assign tags by ${said(rights)} (as every role that may create posts does by default), so the refusal cannot be seen` });
  } else {
    const listed = await env.send({ method: 'GET', route: fillTemplate(event.list.path, {}), query: { per_page: 20 }, auth: true }, event.list);
    const tag = (listRecords(jsonBody(listed.response)) ?? []).flatMap((r) => (isPlainObject(r) && Array.isArray(r['tags']) ? (r['tags'] as unknown[]) : [])).find((t): t is number => typeof t === 'number');
    if (tag === undefined) emit(PERMISSIONS, event.create, 'assign-terms:low', { outcome: 'inconclusive', message: `no event of the site carries a tag to assign (${describeAnswer(listed.response)})`, exchange: listed });
    else {
      const tagged = await post(event, { title: label('tags'), status: 'draft', tags: [tag] }, 'low');
      emit(PERMISSIONS, event.create, 'assign-terms:low', judgeRefusal(tagged.e, 'rest_cannot_assign_term', `POST tags=[${tag}]`, true, 'assign tags', rights, `${RULE}::check_assign_terms_permission()`));
    }
  }

  // Allow on a published venue of the administrator, read by the low user, beside that user's PATCH and DELETE of it.
  const shown = await post(venue, { title: label('allow'), status: 'publish' }, true);
  if (shown.id === undefined) {
    const t = transportOutcome(shown.e);
    emit(ALLOW_HEADER, venue.read, 'allow:low', t ? { ...t, exchange: shown.e } : { outcome: 'inconclusive', message: `the administrator's venue was not made (${describeAnswer(shown.e.response)})`, exchange: shown.e });
    return;
  }
  const route = fillTemplate(venue.read.path, { id: shown.id });
  const read = await env.send({ method: 'GET', route, auth: 'low' }, venue.read);
  const patch = await env.send({ method: venue.update.method, route: fillTemplate(venue.update.path, { id: shown.id }), body: { kind: 'json', value: { title: label('allow patched') } }, intent: 'write', auth: 'low' }, venue.update);
  const del = await env.send({ method: 'DELETE', route: fillTemplate(venue.delete.path, { id: shown.id }), intent: 'write', auth: 'low' }, venue.delete);
  emit(ALLOW_HEADER, venue.read, 'allow:low', judgeAllow(read, [patch, del]));
}

function judgeAllow(read: Exchange, writes: readonly Exchange[]): Verdict {
  const t = [read, ...writes].map(transportOutcome).find((x) => x !== undefined);
  if (t) return { ...t, exchange: read };
  if (read.response!.status !== 200) return { outcome: 'inconclusive', message: `the low user's read of a published venue answered ${describeAnswer(read.response)}`, exchange: read };
  const allow = (header(read.response, 'allow') ?? '').split(',').map((m) => m.trim().toUpperCase()).filter((m) => m !== '');
  const refused = writes.filter((w) => w.response!.status === 403).map((w) => w.request.method.toUpperCase());
  const rule = 'WordPress convention, rest_send_allow_header(): a method whose permission callback refuses the current user is left out';
  if (!allow.includes('GET')) return { outcome: 'fail', message: `expected Allow on the low user's GET to list GET (${rule}); got ${JSON.stringify(header(read.response, 'allow') ?? null)}`, exchange: read };
  if (refused.length === 0) return { outcome: 'inconclusive', message: `the user from --low-auth-env was refused none of ${writes.map((w) => `${w.request.method} ${describeAnswer(w.response)}`).join(', ')} on the administrator's venue, so no method Allow should leave out could be seen`, exchange: read };
  const listed = refused.filter((m) => allow.includes(m));
  return listed.length === 0
    ? { outcome: 'pass', message: `Allow ${allow.join(', ')} on the low user's read leaves out ${refused.join(' and ')}, which that user was refused (403)`, exchange: read }
    : { outcome: 'fail', message: `expected Allow on the low user's GET to leave out ${listed.join(' and ')}, which the same user was refused (403) on the same record (${rule}); got Allow: ${allow.join(', ')}`, exchange: read };
}

export function planLowRights(contract: Contract): Unit[] {
  const res = calendarResources(contract).filter((r) => r.namespace === 'cal/v1');
  const venue = res.find((r) => r.resource === 'venue');
  const event = res.find((r) => r.resource === 'event');
  if (!venue || !event) return [];
  const id = `${LOW_RIGHTS}:cal/v1`;
  return [{
    id,
    // The family places the unit in the run (runner/order.ts ranks families by their registry row): its first check's.
    family: PERMISSIONS,
    checks: [PERMISSIONS, ALLOW_HEADER, SLUGS, WRITE_READ_BACK],
    operations: [venue.create, venue.read, venue.update, venue.delete, event.create, event.read, event.list],
    writes: true,
    run: (env: UnitEnv) => lowRights(env, { venue, event }, id),
  }];
}
