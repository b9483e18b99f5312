import { describe, expect, it } from 'vitest';
import { ID_LIST_SPELLINGS, PER_PAGE_SPELLINGS } from '../php/php-numeric.cases.ts';
import { coerceValue, isNumericString, wpParseList } from './coerce.ts';

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

  // coerce.ts once stated these rules in JavaScript of its own; now the port's type tests decide, and where the two
  // disagreed WordPress 6.1.9 decided: GET /wp/v2/posts?page=1e400 is 200 (rest_is_integer() takes INF) and
  // ?per_page=1e400 is 400 rest_out_of_bounds; a key "05" is a string key to PHP, so {"05": …} is no list.
  it('reads what the validator port reads: INF is an integer beyond every bound, "05" keys are no list', () => {
    const inf = coerceValue({ type: 'integer' }, '1e400');
    expect(Number.isInteger(inf) && (inf as number) > 100).toBe(true);
    expect(coerceValue({ type: 'integer', minimum: 1 }, '-1e400')).toBe(-Number.MAX_VALUE);
    expect(coerceValue({ type: 'array', items: { type: 'string' } }, { '05': 'a' })).toEqual({ '05': 'a' });
    expect(coerceValue({ type: 'array', items: { type: 'string' } }, { '-1': 'a', 0: 'b' })).toEqual(['b', 'a']);
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
