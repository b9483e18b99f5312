// event_fields: the fields of an event that the calendar fills or relates itself, on events of the suite's own made in
// the legacy namespace and read through both (000 §1: the two namespaces expose the same data; §2.1, §2.5: the event's
// dates, its time zone, all_day, its venue and organizers). What a client cannot see from one field alone:
// - cross: the same event read through cal/events/v1 and cal/v1 shows the same start and end (wall clock and UTC),
//   time zone, all_day, featured, status, publication date (local and UTC) and modification date, venue and
//   organizers; a field one namespace does not show is left out, never guessed;
// - utc: each UTC edge is its wall clock in the event's own time zone (a zone other than the site's, with an offset);
// - details: the legacy `*_details` are the parts of the date beside them (The Events Calendar's shape: assumed);
// - links: the legacy event names the venue and both organizers it was created with;
// - nested: after the venue is renamed, the legacy event's nested venue shows the new name (no stale copy);
// - modified: an update sets the modification date to the time of the update (wp_update_post(): current_time()),
//   in both namespaces, though the event was published in 2021;
// - all_day: an event created all_day with times of day lasts its whole days: 00:00:00 to 23:59:59, duration 86399
//   (The Events Calendar's: assumed);
// - timezone: an event created without a time zone is in the site's (The Events Calendar's default: assumed).
// A field neither read shows leaves its variant inconclusive, never failed.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { isKnownTimeZone, zonedToUtc } from '../../../contracts/wordpress/time.ts';
import { ownRecordsUnit } from './kit/oracle_kit.ts';
import { calendarResources, localDateTime, type CalendarResource } from './kit/resources.ts';
import { create, emit, send, Verdict, word, type Sent } from './kit/steps.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { siteZone } from './write_read_back.ts';

export const EVENT_FIELDS = 'event_fields';

type Rec = Record<string, unknown>;
const q = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** An event's own zone, not the site's: an offset west of UTC, with summer time, so a zone ignored shows. */
const EVENT_ZONE = 'America/New_York';
/** A publication date long past, so that an update's modification date cannot equal it. */
const PUBLISHED = '2021-01-02 10:00:00';
const WALL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** `2021-01-02T10:00:00` (cal/v1, RFC 3339 without offset) and `2021-01-02 10:00:00` (legacy) read as one. */
const asWall = (v: unknown): unknown => (typeof v === 'string' ? v.replace('T', ' ').replace(/(\.\d+)?(Z|[+-]\d\d:?\d\d)?$/, '') : v);

/** The ids a legacy event's venue or organizer shows: whole objects (The Events Calendar), a list of them, or ids. */
function linkedIds(v: unknown): number[] | undefined {
  if (v === undefined || v === null || v === false) return undefined;
  const list = Array.isArray(v) ? v : [v];
  const ids = list.map((x) => (typeof x === 'number' ? x : isPlainObject(x) && typeof x['id'] === 'number' ? x['id'] : undefined));
  return ids.every((x): x is number => x !== undefined) ? ids : undefined;
}

const sameSet = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** The pairs of fields that hold the same stored value in the two namespaces: [legacy, cal/v1, how to read both]. */
const CROSS: readonly (readonly [string, string, (v: unknown) => unknown])[] = [
  ['start_date', 'start_date', asWall],
  ['end_date', 'end_date', asWall],
  ['utc_start_date', 'start_date_utc', asWall],
  ['utc_end_date', 'end_date_utc', asWall],
  ['timezone', 'timezone', (v) => v],
  ['all_day', 'all_day', (v) => v],
  ['featured', 'featured', (v) => v],
  ['status', 'status', (v) => v],
  ['date', 'date', asWall],
  ['date_utc', 'date_gmt', asWall],
  ['modified', 'modified', asWall],
  ['modified_utc', 'modified_gmt', asWall],
];

const FLOATING_GMT = '0000-00-00 00:00:00';

