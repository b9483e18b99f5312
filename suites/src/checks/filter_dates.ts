// Date bounds on the event lists, judged on three events of the suite's own on one far day D (09:00-10:00 and
// 14:00-15:00 on D, 09:00-10:00 on D+1) against a bound at D 12:00, narrowed to them by a word only they carry.
//   filter_dates: starts_after, starts_before, ends_after, ends_before ("date bounds", 000 §4.1.1, §4.2.1) and, in
//     cal/v1, start_date / end_date ("events starting after / ending before the date", 000 §4.2.1). In the legacy
//     namespace the bounds go with strict_dates=true, so the times count as given. Legacy start_date/end_date
//     ("events that start / end on the date") can be read as a day or as a bound from it: only what both readings
//     agree on is judged (a fourth event, the day before, for start_date).
//   filter_strict_dates: the legacy list with starts_after at D 12:00: strict_dates=true uses the time as it is
//     (the morning event is out), false and left out (default false) cover the whole day (000 §4.1.1): D's two events
//     go together, both in or both out, as the documents do not say which end of the day the bound takes; the
//     next day's event is in either way.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Exchange } from '../http/types.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { makeAll } from './filters.ts';
import { describeIds, emitterFor, judgeSet, oracleUnits, ownWord, readList, setMessage, unreadable, type Own } from './kit/oracle_kit.ts';
import { localDateTime, type CalendarResource } from './kit/resources.ts';

export const FILTER_DATES = 'filter_dates';
export const FILTER_STRICT_DATES = 'filter_strict_dates';

const DAY = 86_400_000;

interface Day {
  d: string;
  next: string;
  prev: string;
  own: Own[];
  word: string;
}

/** Three events of its own on a day about 400 days ahead (a day no other unit uses: it moves with the unit's word). */
async function threeEvents(env: UnitEnv, res: CalendarResource, unitId: string, dayBefore = false): Promise<Day | { failed: string; e?: Exchange }> {
  const word = ownWord(env.runId, unitId);
  const spread = parseInt(word.slice(3, 6), 36) % 200;
  const day = new Date(env.now().getTime() + (400 + spread) * DAY);
  const d = localDateTime(day).slice(0, 10);
  const next = localDateTime(new Date(day.getTime() + DAY)).slice(0, 10);
  const prev = localDateTime(new Date(day.getTime() - DAY)).slice(0, 10);
  const at = (date: string, from: string, to: string) => ({ start_date: `${date} ${from}`, end_date: `${date} ${to}` });
  const made = await makeAll(env, res, unitId, [
    { name: `dates ${word} morning ${unitId}`, extra: at(d, '09:00:00', '10:00:00') },
    { name: `dates ${word} afternoon ${unitId}`, extra: at(d, '14:00:00', '15:00:00') },
    { name: `dates ${word} next day ${unitId}`, extra: at(next, '09:00:00', '10:00:00') },
    ...(dayBefore ? [{ name: `dates ${word} day before ${unitId}`, extra: at(prev, '09:00:00', '10:00:00') }] : []),
  ]);
  if (made.failed) return { failed: made.failed, ...(made.e ? { e: made.e } : {}) };
  return { d, next, prev, own: made.own, word };
}

/** `unwanted`: the own records that must be left out (default: every own record not wanted). */
async function judgeBound(env: UnitEnv, res: CalendarResource, emit: ReturnType<typeof emitterFor>, variant: string, day: Day, query: Record<string, unknown>, wanted: number[], expected: string, unwanted?: number[]): Promise<void> {
  const got = await readList(env, res.list, { search: day.word.toLowerCase(), ...query });
  const shown = Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&');
  const u = unreadable(got, shown);
  if (u) return emit(variant, u.outcome, u.message, got.e);
  const ownIds = day.own.map((o) => o.id);
  const j = judgeSet(got.ids, wanted, (id) => (unwanted ? unwanted.includes(id) : ownIds.includes(id) && !wanted.includes(id)));
  const times = [`${day.d} 09:00-10:00`, `${day.d} 14:00-15:00`, `${day.next} 09:00-10:00`, ...(day.own.length > 3 ? [`${day.prev} 09:00-10:00`] : [])];
  const compared = `compared ${shown} on the suite's events ${day.own.map((o) => o.label).join(', ')} (${times.join(', ')})`;
  const bad = j.kept.length > 0 || j.dropped.length > 0;
  emit(variant, bad ? 'fail' : 'pass', bad ? `expected ${expected}; ${setMessage(compared, j, got, day.own)}` : compared, got.e);
}

