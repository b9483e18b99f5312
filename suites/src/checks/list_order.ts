// list_order: every documented orderby value orders the list by what it names, and order reverses it. The list is
// read with each value and each direction and judged pair by pair on the key the records themselves show (`date`,
// `start_date`, `title`, `modified`...): a record before another whose key says it belongs after is a failure, and
// the message names both records and their keys. Pairs whose order no two databases would agree on are not judged:
// equal keys (WordPress adds no tie-breaker), and text that differs first at anything but a plain letter (MySQL's
// collations and ICU disagree on digits, accents and punctuation). A list with no pair left to judge is
// inconclusive, never passed.
//   cal/v1 events (000 §4.2.1: orderby date, event_date, title, menu_order, modified; order ASC, DESC; default
//     event_date ASC): three events of the suite's own whose title, publication date and start date each put them
//     in another order, narrowed to by a word only they carry; where their keys tie (modified: made in the same
//     second), the site's own events are read too.
//   legacy categories and tags (000 §4.1.3: "term attribute to sort by", values not shown): name, slug, id at
//     severity assumed (WordPress's terms controller), on three terms of the suite's own.
//   cal/v1 venues (core's posts controller; the documents give the list no order): three venues of the suite's own
//     dated a second apart list newest first without orderby and order, oldest first with order=asc, and order=ASC is
//     400 rest_invalid_param naming order (the arg's enum is lower case) where the descriptor declares order; severity
//     convention (WP_REST_Posts_Controller::get_collection_params(): orderby date, order desc).
//   seo tracked keywords (001 §4.7: orderby default, keyword): keyword, on the site's own rows; the documents give
//     no direction, so either direction passes and a mixed one fails.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Severity } from '../report/model.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { makeAll } from './filters.ts';
import { cannotWrite, describeRecord, emitterFor, ownWord, readList, unreadable } from './kit/oracle_kit.ts';
import { calendarResources, idOf, localDateTime, nameText, type CalendarResource } from './kit/resources.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { templateKey } from '../diff/descriptor.ts';
import { blamedParams, describeAnswer, transportOutcome, wpError } from './kit/wp.ts';

export const LIST_ORDER = 'list_order';

type Cmp = -1 | 0 | 1 | undefined;

/** Text as two collations agree: decided only where the first difference is between two plain letters. */
export function textOrder(a: string, b: string): Cmp {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return 0;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  if (i === x.length) return -1;
  if (i === y.length) return 1;
  return /[a-z]/.test(x[i]!) && /[a-z]/.test(y[i]!) ? (x[i]! < y[i]! ? -1 : 1) : undefined;
}

const DATE_TIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?$/;

export function dateOrder(a: string, b: string): Cmp {
  if (!DATE_TIME.test(a) || !DATE_TIME.test(b)) return undefined;
  const x = a.replace('T', ' ');
  const y = b.replace('T', ' ');
  return x === y ? 0 : x < y ? -1 : 1;
}

interface Key {
  /** What the key is, for messages: `start_date`. */
  field: string;
  read(rec: unknown): unknown;
  cmp(a: unknown, b: unknown): Cmp;
}

const field = (rec: unknown, name: string): unknown => (rec as Record<string, unknown> | null)?.[name];
const textKey = (name: string): Key => ({ field: name, read: (r) => nameText(r, name), cmp: (a, b) => (typeof a === 'string' && typeof b === 'string' ? textOrder(a, b) : undefined) });
const dateKey = (name: string): Key => ({ field: name, read: (r) => field(r, name), cmp: (a, b) => (typeof a === 'string' && typeof b === 'string' ? dateOrder(a, b) : undefined) });
const numberKey = (name: string, read: (r: unknown) => unknown = (r) => field(r, name)): Key => ({
  field: name,
  read,
  cmp: (a, b) => (typeof a === 'number' && typeof b === 'number' ? (a === b ? 0 : a < b ? -1 : 1) : undefined),
});

interface OrderJudgement {
  pairs: number;
  /** The first pair out of order: earlier index, later index. */
  wrong?: [number, number];
}

/** Every pair of records the key can order, in `direction` (1 ascending, -1 descending). */
export function judgeOrder(records: readonly unknown[], key: Key, direction: 1 | -1): OrderJudgement {
  const keys = records.map((r) => key.read(r));
  let pairs = 0;
  for (let i = 0; i < records.length; i++) {
    for (let j = i + 1; j < records.length; j++) {
      const c = key.cmp(keys[i], keys[j]);
      if (c === undefined || c === 0) continue;
      pairs++;
      if (c * direction > 0) return { pairs, wrong: [i, j] };
    }
  }
  return { pairs };
}

function show(rec: unknown, key: Key): string {
  return `${describeRecord(rec)} (${key.field} ${JSON.stringify(key.read(rec) ?? null)})`;
}

type Emit = ReturnType<typeof emitterFor>;

