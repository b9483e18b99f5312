import { describe, expect, it } from 'vitest';
import { WP_VALIDATION_CASES } from './validate.cases.ts';
import { isWpError, restParseDate, wpSanitizeValue, wpValidateValue } from './validate.ts';
import { phpParseStr, phpToJs } from '../php/index.ts';

function plain(v: unknown): unknown {
  const x = phpToJs(v);
  if (Array.isArray(x)) return x.map(plain);
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, plain(y)]));
  return x;
}

describe('wpValidateValue / wpSanitizeValue agree with WordPress 6.1.9', () => {
  for (const [value, schema, param, expected] of WP_VALIDATION_CASES) {
    it(`${param} = ${JSON.stringify(value)?.slice(0, 60)} against ${JSON.stringify(schema).slice(0, 80)}`, () => {
      const e = wpValidateValue(value, schema, param);
      if (expected.valid) {
        expect(e).toBeNull();
        const s = wpSanitizeValue(value, schema, param);
        if (isWpError(s)) expect({ error: { code: s.code, message: s.message, data: s.data } }).toEqual(expected.sanitized);
        else expect(plain(s)).toEqual(expected.sanitized);
      } else {
        expect(e).toEqual(expected.error);
      }
    });
  }

  it('formats counts of 1000 and more with a thousands separator', () => {
    expect(wpValidateValue(Array.from({ length: 1001 }, (_, i) => i), { type: 'array', maxItems: 1000 }, 'a')).toEqual({
      code: 'rest_too_many_items',
      message: 'a must contain at most 1,000 items.',
      data: null,
    });
    expect(wpValidateValue('x'.repeat(1001), { type: 'string', maxLength: 1000 }, 's')).toEqual({
      code: 'rest_too_long',
      message: 's must be at most 1,000 characters long.',
      data: null,
    });
  });

  it('reproduces the samples: 11 (per_page=abc), 15 (status[]=bogus), 67 (include=1,abc), 74, 77, 80 (batch)', () => {
    expect(wpValidateValue('abc', { type: 'integer', minimum: 1, maximum: 100 }, 'per_page')).toEqual({
      code: 'rest_invalid_type',
      message: 'per_page is not of type integer.',
      data: { param: 'per_page' },
    });
    const q = phpParseStr('status[]=bogus&include=1,abc');
    const status = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit', 'request-pending', 'request-confirmed', 'request-failed', 'request-completed', 'any'];
    expect(wpValidateValue(q.get('status'), { type: 'array', items: { enum: status, type: 'string' } }, 'status')?.message).toBe(
      'status[0] is not one of publish, future, draft, pending, private, trash, auto-draft, inherit, request-pending, request-confirmed, request-failed, request-completed, and any.',
    );
    expect(wpValidateValue(q.get('include'), { type: 'array', items: { type: 'integer' } }, 'include')).toEqual({
      code: 'rest_invalid_type',
      message: 'include[1] is not of type integer.',
      data: { param: 'include[1]' },
    });
  });

  it('treats a PHP array with integer keys from the query string as a list', () => {
    const q = phpParseStr('a[5]=1&a[2]=x');
    expect(wpValidateValue(q.get('a'), { type: 'array', items: { type: 'integer' } }, 'a')?.message).toBe('a[1] is not of type integer.');
    expect(wpSanitizeValue(phpParseStr('a[5]=1&a[2]=2').get('a'), { type: 'array', items: { type: 'integer' } }, 'a')).toEqual([1, 2]);
  });

  it('reads dates like strtotime() does', () => {
    expect(restParseDate('2021-00-10T00:00:00')).toBe(true);
    expect(restParseDate('2021-01-32T00:00:00')).toBe(false);
    expect(restParseDate('2021-01-01T24:00:00')).toBe(true);
    expect(restParseDate('2021-01-01T23:59:60')).toBe(true);
    expect(restParseDate('2021-01-01T23:59:61')).toBe(false);
    expect(restParseDate('2021-01-01T00:00:00+25:00')).toBe(false);
    expect(restParseDate('2021-01-01T00:00:00+24:01')).toBe(true);
    expect(restParseDate('2021-01-01T00:00:00+99')).toBe(true);
    expect(restParseDate('1970-01-01T01:00:00+01:00')).toBe(false); // timestamp 0 is falsy in WordPress
    expect(restParseDate('2021-01-01t00:00:00')).toBe(true);
    expect(restParseDate('2021-01-01 00:00:00.123456789Z')).toBe(true);
  });
});
