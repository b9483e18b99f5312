// wp_json_encode() as WordPress sends it: PHP's json_encode() with its default flags.
import { isPlainObject } from '../plain-object.ts';
import { isAscii } from '../bytes.ts';
import { isPhpList, type PhpArray } from './arrays.ts';
import { phpJsonNumber } from './scalars.ts';
import { isWork, runNow, STEP_CHARS, type Work } from '../steps.ts';

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
    const parts: string[] = [];
    // Indexed, not map(): a hole in a sparse array prints null, as JSON.stringify prints it.
    for (let i = 0; i < list.length; i++) parts.push(nl + encodeValue(list[i], pretty, depth + 1));
    return '[' + parts.join(',') + end + ']';
  }
  if (!entries || entries.length === 0) return '{}';
  return '{' + entries.map(([k, x]) => nl + jsonString(k) + colon + encodeValue(x, pretty, depth + 1)).join(',') + end + '}';
}

/** json_encode() byte for byte, walking the value (the reference for wpJsonEncode()'s shortcut; exported for its test). */
export function encodeExact(value: unknown, pretty = false): string {
  return encodeValue(value, pretty, 0);
}

/** A number JSON.stringify prints as json_encode() does: PHP leaves fixed notation below 1e-4 and from 1e17. */
function printsAlike(n: number): boolean {
  if (Number.isSafeInteger(n)) return true;
  const a = Math.abs(n);
  return a >= 1e-4 && a < 1e17;
}

/**
 * Whether JSON.stringify() prints `v` as json_encode() would, `/` and non-ASCII escaping aside: plain JSON data
 * (no Map, which JSON.stringify prints as `{}`; no number printed otherwise; nothing JSON.stringify skips or throws on).
 */
function stringifiesAlike(v: unknown): boolean {
  switch (typeof v) {
    case 'number':
      return printsAlike(v);
    case 'string':
    case 'boolean':
    case 'undefined':
      return true;
    case 'object':
      if (v === null) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!stringifiesAlike(v[i])) return false;
        return true;
      }
      if (v instanceof Map || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
      for (const k in v) if (!stringifiesAlike((v as Record<string, unknown>)[k])) return false;
      return true;
    default:
      return false;
  }
}

/** `\uXXXX` for one UTF-16 code unit, lowercase hex as PHP prints it. */
function uEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * wp_json_encode() as WordPress sends it: PHP's default flags, so `/` is `\/` and every non-ASCII character is a
 * lowercase `\uXXXX` escape (astral ones as surrogate pairs), numbers as PHP prints them (`1.0e+25`, `1.0e-5`);
 * JSON_PRETTY_PRINT indents by four spaces. Arrays and Maps that are lists print as JSON arrays; a PHP-style empty
 * array must be passed as `[]`.
 *
 * Most answers are plain JSON data, for which JSON.stringify() plus PHP's escaping gives the same bytes several times
 * faster than the walk; a value it might print otherwise takes the walk (`json.test.ts` compares the two). This is
 * wpJsonEncodeSteps() run through: one encoder, whether or not a server pauses in it.
 */
export function wpJsonEncode(value: unknown, opts: { pretty?: boolean } = {}): string {
  return runNow(wpJsonEncodeSteps(value, opts));
}

/** Characters of a list's encoding between two pauses when wpJsonEncodeSteps() encodes a long list item by item. */
export const LIST_TURN_CHARS = 4 * STEP_CHARS;

/** Text escaped between two pauses when wpJsonEncodeSteps() escapes a long text's non-ASCII characters. */
export const ESCAPE_CHUNK = 16 * STEP_CHARS;

/**
 * wpJsonEncode() in steps, for a server that answers other clients between them; a short answer is its text, at once,
 * with no step at all. Two kinds of long answer pause:
 * - a list (an answer's top-level array, unpretty) is encoded item by item, with a pause whenever LIST_TURN_CHARS
 *   have been encoded since the last: a list of 100 events each embedding 500 organizers is 49 MB, and encoding it
 *   at once held every other client 3 s. A list's encoding is its items' joined, as the walk prints it.
 * - a value whose JSON.stringify() text is more than ESCAPE_CHUNK characters (a post near the 8 MiB body cap, twice:
 *   raw and rendered; such an item of a list too) has its non-ASCII characters and `/` escaped a chunk at a time,
 *   with a pause before each. Every UTF-16 unit is escaped on its own, so cutting between the two halves of a
 *   surrogate pair changes nothing.
 * The steps are generators declared once, here, and given their state (.ci/layers/per-call-classes.ts says why).
 * With `room`, a list encoded in steps takes room for its text as it grows (a server bounds the long answers it builds
 * at once): refused room, the encoding stops and ends in `undefined`.
 */
