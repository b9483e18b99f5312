// Filters that pick records by how they relate to others: parent, post/event, hide_empty. The oracle makes the
// relation itself (a category under a category of its own, an event of its own that uses one of its terms, venues
// or organizers and not another) and judges the ids the filtered list answers.
//   filter_parent: categories with this parent, and no other (000 §4.1.3).
//   filter_post: terms assigned to this post, by `post` and by its alias `event` (000 §4.1.3); venues and
//     organizers related to this event (000 §4.1.2, §4.2.2).
//   filter_hide_empty: hide_empty=true hides the unused term and keeps the used one; false shows both; left out,
//     it is true (000 §4.1.3: default true).
//   filter_has_events: on venues and organizers, has_events=true keeps the records an event uses (an upcoming or a
//     past one) and leaves out the one no event uses; only_with_upcoming=true keeps only the one an upcoming event
//     uses (000 §4.1.2, §4.2.2). What false means is not said, so it is not judged.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { makeAll } from './filters.ts';
import { baseQuery, byId, emitterFor, judgeSet, makeOwn, oracleUnits, ownWord, readList, setMessage, unreadable, type Own } from './kit/oracle_kit.ts';
import { calendarResources, localDateTime, type CalendarResource } from './kit/resources.ts';
import { describeAnswer } from './kit/wp.ts';

export const FILTER_PARENT = 'filter_parent';
export const FILTER_POST = 'filter_post';
export const FILTER_HIDE_EMPTY = 'filter_hide_empty';
export const FILTER_HAS_EVENTS = 'filter_has_events';

function eventOf(contract: Contract, res: CalendarResource): CalendarResource | undefined {
  return calendarResources(contract).find((r) => r.namespace === res.namespace && r.resource === 'event');
}

/** The event body field that links a record of `res` to it, by namespace (000 §2.1, §2.5). */
function linkField(res: CalendarResource): string {
  const legacy = res.namespace === 'cal/events/v1';
  switch (res.resource) {
    case 'category':
      return legacy ? 'categories' : 'cal_events_cat';
    case 'tag':
      return 'tags';
    case 'venue':
      return legacy ? 'venue' : 'venues';
    default:
      return legacy ? 'organizer' : 'organizers';
  }
}

/** An event of the suite's own that uses `linked`; `extra` fields beside (a past date). */
async function ownEventUsing(env: UnitEnv, res: CalendarResource, unitId: string, linked: Own, extra: Record<string, unknown> = {}): Promise<{ own?: Own; failed?: string; e?: Exchange }> {
  const ev = eventOf(env.contract, res);
  if (!ev) return { failed: `the contract has no event route in ${res.namespace} to relate records to` };
  const r = await makeOwn(env, ev, unitId, `event using ${linked.id} ${unitId}`, { [linkField(res)]: [linked.id], ...extra });
  if (!r.own) return { failed: `creating an event of its own that uses ${linked.label} answered ${describeAnswer(r.exchange.response)}: nothing to relate`, e: r.exchange };
  return { own: r.own };
}

type Emit = ReturnType<typeof emitterFor>;

