// context: the `context` argument of core's controllers (WP_REST_Controller::get_context_param(): view, embed, edit)
// and what each shows (filter_response_by_context() → rest_filter_response_by_context(): a field appears only in the
// contexts its schema names). Asked anonymously, of the records the site lists:
// - embed: ?context=embed answers 200, and no record holds a field that only the view context shows (a post's
//   content, status, comment_status), while the same read in the view context holds it
//   (else inconclusive: the site shows the field in neither);
// - unknown: ?context=site-contracts is 400 rest_invalid_param naming context (the arg's enum).
// On cal/v1 events (list and by id) and venues (core's posts controller). Not the legacy namespace: its posts are a
// plugin's own controllers, and its term lists (The Events Calendar's Term_Archive_Base) declare no context arg: they
// hand the request to core's terms controller and reshape what it answers, so neither an unknown context's 400 nor
// the embed fields hold there.
// - create-edit: a create answers in the edit context (title.raw, content.raw as sent), the view read holds no raw
//   form (the run's own venue: credentials and writes).
// - generated-slug: the run's own draft venue titled "<marker> Ünï Привіт Two", read ?context=edit, shows
//   generated_slug as get_sample_permalink() makes it from the title and the editable_slug filter shows it (accents
//   folded, the Cyrillic word decoded: "site-contracts-<run>-uni-привіт-two", or that with -N when another post of the
//   type holds it) and a permalink_template holding %postname% (%pagename% for a hierarchical type).
// Severity convention: the documents do not say what each context shows.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { calendarResources, idOf, listRecords, minimalCreateBody, rawOf, type CalendarResource } from './kit/resources.ts';
import { createdId } from './kit/ledger.ts';
import { writeBlocker } from './kit/writes.ts';
import { blamedParams, describeAnswer, transportOutcome, wpError } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { editableSlug, sanitizeTitle } from '../../../contracts/wordpress/slug.ts';

export const CONTEXT = 'context';

/** The fields core's posts schema shows in the view context and not in embed (WP_REST_Posts_Controller::get_item_schema()). */
const VIEW_ONLY: readonly string[] = ['content', 'status', 'comment_status'];

interface Subject {
  op: Operation;
  /** By id: the record read is the first the list shows. */
  list?: Operation;
}

const records = (e: Exchange, byId: boolean): unknown[] => {
  const b = jsonBody(e.response);
  return byId ? (isPlainObject(b) ? [b] : []) : (listRecords(b) ?? []);
};

async function contexts(env: UnitEnv, s: Subject): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: CONTEXT, operation: s.op, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  let route = s.list ? '' : fillTemplate(s.op.path, {});
  if (s.list) {
    const shown = await env.send({ method: 'GET', route: fillTemplate(s.list.path, {}), query: { per_page: 1 }, auth: false }, s.list);
    const id = idOf((listRecords(jsonBody(shown.response)) ?? [])[0]);
    if (id === undefined) {
      const t = transportOutcome(shown);
      const why = t ?? { outcome: 'inconclusive' as const, message: `the list shows no record to read (${describeAnswer(shown.response)})` };
      return ['embed', 'unknown'].forEach((v) => emit(v, why.outcome, why.message, shown));
    }
    route = fillTemplate(s.op.path, { id });
  }
  const byId = s.list !== undefined;
  const query = byId ? {} : { per_page: 5 };
  const embed = await env.send({ method: 'GET', route, query: { ...query, context: 'embed' }, auth: false }, s.op);
  const view = await env.send({ method: 'GET', route, query: { ...query, context: 'view' }, auth: false }, s.op);
  const t = transportOutcome(embed) ?? transportOutcome(view);
  if (t) emit('embed', t.outcome, t.message, embed);
  else if (embed.response!.status !== 200) emit('embed', 'fail', `expected ?context=embed to answer 200 (WordPress convention, WP_REST_Controller::get_context_param(): view, embed, edit); got ${describeAnswer(embed.response)}`, embed);
  else {
    const fields = VIEW_ONLY;
    const shownInView = fields.filter((f) => records(view, byId).some((r) => isPlainObject(r) && f in r));
    const leaked = records(embed, byId).flatMap((r) => (isPlainObject(r) ? shownInView.filter((f) => f in r).map((f) => `${f} (record ${idOf(r) ?? '?'})`) : []));
    if (shownInView.length === 0) emit('embed', 'inconclusive', `the view context shows none of ${fields.join(', ')} (${describeAnswer(view.response)}), so what embed leaves out cannot be seen`, view);
    else if (records(embed, byId).length === 0) emit('embed', 'inconclusive', '?context=embed answered no record', embed);
    else if (leaked.length) emit('embed', 'fail', `expected ?context=embed to leave out the fields only the view context shows (WordPress convention, rest_filter_response_by_context(): a field appears in the contexts its schema names); it shows ${leaked.slice(0, 3).join(', ')}`, embed);
    else emit('embed', 'pass', `?context=embed leaves out ${shownInView.join(', ')}, which the view context shows`, embed);
  }
  const unknown = await env.send({ method: 'GET', route, query: { ...query, context: 'site-contracts' }, auth: false }, s.op);
  const tu = transportOutcome(unknown);
  if (tu) return emit('unknown', tu.outcome, tu.message, unknown);
  const err = wpError(unknown.response);
  if (unknown.response!.status === 400 && err?.code === 'rest_invalid_param' && blamedParams(err).includes('context')) return emit('unknown', 'pass', '?context=site-contracts was refused 400 rest_invalid_param naming context', unknown);
  emit('unknown', 'fail', `expected ?context=site-contracts to be refused 400 rest_invalid_param naming context (WordPress convention, the context arg's enum: view, embed, edit); got ${describeAnswer(unknown.response)}${err ? ` naming ${blamedParams(err).join(', ') || 'nothing'}` : ''}`, unknown);
}

