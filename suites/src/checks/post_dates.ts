// post_dates: what a write does to a post's dates, status and guid (issue 25 §2, the server-filled fields). On
// records of its own (cal/v1 venues: core's posts controller) the suite predicts each date from what it sent, the
// site's time zone (the descriptor's timezone_string / gmt_offset, as wp_timezone_string() reads them) and the
// site's clock, bounded by the answers' Date headers (never the suite's own clock: skew is real):
// - a new post's modified is its date, even one in the past (wp_insert_post());
// - an update sets modified to the time of the update and leaves date as it was;
// - a date is read by rest_get_date_with_gmt(): an impossible day rolls over (2031-02-30 is 2031-03-02), an offset
//   is the same instant in the site's zone and in UTC, date_gmt alone sets the same instant;
// - publish with a date a minute ahead is stored future, future with a past date publish (documented);
// - a draft never given a date floats: each update re-dates it to now; one given a date keeps it; date: null
//   resets it to now (rest_validate_null_value_from_schema() takes the null, it is not stored as text);
// - dates print as YYYY-MM-DDTHH:MM:SS, date_gmt the same instant as date;
// - the guid is the permalink the post had when created (a URL on the target: the create answer's link), and an
//   update stores it again through pre_post_guid (& reads back &#038;, contracts/wordpress/post-dates.ts), whatever
//   the slug becomes.
// The legacy namespace is The Events Calendar's own controller (no guid, its own date fields): not judged here.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { guidAfterUpdate, restGetDateWithGmt, rfc3339 } from '../../../contracts/wordpress/post-dates.ts';
import { epochToWall, utcToZoned } from '../../../contracts/wordpress/time.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import { emitterFor, makeOwn, ownRecordsUnit, ownWord } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, header, transportOutcome } from './kit/wp.ts';
import { at, siteZone } from './write_read_back.ts';

export const POST_DATES = 'post_dates';

type Rec = Record<string, unknown>;

/** How far the site's clock may sit outside the Date headers that frame a write (their one-second resolution, a proxy). */
const SKEW_S = 2;
/** The shape prepare_date_response() prints (mysql_to_rfc3339() without an offset). */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;
const DATE_FIELDS = ['date', 'date_gmt', 'modified', 'modified_gmt'] as const;

/** The server's clock of an answer (its Date header), in ms; undefined without one. */
function serverTime(e: Exchange | undefined): number | undefined {
  const d = header(e?.response, 'date');
  const t = d === undefined ? NaN : Date.parse(d);
  return Number.isFinite(t) ? t : undefined;
}

/** A printed UTC date (`YYYY-MM-DDTHH:MM:SS`) in ms. */
const utcMs = (s: string): number => Date.parse(`${s}Z`);

/** What one step expects of the record it reads: each field's value, or a test with what it means. */
interface Want {
  path: string;
  value?: unknown;
  test?: (v: unknown) => boolean;
  means?: string;
}

/** The fields that are not as wanted, each with what was read. */
function wrongFields(rec: Rec, wants: readonly Want[]): string[] {
  const out: string[] = [];
  for (const w of wants) {
    const got = at(rec, w.path);
    const okay = w.test ? w.test(got) : got === w.value;
    if (!okay) out.push(`${w.path}: expected ${w.test ? w.means : JSON.stringify(w.value)}, read ${JSON.stringify(got)}`);
  }
  return out;
}

/** The record of an answer (200 or 201), or undefined. */
function recordOf(e: Exchange): Rec | undefined {
  const s = e.response?.status;
  if (s !== 200 && s !== 201) return undefined;
  const b = jsonBody(e.response);
  return isPlainObject(b) ? b : undefined;
}

/** date and date_gmt for a value sent as `date` (or `date_gmt` when isUtc), printed as the controller prints them. */
function predictedDates(sent: string, isUtc: boolean, zone: string): { date: string; date_gmt: string } | undefined {
  const d = restGetDateWithGmt(sent, isUtc, zone);
  return d ? { date: rfc3339(d[0]), date_gmt: rfc3339(d[1]) } : undefined;
}

/** Every date field printed as YYYY-MM-DDTHH:MM:SS (the instants are gmtMatches()'s). */
function shapeWants(): Want[] {
  return DATE_FIELDS.map((f) => ({ path: f, test: (v: unknown) => typeof v === 'string' && RFC3339.test(v), means: 'YYYY-MM-DDTHH:MM:SS (prepare_date_response())' }));
}

