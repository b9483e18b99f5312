// Reading the date parameters of the event lists. The legacy namespace leaves them untyped ("a date-time string",
// read by the plugin with strtotime()); cal/v1 types them as RFC 3339 with an optional offset. Both end up as a
// bound compared with an event's wall clock (no offset given) or its UTC time (an offset or `Z` given).
import { epochToWall, isDateTimeString } from '../../../../contracts/wordpress/time.ts';

export interface DateBound {
  /** `YYYY-MM-DD HH:MM:SS`. */
  value: string;
  /** True when the value is UTC (the input had `Z` or an offset); false when it is a wall clock. */
  utc: boolean;
  /** The input had no time of day. */
  dateOnly: boolean;
}

const FULL = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Midnight `days` after `day` (YYYY-MM-DD). A function, not a named closure made per call (mock/bench/README.md, tsx). */
function shiftDay(day: string, days: number): string {
  return epochToWall(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000);
}

/**
 * Parses what the plugin's strtotime() would accept in practice: a date, a date and time (`T` or space,
 * seconds optional), an optional `Z` or `±HH:MM` offset, and `now`, `today`, `tomorrow`, `yesterday`.
 * `nowWall` is the current wall clock of the site. Undefined when the text is not a date.
 */
export function parseDateParam(raw: unknown, nowWall: string): DateBound | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const text = String(raw).trim();
  const lower = text.toLowerCase();
  const day = nowWall.slice(0, 10);
  if (lower === 'now') return { value: nowWall, utc: false, dateOnly: false };
  if (lower === 'today') return { value: `${day} 00:00:00`, utc: false, dateOnly: true };
  if (lower === 'tomorrow') return { value: shiftDay(day, 1), utc: false, dateOnly: true };
  if (lower === 'yesterday') return { value: shiftDay(day, -1), utc: false, dateOnly: true };
  const m = FULL.exec(text);
  if (!m) return undefined;
  const [, date, hh, mm, ss, zone] = m;
  const wall = `${date} ${hh ?? '00'}:${mm ?? '00'}:${ss ?? '00'}`;
  if (!isDateTimeString(wall)) return undefined;
  if (!zone) return { value: wall, utc: false, dateOnly: hh === undefined };
  const offset = zone.toUpperCase() === 'Z' ? 0 : offsetMinutes(zone);
  const ms = Date.parse(`${wall.replace(' ', 'T')}Z`) - offset * 60_000;
  return { value: epochToWall(ms), utc: true, dateOnly: hh === undefined };
}

function offsetMinutes(zone: string): number {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
  const n = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -n : n;
}

/** strict_dates=false: a lower bound starts at the beginning of its day, an upper bound ends at its last second. */
export function widenToDay(b: DateBound, edge: 'lower' | 'upper'): DateBound {
  const day = b.value.slice(0, 10);
  return { ...b, value: edge === 'lower' ? `${day} 00:00:00` : `${day} 23:59:59` };
}
