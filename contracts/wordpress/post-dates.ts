// A post's date as the REST API writes and prints it (WordPress 6.1): rest_get_date_with_gmt() reads the `date` or
// `date_gmt` a client sends, wp_timezone_string() names the site's zone from its settings, mysql_to_rfc3339() prints.
import { epochToWall, utcToZoned, zonedToUtc, type DateTimeString } from './time.ts';
import { restParseDateTimestamp } from './schema/formats.ts';

/**
 * wp_timezone_string(): the site's `timezone_string`, or, when it has none, its `gmt_offset` (hours, fractions for
 * half and quarter hours) as a fixed offset, in the form time.ts converts with (`UTC+05:30`).
 */
export function wpTimezoneString(timezoneString: string | undefined, gmtOffset: number | undefined): string {
  if (timezoneString) return timezoneString;
  const offset = Number.isFinite(gmtOffset) ? gmtOffset! : 0;
  const hours = Math.trunc(offset);
  const minutes = Math.round(Math.abs(offset - hours) * 60);
  return `UTC${offset < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/**
 * rest_get_date_with_gmt( $date, $is_utc ): [site time, UTC] as `YYYY-MM-DD HH:MM:SS`, or undefined for a value
 * rest_parse_date() cannot read. A value with `Z` or an offset is that instant; without one it is site time (or UTC
 * when `isUtc`, for `date_gmt`). PHP's strtotime() rolls impossible days over (2031-02-30 is 2031-03-02).
 */
export function restGetDateWithGmt(date: string, isUtc: boolean, zone: string): [DateTimeString, DateTimeString] | undefined {
  const d = restDateInput(date, isUtc);
  if (!d) return undefined;
  return d.utc ? [utcToZoned(d.wall, zone), d.wall] : [d.wall, zonedToUtc(d.wall, zone)];
}

/**
 * The first half of rest_get_date_with_gmt(), which needs no time zone: the wall clock PHP's strtotime() makes of the
 * value (impossible days rolled over: 2031-02-30T10:00:00 is 2031-03-02 10:00:00), and whether it is UTC (a `Z` or an
 * offset, or `date_gmt` sent) or site time. Undefined for a value rest_parse_date() cannot read.
 */
export function restDateInput(date: string, isUtc: boolean): { wall: DateTimeString; utc: boolean } | undefined {
  const hasZone = /(Z|[+-]\d{2}(:\d{2})?)$/.test(date);
  const t = restParseDateTimestamp(date);
  if (t === false || t === 0) return undefined;
  return { wall: epochToWall(t * 1000), utc: isUtc || hasZone };
}

/** wp_insert_post(): a post published with a date at least a minute ahead of now is scheduled (`future`). */
const FUTURE_AHEAD_MS = 60_000;

/**
 * The status wp_insert_post() stores for `status` written with the UTC date `dateGmt` at `nowMs`: publish with a date
 * a minute or more ahead becomes future; future with a date less than a minute ahead becomes publish.
 */
export function statusByDate(status: string, dateGmt: DateTimeString, nowMs: number): string {
  if (status !== 'publish' && status !== 'future') return status;
  const ahead = Date.parse(`${dateGmt.replace(' ', 'T')}Z`) - nowMs >= FUTURE_AHEAD_MS;
  return ahead ? 'future' : 'publish';
}

/**
 * wp_update_post()'s floating date: a draft or pending post never given a date (post_date_gmt 0000-00-00 00:00:00)
 * is dated now by each update that sets no date; so is any post written with a null date (the posts controller
 * resets both). It stays floating while its new status is draft or pending.
 */
export function floatsAfterWrite(newStatus: string): boolean {
  return newStatus === 'draft' || newStatus === 'pending';
}

/**
 * The guid an update stores: wp_update_post() hands the stored guid to wp_insert_post(), whose pre_post_guid filters
 * run on it again. WordPress 6.1.9 (the CI calendar site) then reads an `&` back as `&#038;`, as esc_url() prints it,
 * and an already escaped one unchanged; a pretty permalink is unchanged.
 */
export function guidAfterUpdate(guid: string): string {
  return guid.replace(/&(?!#038;)/g, '&#038;');
}

/** mysql_to_rfc3339() as the posts controller prints a date: `YYYY-MM-DDTHH:MM:SS`, no offset. */
export function rfc3339(wall: DateTimeString): string {
  return wall.replace(' ', 'T');
}
