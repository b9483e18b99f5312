// Wall-clock <-> UTC conversion for `YYYY-MM-DD HH:MM:SS` strings.
//
// The zones the fixtures use follow a fixed EU rule table instead of the runtime's ICU data, so the
// committed fixtures do not shift when Node ships new tzdata (Ukraine has legislated dropping DST
// more than once). Any other zone goes through Intl, which is what a live server would do too.

/** `YYYY-MM-DD HH:MM:SS`, no zone: the wall clock of whatever zone the field's name says (WordPress's post_date form). */
export type DateTimeString = string;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

// Hand-rolled reading of the fixed layout: this runs several times per write, and the regex plus
// `slice().map(Number)` it replaces dominated the store's date handling. Same acceptance as DATE_TIME.
function digits(s: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

function parse(value: string): Parts | undefined {
  if (typeof value !== 'string') return DATE_TIME.test(String(value)) ? slowParse(String(value)) : undefined;
  if (value.length !== 19 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(10) !== 32 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return undefined;
  const y = digits(value, 0, 4);
  const mo = digits(value, 5, 2);
  const d = digits(value, 8, 2);
  const h = digits(value, 11, 2);
  const mi = digits(value, 14, 2);
  const s = digits(value, 17, 2);
  if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || s < 0) return undefined;
  return { y, mo, d, h, mi, s };
}

function slowParse(value: string): Parts | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  return { y, mo, d, h, mi, s };
}

/** True for a `YYYY-MM-DD HH:MM:SS` string naming a real calendar moment (no 2026-02-30, no 24:00:00). */
export function isDateTimeString(value: string): boolean {
  const p = parse(value);
  return p !== undefined && validParts(p);
}

function validParts(p: Parts): boolean {
  if (p.mo < 1 || p.mo > 12 || p.d < 1 || p.h > 23 || p.mi > 59 || p.s > 59) return false;
  return p.d <= daysInMonth(p.y, p.mo);
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days of a month as Date.UTC counts them (which reads years 0-99 as 1900-1999). */
function daysInMonth(y: number, mo: number): number {
  if (mo !== 2) return MONTH_DAYS[mo - 1]!;
  const year = y < 100 ? y + 1900 : y;
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}

/** Milliseconds since the epoch of the wall clock read as if it were UTC. */
export function wallToEpoch(value: DateTimeString): number {
  const p = parse(value);
  if (!p || !validParts(p)) throw new RangeError(`not a YYYY-MM-DD HH:MM:SS date-time: ${JSON.stringify(value)}`);
  return Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s);
}

/**
 * `YYYY-MM-DD HH:MM:SS` of a UTC instant. Built from char codes: a template literal would make a tree of V8 cons
 * strings (several objects per date), and these end up by the thousand in stored records.
 */
export function epochToWall(ms: number): DateTimeString {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (!(y >= 1000 && y <= 9999)) return slowEpochToWall(d);
  const mo = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  const h = d.getUTCHours();
  const mi = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  return String.fromCharCode(
    48 + Math.floor(y / 1000), 48 + (Math.floor(y / 100) % 10), 48 + (Math.floor(y / 10) % 10), 48 + (y % 10), 45,
    48 + Math.floor(mo / 10), 48 + (mo % 10), 45, 48 + Math.floor(day / 10), 48 + (day % 10), 32,
    48 + Math.floor(h / 10), 48 + (h % 10), 58, 48 + Math.floor(mi / 10), 48 + (mi % 10), 58, 48 + Math.floor(s / 10), 48 + (s % 10),
  );
}

function slowEpochToWall(d: Date): DateTimeString {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

export function dateToUtcString(date: Date): DateTimeString {
  return epochToWall(Math.floor(date.getTime() / 1000) * 1000);
}

/** Adds seconds to a wall-clock string, ignoring zones (wall-clock arithmetic). */
export function addSeconds(value: DateTimeString, seconds: number): DateTimeString {
  return epochToWall(wallToEpoch(value) + seconds * 1000);
}

const DAY_MS = 864e5;

// Last Sunday of a month (1-12), 01:00 UTC: when the EU switches. Counted in the epoch's days (UTC has no DST;
// 1970-01-01 was a Thursday, weekday 4): it runs twice per offset asked, several offsets per write, and a Date object
// per call stepped back with setUTCDate() was ~3 µs of every create. time.test.ts compares it with that reckoning.
export function lastSundayUtc(year: number, month: number): number {
  const last = Date.UTC(year, month, 0, 1);
  const weekday = (((Math.floor(last / DAY_MS) + 4) % 7) + 7) % 7;
  return last - weekday * DAY_MS;
}

function euDst(ms: number): boolean {
  const year = new Date(ms).getUTCFullYear();
  return ms >= lastSundayUtc(year, 3) && ms < lastSundayUtc(year, 10);
}

const RULES: Record<string, { std: number; dst: boolean }> = {
  'Europe/Kyiv': { std: 120, dst: true },
  'Europe/Kiev': { std: 120, dst: true },
  'Europe/London': { std: 0, dst: true },
  UTC: { std: 0, dst: false },
  'Etc/UTC': { std: 0, dst: false },
};

const MANUAL_OFFSET = /^UTC([+-])(\d{1,2})(?:[:.](\d{2}))?$/;

const intlCache = new Map<string, Intl.DateTimeFormat>();

function intlOffsetMinutes(zone: string, ms: number): number {
  let fmt = intlCache.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    intlCache.set(zone, fmt);
  }
  const parts: Record<string, number> = {};
  for (const p of fmt.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60000);
}

/** True when `zone` is a zone this module can convert (IANA name or WordPress manual offset `UTC+2`). */
export function isKnownTimeZone(zone: string): boolean {
  if (RULES[zone] || MANUAL_OFFSET.test(zone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Offset east of UTC, in minutes, in `zone` at the instant `ms`. */
export function offsetMinutes(zone: string, ms: number): number {
  const rule = RULES[zone];
  if (rule) return rule.std + (rule.dst && euDst(ms) ? 60 : 0);
  const manual = MANUAL_OFFSET.exec(zone);
  if (manual) {
    const minutes = Number(manual[2]) * 60 + Number(manual[3] ?? 0);
    return manual[1] === '-' ? -minutes : minutes;
  }
  return intlOffsetMinutes(zone, ms);
}

/**
 * Wall clock in `zone` -> UTC wall clock. A time skipped by a spring-forward gap moves forward by
 * the gap, and an ambiguous autumn time takes the earlier (summer-time) instant, as PHP's DateTime does.
 */
export function zonedToUtc(local: DateTimeString, zone: string): DateTimeString {
  const wall = wallToEpoch(local);
  const before = offsetMinutes(zone, wall - 36e5 * 3);
  const after = offsetMinutes(zone, wall + 36e5 * 3);
  // Try the larger offset first: it yields the earlier instant, which is the right pick for ambiguous times.
  for (const off of before >= after ? [before, after] : [after, before]) {
    const candidate = wall - off * 60000;
    if (offsetMinutes(zone, candidate) === off) return epochToWall(candidate);
  }
  // In a gap: neither offset reproduces the wall clock; the pre-transition offset pushes it forward.
  return epochToWall(wall - before * 60000);
}

export function utcToZoned(utc: DateTimeString, zone: string): DateTimeString {
  const ms = wallToEpoch(utc);
  return epochToWall(ms + offsetMinutes(zone, ms) * 60000);
}