/** Reads `query` (and `fallback` when the first answer has no pair to judge) and judges it. */
async function judgeList(env: UnitEnv, op: Operation, emit: Emit, variant: string, queries: Record<string, unknown>[], key: Key, direction: 1 | -1 | 0, expected: string, severity?: Severity): Promise<void> {
  const tried: string[] = [];
  for (const query of queries) {
    const shown = Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&');
    const got = await readList(env, op, query);
    const u = unreadable(got, shown);
    if (u) return emit(variant, u.outcome, u.message, got.e, severity);
    const recs = got.records!;
    const up = judgeOrder(recs, key, 1);
    const down = judgeOrder(recs, key, -1);
    if (up.pairs === 0) {
      tried.push(`${shown}: ${recs.length} record(s), no two with ${key.field}s that order them`);
      continue;
    }
    const j = direction === 1 ? up : direction === -1 ? down : up.wrong && down.wrong ? up : up.wrong ? down : up;
    const compared = `compared ${shown}: ${recs.length} record(s), ${j.pairs} pair(s) ordered by ${key.field}`;
    if (!j.wrong) return emit(variant, 'pass', `${compared}, all in order${direction === 0 ? ` (${up.wrong ? 'descending' : 'ascending'})` : ''}`, got.e, severity);
    const [i, k] = j.wrong;
    const want = direction === 0 ? 'in one direction' : direction === 1 ? 'ascending' : 'descending';
    return emit(variant, 'fail', `expected ${expected}, ${want}; ${compared}: record ${i + 1} ${show(recs[i], key)} comes before record ${k + 1} ${show(recs[k], key)}; order got: ${recs.slice(0, 10).map((r) => show(r, key)).join(', ')}${recs.length > 10 ? ', ...' : ''}`, got.e, severity);
  }
  emit(variant, 'inconclusive', `nothing to compare: ${tried.join('; ')}`, undefined, severity);
}

const EVENT_KEYS: Record<string, Key> = {
  date: dateKey('date'),
  event_date: dateKey('start_date'),
  title: textKey('title'),
  modified: dateKey('modified'),
  menu_order: numberKey('menu_order'),
};

async function eventOrder(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, LIST_ORDER, op, 'documented');
  const values = (op.params.find((p) => p.name === 'orderby')?.schema.enum ?? []) as string[];
  const variants = [...values.flatMap((v) => [`${v}_ASC`, `${v}_DESC`]), 'default'];
  const why = cannotWrite(env, [op, res.create]);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the oracle orders records of its own`));
  const word = ownWord(env.runId, unitId);
  const day = (n: number): string => `${localDateTime(new Date(env.now().getTime() + (500 + n) * 86_400_000)).slice(0, 10)} 10:00:00`;
  const ev = (name: string, published: string, start: number) => ({ name: `order ${word} ${name}`, extra: { date: published, start_date: day(start), end_date: day(start).replace('10:00', '11:00') } });
  // Each key puts them in another order: title a-b-c, date c-b-a... no two keys agree, so one read as another fails.
  const made = await makeAll(env, res, unitId, [ev('bravo', '2024-03-02T10:00:00', 2), ev('alpha', '2024-03-03T10:00:00', 3), ev('charlie', '2024-03-01T10:00:00', 1)]);
  if (made.failed) return variants.forEach((v) => emit(v, 'inconclusive', made.failed!, made.e));
  const own = { search: word.toLowerCase() };
  const site = { per_page: 20 };
  for (const v of values) {
    const key = EVENT_KEYS[v];
    for (const order of ['ASC', 'DESC'] as const) {
      const variant = `${v}_${order}`;
      if (!key) {
        emit(variant, 'inconclusive', `the suite does not know which field of a record ${v} orders by`);
        continue;
      }
      const dir = order === 'ASC' ? 1 : -1;
      await judgeList(env, op, emit, variant, [{ ...own, orderby: v, order }, { ...site, orderby: v, order }], key, dir, `the list ordered by ${v} (${key.field}), order=${order} (000 §4.2.1)`);
    }
  }
  await judgeList(env, op, emit, 'default', [own, site], EVENT_KEYS['event_date']!, 1, 'the list ordered by event_date ascending when neither orderby nor order is given (000 §4.2.1: defaults event_date, ASC)');
}

const TERM_KEYS: Record<string, Key> = { name: textKey('name'), slug: textKey('slug'), id: numberKey('id', idOf) };

async function termOrder(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, LIST_ORDER, op, 'assumed');
  const variants = Object.keys(TERM_KEYS).flatMap((v) => [`${v}_asc`, `${v}_desc`]);
  const why = cannotWrite(env, [op, res.create]);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the oracle orders records of its own`));
  const word = ownWord(env.runId, unitId);
  // Made in the order b, a, c: ids and names disagree.
  const made = await makeAll(env, res, unitId, ['bravo', 'alpha', 'charlie'].map((n) => ({ name: `order ${word} ${n} ${unitId}` })));
  if (made.failed) return variants.forEach((v) => emit(v, 'inconclusive', made.failed!, made.e));
  for (const [v, key] of Object.entries(TERM_KEYS)) {
    for (const order of ['asc', 'desc'] as const) {
      const expected = `the terms ordered by ${v}, order=${order} (WordPress's terms controller; 000 §4.1.3 leaves orderby's values and order's strings unshown, so at severity assumed)`;
      await judgeList(env, op, emit, `${v}_${order}`, [{ search: word.toLowerCase(), hide_empty: false, orderby: v, order }], key, order === 'asc' ? 1 : -1, expected);
    }
  }
}