/** `gmt` is `site` read in `zone`: the check on a record whose dates the suite did not choose. */
function gmtMatches(rec: Rec, zone: string): string[] {
  const out: string[] = [];
  for (const [site, gmt] of [['date', 'date_gmt'], ['modified', 'modified_gmt']] as const) {
    const s = rec[site];
    const g = rec[gmt];
    if (typeof s !== 'string' || typeof g !== 'string' || !RFC3339.test(g)) continue;
    const want = rfc3339(utcToZoned(g.replace('T', ' '), zone));
    if (want !== s) out.push(`${site}: expected ${JSON.stringify(want)} (${gmt} ${JSON.stringify(g)} in the site's zone ${zone}), read ${JSON.stringify(s)}`);
  }
  return out;
}

/** modified_gmt within the Date headers that frame the write (from `before`'s to `after`'s), the site's skew aside. */
function modifiedWant(before: Exchange | undefined, after: Exchange): Want | undefined {
  const from = serverTime(before);
  const to = serverTime(after);
  if (from === undefined || to === undefined) return undefined;
  const lo = Math.floor(from / 1000) * 1000 - SKEW_S * 1000;
  const hi = Math.floor(to / 1000) * 1000 + SKEW_S * 1000;
  return {
    path: 'modified_gmt',
    means: `the time of the write: between ${epochToWall(lo)} and ${epochToWall(hi)} UTC (the Date headers around it, ${SKEW_S} s either side)`,
    test: (v) => typeof v === 'string' && RFC3339.test(v) && utcMs(v) >= lo && utcMs(v) <= hi,
  };
}

type Emit = ReturnType<typeof emitterFor>;

