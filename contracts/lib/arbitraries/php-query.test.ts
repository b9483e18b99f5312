import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WireValue } from './model.ts';
import { encodePhpQuery, parsePhpQuery } from './php-query.ts';

/** What PHP hands back for a value: lists become maps with numeric keys, as PHP arrays are. */
function phpShape(v: WireValue): WireValue {
  if (Array.isArray(v)) return Object.fromEntries(v.map((x, i) => [String(i), phpShape(x)]));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, phpShape(x)]));
  return v;
}

const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,6}$/);
const nested: fc.Arbitrary<WireValue> = fc.letrec<{ v: WireValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.array(tie('v'), { minLength: 1, maxLength: 3 }),
    fc.dictionary(word, tie('v'), { minKeys: 1, maxKeys: 3, noNullPrototype: true }),
  ),
})).v;

describe('PHP bracket encoding', () => {
  it('writes lists of strings with [] and anything deeper with indices', () => {
    expect(encodePhpQuery({ a: '1', b: ['2', '3'], c: [{ m: 'POST' }], d: { k: 'v w' } })).toBe('a=1&b[]=2&b[]=3&c[0][m]=POST&d[k]=v%20w');
  });

  it('encodes what PHP would read as syntax: + & = # and non-ASCII', () => {
    expect(encodePhpQuery({ q: '+1&x=2#3 Київ' })).toBe('q=%2B1%26x%3D2%233%20%D0%9A%D0%B8%D1%97%D0%B2');
  });

  it('reads pairs the way parse_str() does', () => {
    expect(parsePhpQuery('a=1&a=2')).toEqual({ a: '2' });
    expect(parsePhpQuery('a[]=1&a[]=2')).toEqual({ a: { 0: '1', 1: '2' } });
    expect(parsePhpQuery('r[0][method]=POST&r[0][path]=%2Fx')).toEqual({ r: { 0: { method: 'POST', path: '/x' } } });
    expect(parsePhpQuery('q=a+b%2Bc')).toEqual({ q: 'a b+c' });
    expect(parsePhpQuery('my.name=1&my name=2&flag')).toEqual({ my_name: '2', flag: '' });
    expect(parsePhpQuery('a=1&a[]=2')).toEqual({ a: { 0: '2' } });
  });

  it('round-trips any nesting of strings, lists and maps', () => {
    fc.assert(
      fc.property(fc.dictionary(word, nested, { maxKeys: 4, noNullPrototype: true }), (params) => {
        expect(parsePhpQuery(encodePhpQuery(params))).toEqual(phpShape(params));
      }),
    );
  });
});