/**
 * create_item() answers in the edit context (`$request->set_param( 'context', 'edit' )`): the 201 of a create holds
 * title.raw and content.raw as sent, while the same record read back in the view context holds no raw form. On the
 * run's own cal/v1 venue (credentials and writes; the record goes into the ledger).
 */
async function createContext(env: UnitEnv, res: CalendarResource): Promise<void> {
  const unitId = `${CONTEXT}:${res.create.id}`;
  const emit = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: CONTEXT, operation: res.create, variant: 'create-edit', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const blocked = writeBlocker(env);
  if (blocked) return emit('skip', blocked);
  const sent: Record<string, string> = { ...minimalCreateBody(res, `${env.marker} context ${unitId}`, env.now()), content: '<p>site-contracts context</p>' };
  const made = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: sent }, intent: 'write' }, res.create);
  const t = transportOutcome(made);
  if (t) return emit(t.outcome, t.message, made);
  const id = createdId(made);
  if (id === undefined) return emit('inconclusive', `the create was not taken (${describeAnswer(made.response)}), so its answer's context cannot be seen`, made);
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  const rule = 'WordPress convention, WP_REST_Posts_Controller::create_item() answers in the edit context';
  const body = jsonBody(made.response);
  const wrong = (['title', 'content'] as const).filter((f) => rawOf(body, f) !== sent[f]);
  if (wrong.length) return emit('fail', `expected the 201 of a create to hold ${wrong.map((f) => `${f}.raw ${JSON.stringify(sent[f])}`).join(' and ')} as sent (${rule}); it holds ${wrong.map((f) => `${f}.raw ${JSON.stringify(rawOf(body, f) ?? null)}`).join(', ')}`, made);
  const view = await env.send({ method: 'GET', route: fillTemplate(res.read.path, { id }), query: { context: 'view' } }, res.read);
  const tv = transportOutcome(view);
  if (tv) return emit(tv.outcome, tv.message, view);
  if (view.response!.status !== 200) return emit('inconclusive', `record ${id} reads back ${describeAnswer(view.response)} in the view context`, view);
  const leaked = (['title', 'content'] as const).filter((f) => rawOf(jsonBody(view.response), f) !== undefined);
  if (leaked.length) return emit('fail', `expected record ${id} read in the view context to hold no raw form (WordPress convention, rest_filter_response_by_context(): raw is an edit-context field); it holds ${leaked.map((f) => `${f}.raw`).join(', ')}`, view);
  emit('pass', `the 201 of the create holds title.raw and content.raw as sent; record ${id} read in the view context holds neither`, made);
}

/** What generated_slug may be for a title: its slug as editable_slug shows it, or that with wp_unique_post_slug()'s -N. */
function generatedSlugProblem(title: string, shown: unknown): string | undefined {
  const want = editableSlug(sanitizeTitle(title));
  if (typeof shown === 'string' && (shown === want || (shown.startsWith(`${want}-`) && /^\d+$/.test(shown.slice(want.length + 1))))) return undefined;
  return `generated_slug is ${JSON.stringify(shown ?? null)}, not ${JSON.stringify(want)} (or it with -2, -3…)`;
}

