// filter_event_links: the event lists' filters by what an event points at or is (000 §4.1.1, §4.2.1: categories,
// tags, venue, organizer "any of the ... IDs", featured, status). Two events of the suite's own, narrowed to by a
// word only they carry: the first uses a category, a tag, a venue and an organizer of the suite's own and is
// featured; the second uses none of them, is not featured, and is a draft. Each filter must answer the first and
// not the second (status=draft the other way round). A fresh category has no children, so "any of these categories"
// and WordPress's include_children read the same.
// On the legacy list, featured=false the other way round ("filter by featured status").
// The legacy venue and organizer lists' status (000 §4.1.2) the same way: a draft of its own and its published twin.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonBody } from '../http/types.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { emitterFor, judgeSet, makeOwn, oracleUnits, ownWord, readList, setMessage, unreadable, type Own } from './kit/oracle_kit.ts';
import { calendarResources, idOf, type CalendarResource } from './kit/resources.ts';
import { describeAnswer } from './kit/wp.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import type { Severity } from '../report/model.ts';

export const FILTER_EVENT_LINKS = 'filter_event_links';

/** The list parameter, the linked resource and the event body field that links it, by namespace (000 §2.1, §2.5). */
const LINKS: readonly { param: string; resource: string; legacyField: string; calField: string }[] = [
  { param: 'categories', resource: 'category', legacyField: 'categories', calField: 'cal_events_cat' },
  { param: 'tags', resource: 'tag', legacyField: 'tags', calField: 'tags' },
  { param: 'venue', resource: 'venue', legacyField: 'venue', calField: 'venues' },
  { param: 'organizer', resource: 'organizer', legacyField: 'organizer', calField: 'organizers' },
];

/**
 * The contract's mark that a list parameter typed as ids is described as "slugs or IDs" (000 §4.1.1 categories and
 * tags: x-contradictions, a reading whose items may be strings). Only there is a slug sent, and only as assumed: the
 * documents contradict themselves, and The Events Calendar reads either (Archive_Event::parse_terms_query()).
 */
function slugReading(op: Operation, param: string): { kind: string; reading: string } | undefined {
  const spec = op.params.find((p) => p.name === param && p.in === 'query');
  for (const c of spec?.contradictions ?? []) {
    for (const r of c.readings) {
      const items = (r.schema as { items?: { type?: unknown } } | undefined)?.items?.type;
      if (Array.isArray(items) ? items.includes('string') : items === 'string') return { kind: c.kind, reading: r.reading };
    }
  }
  return undefined;
}

/** Where a linked record is made: its own namespace, else the legacy one (cal/v1 has no term routes, 000 §4.2). */
function maker(contract: Contract, namespace: string, resource: string): CalendarResource | undefined {
  const all = calendarResources(contract);
  return all.find((r) => r.namespace === namespace && r.resource === resource) ?? all.find((r) => r.resource === resource);
}

