// core_list_params: the collection params core's posts controller gives every list built on it, which the documents
// do not list for cal/v1 venues (WP_REST_Posts_Controller::get_collection_params(), get_items(): include is post__in,
// exclude post__not_in). On two venues of the suite's own, published, narrowed by a word only they carry, read
// anonymously:
// - include: ?include=<a> lists a alone, ?include=<a>,<b> both;
// - exclude: ?exclude=<a> lists b alone;
// - offset: ?offset=1&per_page=1 lists the second of the two as the default order (date, newest first) lists them;
// - slug: ?slug=<a's slug> lists a alone;
// - author: ?author=<their author> lists both, ?author_exclude=<their author> neither;
// - after: dated two seconds apart, ?after=<the second between> lists the later alone (a date_query on post_date,
//   exclusive), and ?after=site-contracts-no-date is 400 naming after (its format is date-time).
// And on cal/v1 events (tax-exclude): two events of the suite's own, one carrying a tag the site lists, the other
// none: ?tags_exclude=<that tag> lists the other alone (prepare_tax_query(): a tax_query NOT IN).
// And on the legacy category and tag lists (000 §4.1.3, page and per_page; The Events Calendar's Term_Archive_Base
// hands them to core's WP_REST_Terms_Controller::get_items(), whose offset is (page - 1) × per_page): two terms of
// the suite's own, narrowed by a word only they carry (hide_empty=false: they have no events), read anonymously:
// - page: ?per_page=1&page=1 and ?per_page=1&page=2 list the first and the second of ?per_page=2;
// - offset: ?offset=1&per_page=1 the second, judged only where the site's descriptor declares offset on the route
//   (the documents do not list it; core registers it for a flat taxonomy, and a site that declares it takes it).
// Severity convention: WordPress's controller does it and the documents are silent.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody } from '../http/types.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { cannotWrite, emitterFor, ownWord, readList, unreadable } from './kit/oracle_kit.ts';
import { declaresArg } from '../diff/descriptor.ts';
import { calendarResources, idOf, listRecords, type CalendarResource } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { blamedParams, describeAnswer, transportOutcome, wpError } from './kit/wp.ts';
import { makeAll } from './filters.ts';

export const CORE_LIST_PARAMS = 'core_list_params';