/**
 * get_sample_permalink() in the edit context (WP_REST_Posts_Controller::prepare_item_for_response()): the run's own
 * draft venue, whose title has a letter WordPress folds and a word it keeps percent-encoded in the slug.
 */
async function generatedSlug(env: UnitEnv, res: CalendarResource): Promise<void> {
  const unitId = `${CONTEXT}:generated-slug:${res.create.id}`;
  const emit = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: CONTEXT, operation: res.read, variant: 'generated-slug', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const blocked = writeBlocker(env);
  if (blocked) return emit('skip', blocked);
  const title = `${env.marker} Ünï Привіт Two`;
  const made = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: { ...minimalCreateBody(res, title, env.now()), status: 'draft' } }, intent: 'write' }, res.create);
  const t = transportOutcome(made);
  if (t) return emit(t.outcome, t.message, made);
  const id = createdId(made);
  if (id === undefined) return emit('inconclusive', `the draft was not taken (${describeAnswer(made.response)})`, made);
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  const read = await env.send({ method: 'GET', route: fillTemplate(res.read.path, { id }), query: { context: 'edit' } }, res.read);
  const tr = transportOutcome(read);
  if (tr) return emit(tr.outcome, tr.message, read);
  const body = jsonBody(read.response);
  if (read.response!.status !== 200 || !isPlainObject(body)) return emit('inconclusive', `draft ${id} reads back ${describeAnswer(read.response)} in the edit context`, read);
  if (!('generated_slug' in body) && !('permalink_template' in body)) return emit('inconclusive', `draft ${id} shows neither generated_slug nor permalink_template in the edit context (a type that is not viewable shows neither)`, read);
  const rule = 'WordPress convention, WP_REST_Posts_Controller::prepare_item_for_response(): get_sample_permalink() through the editable_slug filter (urldecode)';
  const problems = [generatedSlugProblem(title, body['generated_slug'])].filter((p): p is string => p !== undefined);
  const template = body['permalink_template'];
  if (typeof template !== 'string' || !/%(postname|pagename)%/.test(template)) problems.push(`permalink_template is ${JSON.stringify(template ?? null)}, holding neither %postname% nor %pagename%`);
  if (problems.length) return emit('fail', `expected draft ${id} titled ${JSON.stringify(title)} read ?context=edit to show the slug it would be published under (${rule}); ${problems.join('; ')}`, read);
  emit('pass', `draft ${id}: generated_slug ${JSON.stringify(body['generated_slug'])}, permalink_template ${JSON.stringify(template)}`, read);
}

export function planContexts(contract: Contract): Unit[] {
  const get = (ns: string, resource: string, kind: 'list' | 'read'): Operation | undefined =>
    contract.operations.find((o) => o.namespace === ns && o.resource === resource && o.method === 'GET' && o.kind === kind && (kind === 'list' || /\/\{id\}$/.test(o.path)));
  const subjects: Subject[] = [];
  const add = (op: Operation | undefined, list?: Operation): void => {
    if (op) subjects.push({ op, ...(list ? { list } : {}) });
  };
  const events = get('cal/v1', 'event', 'list');
  add(events);
  if (events) add(get('cal/v1', 'event', 'read'), events);
  add(get('cal/v1', 'venue', 'list'));
  const units: Unit[] = subjects.map((s) => ({ id: `${CONTEXT}:${s.op.id}`, family: CONTEXT, checks: [CONTEXT], operations: [s.op, ...(s.list ? [s.list] : [])], run: (env: UnitEnv) => contexts(env, s) }));
  const venues = calendarResources(contract).find((r) => r.namespace === 'cal/v1' && r.resource === 'venue');
  if (venues) units.push({ id: `${CONTEXT}:${venues.create.id}`, family: CONTEXT, checks: [CONTEXT], operations: [venues.create, venues.read], writes: true, run: (env: UnitEnv) => createContext(env, venues) });
  if (venues) units.push({ id: `${CONTEXT}:generated-slug:${venues.read.id}`, family: CONTEXT, checks: [CONTEXT], operations: [venues.create, venues.read], writes: true, run: (env: UnitEnv) => generatedSlug(env, venues) });
  return units;
}
