import { describe, expect, it } from 'vitest';
import { coerceValue, isNumericString, wpParseList } from '../lib/coerce.ts';
import { ID_LIST_SPELLINGS, PER_PAGE_SPELLINGS } from './php-numeric.cases.ts';

describe('WordPress wire coercion', () => {
  it.each([
    [{ type: 'integer' }, '5', 5],
    [{ type: 'integer' }, '5.0', 5],
    [{ type: 'integer' }, '5.5', '5.5'],
    [{ type: 'integer' }, 'abc', 'abc'],
    [{ type: 'integer' }, '', ''],
    [{ type: 'number' }, '1e3', 1000],
    [{ type: 'number' }, '-2.5', -2.5],
    [{ type: 'boolean' }, 'TRUE', true],
    [{ type: 'boolean' }, '0', false],
    [{ type: 'boolean' }, 1, true],
    [{ type: 'boolean' }, 'yes', 'yes'],
    [{ type: 'string' }, 5, 5],
    [{ type: 'object' }, '', {}],
    [{ type: 'array', items: { type: 'integer' } }, '1, 2,3', [1, 2, 3]],
    [{ type: 'array', items: { type: 'integer' } }, { 1: '4', 0: '3' }, [3, 4]],
    [{ type: 'array', items: { type: 'string' } }, 'a b', ['a', 'b']],
    [{ type: 'array' }, 7, ['7']],
    [{ type: 'array', items: { type: 'string' } }, 5, ['5']],
    [{ type: 'array', items: { type: 'integer' } }, 5, [5]],
    [{ type: 'array' }, false, []],
    [{ type: 'object' }, [1, 2], { 0: 1, 1: 2 }],
    [{ type: ['string', 'array'] }, 'a,b', 'a,b'],
    [{ type: ['array', 'string'] }, 'a,b', ['a', 'b']],
    [{ type: ['object', 'string'] }, '', ''],
    [{}, 'anything', 'anything'],
    [{ type: 'null' }, 'null', 'null'],
    [{ type: ['integer', 'string'] }, '5', 5],
    [{ type: ['string', 'integer'] }, '5', '5'],
    [{ type: 'object', properties: { n: { type: 'integer' } } }, { n: '3', x: '1' }, { n: 3, x: '1' }],
  ])('%j reads %j as %j', (schema, wire, typed) => {
    expect(coerceValue(schema, wire)).toEqual(typed);
  });

  it('splits lists like wp_parse_list', () => {
    expect(wpParseList(' a,,b  c ,')).toEqual(['a', 'b', 'c']);
  });

  it('splits on PHP whitespace (\\v, \\f included), not on U+00A0', () => {
    expect(wpParseList('1\v2\f3 4\t5\n6\r7')).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(wpParseList('1\u00a02')).toEqual(['1\u00a02']);
  });

  it.each(PER_PAGE_SPELLINGS)('per_page=%s reads as an integer exactly when WordPress answered 200 (it answered %i)', (raw, status) => {
    const wire = decodeURIComponent(raw.replace(/\+/g, ' '));
    expect(isNumericString(wire)).toBe(status === 200);
    expect(typeof coerceValue({ type: 'integer' }, wire) === 'number').toBe(status === 200);
  });

  it.each(ID_LIST_SPELLINGS)('categories=%s reads as a list of integers exactly when WordPress answered 200 (it answered %i)', (raw, status) => {
    const typed = coerceValue({ type: 'array', items: { type: 'integer' } }, decodeURIComponent(raw));
    expect(Array.isArray(typed) && typed.every((n) => typeof n === 'number')).toBe(status === 200);
  });
});