/** The differences between the legacy and the cal/v1 read of one event, over the fields both show. */
function crossDifferences(legacy: Rec, cal: Rec): { compared: string[]; differ: string[] } {
  const compared: string[] = [];
  const differ: string[] = [];
  for (const [l, c, norm] of CROSS) {
    if (!(l in legacy) || !(c in cal)) continue;
    // A draft's floating date is stored with post_date_gmt 0000-00-00 00:00:00 (wp_insert_post()): The Events Calendar
    // shows the stored field, core's posts controller shims it from post_date (prepare_item_for_response(), #38883).
    if (legacy[l] === FLOATING_GMT && c.endsWith('_gmt')) continue;
    compared.push(l);
    if (norm(legacy[l]) !== norm(cal[c])) differ.push(`${l} ${q(legacy[l])} in cal/events/v1 but ${c} ${q(cal[c])} in cal/v1`);
  }
  const lv = linkedIds(legacy['venue']);
  if (lv && Array.isArray(cal['venues'])) {
    compared.push('venue');
    if (!sameSet(lv, cal['venues'] as number[])) differ.push(`venue ${q(lv)} in cal/events/v1 but venues ${q(cal['venues'])} in cal/v1`);
  }
  const lo = linkedIds(legacy['organizer']);
  if (lo && Array.isArray(cal['organizers'])) {
    compared.push('organizer');
    if (!sameSet(lo, cal['organizers'] as number[])) differ.push(`organizer ${q(lo)} in cal/events/v1 but organizers ${q(cal['organizers'])} in cal/v1`);
  }
  return { compared, differ };
}

/** Each UTC edge a record shows against its wall clock in the record's zone; undefined when it shows no zone known. */
function utcDifferences(rec: Rec, pairs: readonly (readonly [string, string])[]): { compared: string[]; differ: string[] } | undefined {
  const tz = rec['timezone'];
  if (typeof tz !== 'string' || !isKnownTimeZone(tz)) return undefined;
  const compared: string[] = [];
  const differ: string[] = [];
  for (const [wall, utc] of pairs) {
    const w = asWall(rec[wall]);
    if (typeof w !== 'string' || !WALL.test(w) || !(utc in rec)) continue;
    compared.push(utc);
    const want = zonedToUtc(w, tz);
    if (asWall(rec[utc]) !== want) differ.push(`${utc} ${q(rec[utc])}, but ${wall} ${q(rec[wall])} in ${tz} is ${want} UTC`);
  }
  return { compared, differ };
}

/** The legacy `*_details` against the date beside them (The Events Calendar: year, month, day, hour, minutes, seconds). */
function detailsDifferences(rec: Rec): { compared: string[]; differ: string[] } {
  const compared: string[] = [];
  const differ: string[] = [];
  for (const field of ['start_date', 'end_date', 'utc_start_date', 'utc_end_date']) {
    const d = rec[`${field}_details`];
    const w = rec[field];
    if (!isPlainObject(d) || typeof w !== 'string' || !WALL.test(w)) continue;
    compared.push(`${field}_details`);
    const want: Rec = { year: w.slice(0, 4), month: w.slice(5, 7), day: w.slice(8, 10), hour: w.slice(11, 13), minutes: w.slice(14, 16), seconds: w.slice(17, 19) };
    const off = Object.keys(want).filter((k) => k in d && String(d[k]) !== want[k]);
    if (off.length) differ.push(`${field}_details ${off.map((k) => `${k} ${q(d[k])}`).join(', ')}, but ${field} is ${q(w)}`);
  }
  return { compared, differ };
}

const read = (env: UnitEnv, res: CalendarResource, id: number): Promise<Sent> => send(env, res.read, 'GET', id);

/** A verdict over both reads (the ones that succeeded), from a function giving the fields compared and those that differ. */
function judgeReads(v: Verdict, reads: readonly [string, Sent][], judge: (rec: Rec, where: string) => { compared: string[]; differ: string[] } | undefined, what: string): void {
  let compared = 0;
  for (const [where, s] of reads) {
    if (!s.body) continue;
    const j = judge(s.body, where);
    if (!j || j.compared.length === 0) continue;
    compared += j.compared.length;
    v.expect(j.differ.length === 0, s, `${where}: ${j.differ.join('; ')}`, `${where}: ${j.compared.join(', ')} ${what}`);
  }
  if (compared === 0 && !v.unjudged) v.unjudged = { outcome: 'inconclusive', message: `neither read shows the fields judged (${what})`, e: reads[0]![1].e };
}

