import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAjv, isTel } from '../ajv.ts';
import { CAL_DATE_TIME, CAL_LOCAL_DATE_TIME, calDateTime, email, localDateTime, notFormatArb, notPatternArb, patternArb, tel, uri } from './formats.ts';

const ajv = createAjv();
const ajvEmail = ajv.compile({ type: 'string', format: 'email' });
const ajvUri = ajv.compile({ type: 'string', format: 'uri' });

/** WordPress's is_email() (wp-includes/formatting.php), transcribed rule by rule. */
function wpIsEmail(e: string): boolean {
  if (e.length < 6 || e.indexOf('@', 1) === -1) return false;
  const at = e.indexOf('@');
  const local = e.slice(0, at);
  const domain = e.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local)) return false;
  if (/\.{2,}/.test(domain) || domain.replace(/^[\s.]+|[\s.]+$/g, '') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  return subs.every((s) => s.replace(/^[\s-]+|[\s-]+$/g, '') === s && !/[^a-z0-9-]/i.test(s));
}

describe('date-time builders', () => {
  it('give real calendar dates in the two forms of the contract', () => {
    const real = (s: string) => {
      const [y, m, d] = s.slice(0, 10).split('-').map(Number) as [number, number, number];
      const date = new Date(Date.UTC(y, m - 1, d));
      return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
    };
    fc.assert(fc.property(localDateTime, (s) => new RegExp(CAL_LOCAL_DATE_TIME).test(s) && real(s)));
    fc.assert(fc.property(calDateTime, (s) => new RegExp(CAL_DATE_TIME).test(s) && real(s)));
  });

  it('break the pattern in the ways people do: month 13, hour 24, slashes, cut short', () => {
    const misses = fc.sample(notPatternArb(CAL_LOCAL_DATE_TIME), { numRuns: 300, seed: 1 });
    for (const s of misses) expect(new RegExp(CAL_LOCAL_DATE_TIME).test(s)).toBe(false);
    expect(misses.some((s) => /^\d{4}-13-/.test(s))).toBe(true);
    expect(misses.some((s) => /^\d{4}\/\d{2}\/\d{2}/.test(s))).toBe(true);
  });
});

describe('formats', () => {
  it('email: valid to ajv-formats and to is_email(); the misses are invalid to both', () => {
    fc.assert(fc.property(email, (e) => ajvEmail(e) && wpIsEmail(e)));
    fc.assert(fc.property(notFormatArb('email')!, (e) => !ajvEmail(e) && !wpIsEmail(e)));
  });

  it('uri and tel: valid and invalid under the contract', () => {
    fc.assert(fc.property(uri, (u) => ajvUri(u)));
    fc.assert(fc.property(notFormatArb('uri')!, (u) => !ajvUri(u)));
    fc.assert(fc.property(tel, isTel));
    fc.assert(fc.property(notFormatArb('tel')!, (t) => !isTel(t)));
  });

  it('leaves unknown formats without a generator, so coverage reports them', () => {
    expect(notFormatArb('hostname')).toBeUndefined();
  });
});

describe('patterns', () => {
  const patterns = ['^[0-9]+$', '^[^/]+$', '^[A-Za-z0-9_-]+$', '^[0-9,]+$', '^[A-Za-z0-9_]+$', CAL_DATE_TIME, CAL_LOCAL_DATE_TIME];
  it.each(patterns)('%s: valid strings match, misses match neither in JavaScript nor in PCRE (trailing newline)', (p) => {
    const re = new RegExp(p, 'u');
    fc.assert(fc.property(patternArb(p), (s) => re.test(s) && !/^\.+$/.test(s)), { numRuns: 50 });
    fc.assert(fc.property(notPatternArb(p), (s) => !re.test(s) && !re.test(s.replace(/\n$/, ''))), { numRuns: 50 });
  });

  // A class of plain characters is generated from its characters, not through stringMatching: the strings reach every
  // character the pattern takes (among the first 0x250 code points, where every class of the contract lies) and no other.
  it.each(['^[0-9]+$', '^[A-Za-z0-9_-]+$', '^[0-9,]+$', '^[A-Za-z0-9_]+$', '^[-a-c]*$'])('%s: reaches every character of its class', (p) => {
    const re = new RegExp(p, 'u');
    const taken = new Set(Array.from({ length: 0x250 }, (_, c) => String.fromCodePoint(c)).filter((c) => re.test(c)));
    const seen = new Set(fc.sample(patternArb(p), { numRuns: 3000, seed: 7 }).flatMap((s) => [...s]));
    expect([...seen].sort()).toEqual([...taken].sort());
  });
});
