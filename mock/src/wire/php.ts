// PHP runtime behaviour that WordPress's REST wire format inherits without saying so: how PHP builds $_GET/$_POST,
// what (string) and json_encode() print, what is_numeric() accepts, how WordPress rebuilds query strings.
// Every rule here was checked against PHP 8.2 (the runtime of the reference WordPress 6.1.9), see php.test.ts.

import { utf8Decode, utf8Encode } from '../bytes.ts';

/** A PHP array key: numeric strings become integers, as zend_symtable does. */
export type PhpKey = string | number;
/** A PHP array as request parsing builds it. A Map keeps PHP's insertion order, which a JS object cannot for integer keys. */
export type PhpArray = Map<PhpKey, PhpInput>;
/** What $_GET / $_POST / parse_str() can hold: strings and nested arrays, nothing else. */
export type PhpInput = string | PhpArray;

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** The key PHP stores for a string key ("5" → 5, "05", "-0" and "5 " stay strings). */
export function phpArrayKey(key: string): PhpKey {
  if (!/^(0|-?[1-9][0-9]*)$/.test(key)) return key;
  const big = BigInt(key);
  if (big > INT64_MAX || big < INT64_MIN) return key;
  // Keys beyond 2^53 cannot be held exactly by a JS number; keeping them as strings is the least wrong.
  return Number.isSafeInteger(Number(key)) ? Number(key) : key;
}

function utf8Bytes(s: string): number[] {
  return [...utf8Encode(s)];
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

/** PHP urldecode(): `+` is a space, `%XX` a byte, a malformed escape is kept as-is. Invalid UTF-8 becomes U+FFFD. */
/** PHP trim(): spaces, tabs, newlines, carriage returns, NUL and vertical tabs (not JavaScript's Unicode spaces). */
export function phpTrim(s: string): string {
  return s.replace(/^[ \t\n\r\0\x0B]+|(?<![ \t\n\r\0\x0B])[ \t\n\r\0\x0B]+$/g, '');
}

export function phpUrlDecode(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '+') bytes.push(0x20);
    else if (c === '%' && isHex(s[i + 1]) && isHex(s[i + 2])) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      bytes.push(...utf8Bytes(String.fromCodePoint(cp)));
    }
  }
  return utf8Decode(Uint8Array.from(bytes));
}

/** PHP urlencode(): everything but `[A-Za-z0-9_.-]` is %XX (uppercase), space is `+` (so `~` is encoded, unlike rawurlencode). */
export function phpUrlEncode(s: string): string {
  let out = '';
  for (const b of utf8Encode(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9_.-]/.test(c)) out += c;
    else if (b === 0x20) out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function nextIndex(arr: PhpArray): number {
  // PHP 8.2 keeps nNextFreeElement = highest integer key ever inserted + 1 (negative keys included), 0 when none.
  let next: number | undefined;
  for (const k of arr.keys()) if (typeof k === 'number' && (next === undefined || k + 1 > next)) next = k + 1;
  return next ?? 0;
}

const PHP_SPACE = /^[ \t\n\r\v\f]$/;

/**
 * php_register_variable_ex(): store one decoded `name=value` pair the way PHP fills $_GET, $_POST and parse_str().
 * Mutates `result`, which only ever belongs to the phpParseStr() call building it.
 */
function registerVariable(result: PhpArray, rawName: string, value: string, maxNesting: number): void {
  let name = rawName;
  const nul = name.indexOf('\0');
  if (nul >= 0) name = name.slice(0, nul); // PHP treats the name as a C string
  name = name.replace(/^ +/, '');

  let base = '';
  let bracket = -1;
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '[') {
      bracket = i;
      break;
    }
    base += c === ' ' || c === '.' ? '_' : c;
  }
  if (base === '') return;
  if (bracket < 0) {
    result.set(phpArrayKey(base), value);
    return;
  }

  // Walk the [index] chain. `holder` is the array the current `index` lives in; null index = append ([]).
  let holder: PhpArray = result;
  let index: string | null = base;
  let ip = bracket;
  let level = 0;
  for (;;) {
    if (++level > maxNesting) {
      // PHP drops the whole top-level variable, even what earlier pairs stored under it.
      result.delete(phpArrayKey(base));
      return;
    }
    ip++;
    let idx: string | null;
    if (name[ip] === ']' || (PHP_SPACE.test(name[ip] ?? '') && name[ip + 1] === ']')) {
      if (name[ip] !== ']') ip++;
      idx = null;
    } else {
      const close = name.indexOf(']', ip);
      if (close < 0) {
        // Unterminated `[`: it becomes `_` and the rest of the name is mangled like a plain name.
        if (holder === result) {
          const rest = name.slice(ip).replace(/[ .[]/g, '_');
          result.set(phpArrayKey(`${index}_${rest}`), value);
        } else {
          setAt(holder, index, value);
        }
        return;
      }
      idx = name.slice(ip, close);
      ip = close;
    }
    // Find or create the array at holder[index].
    let child: PhpArray;
    if (index === null) {
      child = new Map();
      holder.set(nextIndex(holder), child);
    } else {
      const key = phpArrayKey(index);
      const existing = holder.get(key);
      if (existing instanceof Map) child = existing;
      else {
        child = new Map();
        holder.set(key, child);
      }
    }
    holder = child;
    index = idx;
    ip++;
    if (name[ip] !== '[') {
      setAt(holder, index, value);
      return;
    }
  }
}