interface Legacy {
  event: CalendarResource;
  venue: CalendarResource;
  organizer: CalendarResource;
}

async function eventFields(env: UnitEnv, legacy: Legacy, cal: CalendarResource, unitId: string): Promise<void> {
  const w = word(env, unitId, 0);
  const venue = await create(env, legacy.venue, `${unitId}:venue`, {}, `${env.marker} ef venue ${w}`);
  const orgA = await create(env, legacy.organizer, `${unitId}:organizer-a`, {}, `${env.marker} ef organizer a ${w}`);
  const orgB = await create(env, legacy.organizer, `${unitId}:organizer-b`, {}, `${env.marker} ef organizer b ${w}`);
  const day = localDateTime(new Date(env.now().getTime() + 45 * 86_400_000)).slice(0, 10);
  // One venue by its id: The Events Calendar reads a list as the data of a new venue.
  const links: Rec = { ...(venue.id ? { venue: venue.id } : {}), ...(orgA.id && orgB.id ? { organizer: [orgA.id, orgB.id] } : {}) };
  const made = await create(env, legacy.event, unitId, { start_date: `${day} 10:00:00`, end_date: `${day} 12:30:00`, timezone: EVENT_ZONE, date: PUBLISHED, status: 'publish', ...links }, `${env.marker} ef event ${w}`);
  // A draft: its status, read through both namespaces, is judged too (cross).
  const allDay = await create(env, legacy.event, `${unitId}:all-day`, { start_date: `${day} 10:00:00`, end_date: `${day} 12:00:00`, all_day: true, status: 'draft' }, `${env.marker} ef all day ${w}`);
  const first = made.id === undefined ? made : await read(env, legacy.event, made.id);
  const firstCal = made.id === undefined ? made : await read(env, cal, made.id);

  // utc and details on the first reads; cross after the update below (the modification date moves).
  {
    const v = new Verdict();
    if (v.needs(made, 'creating an event in cal/events/v1 with a time zone of its own')) {
      if (made.body['timezone'] !== undefined && made.body['timezone'] !== EVENT_ZONE) v.expect(false, made, `created with timezone ${q(EVENT_ZONE)}, it answers timezone ${q(made.body['timezone'])}`, '');
      judgeReads(v, [['cal/events/v1', first], ['cal/v1', firstCal]], (rec, where) => utcDifferences(rec, where === 'cal/v1' ? [['start_date', 'start_date_utc'], ['end_date', 'end_date_utc']] : [['start_date', 'utc_start_date'], ['end_date', 'utc_end_date']]), `in UTC as their wall clock in ${EVENT_ZONE}`);
    }
    emit(env, EVENT_FIELDS, legacy.event.read, 'utc', 'documented', v, `each UTC edge to be the event's wall clock in its own time zone (000 §2.5: start_date_utc, end_date_utc, timezone)`);
  }
  {
    const v = new Verdict();
    if (v.needs(first, 'reading the event through cal/events/v1')) judgeReads(v, [['cal/events/v1', first]], detailsDifferences, 'are the parts of their dates');
    emit(env, EVENT_FIELDS, legacy.event.read, 'details', 'assumed', v, "the legacy *_details to be the parts of the date beside them (The Events Calendar's event shape)");
  }
  {
    const v = new Verdict();
    if (v.needs(first, 'reading the event through cal/events/v1')) {
      if (!venue.id || !orgA.id || !orgB.id) v.unjudged = { outcome: 'inconclusive', message: 'a venue or an organizer of its own could not be made: nothing linked', e: (venue.id ? orgA.id ? orgB : orgA : venue).e };
      const lv = linkedIds(first.body['venue']);
      const lo = linkedIds(first.body['organizer']);
      if (lv === undefined && lo === undefined && !v.unjudged) v.unjudged = { outcome: 'inconclusive', message: 'the legacy read shows neither venue nor organizer', e: first.e };
      if (lv !== undefined) v.expect(sameSet(lv, [venue.id!]), first, `created with venue [${venue.id}], it reads venue ${q(lv)}`, `venue [${venue.id}] read back`);
      if (lo !== undefined) v.expect(sameSet(lo, [orgA.id!, orgB.id!]), first, `created with organizer [${orgA.id}, ${orgB.id}], it reads organizer ${q(lo)}`, `organizer [${orgA.id}, ${orgB.id}] read back`);
    }
    emit(env, EVENT_FIELDS, legacy.event.read, 'links', 'documented', v, 'the event to name the venue and every organizer it was created with (000 §2.1: venue, organizer)');
  }
  // The venue renamed, then the event updated: both reads again.
  const renamed = `${env.marker} ef venue renamed ${w}`;
  const rename = venue.id === undefined ? venue : await send(env, legacy.venue.update, legacy.venue.update.method as 'PATCH', venue.id, { body: { venue: renamed } });
  const before = Date.now();
  const updated = made.id === undefined ? made : await send(env, legacy.event.update, legacy.event.update.method as 'PATCH', made.id, { body: { title: `${env.marker} ef event updated ${w}` } });
  const after = made.id === undefined ? made : await read(env, legacy.event, made.id);
  const afterCal = made.id === undefined ? made : await read(env, cal, made.id);
  // The all-day draft, read once through each namespace: cross compares the two, allDayAndZone judges each.
  const allDayReads: AllDayReads = [allDay.id === undefined ? allDay : await read(env, legacy.event, allDay.id), allDay.id === undefined ? allDay : await read(env, cal, allDay.id)];
  {
    const v = new Verdict();
    if (v.needs(rename, 'renaming the venue through cal/events/v1') && v.needs(after, 'reading the event again')) {
      const nested = after.body['venue'];
      const name = isPlainObject(nested) ? nested['venue'] ?? nested['title'] : undefined;
      if (typeof name !== 'string') v.unjudged = { outcome: 'inconclusive', message: "the legacy event shows no nested venue with a name (a site may show ids only): nothing to compare", e: after.e };
      else v.expect(name.includes(`renamed ${w}`), after, `after the venue was renamed ${q(renamed)}, the event's nested venue still reads ${q(name)}`, 'the nested venue shows its new name');
    }
    emit(env, EVENT_FIELDS, legacy.event.read, 'nested', 'convention', v, 'a nested venue to show the venue as it is now (clean_post_cache() on its update)');
  }
  {
    const v = new Verdict();
    if (v.needs(updated, 'updating the event through cal/events/v1') && v.needs(after, 'reading the event again') && v.needs(afterCal, 'reading it through cal/v1')) {
      const reads: [string, Sent, string][] = [['cal/events/v1', after, 'modified_utc'], ['cal/v1', afterCal, 'modified_gmt']];
      let judged = 0;
      for (const [where, s, field] of reads) {
        const m = asWall(s.body?.[field]);
        if (typeof m !== 'string' || !WALL.test(m)) continue;
        judged++;
        // A day either way: the site's clock is not the suite's.
        const ms = Date.parse(`${m.replace(' ', 'T')}Z`);
        v.expect(Math.abs(ms - before) < 86_400_000, s, `${where}: ${field} ${q(s.body?.[field])} after an update made at ${new Date(before).toISOString()} (published ${PUBLISHED})`, `${where}: ${field} is the time of the update`);
      }
      if (judged === 0) v.unjudged = { outcome: 'inconclusive', message: 'neither read shows a modification date in UTC', e: after.e };
    }
    emit(env, EVENT_FIELDS, legacy.event.update, 'modified', 'convention', v, 'an update to set the modification date to its own time (wp_update_post(): post_modified_gmt is current_time())');
  }
  {
    const v = new Verdict();
    if (v.needs(after, 'reading the event through cal/events/v1') && v.needs(afterCal, 'reading it through cal/v1')) {
      const j = crossDifferences(after.body, afterCal.body);
      if (j.compared.length === 0) v.unjudged = { outcome: 'inconclusive', message: 'the two reads share none of the fields compared', e: afterCal.e };
      v.expect(j.differ.length === 0, afterCal, j.differ.join('; '), `${j.compared.join(', ')} the same in both namespaces`);
    }
    const [l, c] = allDayReads;
    if (allDay.id !== undefined && !v.unjudged && l.body && c.body) {
      const j = crossDifferences(l.body, c.body);
      v.expect(j.differ.length === 0, c, `the all-day event: ${j.differ.join('; ')}`, 'the all-day event the same in both');
    }
    emit(env, EVENT_FIELDS, cal.read, 'cross', 'documented', v, 'the same event to read the same through cal/events/v1 and cal/v1 (000 §1: the two namespaces expose the same data)');
  }
  allDayAndZone(env, legacy.event, allDay, allDayReads);
}

