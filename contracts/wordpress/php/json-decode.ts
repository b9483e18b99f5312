// json_decode($body, true) as PHP 8.2 does it, error codes included (ext/json/json_scanner.re, json_parser.y).
import { utf8Decode, utf8DecodeStrict, utf8Encode } from '../bytes.ts';
import { utf8SeqLen } from './string-bytes.ts';

export interface JsonDecodeError {
  ok: false;
  /** json_last_error() */
  code: number;
  /** json_last_error_msg() */
  message: string;
}
type JsonDecodeResult = { ok: true; value: unknown } | JsonDecodeError;

export const PHP_JSON_ERRORS = {
  1: 'Maximum stack depth exceeded',
  2: 'State mismatch (invalid or malformed JSON)',
  3: 'Control character error, possibly incorrectly encoded',
  4: 'Syntax error',
  5: 'Malformed UTF-8 characters, possibly incorrectly encoded',
  10: 'Single unpaired UTF-16 surrogate in unicode escape',
} as const;
type JsonErrorCode = keyof typeof PHP_JSON_ERRORS;

class JsonFail {
  constructor(readonly code: JsonErrorCode) {}
}

/**
 * A recogniser that fails with the code PHP's json scanner/parser gives for the first problem in reading order
 * (ext/json/json_scanner.re): a raw control character or an unterminated string is 3, an unpaired `\uD8xx` is 10,
 * bad UTF-8 is 5, 512 nested arrays/objects is 1, everything else 4.
 */
function checkPhpJson(b: Uint8Array, maxDepth: number): void {
  let i = 0;
  const n = b.length;
  const ws = () => {
    while (i < n && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  };
  // What the scanner says about a byte that starts no valid token.
  const badTokenAt = (j: number): JsonFail => {
    const c = b[j]!;
    if (c < 0x20) return new JsonFail(3);
    if (c >= 0x80 && utf8SeqLen(b, j) === 0) return new JsonFail(5);
    return new JsonFail(4);
  };
  const expectEnd = (): never => {
    throw i >= n ? new JsonFail(4) : badTokenAt(i);
  };
  const literal = (word: string) => {
    for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) throw badTokenAt(i);
    i += word.length;
  };
  const hex4 = (j: number) => {
    for (let k = 0; k < 4; k++) {
      const c = b[j + k];
      if (c === undefined || !/[0-9A-Fa-f]/.test(String.fromCharCode(c))) return -1;
    }
    return parseInt(String.fromCharCode(b[j]!, b[j + 1]!, b[j + 2]!, b[j + 3]!), 16);
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= n) throw new JsonFail(3); // the scanner meets the terminating NUL, a control character
      const c = b[i]!;
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) throw new JsonFail(3);
      if (c === 0x5c) {
        const e = b[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(String.fromCharCode(e))) {
          i += 2;
          continue;
        }
        if (e === 0x75) {
          const u = hex4(i + 2);
          if (u < 0) throw new JsonFail(4);
          if (u >= 0xd800 && u <= 0xdbff) {
            const lo = b[i + 6] === 0x5c && b[i + 7] === 0x75 ? hex4(i + 8) : -1;
            if (lo >= 0xdc00 && lo <= 0xdfff) {
              i += 12;
              continue;
            }
            throw new JsonFail(10);
          }
          if (u >= 0xdc00 && u <= 0xdfff) throw new JsonFail(10);
          i += 6;
          continue;
        }
        throw new JsonFail(4);
      }
      const len = utf8SeqLen(b, i);
      if (len === 0) throw new JsonFail(5);
      i += len;
    }
  };
  const number = () => {
    const start = i;
    if (b[i] === 0x2d) i++;
    const digit = (j: number) => b[j] !== undefined && b[j]! >= 0x30 && b[j]! <= 0x39;
    if (!digit(i)) throw badTokenAt(start);
    if (b[i] === 0x30) i++;
    else while (digit(i)) i++;
    if (b[i] === 0x2e && digit(i + 1)) {
      i++;
      while (digit(i)) i++;
    }
    if ((b[i] === 0x65 || b[i] === 0x45) && (digit(i + 1) || ((b[i + 1] === 0x2b || b[i + 1] === 0x2d) && digit(i + 2)))) {
      i += 2;
      while (digit(i)) i++;
    }
  };
  const value = (depth: number): void => {
    ws();
    if (i >= n) throw new JsonFail(4);
    const c = b[i]!;
    if (c === 0x7b || c === 0x5b) {
      // PHP counts the container being opened: with the default 512, 511 nested arrays pass and 512 fail.
      if (depth + 1 >= maxDepth) throw new JsonFail(1);
      const close = c === 0x7b ? 0x7d : 0x5d;
      i++;
      ws();
      if (b[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === 0x7b) {
          ws();
          if (i >= n) throw new JsonFail(4);
          if (b[i] !== 0x22) throw badTokenAt(i);
          string();
          ws();
          if (i >= n) throw new JsonFail(4);
          if (b[i] !== 0x3a) throw badTokenAt(i);
          i++;
        }
        value(depth + 1);
        ws();
        if (i >= n) throw new JsonFail(4);
        if (b[i] === 0x2c) {
          i++;
          continue;
        }
        if (b[i] === close) {
          i++;
          return;
        }
        throw badTokenAt(i);
      }
    }
    if (c === 0x22) return string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return number();
    if (c === 0x74) return literal('true');
    if (c === 0x66) return literal('false');
    if (c === 0x6e) return literal('null');
    throw badTokenAt(i);
  };
  value(0);
  ws();
  if (i < n) expectEnd();
}