/** Reads the list with `query` and judges it against `wanted`; `unwanted(id, record)` says which others are wrong. */
async function judgeFiltered(env: UnitEnv, res: CalendarResource, emit: Emit, variant: string, query: Record<string, unknown>, wanted: number[], unwanted: (id: number, rec: unknown) => boolean, compared: string, expected: string, own: Own[], severity?: Severity): Promise<void> {
  const got = await readList(env, res.list, query);
  const u = unreadable(got, Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&'));
  if (u) return emit(variant, u.outcome, u.message, got.e, severity);
  const j = judgeSet(got.ids, wanted, (id) => !wanted.includes(id) && unwanted(id, byId(got.records, id)));
  const bad = j.kept.length > 0 || j.dropped.length > 0;
  emit(variant, bad ? 'fail' : 'pass', bad ? `expected ${expected}; ${setMessage(compared, j, got, own)}` : compared, got.e, severity);
}

async function parentOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const emit = emitterFor(env, FILTER_PARENT, res.list, 'documented');
  // The word narrows parent=0, which every top-level term of the site answers, to the unit's own four.
  const word = ownWord(env.runId, unitId);
  const variants = ['parent', 'parent=0'];
  const top = await makeAll(env, res, unitId, [{ name: `parent p ${word} ${unitId}` }, { name: `parent x ${word} ${unitId}` }]);
  if (top.failed) return variants.forEach((v) => emit(v, 'inconclusive', top.failed!, top.e));
  const [p, x] = top.own as [Own, Own];
  const kids = await makeAll(env, res, unitId, [{ name: `child 1 of ${p.id} ${word} ${unitId}`, extra: { parent: p.id } }, { name: `child 2 of ${p.id} ${word} ${unitId}`, extra: { parent: p.id } }]);
  if (kids.failed) return variants.forEach((v) => emit(v, 'inconclusive', kids.failed!, kids.e));
  const own = [p, x, ...kids.own];
  const wanted = kids.own.map((o) => o.id);
  const parentOf = (rec: unknown): unknown => (rec as { parent?: unknown } | undefined)?.parent;
  await judgeFiltered(env, res, emit, 'parent', { ...baseQuery(res.list, undefined), parent: p.id }, wanted, (id, rec) => id === p.id || id === x.id || (parentOf(rec) !== undefined && parentOf(rec) !== p.id), `compared parent=${p.id} with the suite's ${p.label}, its two children and ${x.label} beside it`, 'the categories under that parent and no other (000 §4.1.3: terms with this parent)', own);
  const kidIds = kids.own.map((o) => o.id);
  await judgeFiltered(env, res, emit, 'parent=0', { ...baseQuery(res.list, word), parent: 0 }, [p.id, x.id], (id, rec) => kidIds.includes(id) || (parentOf(rec) !== undefined && parentOf(rec) !== 0), `compared parent=0 (search=${word.toLowerCase()}) with the suite's ${p.label} and ${x.label}, top-level, and ${p.label}'s two children`, 'the top-level categories and none of the children (000 §4.1.3: terms with this parent; 0 is the top level, WP_REST_Terms_Controller::get_items())', own);
}

async function postOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const names = res.list.params.filter((q) => q.in === 'query' && (q.name === 'post' || q.name === 'event')).map((q) => q.name);
  const emit = emitterFor(env, FILTER_POST, res.list, 'documented');
  const made = await makeAll(env, res, unitId, [{ name: `related u ${unitId}` }, { name: `related n ${unitId}` }]);
  if (made.failed) return names.forEach((n) => emit(n, 'inconclusive', made.failed!, made.e));
  const [used, unused] = made.own as [Own, Own];
  const ev = await ownEventUsing(env, res, unitId, used);
  if (!ev.own) return names.forEach((n) => emit(n, 'inconclusive', ev.failed!, ev.e));
  const terms = res.resource === 'category' || res.resource === 'tag';
  for (const name of names) {
    const source = terms ? `000 §4.1.3: ${name === 'event' ? 'alias of post' : 'terms assigned to this post'}` : `000 §4.1.2: records related to this event`;
    await judgeFiltered(env, res, emit, name, { ...baseQuery(res.list, undefined), [name]: ev.own.id }, [used.id], () => true, `compared ${name}=${ev.own.id} (the suite's ${ev.own.label}, which uses ${used.label} and not ${unused.label})`, `the ${res.resource} records ${ev.own.label} uses and no other (${source})`, [used, unused, ev.own]);
  }
}