function setAt(holder: PhpArray, index: string | null, value: PhpInput): void {
  if (index === null) holder.set(nextIndex(holder), value);
  else holder.set(phpArrayKey(index), value);
}

export interface ParseStrOptions {
  /** php.ini max_input_vars (default 1000): later pairs are ignored. */
  maxInputVars?: number;
  /** php.ini max_input_nesting_level (default 64). */
  maxNesting?: number;
}

/** PHP's parse_str() / $_GET / urlencoded $_POST: `&`-separated, brackets build arrays, the last plain key wins. */
export function phpParseStr(query: string, opts: ParseStrOptions = {}): PhpArray {
  const maxVars = opts.maxInputVars ?? 1000;
  const maxNesting = opts.maxNesting ?? 64;
  const out: PhpArray = new Map();
  let count = 0;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    if (++count > maxVars) break;
    const eq = pair.indexOf('=');
    const name = phpUrlDecode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : phpUrlDecode(pair.slice(eq + 1));
    registerVariable(out, name, value, maxNesting);
  }
  return out;
}

/**
 * $_POST of a `multipart/form-data` POST (PHP's rfc1867 handler): every part without a filename registers its field
 * name (brackets and all) as parse_str() would; file parts go to $_FILES, which the REST parameters never read.
 * `boundary` comes from the Content-Type; a body that does not follow it yields what was read so far.
 */
export function phpParseMultipart(body: string, boundary: string, opts: ParseStrOptions = {}): PhpArray {
  const maxVars = opts.maxInputVars ?? 1000;
  const maxNesting = opts.maxNesting ?? 64;
  const out: PhpArray = new Map();
  if (boundary === '') return out;
  const delimiter = `--${boundary}`;
  let count = 0;
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    let start = at + delimiter.length;
    if (body.startsWith('--', start)) break; // the closing delimiter
    if (body.startsWith('\r\n', start)) start += 2;
    else if (body[start] === '\n') start += 1;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const part = body.slice(start, next).replace(/\r?\n$/, '');
    at = next;
    const split = /\r?\n\r?\n/.exec(part);
    if (!split) continue;
    const head = part.slice(0, split.index);
    const value = part.slice(split.index + split[0].length);
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(head)?.[1] ?? null;
    if (disposition === null) continue;
    const param = (key: string) => new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(disposition);
    const name = param('name');
    if (!name || param('filename')) continue;
    if (++count > maxVars) break;
    registerVariable(out, (name[1] ?? name[2] ?? '').replace(/\\(.)/g, '$1'), value, maxNesting);
  }
  return out;
}

/** json_encode()'s list test: keys are exactly 0..n-1 in order. */
export function isPhpList(a: Map<PhpKey, unknown>): boolean {
  let i = 0;
  for (const k of a.keys()) if (k !== i++) return false;
  return true;
}

