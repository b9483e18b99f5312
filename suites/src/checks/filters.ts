// Filters that pick records by what the records say: search, include, exclude, slug. Each oracle makes records of
// its own (carrying a word no site holds), asks the list with the filter, and judges the ids that come back:
// which records the filter kept that it should have left out, and which it left out that it should have kept.
//   filter_search: the records carrying the word in their name or body text, and only those (000 §4.1.1-4.1.3:
//     "substring in title or description"; cal/v1 gives no meaning, so WordPress's: title, content, excerpt);
//     asked in another case, the same records (WordPress matches case-insensitively: LIKE under a _ci collation).
//   filter_include: only the named records (000 §4.1.1, §4.1.3); on the legacy event list, whatever the date
//     filters say ("when given, date filters are ignored"); on terms, orderby=include keeps the order asked for
//     (WordPress's terms controller; the documents do not list orderby's values, so at severity assumed).
//   filter_exclude: every record but the excluded (000 §4.1.3).
//   filter_slug: the term with that slug and no other (000 §4.1.3).

import type { Contract } from '../../../contracts/lib/loader.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import {
  baseQuery,
  byId,
  contentField,
  describeIds,
  emitterFor,
  idsOf,
  judgeSet,
  makeOwn,
  oracleUnits,
  ownWord,
  readList,
  recordText,
  setMessage,
  unreadable,
  type Own,
} from './kit/oracle_kit.ts';
import type { CalendarResource } from './kit/resources.ts';
import { describeAnswer } from './kit/wp.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';

export const FILTER_SEARCH = 'filter_search';
export const FILTER_INCLUDE = 'filter_include';
export const FILTER_EXCLUDE = 'filter_exclude';
export const FILTER_SLUG = 'filter_slug';

const isTerm = (res: CalendarResource): boolean => res.resource === 'category' || res.resource === 'tag';
const legacy = (res: CalendarResource): boolean => res.namespace === 'cal/events/v1';

/** Makes the records in order; the first that fails ends it, with its answer. */
export async function makeAll(env: UnitEnv, res: CalendarResource, unitId: string, specs: readonly { name: string; extra?: Record<string, unknown> }[]): Promise<{ own: Own[]; failed?: string; e?: Exchange }> {
  const own: Own[] = [];
  for (const s of specs) {
    const r = await makeOwn(env, res, unitId, s.name, s.extra ?? {});
    if (!r.own) return { own, failed: `creating a record of its own to compare with answered ${describeAnswer(r.exchange.response)}: nothing to compare`, e: r.exchange };
    own.push(r.own);
  }
  return { own };
}

async function searchOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, FILTER_SEARCH, op, legacy(res) ? 'documented' : 'convention');
  const word = ownWord(env.runId, unitId);
  const body = contentField(res);
  const made = await makeAll(env, res, unitId, [
    { name: `search ${word} in the name ${unitId}` },
    ...(body ? [{ name: `search in the text ${unitId}`, extra: { [body]: `<p>Notes on ${word} for the oracle.</p>` } }] : []),
    { name: `search without the word ${unitId}` },
  ]);
  if (made.failed) {
    emit('matches', 'inconclusive', made.failed, made.e);
    return emit('case', 'inconclusive', made.failed, made.e, 'convention');
  }
  const own = made.own;
  const wanted = idsOf(own.slice(0, -1));
  const other = own[own.length - 1]!;
  const where = body ? `its name or its ${body}` : 'its name';
  const judge = (got: Awaited<ReturnType<typeof readList>>) =>
    judgeSet(got.ids, wanted, (id) => !wanted.includes(id) && !recordText(byId(got.records, id)).includes(word.toLowerCase()));

  const exact = await readList(env, op, { ...baseQuery(op, undefined), search: word });
  const u = unreadable(exact, `search=${word}`);
  if (u) {
    emit('matches', u.outcome, u.message, exact.e);
    return emit('case', 'skip', 'not judged: the search in the stored case gave nothing to compare with', undefined, 'convention');
  }
  const j = judge(exact);
  const compared = `compared search=${word} with the suite's ${own.length} records: ${describeIds(wanted, exact.records, own)} carry the word in ${where}, ${other.label} does not`;
  emit('matches', j.kept.length || j.dropped.length ? 'fail' : 'pass', j.kept.length || j.dropped.length ? `expected the records carrying the word, and only them (${legacy(res) ? '000 §4.1: search is a substring match' : 'WordPress convention: search matches title, content and excerpt'}); ${setMessage(compared, j, exact, own)}` : compared, exact.e);

  const lower = await readList(env, op, { ...baseQuery(op, undefined), search: word.toLowerCase() });
  const lu = unreadable(lower, `search=${word.toLowerCase()}`);
  if (lu) return emit('case', lu.outcome, lu.message, lower.e, 'convention');
  const missing = exact.ids.filter((id) => !lower.ids.includes(id));
  const extra = lower.ids.filter((id) => !exact.ids.includes(id));
  const caseCompared = `compared search=${word.toLowerCase()} with search=${word}`;
  if (missing.length || extra.length) {
    const parts = [missing.length ? `only the stored case finds ${describeIds(missing, exact.records, own)}` : '', extra.length ? `only the lower case finds ${describeIds(extra, lower.records, own)}` : ''].filter(Boolean);
    return emit('case', 'fail', `expected the same records whatever the case of the word (WordPress convention: search is LIKE under a case-insensitive collation); ${caseCompared}: ${parts.join('; ')}`, lower.e, 'convention');
  }
  emit('case', exact.ids.length ? 'pass' : 'inconclusive', exact.ids.length ? `${caseCompared}: the same ${exact.ids.length} record(s)` : `${caseCompared}: neither found anything, so case is not shown`, lower.e, 'convention');
  if (builtOnCoreControllers(env.contract, op)) await searchTags(env, op, word, exact, own);
}