async function eventLinks(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const legacy = res.namespace === 'cal/events/v1';
  const emit = emitterFor(env, FILTER_EVENT_LINKS, op, 'documented');
  const links = LINKS.filter((l) => op.params.some((p) => p.name === l.param && p.in === 'query'));
  const flags = ['featured', 'status'].filter((n) => op.params.some((p) => p.name === n && p.in === 'query'));
  const ticketed = op.params.some((p) => p.name === 'ticketed' && p.in === 'query');
  const slugged = links.filter((l) => slugReading(op, l.param) !== undefined);
  const variants = [...links.map((l) => l.param), ...slugged.map((l) => `${l.param}=slug`), ...flags, ...(legacy && flags.includes('featured') ? ['featured=false'] : []), ...(ticketed ? ['ticketed=false', 'ticketed=true'] : [])];
  const inconclusive = (why: string, e?: Parameters<typeof emit>[3]): void => variants.forEach((v) => emit(v, 'inconclusive', why, e, v.endsWith('=slug') ? 'assumed' : 'documented'));
  const word = ownWord(env.runId, unitId);
  const linked = new Map<string, Own>();
  for (const l of links) {
    const m = maker(env.contract, res.namespace, l.resource);
    if (!m) continue;
    const r = await makeOwn(env, m, unitId, `linked ${l.resource} ${unitId}`);
    if (!r.own) return inconclusive(`creating a ${l.resource} of its own to link an event to answered ${describeAnswer(r.exchange.response)}: nothing to compare`, r.exchange);
    linked.set(l.param, r.own);
  }
  // A legacy venue by its id alone: The Events Calendar reads a list as the data of a new venue (and refuses a list of ids).
  const body = Object.fromEntries(links.filter((l) => linked.has(l.param)).map((l) => [legacy ? l.legacyField : l.calField, legacy && l.param === 'venue' ? linked.get(l.param)!.id : [linked.get(l.param)!.id]]));
  const a = await makeOwn(env, res, unitId, `links ${word} linked ${unitId}`, { ...body, featured: true });
  if (!a.own) return inconclusive(`creating an event of its own that uses them answered ${describeAnswer(a.exchange.response)}: nothing to compare`, a.exchange);
  const b = await makeOwn(env, res, unitId, `links ${word} plain ${unitId}`, { featured: false, status: 'draft' });
  if (!b.own) return inconclusive(`creating a second event of its own answered ${describeAnswer(b.exchange.response)}: nothing to compare`, b.exchange);
  const own = [a.own, b.own];
  const search = { search: word.toLowerCase() };
  // Both events are listed by every query below (status names both statuses), so a filter that does nothing shows.
  const both = legacy ? { status: 'publish,draft' } : { status: ['publish', 'draft'] };
  // Without a filter, both must be listed: otherwise leaving the second out would show nothing about the filter.
  const base = await readList(env, op, { ...search, ...both });
  const bu = unreadable(base, 'the list without the filters');
  if (bu) return variants.forEach((v) => emit(v, bu.outcome, bu.message, base.e));
  if (!own.every((o) => base.ids.includes(o.id))) {
    return inconclusive(`the list without the filters (search=${word.toLowerCase()}, status publish and draft) does not show both of the suite's events (${a.own.label}, ${b.own.label}); it shows ${base.ids.length} record(s): nothing to compare`, base.e);
  }
  const judgeMany = async (variant: string, query: Record<string, unknown>, want: readonly Own[], not: readonly Own[], meaning: string, severity: Severity = 'documented'): Promise<void> => {
    const got = await readList(env, op, { ...search, ...query });
    const shown = Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&');
    const u = unreadable(got, shown);
    if (u) return emit(variant, u.outcome, u.message, got.e, severity);
    const j = judgeSet(got.ids, want.map((o) => o.id), (id) => not.some((o) => o.id === id));
    const compared = `compared ${shown} (search=${word.toLowerCase()}) on the suite's ${[...want, ...not].map((o) => o.label).join(' and ')}`;
    const bad = j.kept.length > 0 || j.dropped.length > 0;
    const expected = [want.length ? want.map((o) => o.label).join(' and ') : '', not.length ? `not ${not.map((o) => o.label).join(' nor ')}` : ''].filter(Boolean).join(' and ');
    emit(variant, bad ? 'fail' : 'pass', bad ? `expected ${expected} (${meaning}); ${setMessage(compared, j, got, own)}` : compared, got.e, severity);
  };
  const judge = (variant: string, query: Record<string, unknown>, want: Own, not: Own, meaning: string, severity: Severity = 'documented'): Promise<void> => judgeMany(variant, query, [want], [not], meaning, severity);
  for (const l of links) {
    const target = linked.get(l.param);
    if (!target) {
      emit(l.param, 'inconclusive', `the contract has no route that makes a ${l.resource}`);
      continue;
    }
    await judge(l.param, { ...both, [l.param]: [target.id] }, a.own, b.own, `${legacy ? '000 §4.1.1' : '000 §4.2.1'}: ${l.param}, any of these IDs; the first uses ${target.label}`);
  }
  // "any of the category slugs or IDs" (000 §4.1.1) against "array of integer": the linked term's slug, as assumed. A
  // site that refuses it reads the list as typed, which the documents allow too: a finding, never a hard failure.
  for (const l of slugged) {
    const variant = `${l.param}=slug`;
    const target = linked.get(l.param);
    const mark = slugReading(op, l.param)!;
    const slug = (jsonBody(target?.exchange.response) as { slug?: unknown } | undefined)?.slug;
    if (!target || typeof slug !== 'string' || slug === '') {
      emit(variant, 'inconclusive', target ? `the ${l.resource} the suite made (${target.label}) answered no slug: nothing to send` : `the contract has no route that makes a ${l.resource}`, target?.exchange, 'assumed');
      continue;
    }
    const why = `000 §4.1.1 describes ${l.param} as "slugs or IDs" and types it "array of integer" (x-contradictions ${mark.kind}: "${mark.reading}"); The Events Calendar takes either`;
    const got = await readList(env, op, { ...search, ...both, [l.param]: [slug] });
    if (got.e.response?.status === 400) {
      emit(variant, 'fail', `${l.param}=${slug} (the slug of the suite's ${target.label}) answered ${describeAnswer(got.e.response)}: the site takes ids only; ${why}`, got.e, 'assumed');
      continue;
    }
    await judge(variant, { ...both, [l.param]: [slug] }, a.own, b.own, `${why}; the first uses ${target.label}, whose slug is ${slug}`, 'assumed');
  }
  if (flags.includes('featured')) await judge('featured', { ...both, featured: true }, a.own, b.own, 'featured=true: featured events only');
  // The legacy list filters "by featured status" (000 §4.1.1), both ways; cal/v1 says "featured only" (see below).
  if (flags.includes('featured') && legacy) await judge('featured=false', { ...both, featured: false }, b.own, a.own, '000 §4.1.1: featured, filter by featured status: featured=false the event that is not featured');
  // A boolean in any form rest_sanitize_boolean() reads (core's arguments of type boolean): TRUE and 1 are true, FALSE
  // and 0 false. What featured=false lists is the site's own reading (all events, or those not featured: the documents
  // say "featured only"), so FALSE and 0 are compared with false, not with a meaning.
  if (flags.includes('featured') && builtOnCoreControllers(env.contract, op)) {
    const why = 'WordPress convention: rest_sanitize_boolean() reads a boolean argument case-blind, and 1 and 0 as true and false';
    for (const form of ['TRUE', '1']) await judge(`featured=${form}`, { ...both, featured: form }, a.own, b.own, `featured=${form} is featured=true; ${why}`, 'convention');
    const plain = await readList(env, op, { ...search, ...both, featured: false });
    for (const form of ['FALSE', '0']) {
      const variant = `featured=${form}`;
      const pu = unreadable(plain, 'featured=false');
      if (pu) {
        emit(variant, pu.outcome, pu.message, plain.e, 'convention');
        continue;
      }
      const want = own.filter((o) => plain.ids.includes(o.id));
      await judgeMany(variant, { ...both, featured: form }, want, own.filter((o) => !want.includes(o)), `featured=${form} answers as featured=false, which lists ${want.map((o) => o.label).join(' and ') || 'neither'} of the two; ${why}`, 'convention');
    }
  }
  // Neither of the unit's events has tickets (the suite never sells any): ticketed=false lists both, ticketed=true neither.
  if (ticketed) {
    await judgeMany('ticketed=false', { ...both, ticketed: false }, own, [], '000 §4.1.1: ticketed, with or without tickets; neither has any');
    await judgeMany('ticketed=true', { ...both, ticketed: true }, [], own, '000 §4.1.1: ticketed, with or without tickets; neither has any');
  }
  if (flags.includes('status')) await judge('status', { status: legacy ? 'draft' : ['draft'] }, b.own, a.own, 'status=draft: the draft and not the published event');
}