/**
 * json_decode($body, true) as PHP's own scanner decides it: the error code of the first problem, or the value.
 * The reference for phpJsonDecode()'s shortcut (exported for its test).
 */
export function decodeScanned(bytes: Uint8Array, maxDepth = 512): JsonDecodeResult {
  try {
    checkPhpJson(bytes, maxDepth);
  } catch (e) {
    if (e instanceof JsonFail) return { ok: false, code: e.code, message: PHP_JSON_ERRORS[e.code] };
    throw e;
  }
  return { ok: true, value: JSON.parse(utf8Decode(bytes)) };
}

/**
 * Whether `value` (as JSON.parse made it) nests containers at most `limit` deep. Walked without recursion, so a
 * hostile value 100,000 deep is measured, not a stack overflow; it visits each container once, which for a body of a
 * few long strings is a few nodes where scanning its text was megabytes (a 25-item batch at the 8 MiB cap).
 */
function nestedAtMost(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const d = depths.pop()!;
    if (d > limit) return false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') {
        stack.push(child);
        depths.push(d + 1);
      }
    }
  }
  return true;
}

/**
 * PHP json_decode($body, true) with its error codes. Values come back as plain JS (objects keep JS key order, where
 * PHP would keep integer-like keys in document order).
 *
 * JSON.parse() agrees with PHP's scanner on every text in valid UTF-8 without an escaped UTF-16 surrogate (PHP refuses
 * an unpaired one, error 10) and nested less deeply than PHP's limit (error 1): for those, what it accepts PHP accepts,
 * with the same value. Only a text it refuses, or one outside those bounds, needs the scanner for PHP's verdict
 * (`json.test.ts` compares the two on generated texts). `text`: the body's text when the caller has decoded it already
 * (strictly: only when the bytes are valid UTF-8), so that a body near the 8 MiB cap is not decoded twice.
 */
export function phpJsonDecode(body: string | Uint8Array, maxDepth = 512, text?: string): JsonDecodeResult {
  const bytes = typeof body === 'string' ? utf8Encode(body) : body;
  const decoded = text ?? utf8DecodeStrict(bytes);
  if (decoded !== undefined && !/\\u[dD][89a-fA-F]/.test(decoded)) {
    try {
      const value: unknown = JSON.parse(decoded);
      if (nestedAtMost(value, maxDepth - 1)) return { ok: true, value };
    } catch {
      // PHP's scanner says which error it is.
    }
  }
  return decodeScanned(bytes, maxDepth);
}
