import { describe, expect, it } from 'vitest';
import { lineColumn, parseJsonText } from './json-text.ts';

function problem(text: string) {
  const r = parseJsonText(text);
  if (r.ok) throw new Error('expected a syntax error');
  return r.problem;
}

describe('parseJsonText', () => {
  it('parses valid JSON, with or without a BOM', () => {
    expect(parseJsonText('{"a":[1,2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJsonText('\ufeff{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('points at a missing comma', () => {
    const p = problem('{\n  "a": 1\n  "b": 2\n}');
    expect(p).toMatchObject({ line: 3, column: 3 });
    expect(p.message).toMatch(/expected ',' or '}'/);
  });

  it('points at a trailing comma', () => {
    expect(problem('[1, 2,\n]')).toMatchObject({ line: 2, column: 1 });
  });

  it('points at an unquoted key, a single-quoted string, a comment', () => {
    expect(problem('{a: 1}')).toMatchObject({ line: 1, column: 2, message: expect.stringMatching(/property name/) });
    expect(problem("{\"a\": 'x'}")).toMatchObject({ line: 1, column: 7 });
    expect(problem('// c\n{}')).toMatchObject({ line: 1, column: 1 });
  });

  it('reports truncated files at their end', () => {
    const text = '{"events": [\n  {"id": 1},\n  {"id": 2';
    expect(problem(text)).toMatchObject({ line: 3, column: 11 });
    expect(problem('{"a": "unterminated')).toMatchObject({ message: 'unterminated string' });
  });

  it('flags raw control characters and bad escapes in strings', () => {
    expect(problem('{"a": "x\ty"}').message).toMatch(/control character/);
    expect(problem('{"a": "\\x"}').message).toMatch(/invalid escape/);
  });

  it('counts a BOM-prefixed file in the original text', () => {
    expect(problem('\ufeff{,}')).toMatchObject({ line: 1, column: 3 });
  });

  it('lineColumn is 1-based', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