/**
 * The legacy venue and organizer lists' status (000 §4.1.2 "post status"): with credentials, status=draft lists a
 * draft of the suite's own and not its published twin, both narrowed to by a word only they carry.
 */
async function linkedStatus(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, FILTER_EVENT_LINKS, op, 'documented');
  const word = ownWord(env.runId, unitId);
  const pub = await makeOwn(env, res, unitId, `status ${word} published ${unitId}`, { status: 'publish' });
  if (!pub.own) return emit('status', 'inconclusive', `creating a published ${res.resource} of its own answered ${describeAnswer(pub.exchange.response)}: nothing to compare`, pub.exchange);
  const draft = await makeOwn(env, res, unitId, `status ${word} draft ${unitId}`, { status: 'draft' });
  if (!draft.own) return emit('status', 'inconclusive', `creating a draft ${res.resource} of its own answered ${describeAnswer(draft.exchange.response)}: nothing to compare`, draft.exchange);
  const made = (jsonBody(draft.exchange.response) as { status?: unknown } | undefined)?.status;
  if (made !== undefined && made !== 'draft') return emit('status', 'inconclusive', `the ${res.resource} created with status draft answered status ${JSON.stringify(made)}: no draft to list`, draft.exchange);
  const got = await readList(env, op, { search: word.toLowerCase(), status: 'draft' });
  const u = unreadable(got, 'status=draft');
  if (u) return emit('status', u.outcome, u.message, got.e);
  const j = judgeSet(got.ids, [draft.own.id], (id) => id === pub.own!.id);
  const compared = `compared status=draft (search=${word.toLowerCase()}) on the suite's ${draft.own.label} and ${pub.own.label}`;
  const bad = j.kept.length > 0 || j.dropped.length > 0;
  emit('status', bad ? 'fail' : 'pass', bad ? `expected ${draft.own.label} and not ${pub.own.label} (000 §4.1.2: status, post status); ${setMessage(compared, j, got, [draft.own, pub.own])}` : compared, got.e);
}

