// WallClock keeps the last second's conversion: a memo beside dateToUtcString()/utcToZoned(). Proven the same as
// converting every time, on generated sequences of moments (repeated seconds, sub-second steps, going back) and
// zone changes between calls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateToUtcString, utcToZoned } from '../../../contracts/wordpress/time.ts';
import { WallClock } from './post-rules.ts';

const ZONES = ['UTC', 'Europe/Kyiv', 'Europe/London', 'UTC+2', 'UTC-5:30', 'America/New_York'];

describe('WallClock', () => {
  it('answers every call as the canonical conversion does, whatever came before', () => {
    const moment = fc.oneof(
      fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) }),
      // Around the EU switches of 2026 (29 March, 25 October, 01:00 UTC), a millisecond at a time.
      fc.integer({ min: Date.UTC(2026, 2, 29, 0, 59, 58), max: Date.UTC(2026, 2, 29, 1, 0, 2) }),
      fc.integer({ min: Date.UTC(2026, 9, 25, 0, 59, 58), max: Date.UTC(2026, 9, 25, 1, 0, 2) }),
    );
    const call = fc.record({ ms: moment, zone: fc.constantFrom(...ZONES), again: fc.integer({ min: 0, max: 999 }) });
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 30 }), (calls) => {
        const clock = new WallClock();
        for (const { ms, zone, again } of calls) {
          for (const at of [ms, Math.floor(ms / 1000) * 1000 + again]) {
            const gmt = dateToUtcString(new Date(Math.floor(at / 1000) * 1000));
            const { site, gmt: got } = clock.at(new Date(at), zone);
            expect({ site, gmt: got }).toEqual({ site: utcToZoned(gmt, zone), gmt });
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