async function includeExclude(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, CORE_LIST_PARAMS, op, 'convention');
  const variants = ['include', 'exclude', 'offset', 'slug', 'author', 'after'];
  const why = cannotWrite(env, [op, res.create]);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the check reads records of its own`));
  const word = ownWord(env.runId, unitId);
  const made = await makeAll(env, res, unitId, ['alpha', 'bravo'].map((n, i) => ({ name: `params ${word} ${n} ${unitId}`, extra: { date: `2020-01-02T10:00:0${i * 2}` } })));
  if (made.failed) return variants.forEach((v) => emit(v, 'inconclusive', made.failed!, made.e));
  const [a, b] = made.own.map((o) => o.id) as [number, number];
  const rule = "WordPress convention, WP_REST_Posts_Controller::get_items(): include is post__in, exclude post__not_in, slug post_name__in, author author__in, author_exclude author__not_in, offset WP_Query's";
  const read = async (variant: string, query: Record<string, unknown>, want: number[]): Promise<boolean> => {
    const shown = Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&');
    const e = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: { search: word.toLowerCase(), ...query }, auth: false }, op);
    const t = transportOutcome(e);
    if (t) return emit(variant, t.outcome, t.message, e), false;
    const records = e.response!.status === 200 ? listRecords(jsonBody(e.response)) : undefined;
    if (!records) return emit(variant, 'inconclusive', `GET ${op.path}?${shown} answered ${describeAnswer(e.response)}, not a list`, e), false;
    const got = records.map(idOf).filter((x): x is number => x !== undefined).sort((x, y) => x - y);
    if (JSON.stringify(got) === JSON.stringify([...want].sort((x, y) => x - y))) return true;
    emit(variant, 'fail', `expected GET ${op.path}?search=<own word>&${shown} to list ${want.length ? `${want.map((x) => `#${x}`).join(' and ')} alone` : 'none'} of the two venues of its own (#${a}, #${b}) (${rule}); it listed ${got.length ? got.map((x) => `#${x}`).join(', ') : 'none'}`, e);
    return false;
  };
  const ordered = async (): Promise<number[] | undefined> => {
    const e = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: { search: word.toLowerCase() }, auth: false }, op);
    const records = !transportOutcome(e) && e.response!.status === 200 ? listRecords(jsonBody(e.response)) : undefined;
    return records?.map(idOf).filter((x): x is number => x !== undefined);
  };
  if ((await read('include', { include: a }, [a])) && (await read('include', { include: `${a},${b}` }, [a, b]))) emit('include', 'pass', `include=${a} lists #${a} alone, include=${a},${b} both`);
  if (await read('exclude', { exclude: a }, [b])) emit('exclude', 'pass', `exclude=${a} lists #${b} alone of the two`);
  const order = await ordered();
  if (order?.length !== 2) emit('offset', 'inconclusive', `the list narrowed to the two venues of its own shows ${JSON.stringify(order ?? null)}`);
  else if (await read('offset', { offset: 1, per_page: 1 }, [order[1]!])) emit('offset', 'pass', `offset=1&per_page=1 lists #${order[1]}, the second of ${order.map((x) => `#${x}`).join(', ')}`);
  const body = (i: number): Record<string, unknown> => (jsonBody(made.own[i]!.exchange.response) ?? {}) as Record<string, unknown>;
  const slug = body(0)['slug'];
  if (typeof slug !== 'string' || slug === '') emit('slug', 'inconclusive', `venue #${a} was answered without a slug`);
  else if (await read('slug', { slug }, [a])) emit('slug', 'pass', `slug=${slug} lists #${a} alone`);
  const author = body(0)['author'];
  if (typeof author !== 'number' || body(1)['author'] !== author) emit('author', 'inconclusive', `the two venues of its own were answered without one author (${JSON.stringify(author ?? null)}, ${JSON.stringify(body(1)['author'] ?? null)})`);
  else if ((await read('author', { author }, [a, b])) && (await read('author', { author_exclude: author }, []))) emit('author', 'pass', `author=${author} lists both, author_exclude=${author} neither`);
  if (!(await read('after', { after: '2020-01-02T10:00:01' }, [b]))) return;
  const bad = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: { search: word.toLowerCase(), after: 'site-contracts-no-date' }, auth: false }, op);
  const t = transportOutcome(bad);
  if (t) return emit('after', t.outcome, t.message, bad);
  if (bad.response!.status === 400 && blamedParams(wpError(bad.response)).includes('after')) return emit('after', 'pass', `after=2020-01-02T10:00:01 lists #${b} alone (dated a second later), after=site-contracts-no-date is refused 400 naming after`, bad);
  emit('after', 'fail', `expected after=site-contracts-no-date to be refused 400 rest_invalid_param naming after (WordPress convention: the posts controller's after arg has format date-time, rest_validate_value_from_schema()); got ${describeAnswer(bad.response)}`, bad);
}

async function tagsExclude(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, CORE_LIST_PARAMS, op, 'convention');
  const why = cannotWrite(env, [op, res.create]);
  if (why) return emit('tags_exclude', 'skip', `not run: ${why}; the check reads records of its own`);
  const le = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: { per_page: 20 }, auth: false }, op);
  const tag = (listRecords(jsonBody(le.response)) ?? []).flatMap((r) => (r && typeof r === 'object' && Array.isArray((r as Record<string, unknown>)['tags']) ? ((r as Record<string, unknown>)['tags'] as unknown[]) : [])).find((t): t is number => typeof t === 'number');
  if (tag === undefined) return emit('tags_exclude', 'inconclusive', `the site's events show no tag to give an event of its own (${describeAnswer(le.response)})`, le);
  const word = ownWord(env.runId, unitId);
  const made = await makeAll(env, res, unitId, [{ name: `params ${word} tagged ${unitId}`, extra: { tags: [tag] } }, { name: `params ${word} untagged ${unitId}` }]);
  if (made.failed) return emit('tags_exclude', 'inconclusive', made.failed, made.e);
  const [tagged, other] = made.own.map((o) => o.id) as [number, number];
  const e = await env.send({ method: 'GET', route: fillTemplate(op.path, {}), query: { search: word.toLowerCase(), tags_exclude: tag }, auth: false }, op);
  const t = transportOutcome(e);
  if (t) return emit('tags_exclude', t.outcome, t.message, e);
  const records = e.response!.status === 200 ? listRecords(jsonBody(e.response)) : undefined;
  if (!records) return emit('tags_exclude', 'inconclusive', `GET ${op.path}?tags_exclude=${tag} answered ${describeAnswer(e.response)}, not a list`, e);
  const got = records.map(idOf).filter((x): x is number => x !== undefined);
  if (got.length === 1 && got[0] === other) return emit('tags_exclude', 'pass', `tags_exclude=${tag} leaves out #${tagged}, which carries it, and keeps #${other}`, e);
  emit('tags_exclude', 'fail', `expected GET ${op.path}?search=<own word>&tags_exclude=${tag} to list #${other} alone of its two events (#${tagged} carries tag ${tag}) (WordPress convention, WP_REST_Posts_Controller::prepare_tax_query(): tags_exclude is a tax_query NOT IN); it listed ${got.length ? got.map((x) => `#${x}`).join(', ') : 'none'}`, e);
}

