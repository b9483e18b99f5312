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
  const hasZone = /(Z|[+-]\d{2}(:\d{2})?)$/.test(date);
  const t = restParseDateTimestamp(date);
  if (t === false || t === 0) return undefined;
  const wall = epochToWall(t * 1000);
  if (!isUtc && !hasZone) return [wall, zonedToUtc(wall, zone)];
  return [utcToZoned(wall, zone), wall];
}

/** mysql_to_rfc3339() as the posts controller prints a date: `YYYY-MM-DDTHH:MM:SS`, no offset. */
export function rfc3339(wall: DateTimeString): string {
  return wall.replace(' ', 'T');
}