export function wpJsonEncodeSteps(value: unknown, opts?: { pretty?: boolean }): string | Work<string>;
export function wpJsonEncodeSteps(value: unknown, opts: { pretty?: boolean; room?: EncodeRoom }): string | Work<string | undefined>;
export function wpJsonEncodeSteps(value: unknown, opts: { pretty?: boolean; room?: EncodeRoom } = {}): string | Work<string | undefined> {
  if (opts.pretty) return encodeExact(value, true);
  // An array with a toJSON() of its own prints what that returns, which the walk handles.
  if (Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function') return encodeList(value, opts.room);
  return encodeItem(value);
}

/** Room for the text of a list encoded in steps: opened when the steps begin, closed (once) when they end. */
export interface EncodeRoom {
  open(): { grow(chars: number): boolean; close(): void };
}

/** One value, unpretty: at once, or in chunks of escaping when its text is long. */
function encodeItem(value: unknown): string | Work<string> {
  if (!stringifiesAlike(value)) return encodeExact(value);
  const s = JSON.stringify(value) as string | undefined;
  if (s === undefined) return 'null';
  if (s.length <= ESCAPE_CHUNK) return escapeChars(s);
  return escapeSteps(s);
}

function* escapeSteps(s: string): Work<string> {
  const chunks: string[] = [];
  for (let at = 0; at < s.length; at += ESCAPE_CHUNK) {
    yield;
    chunks.push(escapeChars(s.slice(at, at + ESCAPE_CHUNK)));
  }
  return chunks.join('');
}

/** The items up to LIST_TURN_CHARS at once; the rest, if any, in steps. */
function encodeList(list: readonly unknown[], room: EncodeRoom | undefined): string | Work<string | undefined> {
  const parts: string[] = [];
  let since = 0;
  for (let i = 0; i < list.length; i++) {
    if (since >= LIST_TURN_CHARS) return listSteps(list, i, parts, undefined, since, room);
    const e = encodeItem(list[i]);
    if (isWork(e)) return listSteps(list, i, parts, e, since, room);
    parts.push(e);
    since += e.length;
  }
  return `[${parts.join(',')}]`;
}

/**
 * The items of `list` from `from` on (`started`: item `from`'s steps, already begun; `built`: the characters of
 * `parts` so far), a pause first. Without room given, never `undefined`.
 */
function* listSteps(list: readonly unknown[], from: number, parts: string[], started: Work<string> | undefined, built: number, room: EncodeRoom | undefined): Work<string | undefined> {
  const lease = room?.open();
  try {
    if (lease && !lease.grow(built)) return undefined;
    let since = LIST_TURN_CHARS;
    for (let i = from; i < list.length; i++) {
      let e: string | Work<string>;
      if (i === from && started) e = started;
      else {
        if (since >= LIST_TURN_CHARS) {
          yield;
          since = 0;
        }
        e = encodeItem(list[i]);
      }
      const s = isWork(e) ? yield* e : e;
      if (lease && !lease.grow(s.length)) return undefined;
      parts.push(s);
      since += s.length;
    }
    return `[${parts.join(',')}]`;
  } finally {
    lease?.close();
  }
}

/**
 * What PHP escapes that JSON.stringify() does not: non-ASCII characters, one UTF-16 unit at a time, and `/`. Pure
 * ASCII exactly when every UTF-16 unit is one UTF-8 byte; encoding is several times faster than a regex scan, and done
 * before the `/` replacement, whose result V8 keeps as a cons string that encoding would flatten. (The two
 * replacements commute: neither produces what the other replaces; and both work per character, so a text escaped in
 * chunks is the text escaped whole.)
 */
function escapeChars(s: string): string {
  if (!isAscii(s)) s = s.replace(NON_ASCII, uEscape);
  return s.includes('/') ? s.replaceAll('/', '\\/') : s;
}

const NON_ASCII = /[\u0080-\uffff]/g;
