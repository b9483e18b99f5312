import { describe, expect, it } from 'vitest';
import { WP_VALIDATION_CASES } from './validate.cases.ts';
import { isWpError, restParseDate, toWpSchema, WP_VALIDATED_KEYWORDS, wpSanitizeValue, wpValidates, wpValidateValue, type JsonSchema } from './index.ts';
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

// What WordPress checks is asked of the walk itself: for every keyword wpValidates() names, a 2020-12 schema with it,
// converted as a site registers it, refuses a value breaking that keyword and takes one keeping it; for every
// validation keyword it leaves out, the walk takes a value breaking it.
describe('wpValidates(): the keywords the walk refuses values for, proven both ways', () => {
  const CHECKED: Record<string, [schema: JsonSchema, breaks: unknown, keeps: unknown]> = {
    type: [{ type: 'integer' }, 'abc', '5'],
    enum: [{ type: 'string', enum: ['a', 'b'] }, 'c', 'a'],
    const: [{ type: 'string', const: 'a' }, 'b', 'a'],
    multipleOf: [{ type: 'integer', multipleOf: 5 }, 7, 10],
    minimum: [{ type: 'integer', minimum: 1 }, 0, 1],
    maximum: [{ type: 'integer', maximum: 100 }, 101, 100],
    exclusiveMinimum: [{ type: 'number', exclusiveMinimum: 0 }, 0, 0.5],
    exclusiveMaximum: [{ type: 'number', exclusiveMaximum: 10 }, 10, 9.5],
    minLength: [{ type: 'string', minLength: 2 }, 'a', 'ab'],
    maxLength: [{ type: 'string', maxLength: 2 }, 'abc', 'ab'],
    pattern: [{ type: 'string', pattern: '^a+$' }, 'b', 'aa'],
    format: [{ type: 'string', format: 'email' }, 'nope', 'a@example.org'],
    minItems: [{ type: 'array', minItems: 2 }, ['a'], ['a', 'b']],
    maxItems: [{ type: 'array', maxItems: 1 }, ['a', 'b'], ['a']],
    uniqueItems: [{ type: 'array', uniqueItems: true }, ['a', 'a'], ['a', 'b']],
    minProperties: [{ type: 'object', minProperties: 1 }, {}, { a: 1 }],
    maxProperties: [{ type: 'object', maxProperties: 1 }, { a: 1, b: 2 }, { a: 1 }],
    required: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { b: 'x' }, { a: 'x' }],
    additionalProperties: [{ type: 'object', properties: { a: {} }, additionalProperties: false }, { b: 1 }, { a: 1 }],
    anyOf: [{ anyOf: [{ type: 'integer' }, { type: 'boolean' }] }, 'abc', '5'],
    oneOf: [{ oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^x' }] }, 'y', 'x'],
  };
  const IGNORED: Record<string, [schema: JsonSchema, breaks: unknown]> = {
    not: [{ type: 'string', not: { const: 'a' } }, 'a'],
    allOf: [{ type: 'string', allOf: [{ minLength: 3 }] }, 'a'],
    if: [{ type: 'string', if: { const: 'a' }, then: { const: 'b' } }, 'a'],
    dependentRequired: [{ type: 'object', dependentRequired: { a: ['b'] } }, { a: 1 }],
    dependentSchemas: [{ type: 'object', dependentSchemas: { a: { required: ['b'] } } }, { a: 1 }],
    propertyNames: [{ type: 'object', propertyNames: { pattern: '^a' } }, { b: 1 }],
    contains: [{ type: 'array', contains: { const: 'x' } }, ['a']],
    minContains: [{ type: 'array', contains: { const: 'x' }, minContains: 2 }, ['x']],
    prefixItems: [{ type: 'array', prefixItems: [{ type: 'integer' }] }, ['a']],
    unevaluatedProperties: [{ type: 'object', unevaluatedProperties: false }, { a: 1 }],
  };

  it('names exactly the keywords probed here as checked', () => {
    expect([...WP_VALIDATED_KEYWORDS].sort()).toEqual(Object.keys(CHECKED).sort());
  });
  for (const [keyword, [schema, breaks, keeps]] of Object.entries(CHECKED)) {
    it(`${keyword}: checked, and the walk refuses ${JSON.stringify(breaks)} and takes ${JSON.stringify(keeps)}`, () => {
      expect(wpValidates(keyword, schema.format)).toBe(true);
      expect(wpValidateValue(breaks, toWpSchema(schema), 'p')).not.toBeNull();
      expect(wpValidateValue(keeps, toWpSchema(schema), 'p')).toBeNull();
    });
  }
  for (const [keyword, [schema, breaks]] of Object.entries(IGNORED)) {
    it(`${keyword}: not checked, and the walk takes ${JSON.stringify(breaks)}`, () => {
      expect(wpValidates(keyword)).toBe(false);
      expect(wpValidateValue(breaks, toWpSchema(schema), 'p')).toBeNull();
    });
  }
  it('formats: the five WordPress checks (ipv4 and ipv6 as ip after conversion), no others', () => {
    for (const f of ['email', 'date-time', 'hex-color', 'ip', 'uuid', 'ipv4', 'ipv6']) expect(wpValidates('format', f), f).toBe(true);
    for (const f of ['uri', 'tel', 'double', 'date', 'hostname']) expect(wpValidates('format', f), f).toBe(false);
    expect(wpValidateValue('not a uri', toWpSchema({ type: 'string', format: 'uri' }), 'p')).toBeNull();
    expect(wpValidateValue('999.1.1.1', toWpSchema({ type: 'string', format: 'ipv4' }), 'p')).toMatchObject({ code: 'rest_invalid_ip' });
  });
});
