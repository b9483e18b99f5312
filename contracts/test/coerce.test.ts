import { describe, expect, it } from 'vitest';
import { coerceValue, wpParseList } from '../src/coerce.ts';

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
});