/** Plain JS view of a PHP value: lists become arrays, other arrays objects (integer-key order is then JS's, not PHP's). */
export function phpToJs(v: unknown): unknown {
  if (v instanceof Map) {
    if (isPhpList(v as PhpArray)) return [...v.values()].map(phpToJs);
    const o: Record<string, unknown> = {};
    for (const [k, val] of v) Object.defineProperty(o, String(k), { value: phpToJs(val), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

/** A JS value seen as a PHP array (JSON objects decode to arrays with numeric-string keys turned into integers). */
export function jsToPhpArray(v: unknown): Map<PhpKey, unknown> | null {
  if (v instanceof Map) return v as Map<PhpKey, unknown>;
  if (Array.isArray(v)) return new Map(v.map((x, i) => [i, x]));
  if (v !== null && typeof v === 'object') {
    const m = new Map<PhpKey, unknown>();
    for (const [k, val] of Object.entries(v)) m.set(phpArrayKey(k), val);
    return m;
  }
  return null;
}

export function isPhpArrayLike(v: unknown): boolean {
  return v instanceof Map || Array.isArray(v) || (v !== null && typeof v === 'object');
}

/** wp_is_numeric_array(): an array without string keys. */
export function isNumericArray(v: unknown): boolean {
  const m = jsToPhpArray(v);
  if (!m) return false;
  for (const k of m.keys()) if (typeof k === 'string') return false;
  return true;
}

export function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** Decimal digits and exponent of |n| rounded to `precision` significant digits (0 = shortest round-trip). */
function digitsOf(n: number, precision: number): { digits: string; decpt: number } {
  const exp = precision === 0 ? Math.abs(n).toExponential() : Math.abs(n).toExponential(precision - 1);
  const [mant, e] = exp.split('e') as [string, string];
  const digits = mant.replace('.', '').replace(/0+$/, '') || '0';
  return { digits, decpt: Number(e) + 1 };
}

/** zend_gcvt(): fixed notation unless the exponent is below -4 or beyond the precision; `1.0E+25` style otherwise. */
function gcvt(n: number, precision: number, ndigit: number, expChar: 'e' | 'E'): string {
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NAN' : n > 0 ? 'INF' : '-INF';
  const sign = n < 0 ? '-' : '';
  const { digits, decpt } = digitsOf(n, precision);
  if (decpt < 0 ? decpt < -3 : decpt > ndigit) {
    const e = decpt - 1;
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : `${digits}.0`;
    return `${sign}${mant}${expChar}${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (digits.length <= decpt) return sign + digits + '0'.repeat(decpt - digits.length);
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** PHP (string)$float with precision=14: `0.3`, `1.0E+25`, `100`. */
export function phpFloatToString(n: number): string {
  return gcvt(n, 14, 14, 'E');
}

/** How json_encode() prints a number (serialize_precision=-1): integers as digits, floats shortest, `1.0e+25`. */
export function phpJsonNumber(n: number): string {
  // A JS number cannot say whether PHP held an int or a float; safe integers print the same either way up to 1e17.
  if (Number.isSafeInteger(n)) return String(n);
  if (!Number.isFinite(n)) return '0'; // json_encode fails on INF/NAN (partial output 0)
  return gcvt(n, 0, 17, 'e');
}

/** PHP (string) cast of a scalar as WordPress's sprintf()/implode() see it. */
export function phpStringCast(v: unknown): string {
  if (v === true) return '1';
  if (v === false || v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isSafeInteger(v) ? String(v) : phpFloatToString(v);
  return String(v);
}

/** sprintf('%d', $n): the integer part (PHP casts floats toward zero). */
export function phpIntFormat(n: unknown): string {
  const x = typeof n === 'number' ? n : Number(n);
  if (!Number.isFinite(x)) return '0';
  return String(Math.trunc(x) || 0);
}

/** number_format_i18n() with the en_US locale: thousands separated by commas, no decimals. */
export function numberFormatI18n(n: number): string {
  const r = Math.round(Math.abs(n));
  return (n < 0 && r !== 0 ? '-' : '') + String(r).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** PHP 8 is_numeric(): ints, floats, and numeric strings with optional surrounding whitespace. */
export function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'string') return false;
  return /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(v);
}

/** (float) of a numeric value, as PHP compares numbers. */
export function phpToFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const m = /^[ \t\n\r\v\f]*([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)/.exec(v);
    return m ? Number(m[1]) : 0;
  }
  return 0;
}

/** wp_parse_list(): a string splits on commas and whitespace; an array keeps its scalar entries (and their keys). */
export function wpParseList(v: unknown): unknown[] | Map<PhpKey, unknown> {
  if (!isPhpArrayLike(v)) {
    return phpStringCast(v)
      .split(/[\s,]+/)
      .filter((s) => s !== '');
  }
  const m = jsToPhpArray(v)!;
  const out = new Map<PhpKey, unknown>();
  for (const [k, val] of m) if (isScalar(val)) out.set(k, val);
  return Array.isArray(v) ? [...out.values()] : out;
}

/** The `%l` list of wp_sprintf_l() in English: `a`, `a and b`, `a, b, and c`. */
export function wpSprintfList(items: readonly string[]): string {
  if (items.length === 0) return '';
  if (items.length === 1) return items[0]!;
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------------------------
// json_encode / json_decode

function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '/') out += '\\/';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c > 0x7f) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map);
}

function encodeValue(v: unknown, pretty: boolean, depth: number): string {
  if (v === null || v === undefined) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'number') return phpJsonNumber(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return jsonString(v);
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    return encodeValue((v as { toJSON: () => unknown }).toJSON(), pretty, depth);
  }
  const nl = pretty ? '\n' + '    '.repeat(depth + 1) : '';
  const end = pretty ? '\n' + '    '.repeat(depth) : '';
  const colon = pretty ? ': ' : ':';
  let entries: [string, unknown][] | null = null;
  let list: unknown[] | null = null;
  if (Array.isArray(v)) list = v;
  else if (v instanceof Map) {
    if (isPhpList(v as PhpArray)) list = [...v.values()];
    else entries = [...v].map(([k, x]) => [String(k), x]);
  } else if (isPlainObject(v)) entries = Object.entries(v).filter(([, x]) => x !== undefined);
  if (list) {
    if (list.length === 0) return '[]';
    return '[' + list.map((x) => nl + encodeValue(x, pretty, depth + 1)).join(',') + end + ']';
  }
  if (!entries || entries.length === 0) return '{}';
  return '{' + entries.map(([k, x]) => nl + jsonString(k) + colon + encodeValue(x, pretty, depth + 1)).join(',') + end + '}';
}

/**
 * wp_json_encode() as WordPress sends it: PHP's default flags, so `/` is `\/` and every non-ASCII character is a
 * lowercase `\uXXXX` escape (astral ones as surrogate pairs); JSON_PRETTY_PRINT indents by four spaces.
 * Arrays and Maps that are lists print as JSON arrays; a PHP-style empty array must be passed as `[]`.
 */
export function wpJsonEncode(value: unknown, opts: { pretty?: boolean } = {}): string {
  return encodeValue(value, opts.pretty ?? false, 0);
}

export interface JsonDecodeError {
  ok: false;
  /** json_last_error() */
  code: number;
  /** json_last_error_msg() */
  message: string;
}
export type JsonDecodeResult = { ok: true; value: unknown } | JsonDecodeError;

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

/** Length of a valid UTF-8 sequence starting at b[i], 0 when invalid (overlongs and surrogates included). */
function utf8SeqLen(b: Uint8Array, i: number): number {
  const c = b[i]!;
  const cont = (j: number) => b[j] !== undefined && (b[j]! & 0xc0) === 0x80;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const c1 = b[i + 1];
    if (c1 === undefined) return 0;
    if (c === 0xe0 && c1 < 0xa0) return 0;
    if (c === 0xed && c1 > 0x9f) return 0;
    return cont(i + 1) && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const c1 = b[i + 1];
    if (c1 === undefined) return 0;
    if (c === 0xf0 && c1 < 0x90) return 0;
    if (c === 0xf4 && c1 > 0x8f) return 0;
    return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
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
 * PHP json_decode($body, true) with its error codes. Values come back as plain JS (objects keep JS key order, where
 * PHP would keep integer-like keys in document order).
 */
export function phpJsonDecode(body: string | Uint8Array, maxDepth = 512): JsonDecodeResult {
  const bytes = typeof body === 'string' ? utf8Encode(body) : body;
  try {
    checkPhpJson(bytes, maxDepth);
  } catch (e) {
    if (e instanceof JsonFail) return { ok: false, code: e.code, message: PHP_JSON_ERRORS[e.code] };
    throw e;
  }
  return { ok: true, value: JSON.parse(utf8Decode(bytes)) };
}

// ---------------------------------------------------------------------------------------------------------------
// Query-string rebuilding (WordPress add_query_arg(), build_query(), urlencode_deep())

/** urlencode_deep(): urlencode() every scalar, recursively (true → "1", false/null → ""). */
export function urlencodeDeep(v: unknown): unknown {
  const m = isPhpArrayLike(v) ? jsToPhpArray(v) : null;
  if (m) {
    const out = new Map<PhpKey, unknown>();
    for (const [k, x] of m) out.set(k, urlencodeDeep(x));
    return out;
  }
  return phpUrlEncode(phpStringCast(v));
}

function phpEmpty(v: unknown): boolean {
  return v === '' || v === '0' || v === 0 || v === null || v === undefined || v === false;
}

/** WordPress _http_build_query($data, null, '&', '', false) as build_query() calls it: keys and values verbatim. */
export function wpBuildQuery(data: unknown, parentKey: PhpKey = ''): string {
  const m = jsToPhpArray(data);
  if (!m) return '';
  const parts: string[] = [];
  for (const [k0, v] of m) {
    let k = String(k0);
    if (!phpEmpty(parentKey)) k = `${parentKey}%5B${k}%5D`;
    if (v === null || v === undefined) continue;
    const val = v === false ? '0' : v;
    if (isPhpArrayLike(val)) parts.push(wpBuildQuery(val, k));
    else parts.push(`${k}=${phpStringCast(val)}`);
  }
  return parts.join('&');
}

/**
 * add_query_arg( $args, $url ): parse the URL's query with parse_str(), re-urlencode it, set the new args (in place
 * when the key exists), drop `false`, rebuild with build_query() and turn `k=` into `k`.
 * `args` values must already be what the caller would pass (WordPress passes urlencode_deep()'d params).
 */
export function addQueryArg(args: Map<PhpKey, unknown> | Record<string, unknown>, url: string): string {
  let uri = url;
  let frag = '';
  const hash = uri.indexOf('#');
  if (hash >= 0) {
    frag = uri.slice(hash);
    uri = uri.slice(0, hash);
  }
  let protocol = '';
  if (/^http:\/\//i.test(uri)) {
    protocol = uri.slice(0, 7);
    uri = uri.slice(7);
  } else if (/^https:\/\//i.test(uri)) {
    protocol = uri.slice(0, 8);
    uri = uri.slice(8);
  }
  let base: string;
  let query: string;
  const q = uri.indexOf('?');
  if (q >= 0) {
    base = uri.slice(0, q + 1);
    query = uri.slice(q + 1);
  } else if (protocol || !uri.includes('=')) {
    base = uri + '?';
    query = '';
  } else {
    base = '';
    query = uri;
  }
  const qs = urlencodeDeep(phpParseStr(query)) as Map<PhpKey, unknown>;
  const entries = args instanceof Map ? args : jsToPhpArray(args)!;
  for (const [k, v] of entries) qs.set(typeof k === 'string' ? phpArrayKey(k) : k, v);
  for (const [k, v] of qs) if (v === false) qs.delete(k);
  let ret = wpBuildQuery(qs);
  ret = ret.replace(/^\?+|(?<!\?)\?+$/g, '');
  ret = ret.replace(/=(&|$)/g, '$1');
  ret = protocol + base + ret + frag;
  ret = ret.replace(/(?<!\?)\?+$/, '');
  return ret.replaceAll('?#', '#');
}