/** How many pages of the legacy list post_parent looks through for an event that shows its parent (bounded reads). */
const PARENT_PAGES = 3;
/** Early enough that a past series is listed too: the legacy list starts today unless told (000 §4.1.1, start_date). */
const PARENT_SINCE = '2000-01-01 00:00:00';

/** The parent an event record shows: `post_parent` (the post's field), or `parent` (core's, for a hierarchical type). */
function parentOf(record: unknown): number | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const r = record as Record<string, unknown>;
  const p = r['post_parent'] ?? r['parent'];
  return typeof p === 'number' && Number.isInteger(p) && p > 0 ? p : undefined;
}

/**
 * post_parent (000 §4.1.1 "events whose parent is this post"). No documented write gives an event a parent (000 §2.1
 * and §2.5 have no such field), so the suite makes none: it reads the site's own events (a bounded number of pages,
 * from PARENT_SINCE) for one that shows its parent (a series' occurrence: The Events Calendar Pro's recurring events
 * are children of their first occurrence), and lists ?post_parent=<parent>&include=<child>,<parent>: the child and
 * not the parent (include voids the date filters, so a past series is judged too). Inconclusive, never passed, where
 * no listed event shows a parent: The Events Calendar's legacy answer does not (Post_Repository::get_event_data()).
 */
async function postParent(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitterFor(env, FILTER_EVENT_LINKS, op, 'documented');
  let child: { id: number; parent: number } | undefined;
  let seen = 0;
  let last: Awaited<ReturnType<typeof readList>> | undefined;
  for (let page = 1; page <= PARENT_PAGES && !child; page++) {
    last = await readList(env, op, { start_date: PARENT_SINCE, per_page: 50, page });
    const u = unreadable(last, `the list from ${PARENT_SINCE} (page ${page})`);
    if (u) {
      if (page === 1) return emit('post_parent', u.outcome, u.message, last.e);
      break;
    }
    seen += last.records!.length;
    const hit = last.records!.map((r) => ({ id: idOf(r), parent: parentOf(r) })).find((x) => x.id !== undefined && x.parent !== undefined && x.parent !== x.id);
    if (hit) child = { id: hit.id!, parent: hit.parent! };
    if (last.records!.length < 50) break;
  }
  if (!child) return emit('post_parent', 'inconclusive', `none of the ${seen} event(s) the site lists from ${PARENT_SINCE} shows a parent (post_parent or parent), and no documented write gives an event one: nothing to compare`, last?.e);
  const query = { post_parent: child.parent, include: [child.id, child.parent] };
  const got = await readList(env, op, query);
  const shown = `post_parent=${child.parent}&include=${child.id},${child.parent}`;
  const u = unreadable(got, shown);
  if (u) return emit('post_parent', u.outcome, u.message, got.e);
  const j = judgeSet(got.ids, [child.id], (id) => id === child.parent);
  const bad = j.kept.length > 0 || j.dropped.length > 0;
  const compared = `compared ${shown} on the site's event #${child.id}, which shows parent #${child.parent}`;
  const detail = [j.dropped.length ? `left out #${child.id}` : '', j.kept.length ? `kept #${child.parent}, the parent itself` : ''].filter(Boolean).join(' and ');
  emit('post_parent', bad ? 'fail' : 'pass', bad ? `expected #${child.id} and not #${child.parent} (000 §4.1.1: post_parent, events whose parent is this post); ${compared}: it ${detail}, listing ${got.ids.length ? got.ids.map((x) => `#${x}`).join(', ') : 'none'}` : compared, got.e);
}

export function planEventLinks(contract: Contract): Unit[] {
  const makers = (res: CalendarResource) => LINKS.map((l) => maker(contract, res.namespace, l.resource)?.create).filter((o) => o !== undefined);
  const events = oracleUnits(contract, FILTER_EVENT_LINKS, 'organizer', eventLinks, makers).filter((u) => u.operations[0]!.resource === 'event');
  const linkedLists = oracleUnits(contract, FILTER_EVENT_LINKS, 'status', linkedStatus).filter((u) => u.operations[0]!.namespace === 'cal/events/v1' && ['venue', 'organizer'].includes(u.operations[0]!.resource ?? ''));
  const parents = calendarResources(contract)
    .filter((r) => r.namespace === 'cal/events/v1' && r.resource === 'event' && r.list.params.some((p) => p.name === 'post_parent' && p.in === 'query'))
    .map((r): Unit => ({ id: `${FILTER_EVENT_LINKS}:${r.list.id}:post_parent`, family: FILTER_EVENT_LINKS, checks: [FILTER_EVENT_LINKS], operations: [r.list], run: (env) => postParent(env, r.list) }));
  return [...events, ...linkedLists, ...parents];
}