async function datesOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const legacy = res.namespace === 'cal/events/v1';
  const emit = emitterFor(env, FILTER_DATES, res.list, 'documented');
  const variants = ['starts_after', 'starts_before', 'ends_after', 'ends_before', 'start_date', 'end_date'];
  const day = await threeEvents(env, res, unitId, legacy);
  if ('failed' in day) return variants.forEach((v) => emit(v, 'inconclusive', day.failed, day.e));
  const [morning, afternoon, next] = day.own as [Own, Own, Own];
  const noon = legacy ? `${day.d} 12:00:00` : `${day.d}T12:00:00`;
  const strict = legacy ? { strict_dates: true } : {};
  const later = [afternoon.id, next.id];
  // The day-before event (legacy only) starts and ends before the bound too.
  const earlier = [morning.id, ...(day.own[3] ? [day.own[3].id] : [])];
  const src = legacy ? '000 §4.1.1, with strict_dates=true' : '000 §4.2.1';
  const cases: [string, number[], string][] = [
    ['starts_after', later, `the events that start after ${noon} (${src})`],
    ['starts_before', earlier, `the events that start before ${noon} (${src})`],
    ['ends_after', later, `the events that end after ${noon} (${src})`],
    ['ends_before', earlier, `the events that end before ${noon} (${src})`],
    ...(legacy
      ? []
      : ([
          ['start_date', later, `the events starting after ${noon} (000 §4.2.1: start_date, "events starting after the date")`],
          ['end_date', [morning.id], `the events ending before ${noon} (000 §4.2.1: end_date, "events ending before the date")`],
        ] as [string, number[], string][])),
  ];
  for (const [param, wanted, expected] of cases) await judgeBound(env, res, emit, param, day, { [param]: noon, ...strict }, wanted, expected);
  if (!legacy) return;
  // Legacy start_date/end_date: "events that start / end on the date" (000 §4.1.1), with strict_dates false (the
  // default) covering the whole day. Read as "on that day" or as a bound from the day's start (the plugin's
  // reading), both keep the two events of D; both leave out the event of the day before (start_date) and the one of
  // the day after (end_date). Only what both readings agree on is judged.
  const before = day.own[3]!;
  await judgeBound(env, res, emit, 'start_date', day, { start_date: noon }, [morning.id, afternoon.id], `the events of ${day.d} and not the one that starts and ends the day before (000 §4.1.1: start_date, "events that start on the date", whole days)`, [before.id]);
  await judgeBound(env, res, emit, 'end_date', day, { end_date: noon }, [morning.id, afternoon.id], `the events of ${day.d} and not the one that starts and ends the day after (000 §4.1.1: end_date, "events that end on the date", whole days)`, [next.id]);
}

/**
 * strict_dates false with a bound inside a day: "dates cover whole days" (000 §4.1.1), and which end of the day a
 * "starts after" bound then takes the documents do not say. Either way the day's two events go together (both in from
 * its start, both out from its end) and the next day's is in: that is judged, nothing more.
 */
async function judgeWholeDay(env: UnitEnv, res: CalendarResource, emit: ReturnType<typeof emitterFor>, variant: string, day: Day, query: Record<string, unknown>, expected: string): Promise<void> {
  const got = await readList(env, res.list, { search: day.word.toLowerCase(), ...query });
  const shown = Object.entries(query).map(([k, v]) => `${k}=${String(v)}`).join('&');
  const u = unreadable(got, shown);
  if (u) return emit(variant, u.outcome, u.message, got.e);
  const [morning, afternoon, next] = day.own as [Own, Own, Own];
  const compared = `compared ${shown} on the suite's events ${day.own.map((o) => o.label).join(', ')} (${day.d} 09:00-10:00, ${day.d} 14:00-15:00, ${day.next} 09:00-10:00)`;
  const problems: string[] = [];
  if (got.ids.includes(morning.id) !== got.ids.includes(afternoon.id)) {
    const [inside, outside] = got.ids.includes(morning.id) ? [morning, afternoon] : [afternoon, morning];
    problems.push(`it kept ${inside.label} and left out ${outside.label}: the time was used as given, not the whole day`);
  }
  if (!got.ids.includes(next.id)) problems.push(`it left out ${next.label}, which starts after the whole day`);
  const listed = `got ${got.ids.length} record(s): ${describeIds(got.ids.slice(0, 12), got.records, day.own)}`;
  emit(variant, problems.length ? 'fail' : 'pass', problems.length ? `expected ${expected}; ${compared}: ${problems.join('; ')}; ${listed}` : `${compared}: the day's two events ${got.ids.includes(morning.id) ? 'both in (the bound taken from the start of the day)' : 'both out (the bound taken from the end of the day)'}, the next day's in`, got.e);
}

async function strictOracle(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const emit = emitterFor(env, FILTER_STRICT_DATES, res.list, 'documented');
  const day = await threeEvents(env, res, unitId);
  if ('failed' in day) return ['true', 'false', 'default'].forEach((v) => emit(v, 'inconclusive', day.failed, day.e));
  const all = day.own.map((o) => o.id);
  const noon = `${day.d} 12:00:00`;
  await judgeBound(env, res, emit, 'true', day, { starts_after: noon, strict_dates: true }, all.slice(1), `the time used as it is: the events that start after ${noon} (000 §4.1.1: strict_dates true)`);
  const whole = `the whole day of ${day.d}: its morning and afternoon events both in or both out (which end of the day the bound takes is not documented), the next day's event in (000 §4.1.1: "when false, dates cover whole days")`;
  await judgeWholeDay(env, res, emit, 'false', day, { starts_after: noon, strict_dates: false }, whole);
  await judgeWholeDay(env, res, emit, 'default', day, { starts_after: noon }, `what strict_dates=false answers (000 §4.1.1: default false): ${whole}`);
}

export function planDateFilters(contract: Contract): Unit[] {
  return [...oracleUnits(contract, FILTER_DATES, 'starts_after', datesOracle), ...oracleUnits(contract, FILTER_STRICT_DATES, 'strict_dates', strictOracle)];
}