/** The posts controller's default order on a list the documents give no order: date, newest first. */
async function coreDefaultOrder(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const op = res.list;
  const emit = emitterFor(env, LIST_ORDER, op, 'convention');
  const variants = ['core-default', 'core-asc', 'core-ASC'];
  const why = cannotWrite(env, [op, res.create]);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the oracle orders records of its own`));
  const word = ownWord(env.runId, unitId);
  // Dated a second apart, made in another order (b, c, a): an id order or a creation order is not the date order.
  const made = await makeAll(env, res, unitId, ['bravo', 'charlie', 'alpha'].map((n, i) => ({ name: `order ${word} ${n} ${unitId}`, extra: { date: `2020-01-02T10:00:0${[1, 2, 0][i]}` } })));
  if (made.failed) return variants.forEach((v) => emit(v, 'inconclusive', made.failed!, made.e));
  const own = { search: word.toLowerCase() };
  const rule = "WordPress convention, WP_REST_Posts_Controller::get_collection_params(): orderby date, order desc";
  await judgeList(env, op, emit, 'core-default', [own], dateKey('date'), -1, `the list newest first when neither orderby nor order is given (${rule})`);
  await judgeList(env, op, emit, 'core-asc', [{ ...own, order: 'asc' }], dateKey('date'), 1, `the list oldest first with order=asc (${rule})`);
  const declared = env.descriptor.byKey.get(templateKey(op.path))?.endpoints.some((e) => 'order' in e.args);
  // WordPress ignores a parameter a route does not declare: nothing to refuse.
  if (!declared) return emit('core-ASC', 'skip', `not run: the site's descriptor declares no order argument for ${op.path}, so it would ignore order=ASC as it ignores every undeclared parameter`);
  const up = await env.send({ method: 'GET', route: op.path, query: { ...own, order: 'ASC' } }, op);
  const t = transportOutcome(up);
  if (t) return emit('core-ASC', t.outcome, t.message, up);
  const err = wpError(up.response);
  if (up.response!.status === 400 && blamedParams(err).includes('order')) return emit('core-ASC', 'pass', 'order=ASC was refused 400 naming order (the enum is asc, desc)', up);
  emit('core-ASC', 'fail', `expected order=ASC to be refused 400 rest_invalid_param naming order (WordPress convention: the posts controller's order enum is asc, desc; rest_validate_value_from_schema() compares it case-sensitively); got ${describeAnswer(up.response)}`, up);
}

async function keywordOrder(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitterFor(env, LIST_ORDER, op, 'documented');
  await judgeList(env, op, emit, 'keyword', [{ orderby: 'keyword' }], textKey('keyword'), 0, 'the rows ordered by keyword (001 §4.7: orderby keyword; no direction given)');
}

export function planListOrder(contract: Contract): Unit[] {
  const units: Unit[] = [];
  for (const res of calendarResources(contract)) {
    const orderby = res.list.params.find((p) => p.name === 'orderby' && p.in === 'query');
    if (!orderby) continue;
    const id = `${LIST_ORDER}:${res.list.id}`;
    const enumerated = Array.isArray(orderby.schema.enum);
    units.push({ id, family: LIST_ORDER, checks: [LIST_ORDER], operations: [res.list, res.create], writes: true, run: (env) => (enumerated ? eventOrder(env, res, id) : termOrder(env, res, id)) });
  }
  for (const res of calendarResources(contract).filter((r) => r.resource === 'venue' && builtOnCoreControllers(contract, r.create) && !r.list.params.some((p) => p.name === 'order'))) {
    const id = `${LIST_ORDER}:core-order:${res.list.id}`;
    units.push({ id, family: LIST_ORDER, checks: [LIST_ORDER], operations: [res.list, res.create], writes: true, run: (env) => coreDefaultOrder(env, res, id) });
  }
  // Lists of the site's own rows whose orderby names a field and that no route of the suite fills.
  for (const op of contract.operations) {
    const orderby = op.params.find((p) => p.name === 'orderby' && p.in === 'query');
    if (op.method !== 'GET' || op.kind === 'list' || !orderby || !(orderby.schema.enum as unknown[] | undefined)?.includes('keyword')) continue;
    units.push({ id: `${LIST_ORDER}:${op.id}`, family: LIST_ORDER, checks: [LIST_ORDER], operations: [op], run: (env) => keywordOrder(env, op) });
  }
  return units;
}
