// JSON parsing with a line and column for syntax errors.
//
// JSON.parse's messages changed between V8 versions and several no longer carry a position, so on
// failure a small scanner walks the text again to find where and why it stops being JSON.

import { internalizeKeysOneByte } from '../../../contracts/lib/one-byte-keys.ts';

interface JsonSyntaxProblem {
  line: number;
  column: number;
  offset: number;
  message: string;
}

type JsonParseResult = { ok: true; value: unknown } | { ok: false; problem: JsonSyntaxProblem };

export function parseJsonText(text: string): JsonParseResult {
  // A UTF-8 BOM is common in hand-edited files and harmless; JSON.parse rejects it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  internalizeKeysOneByte(body);
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    const shift = body === text ? 0 : 1;
    const { offset, message } = locateSyntaxError(body);
    return { ok: false, problem: { ...lineColumn(text, offset + shift), offset: offset + shift, message } };
  }
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class Stop extends Error {
  constructor(readonly offset: number, message: string) {
    super(message);
  }
}

/** Offset and reason of the first syntax error; only meaningful for text JSON.parse rejected. */
function locateSyntaxError(text: string): { offset: number; message: string } {
  let i = 0;
  const describe = (at: number) => (at >= text.length ? 'end of input' : JSON.stringify(text[at]));
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const expect = (what: string): never => {
    throw new Stop(i, `expected ${what}, found ${describe(i)}`);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else expect('a JSON value');
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) throw new Stop(i, 'unterminated string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) throw new Stop(i, 'control character in string (escape it as \\n, \\t, \\u00XX)');
      if (c === 92) {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else throw new Stop(i, 'invalid escape in string');
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' || m[0] === '') expect('a JSON value');
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') expect('a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') expect("':'");
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        expect("',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        expect("',' or ']'");
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c !== undefined && /[-0-9]/.test(c)) return number();
    expect('a JSON value');
  };
  try {
    value();
    ws();
    if (i < text.length) expect('end of input');
    // The scanner accepted what JSON.parse refused: report the parser's own verdict at the end.
    return { offset: text.length, message: 'invalid JSON' };
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, message: e.message };
    // Deep nesting overflows the scanner's stack the same way it overflowed JSON.parse's.
    return { offset: i, message: 'nesting too deep' };
  }
}
