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
// Severity convention: the documents do not say what each context shows.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { idOf, listRecords } from './kit/resources.ts';
import { blamedParams, describeAnswer, transportOutcome, wpError } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

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
  return subjects.map((s) => ({ id: `${CONTEXT}:${s.op.id}`, family: CONTEXT, checks: [CONTEXT], operations: [s.op, ...(s.list ? [s.list] : [])], run: (env: UnitEnv) => contexts(env, s) }));
}