async function termPages(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, CORE_LIST_PARAMS, op, 'convention');
  const declared = declaresArg(env.descriptor, op.path, 'GET', 'offset') === true;
  const variants = declared ? ['page', 'offset'] : ['page'];
  if (!declared) emit('offset', 'skip', `not judged: the site's descriptor does not declare offset on ${op.path} (000 §4.1.3 does not list it)`);
  const why = cannotWrite(env, [op, res.create]);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the check reads records of its own`));
  const word = ownWord(env.runId, unitId);
  const made = await makeAll(env, res, unitId, ['alpha', 'bravo'].map((n) => ({ name: `pages ${word} ${n} ${unitId}` })));
  if (made.failed) return variants.forEach((v) => emit(v, 'inconclusive', made.failed!, made.e));
  const rule = "WordPress convention, WP_REST_Terms_Controller::get_items() (The Events Calendar's legacy term lists hand page and per_page to it): offset is (page - 1) × per_page";
  const base = { search: word.toLowerCase(), hide_empty: false };
  const read = (q: Record<string, unknown>) => readList(env, op, { ...base, ...q }, { auth: false });
  const both = await read({ per_page: 2 });
  const bu = unreadable(both, 'per_page=2');
  if (bu) return variants.forEach((v) => emit(v, bu.outcome, bu.message, both.e));
  const ownIds = made.own.map((o) => o.id);
  if (both.ids.length !== 2 || !ownIds.every((id) => both.ids.includes(id))) {
    return variants.forEach((v) => emit(v, 'inconclusive', `per_page=2 narrowed to the suite's two ${res.resource}s (${made.own.map((o) => o.label).join(', ')}) lists ${JSON.stringify(both.ids)}: nothing to compare`, both.e));
  }
  const window = async (variant: string, q: Record<string, unknown>, want: number): Promise<boolean> => {
    const got = await read(q);
    const shown = Object.entries(q).map(([k, v]) => `${k}=${String(v)}`).join('&');
    const u = unreadable(got, shown);
    if (u) return emit(variant, u.outcome, u.message, got.e), false;
    if (got.ids.length === 1 && got.ids[0] === want) return true;
    emit(variant, 'fail', `expected GET ${op.path}?search=<own word>&hide_empty=false&${shown} to list #${want} alone, record ${both.ids.indexOf(want) + 1} of per_page=2's #${both.ids[0]}, #${both.ids[1]} (${rule}); it listed ${got.ids.length ? got.ids.map((x) => `#${x}`).join(', ') : 'none'}`, got.e);
    return false;
  };
  if ((await window('page', { per_page: 1, page: 1 }, both.ids[0]!)) && (await window('page', { per_page: 1, page: 2 }, both.ids[1]!))) {
    emit('page', 'pass', `per_page=1&page=1 and page=2 list #${both.ids[0]} and #${both.ids[1]}, as per_page=2 does`);
  }
  if (declared && (await window('offset', { per_page: 1, offset: 1 }, both.ids[1]!))) emit('offset', 'pass', `offset=1&per_page=1 lists #${both.ids[1]}, the second of per_page=2's; the site declares offset`);
}

export function planCoreListParams(contract: Contract): Unit[] {
  const core = calendarResources(contract).filter((r) => r.namespace === 'cal/v1' && builtOnCoreControllers(contract, r.create));
  const unit = (r: CalendarResource, run: (env: UnitEnv, r: CalendarResource, id: string) => Promise<void>): Unit => {
    const id = `${CORE_LIST_PARAMS}:${r.list.id}`;
    return { id, family: CORE_LIST_PARAMS, checks: [CORE_LIST_PARAMS], operations: [r.list, r.create], writes: true, run: (env: UnitEnv) => run(env, r, id) };
  };
  const legacyTerms = calendarResources(contract).filter((r) => r.namespace === 'cal/events/v1' && (r.resource === 'category' || r.resource === 'tag'));
  return [...core.filter((r) => r.resource === 'venue').map((r) => unit(r, includeExclude)), ...core.filter((r) => r.resource === 'event').map((r) => unit(r, tagsExclude)), ...legacyTerms.map((r) => unit(r, termPages))];
}