/** The all-day event's reads: through cal/events/v1, then cal/v1 (the create's answer where it made nothing). */
type AllDayReads = readonly [Sent, Sent];

/** The all-day event: its whole days, and (sent without a zone) the site's time zone. */
function allDayAndZone(env: UnitEnv, legacyEvents: CalendarResource, made: Sent, [l, c]: AllDayReads): void {
  const reads: [string, Sent][] = [['cal/events/v1', l], ['cal/v1', c]];
  {
    const v = new Verdict();
    if (v.needs(made, 'creating an all-day event in cal/events/v1') && v.needs(l, 'reading it')) {
      judgeReads(v, reads, (rec) => {
        const compared: string[] = [];
        const differ: string[] = [];
        if (rec['all_day'] !== true) return { compared: ['all_day'], differ: [`all_day ${q(rec['all_day'])}`] };
        for (const [field, time] of [['start_date', '00:00:00'], ['end_date', '23:59:59']] as const) {
          const w = asWall(rec[field]);
          if (typeof w !== 'string' || !WALL.test(w)) continue;
          compared.push(field);
          if (!w.endsWith(time)) differ.push(`${field} ${q(rec[field])}, not at ${time} of its day`);
        }
        if (typeof rec['duration'] === 'number') {
          compared.push('duration');
          if (rec['duration'] !== 86_399) differ.push(`duration ${rec['duration']}, not 86399`);
        }
        return { compared, differ };
      }, 'span the whole day');
    }
    // 000 §2.1 says the event lasts the whole day, not what its times then read: The Events Calendar's (saveEventMeta()), assumed.
    emit(env, EVENT_FIELDS, legacyEvents.create, 'all_day', 'assumed', v, "an all-day event to last its whole days, 00:00:00 to 23:59:59, whatever times were sent (000 §2.1: all_day; the times are The Events Calendar's)");
  }
  {
    const v = new Verdict();
    const zone = siteZone(env.descriptor.raw);
    if (zone === undefined) v.unjudged = { outcome: 'inconclusive', message: 'the descriptor names no time zone the suite knows', e: made.e };
    if (v.needs(made, 'creating an event in cal/events/v1 without a time zone') && v.needs(l, 'reading it')) {
      judgeReads(v, reads, (rec) => ('timezone' in rec ? { compared: ['timezone'], differ: rec['timezone'] === zone ? [] : [`timezone ${q(rec['timezone'])}, not the site's ${q(zone)}`] } : undefined), `is the site's zone ${q(zone)}`);
    }
    emit(env, EVENT_FIELDS, legacyEvents.create, 'timezone', 'assumed', v, "an event created without a time zone to be in the site's (The Events Calendar's default; the documents are silent)");
  }
}

/** One unit: events, venues and organizers of the legacy namespace, and cal/v1's event read. */
export function planEventFields(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  const of = (ns: string, r: string): CalendarResource | undefined => resources.find((x) => x.namespace === ns && x.resource === r);
  const event = of('cal/events/v1', 'event');
  const venue = of('cal/events/v1', 'venue');
  const organizer = of('cal/events/v1', 'organizer');
  const cal = of('cal/v1', 'event');
  if (!event || !venue || !organizer || !cal) return [];
  const id = `${EVENT_FIELDS}:cal/events/v1/event`;
  const ops = [event.create, event.read, event.update, venue.create, venue.update, organizer.create, cal.read];
  return [ownRecordsUnit({ id, check: EVENT_FIELDS, operations: ops, skip: { operation: event.read, variant: 'cross', severity: 'documented', doing: 'the check writes events, a venue and organizers of its own' } }, (env) => eventFields(env, { event, venue, organizer }, cal, id))];
}