/** One step: judges the record `e` answers (or `read` reads) against `wants`. */
function judge(emit: Emit, variant: string, what: string, e: Exchange, wants: readonly Want[], zone: string | undefined, severity: Severity): Rec | undefined {
  const t = transportOutcome(e);
  if (t) return void emit(variant, t.outcome, t.message, e, severity);
  const rec = recordOf(e);
  if (!rec) {
    const s = e.response?.status;
    // A refusal of a valid write is this check's failure: WordPress takes each value the suite sends here.
    const outcome = s !== undefined && s >= 400 && s < 500 ? 'fail' : 'inconclusive';
    return void emit(variant, outcome, `${what}: answered ${describeAnswer(e.response)}, where WordPress answers the record`, e, severity);
  }
  const wrong = [...wrongFields(rec, wants), ...(zone ? gmtMatches(rec, zone) : [])];
  if (wrong.length) emit(variant, 'fail', `${what}: ${wrong.join('; ')}`, e, severity);
  else emit(variant, 'pass', `${what}: ${wants.length} field(s) as WordPress writes them`, e, severity);
  return rec;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Waits until `ms` have passed since `since` (the suite's clock: only the interval matters, not the time). */
async function waitSince(env: UnitEnv, since: number, ms: number): Promise<void> {
  const left = since + ms - env.now().getTime();
  if (left <= 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, left);
    env.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

async function run(env: UnitEnv, res: CalendarResource, unitId: string): Promise<void> {
  const emit = emitterFor(env, POST_DATES, res.update, 'convention');
  const zone = siteZone(env.descriptor.raw);
  const word = ownWord(env.runId, unitId);
  const update = (id: number, body: Rec): Promise<Exchange> =>
    env.send({ method: res.update.method, route: fillTemplate(res.update.path, { id }), query: { context: 'edit' }, body: { kind: 'json', value: body }, intent: 'write' }, res.update);
  const read = (id: number): Promise<Exchange> => env.send({ method: 'GET', route: fillTemplate(res.read.path, { id }), query: { context: 'edit' } }, res.read);
  const noZone = 'the descriptor names no time zone the suite knows (timezone_string / gmt_offset), so no date can be predicted';
  const skip = (variants: readonly string[], why: string, e?: Exchange, outcome: 'inconclusive' | 'skip' = 'inconclusive'): void => variants.forEach((v) => emit(v, outcome, why, e));

  // A floating draft first: its update comes last, a second or more later, so a date that did not float shows.
  const floating = await makeOwn(env, res, unitId, `dates float ${word}`, { status: 'draft' });
  const floatingAt = env.now().getTime();

  // A: published, dated in the past.
  const SENT = '2020-01-02T10:00:00';
  const a = await makeOwn(env, res, unitId, `dates ${word}`, { status: 'publish', date: SENT });
  const aVariants = ['create', 'guid', 'update:modified', 'update:guid', 'date:normalized', 'date:offset', 'date:gmt-alone', 'date:shape'];
  if (!a.own) skip(aVariants, `creating a record of its own answered ${describeAnswer(a.exchange.response)}: nothing to judge`, a.exchange);
  else if (!zone) skip(aVariants, noZone, a.exchange);
  else {
    const id = a.own.id;
    const p = predictedDates(SENT, false, zone)!;
    // wp_insert_post(): a new post's modified is its date (a past one too); the status stays publish.
    judge(emit, 'create', `record ${id} created with date ${SENT}`, a.exchange, [
      { path: 'date', value: p.date }, { path: 'date_gmt', value: p.date_gmt }, { path: 'modified', value: p.date }, { path: 'modified_gmt', value: p.date_gmt }, { path: 'status', value: 'publish' },
    ], zone, 'convention');
    const got = await read(id);
    const rec = recordOf(got);
    const link = rec ? str(rec['link']) : undefined;
    // wp_insert_post() fills the guid with get_permalink() as it is just after the insert: the link the record shows.
    judge(emit, 'guid', `record ${id}'s guid read by id (context=edit)`, got, link === undefined ? [{ path: 'link', test: (v) => typeof v === 'string', means: 'a URL' }] : [
      { path: 'guid.raw', value: link }, { path: 'guid.rendered', value: link },
    ], zone, 'convention');
    const guid = rec ? str(at(rec, 'guid.raw')) : undefined;
    // An update: modified is its time, date unchanged; the guid stored again (pre_post_guid), whatever the slug.
    const moved = await update(id, { slug: `${word.toLowerCase()}-moved` });
    const m = modifiedWant(got, moved);
    judge(emit, 'update:modified', `record ${id} after an update of its slug`, moved, [
      { path: 'date', value: p.date }, { path: 'date_gmt', value: p.date_gmt },
      ...(m ? [m] : [{ path: 'modified_gmt', test: (v: unknown) => typeof v === 'string' && v !== p.date_gmt, means: `a time after the create (not ${p.date_gmt}); the answers carry no Date header to bound it` }]),
    ], zone, 'convention');
    if (guid === undefined) emit('update:guid', 'inconclusive', `record ${id} showed no guid.raw before the update: nothing to compare`, got);
    else judge(emit, 'update:guid', `record ${id}'s guid after an update of its slug`, moved, [{ path: 'guid.raw', value: guidAfterUpdate(guid) }, { path: 'guid.rendered', value: guidAfterUpdate(guid) }], zone, 'convention');
    // rest_get_date_with_gmt(): strtotime() rolls 30 February over; a date a minute or more ahead schedules the post.
    const NORMALIZED = '2031-02-30T10:00:00';
    const n = predictedDates(NORMALIZED, false, zone)!;
    judge(emit, 'date:normalized', `record ${id} updated with date ${NORMALIZED}`, await update(id, { date: NORMALIZED }), [
      { path: 'date', value: n.date }, { path: 'date_gmt', value: n.date_gmt }, { path: 'status', value: 'future' },
    ], zone, 'documented');
    // An offset no site is likely to be in (Kathmandu's): a site in that zone would read the same wall clock either way.
    const OFFSET = '2031-01-02T10:00:00+05:45';
    const o = predictedDates(OFFSET, false, zone)!;
    judge(emit, 'date:offset', `record ${id} updated with date ${OFFSET}`, await update(id, { date: OFFSET }), [
      { path: 'date', value: o.date }, { path: 'date_gmt', value: o.date_gmt },
    ], zone, 'documented');
    const GMT = '2031-01-03T10:00:00';
    const g = predictedDates(GMT, true, zone)!;
    await update(id, { date_gmt: GMT });
    const last = await read(id);
    judge(emit, 'date:gmt-alone', `record ${id} updated with date_gmt ${GMT} alone, then read by id`, last, [
      { path: 'date', value: g.date }, { path: 'date_gmt', value: g.date_gmt }, { path: 'status', value: 'future' },
    ], zone, 'documented');
    judge(emit, 'date:shape', `record ${id} read by id`, last, shapeWants(), zone, 'convention');
  }

  // B: scheduled for a date already past: wp_insert_post() publishes it.
  const b = await makeOwn(env, res, unitId, `dates past ${word}`, { status: 'future', date: SENT });
  if (!b.own) emit('future:past', 'inconclusive', `creating a record of its own answered ${describeAnswer(b.exchange.response)}: nothing to judge`, b.exchange, 'documented');
  else judge(emit, 'future:past', `record ${b.own.id} created with status future and date ${SENT}`, b.exchange, [{ path: 'status', value: 'publish' }], zone, 'documented');

  // D: a draft given a date keeps it through an update; date: null then dates it now.
  const DRAFT_DATE = '2021-01-02T10:00:00';
  const d = await makeOwn(env, res, unitId, `dates draft ${word}`, { status: 'draft', date: DRAFT_DATE });
  if (!d.own) skip(['draft:kept', 'draft:guid', 'date:null'], `creating a draft of its own answered ${describeAnswer(d.exchange.response)}: nothing to judge`, d.exchange);
  else if (!zone) skip(['draft:kept', 'draft:guid', 'date:null'], noZone, d.exchange);
  else {
    const id = d.own.id;
    const p = predictedDates(DRAFT_DATE, false, zone)!;
    const kept = await update(id, { [res.nameField]: `${env.marker} dates draft ${word} 2` });
    judge(emit, 'draft:kept', `draft ${id} (created with date ${DRAFT_DATE}) after an update of its title`, kept, [{ path: 'date', value: p.date }, { path: 'date_gmt', value: p.date_gmt }, { path: 'status', value: 'draft' }], zone, 'convention');
    // A draft's guid is its plain permalink (?post_type=…&p=<id>), the link it was created with; the update stores
    // it again through pre_post_guid, so its & reads back &#038;.
    const made = recordOf(d.exchange);
    const link = made ? str(made['link']) : undefined;
    if (link === undefined) emit('draft:guid', 'inconclusive', `draft ${id}'s create answer shows no link: nothing to compare its guid with`, d.exchange);
    else judge(emit, 'draft:guid', `draft ${id}'s guid (created as its link ${link}) after an update of its title`, kept, [{ path: 'guid.raw', value: guidAfterUpdate(link) }, { path: 'guid.rendered', value: guidAfterUpdate(link) }], zone, 'convention');
    const nulled = await update(id, { date: null });
    const m = modifiedWant(kept, nulled);
    const rec = recordOf(nulled);
    judge(emit, 'date:null', `draft ${id} updated with {"date": null}`, nulled, [
      { path: 'status', value: 'draft' },
      { path: 'date', value: rec ? rec['modified'] : undefined, means: 'the time of the update (its modified): a null date resets the draft to now' },
      ...(m ? [{ ...m, path: 'date_gmt' }] : []),
    ], zone, 'convention');
  }

  // C: the floating draft, a second or more after its creation: each update dates it now.
  if (!floating.own) emit('draft:floats', 'inconclusive', `creating a draft of its own answered ${describeAnswer(floating.exchange.response)}: nothing to judge`, floating.exchange);
  else {
    const id = floating.own.id;
    const before = recordOf(floating.exchange);
    const was = before ? str(before['date_gmt']) : undefined;
    await waitSince(env, floatingAt, 1100);
    const later = await update(id, { [res.nameField]: `${env.marker} dates float ${word} 2` });
    const m = modifiedWant(floating.exchange, later);
    const rec = recordOf(later);
    judge(emit, 'draft:floats', `draft ${id} (created without a date${was ? ` at ${was} UTC` : ''}) updated a second or more later`, later, [
      { path: 'status', value: 'draft' },
      { path: 'date', value: rec ? rec['modified'] : undefined, means: 'the time of the update (its modified): a draft never given a date follows the clock' },
      ...(was ? [{ path: 'date_gmt', test: (v: unknown) => typeof v === 'string' && RFC3339.test(v) && utcMs(v) > utcMs(was), means: `later than ${was} (its date at creation)` }] : []),
      ...(m ? [{ ...m, path: 'date_gmt' }] : []),
    ], zone, 'convention');
  }
}

/** One unit: cal/v1's venues (core's posts controller), the resource the rows name. */
export function planPostDates(contract: Contract): Unit[] {
  const res = calendarResources(contract).find((r) => r.namespace === 'cal/v1' && r.resource === 'venue');
  if (!res) return [];
  const id = `${POST_DATES}:${res.namespace}/${res.resource}`;
  const ops: Operation[] = [res.create, res.read, res.update];
  return [ownRecordsUnit({ id, check: POST_DATES, operations: ops, skip: { operation: res.update, variant: 'create', severity: 'convention', doing: 'the check writes records of its own' } }, (env) => run(env, res, id))];
}