/**
 * On a list of core's posts controller, search's sanitize_callback is sanitize_text_field() (WP_REST_Controller::
 * get_collection_params()): search=<b>word</b> finds what search=word does. A plugin's own controller may read it as sent.
 */
async function searchTags(env: UnitEnv, op: CalendarResource['list'], word: string, exact: Awaited<ReturnType<typeof readList>>, own: readonly Own[]): Promise<void> {
  const emit = emitterFor(env, FILTER_SEARCH, op, 'convention');
  const tagged = `<b>${word}</b>`;
  const got = await readList(env, op, { ...baseQuery(op, undefined), search: tagged });
  const u = unreadable(got, `search=${tagged}`);
  if (u) return emit('tags', u.outcome, u.message, got.e, 'convention');
  const missing = exact.ids.filter((id) => !got.ids.includes(id));
  const extra = got.ids.filter((id) => !exact.ids.includes(id));
  const compared = `compared search=${tagged} with search=${word}`;
  if (missing.length || extra.length) {
    const parts = [missing.length ? `only search=${word} finds ${describeIds(missing, exact.records, own)}` : '', extra.length ? `only search=${tagged} finds ${describeIds(extra, got.records, own)}` : ''].filter(Boolean);
    return emit('tags', 'fail', `expected the same records with the word in tags (WordPress convention: search is sanitized by sanitize_text_field(), which strips them); ${compared}: ${parts.join('; ')}`, got.e, 'convention');
  }
  emit('tags', exact.ids.length ? 'pass' : 'inconclusive', exact.ids.length ? `${compared}: the same ${exact.ids.length} record(s)` : `${compared}: neither found anything, so the tags are not shown stripped`, got.e, 'convention');
}

async function includeOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, FILTER_INCLUDE, op, 'documented');
  const extraVariants = legacy(res) && res.resource === 'event' ? ['ignores_dates'] : isTerm(res) ? ['orderby_include'] : [];
  const made = await makeAll(env, res, unitId, ['a', 'b', 'c'].map((x) => ({ name: `include ${x} ${unitId}` })));
  if (made.failed) {
    for (const v of ['only', ...extraVariants]) emit(v, 'inconclusive', made.failed, made.e);
    return;
  }
  const [a, b, c] = made.own as [Own, Own, Own];
  const asked = [c.id, a.id];
  const only = await readList(env, op, { ...baseQuery(op, undefined), include: asked });
  const u = unreadable(only, `include=${asked.join(',')}`);
  if (u) emit('only', u.outcome, u.message, only.e);
  else {
    const j = judgeSet(only.ids, asked, (id) => !asked.includes(id));
    const compared = `compared include=${asked.join(',')} (the suite's ${describeIds(asked, only.records, made.own)}; ${b.label} left out)`;
    emit('only', j.kept.length || j.dropped.length ? 'fail' : 'pass', j.kept.length || j.dropped.length ? `expected the named records and only them (000 §4.1: include restricts to these IDs); ${setMessage(compared, j, only, made.own)}` : compared, only.e);
  }
  if (extraVariants.includes('ignores_dates')) {
    const far = new Date(env.now().getTime() + 20 * 365 * 86_400_000).toISOString().slice(0, 10);
    const q = { ...baseQuery(op, undefined), include: asked, starts_after: `${far} 00:00:00`, strict_dates: true };
    const r = await readList(env, op, q);
    const ru = unreadable(r, 'include with a date filter');
    if (ru) emit('ignores_dates', ru.outcome, ru.message, r.e);
    else {
      const j = judgeSet(r.ids, asked, (id) => !asked.includes(id));
      const compared = `compared include=${asked.join(',')} with starts_after=${far} 00:00:00, a bound all of them start before`;
      emit('ignores_dates', j.kept.length || j.dropped.length ? 'fail' : 'pass', j.kept.length || j.dropped.length ? `expected the named records whatever the date filters say (000 §4.1.1: "when given, date filters are ignored"); ${setMessage(compared, j, r, made.own)}` : compared, r.e);
    }
  }
  if (extraVariants.includes('orderby_include')) {
    const r = await readList(env, op, { ...baseQuery(op, undefined), include: asked, orderby: 'include' });
    const ru = unreadable(r, 'include with orderby=include');
    const why = "WordPress's terms controller: orderby=include keeps the order of include; the documents do not list orderby's values (000 §4.1.3), so at severity assumed";
    if (ru) emit('orderby_include', ru.outcome, ru.message, r.e, 'assumed');
    else {
      const got = r.ids.filter((id) => asked.includes(id));
      const same = got.length === asked.length && got.every((id, i) => id === asked[i]);
      emit('orderby_include', got.length < 2 ? 'inconclusive' : same ? 'pass' : 'fail', got.length < 2 ? `only ${got.length} of the named records came back: no order to compare` : `compared the order of include=${asked.join(',')} with orderby=include (${why}): expected ${asked.join(', ')}, got ${got.join(', ')}`, r.e, 'assumed');
    }
  }
}

