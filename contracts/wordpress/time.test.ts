import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addSeconds, isDateTimeString, isKnownTimeZone, lastSundayUtc, offsetMinutes, utcToZoned, wallToEpoch, zonedToUtc } from './time.ts';

describe('isDateTimeString', () => {
  it('accepts real date-times only', () => {
    expect(isDateTimeString('2026-11-01 19:30:00')).toBe(true);
    expect(isDateTimeString('2028-02-29 00:00:00')).toBe(true);
    for (const bad of ['2026-13-01 00:00:00', '2026-02-29 00:00:00', '2026-04-31 10:00:00', '2026-11-01 24:00:00', '2026-11-01T19:30:00', '2026-11-01', ' 2026-11-01 19:30:00']) {
      expect(isDateTimeString(bad), bad).toBe(false);
    }
  });
});

describe('zone conversion', () => {
  it('uses EU summer time for Kyiv and London', () => {
    expect(zonedToUtc('2026-07-01 12:00:00', 'Europe/Kyiv')).toBe('2026-07-01 09:00:00');
    expect(zonedToUtc('2026-12-01 12:00:00', 'Europe/Kyiv')).toBe('2026-12-01 10:00:00');
    expect(zonedToUtc('2026-07-01 12:00:00', 'Europe/London')).toBe('2026-07-01 11:00:00');
    expect(zonedToUtc('2026-12-01 12:00:00', 'Europe/London')).toBe('2026-12-01 12:00:00');
    expect(utcToZoned('2026-07-01 09:00:00', 'Europe/Kyiv')).toBe('2026-07-01 12:00:00');
  });

  it('finds the last Sunday of a month as a Date stepped back to Sunday does, for every year Date can hold', () => {
    const byDate = (year: number, month: number): number => {
      const last = new Date(Date.UTC(year, month, 0, 1));
      last.setUTCDate(last.getUTCDate() - last.getUTCDay());
      return last.getTime();
    };
    expect(new Date(lastSundayUtc(2026, 3)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(lastSundayUtc(2026, 10)).toISOString()).toBe('2026-10-25T01:00:00.000Z');
    // A month ending on a Sunday (2026-05-31) is its own last Sunday; years before 1970 count days below zero.
    expect(new Date(lastSundayUtc(2026, 5)).toISOString()).toBe('2026-05-31T01:00:00.000Z');
    expect(new Date(lastSundayUtc(1969, 3)).toISOString()).toBe('1969-03-30T01:00:00.000Z');
    fc.assert(
      fc.property(fc.integer({ min: -271_000, max: 275_000 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        expect(lastSundayUtc(year, month)).toBe(byDate(year, month));
      }),
      { numRuns: 5000 },
    );
    for (let year = 1900; year <= 2200; year++) for (const month of [3, 10]) expect(lastSundayUtc(year, month)).toBe(byDate(year, month));
  });

  it('switches at 01:00 UTC on the last Sundays of March and October', () => {
    // 2026-03-29 and 2026-10-25 are the last Sundays.
    expect(offsetMinutes('Europe/London', wallToEpoch('2026-03-29 00:59:59'))).toBe(0);
    expect(offsetMinutes('Europe/London', wallToEpoch('2026-03-29 01:00:00'))).toBe(60);
    expect(offsetMinutes('Europe/Kyiv', wallToEpoch('2026-10-25 00:59:59'))).toBe(180);
    expect(offsetMinutes('Europe/Kyiv', wallToEpoch('2026-10-25 01:00:00'))).toBe(120);
  });

  it('moves a time in the spring gap forward and takes the earlier of two autumn times', () => {
    expect(zonedToUtc('2026-03-29 01:30:00', 'Europe/London')).toBe('2026-03-29 01:30:00');
    expect(utcToZoned('2026-03-29 01:30:00', 'Europe/London')).toBe('2026-03-29 02:30:00');
    expect(zonedToUtc('2026-10-25 01:30:00', 'Europe/London')).toBe('2026-10-25 00:30:00');
  });

  it('round-trips every hour of a year', () => {
    for (const zone of ['Europe/Kyiv', 'Europe/London', 'America/New_York']) {
      for (let h = 0; h < 24 * 365; h += 7) {
        const utc = addSeconds('2026-01-01 00:00:00', h * 3600);
        expect(zonedToUtc(utcToZoned(utc, zone), zone), `${zone} ${utc}`).toBe(utc);
      }
    }
  });

  it('agrees with the runtime tz database for the rule-table zones in 2026', () => {
    for (let h = 0; h < 24 * 365; h += 5) {
      const utc = addSeconds('2026-01-01 00:00:00', h * 3600);
      const ms = wallToEpoch(utc);
      const intl = (zone: string) => {
        const p = Object.fromEntries(
          new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
            .formatToParts(new Date(ms)).map((x) => [x.type, x.value]),
        );
        return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
      };
      expect(utcToZoned(utc, 'Europe/London')).toBe(intl('Europe/London'));
    }
  });

  it('knows IANA names and WordPress manual offsets', () => {
    expect(isKnownTimeZone('Europe/Kyiv')).toBe(true);
    expect(isKnownTimeZone('Asia/Tokyo')).toBe(true);
    expect(isKnownTimeZone('UTC+2')).toBe(true);
    expect(zonedToUtc('2026-01-01 12:00:00', 'UTC-5:30')).toBe('2026-01-01 17:30:00');
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
  });

  it('rejects malformed input', () => {
    expect(() => zonedToUtc('2026-13-01 00:00:00', 'UTC')).toThrow(RangeError);
  });
});