async function hideEmptyOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const emit = emitterFor(env, FILTER_HIDE_EMPTY, res.list, 'documented');
  const word = ownWord(env.runId, unitId);
  const variants = ['true', 'false', 'default'];
  const made = await makeAll(env, res, unitId, [{ name: `hide ${word} used ${unitId}` }, { name: `hide ${word} unused ${unitId}` }]);
  if (made.failed) return variants.forEach((v) => emit(v, 'inconclusive', made.failed!, made.e));
  const [used, unused] = made.own as [Own, Own];
  const ev = await ownEventUsing(env, res, unitId, used);
  if (!ev.own) return variants.forEach((v) => emit(v, 'inconclusive', ev.failed!, ev.e));
  const own = [used, unused];
  const search = { search: word.toLowerCase() };
  const others = (id: number): boolean => id === unused.id;
  const compared = (q: string): string => `compared ${q} (search=${word.toLowerCase()}) on the suite's ${used.label}, used by its published ${ev.own!.label}, and ${unused.label}, used by nothing`;
  await judgeFiltered(env, res, emit, 'true', { ...search, hide_empty: true }, [used.id], others, compared('hide_empty=true'), 'the used term and not the unused one (000 §4.1.3: hide terms assigned to no posts)', own);
  await judgeFiltered(env, res, emit, 'false', { ...search, hide_empty: false }, [used.id, unused.id], () => false, compared('hide_empty=false'), 'both terms, used or not (000 §4.1.3)', own);
  await judgeFiltered(env, res, emit, 'default', search, [used.id], others, compared('no hide_empty'), 'what hide_empty=true answers: the default is true (000 §4.1.3)', own);
}

async function hasEventsOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const emit = emitterFor(env, FILTER_HAS_EVENTS, res.list, 'documented');
  const variants = ['has_events', 'only_with_upcoming'].filter((n) => res.list.params.some((p) => p.name === n && p.in === 'query'));
  const word = ownWord(env.runId, unitId);
  const made = await makeAll(env, res, unitId, ['upcoming', 'past', 'unused'].map((x) => ({ name: `events ${word} ${x} ${unitId}` })));
  if (made.failed) return variants.forEach((v) => emit(v, 'inconclusive', made.failed!, made.e));
  const [upcoming, past, unused] = made.own as [Own, Own, Own];
  const ago = new Date(env.now().getTime() - 400 * 86_400_000);
  ago.setUTCHours(10, 0, 0, 0);
  const pastDates = { start_date: localDateTime(ago), end_date: localDateTime(new Date(ago.getTime() + 3_600_000)) };
  const e1 = await ownEventUsing(env, res, unitId, upcoming);
  const e2 = e1.own ? await ownEventUsing(env, res, unitId, past, pastDates) : e1;
  if (!e1.own || !e2.own) return variants.forEach((v) => emit(v, 'inconclusive', (e1.failed ?? e2.failed)!, e1.e ?? e2.e));
  const own = [upcoming, past, unused];
  const search = { search: word.toLowerCase() };
  const about = `the suite's ${upcoming.label} (used by its upcoming ${e1.own.label}), ${past.label} (used by its past ${e2.own!.label}) and ${unused.label} (used by nothing)`;
  const src = res.namespace === 'cal/v1' ? '000 §4.2.2' : '000 §4.1.2';
  if (variants.includes('has_events')) await judgeFiltered(env, res, emit, 'has_events', { ...search, has_events: true }, [upcoming.id, past.id], (id) => id === unused.id, `compared has_events=true on ${about}`, `the records some event uses, and not the one none does (${src}: records that have events)`, own);
  if (variants.includes('only_with_upcoming')) await judgeFiltered(env, res, emit, 'only_with_upcoming', { ...search, only_with_upcoming: true }, [upcoming.id], (id) => id === past.id || id === unused.id, `compared only_with_upcoming=true on ${about}`, `only the record an upcoming event uses (${src}: records that have upcoming events)`, own);
}

export function planRelatedFilters(contract: Contract): Unit[] {
  const evCreate = (res: CalendarResource) => {
    const ev = eventOf(contract, res);
    return ev ? [ev.create] : [];
  };
  return [
    ...oracleUnits(contract, FILTER_PARENT, 'parent', parentOracle),
    // `post` and `event` on terms, `event` on venues and organizers: one unit per list, whichever it takes.
    ...oracleUnits(contract, FILTER_POST, 'event', postOracle, evCreate),
    ...oracleUnits(contract, FILTER_HIDE_EMPTY, 'hide_empty', hideEmptyOracle, evCreate),
    ...oracleUnits(contract, FILTER_HAS_EVENTS, 'has_events', hasEventsOracle, evCreate),
  ];
}