async function excludeOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, FILTER_EXCLUDE, op, 'documented');
  const word = ownWord(env.runId, unitId);
  const made = await makeAll(env, res, unitId, ['a', 'b', 'c'].map((x) => ({ name: `exclude ${x} ${word} ${unitId}` })));
  if (made.failed) return emit('exclude', 'inconclusive', made.failed, made.e);
  const [a, b, c] = made.own as [Own, Own, Own];
  // The word narrows the list to the suite's three; without a working search the list still shows them on page 1
  // of a small site, and where it does not, the oracle says so rather than guessing.
  const base = await readList(env, op, baseQuery(op, word));
  const bu = unreadable(base, 'the list without exclude');
  if (bu) return emit('exclude', bu.outcome, bu.message, base.e);
  const seen = [a, b, c].filter((o) => base.ids.includes(o.id));
  if (seen.length < 3) return emit('exclude', 'inconclusive', `the list without exclude (search=${word.toLowerCase()}) does not show all three of the suite's records (${describeIds(idsOf(seen), base.records, made.own)} of ${describeIds([a.id, b.id, c.id], base.records, made.own)}): nothing to compare`, base.e);
  const got = await readList(env, op, { ...baseQuery(op, word), exclude: [b.id] });
  const gu = unreadable(got, `exclude=${b.id}`);
  if (gu) return emit('exclude', gu.outcome, gu.message, got.e);
  const wanted = base.ids.filter((id) => id !== b.id);
  const j = judgeSet(got.ids, wanted, (id) => id === b.id);
  const compared = `compared the same list with and without exclude=${b.id} (${b.label}): ${base.ids.length} record(s) without`;
  emit('exclude', j.kept.length || j.dropped.length ? 'fail' : 'pass', j.kept.length || j.dropped.length ? `expected every record but the excluded one (000 §4.1.3: IDs to leave out); ${setMessage(compared, j, got, made.own)}` : compared, got.e);
}

async function slugOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, FILTER_SLUG, op, 'documented');
  const made = await makeAll(env, res, unitId, ['a', 'b'].map((x) => ({ name: `slug ${x} ${unitId}` })));
  if (made.failed) return emit('slug', 'inconclusive', made.failed, made.e);
  const [a, b] = made.own as [Own, Own];
  const slug = (jsonBody(a.exchange.response) as { slug?: unknown } | undefined)?.slug;
  if (typeof slug !== 'string' || slug === '') return emit('slug', 'inconclusive', `the create answer of ${a.label} shows no slug to filter by`, a.exchange);
  const got = await readList(env, op, { ...baseQuery(op, undefined), slug });
  const u = unreadable(got, `slug=${slug}`);
  if (u) return emit('slug', u.outcome, u.message, got.e);
  const j = judgeSet(got.ids, [a.id], (id) => id !== a.id && (id === b.id || (byId(got.records, id) as { slug?: unknown } | undefined)?.slug !== slug));
  const compared = `compared slug=${slug} (${a.label}; ${b.label} has another)`;
  emit('slug', j.kept.length || j.dropped.length ? 'fail' : 'pass', j.kept.length || j.dropped.length ? `expected the term with that slug and no other (000 §4.1.3: terms with this slug); ${setMessage(compared, j, got, made.own)}` : compared, got.e);
}

export function planFilters(contract: Contract): Unit[] {
  return [
    ...oracleUnits(contract, FILTER_SEARCH, 'search', searchOracle),
    ...oracleUnits(contract, FILTER_INCLUDE, 'include', includeOracle),
    ...oracleUnits(contract, FILTER_EXCLUDE, 'exclude', excludeOracle),
    ...oracleUnits(contract, FILTER_SLUG, 'slug', slugOracle),
  ];
}
