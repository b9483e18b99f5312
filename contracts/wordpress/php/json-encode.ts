// wp_json_encode() as WordPress sends it: PHP's json_encode() with its default flags.
import { isPlainObject } from '../plain-object.ts';
import { isAscii, utf8Decode } from '../bytes.ts';
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
export const ESCAPE_CHUNK = 4 * STEP_CHARS;

/**
 * wpJsonEncode() in steps, for a server that answers other clients between them; a short answer is its text, at once,
 * with no step at all. Long answers pause:
 * - a list (an answer's top-level array, pretty or not) is encoded item by item, with a pause whenever LIST_TURN_CHARS
 *   have been encoded since the last: a list of 100 events each embedding 500 organizers is 49 MB, and encoding it
 *   at once held every other client 3 s. A list's encoding is its items' joined, as the walk prints it.
 * - with `room` given, a top-level object holding such a list (an `_envelope` around it) is encoded value by value,
 *   and its lists item by item, the same way: without it, `?_embed&_envelope` built the 49 MB at once.
 * - a value whose JSON.stringify() text is more than ESCAPE_CHUNK characters (a post near the 8 MiB body cap, twice:
 *   raw and rendered; such an item of a list too) has its non-ASCII characters and `/` escaped a chunk at a time,
 *   with a pause before each. Every UTF-16 unit is escaped on its own, so cutting between the two halves of a
 *   surrogate pair changes nothing.
 * With `room`, an answer encoded in steps takes room for its text as it grows (a server bounds the long answers it
 * builds at once): refused room, the encoding stops and ends in `undefined`. The steps are generators declared once,
 * here, and given their state (.ci/layers/per-call-classes.ts says why).
 */
export function wpJsonEncodeSteps(value: unknown, opts?: { pretty?: boolean }): string | Work<string>;
export function wpJsonEncodeSteps(value: unknown, opts: { pretty?: boolean; room?: EncodeRoom }): string | undefined | Work<string | undefined>;
export function wpJsonEncodeSteps(value: unknown, opts: { pretty?: boolean; room?: EncodeRoom } = {}): string | undefined | Work<string | undefined> {
  const pretty = opts.pretty === true;
  if (isPlainList(value) || (opts.room !== undefined && holdsList(value))) return startSteps(containerSteps(value, pretty, opts.room));
  return pretty ? encodeExact(value, true) : encodeItem(value);
}

/** Room for the text of an answer encoded in steps: opened at its first pause, closed (once) when it ends. */
export interface EncodeRoom {
  open(): { grow(chars: number): boolean; close(): void };
}

/** An array printed as its items (one with a toJSON() of its own prints what that returns, which the walk handles). */
function isPlainList(v: unknown): v is readonly unknown[] {
  return Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** A plain object one of whose values is a list: worth encoding value by value. */
function holdsList(v: unknown): v is Readonly<Record<string, unknown>> {
  if (!isPlainObject(v) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  for (const k of Object.keys(v)) if (isPlainList(v[k]) && (v[k] as unknown[]).length > 0) return true;
  return false;
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

/** Steps run at once up to their first pause: the text then, if they never paused; the rest of the steps otherwise. */
function startSteps<T>(steps: Work<T>): T | Work<T> {
  const r = steps.next();
  return r.done ? r.value : resumeSteps(steps);
}

function* resumeSteps<T>(steps: Work<T>): Work<T> {
  // The pause the steps took when they were started.
  yield;
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    yield;
  }
}

/** What a container's steps have built: its parts, the characters since the last pause, and the room they take. */
class Built {
  readonly parts: string[] = [];
  #since = 0;
  #total = 0;
  #lease: { grow(chars: number): boolean; close(): void } | undefined;
  constructor(private readonly room: EncodeRoom | undefined) {}

  /** Adds a part; false when it is refused room. */
  add(s: string): boolean {
    this.parts.push(s);
    this.#since += s.length;
    this.#total += s.length;
    return this.#lease === undefined || this.#lease.grow(s.length);
  }

  /** Whether to pause before the next part; the first pause opens the room, for all built so far. */
  pause(): 'go' | 'pause' | 'refused' {
    if (this.#since < LIST_TURN_CHARS) return 'go';
    this.#since = 0;
    if (this.room && !this.#lease) {
      this.#lease = this.room.open();
      if (!this.#lease.grow(this.#total)) return 'refused';
    }
    return 'pause';
  }

  close(): void {
    this.#lease?.close();
  }
}

/** A top-level list, or an object holding lists, part by part (its lists item by item); `undefined` if refused room. */
function* containerSteps(value: unknown, pretty: boolean, room: EncodeRoom | undefined): Work<string | undefined> {
  const b = new Built(room);
  try {
    if (isPlainList(value)) return (yield* listSteps(b, value, pretty, 0)) ? b.parts.join('') : undefined;
    const entries = Object.entries(value as Record<string, unknown>).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return '{}';
    const nl = pretty ? '\n    ' : '';
    for (let i = 0; i < entries.length; i++) {
      const [k, x] = entries[i]!;
      if (i > 0) {
        const p = b.pause();
        if (p === 'refused') return undefined;
        if (p === 'pause') yield;
      }
      if (!b.add(`${i === 0 ? '{' : ','}${nl}${jsonString(k)}${pretty ? ': ' : ':'}`)) return undefined;
      if (isPlainList(x)) {
        if (!(yield* listSteps(b, x, pretty, 1))) return undefined;
      } else {
        const e = pretty ? encodeValue(x, true, 1) : encodeItem(x);
        if (!b.add(isWork(e) ? yield* e : e)) return undefined;
      }
    }
    return b.add(pretty ? '\n}' : '}') ? b.parts.join('') : undefined;
  } finally {
    b.close();
  }
}

/** A list at `depth`, item by item, pausing between items when LIST_TURN_CHARS have been built since the last; false if refused room. */
function* listSteps(b: Built, list: readonly unknown[], pretty: boolean, depth: number): Work<boolean> {
  if (list.length === 0) return b.add('[]');
  const nl = pretty ? `\n${'    '.repeat(depth + 1)}` : '';
  for (let i = 0; i < list.length; i++) {
    if (i > 0) {
      const p = b.pause();
      if (p === 'refused') return false;
      if (p === 'pause') yield;
    }
    // Indexed: a hole in a sparse array prints null, as the walk prints it.
    const e = pretty ? encodeValue(list[i], true, depth + 1) : encodeItem(list[i]);
    const s = isWork(e) ? yield* e : e;
    if (!b.add(i === 0 ? `[${nl}${s}` : `,${nl}${s}`)) return false;
  }
  return b.add(pretty ? `\n${'    '.repeat(depth)}]` : ']');
}

/**
 * What PHP escapes that JSON.stringify() does not: non-ASCII characters, one UTF-16 unit at a time, and `/`. Pure
 * ASCII exactly when every UTF-16 unit is one UTF-8 byte; encoding is several times faster than a regex scan, and done
 * before the `/` replacement, whose result V8 keeps as a cons string that encoding would flatten. (The two
 * replacements commute: neither produces what the other replaces; and both work per character, so a text escaped in
 * chunks is the text escaped whole.)
 */
function escapeChars(s: string): string {
  if (isAscii(s)) return s.includes('/') ? s.replaceAll('/', '\\/') : s;
  // Written as bytes and decoded once: a replace() with a callback per character took 35-80 ms for the 480,000
  // characters of one long post's answer (a third of them Cyrillic), one piece a small read waited behind. The
  // result is ASCII, so the decoded string is a one-byte string, as answers are kept (bench/README.md).
  let size = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) size += 5;
    else if (c === 0x2f) size += 1;
  }
  const out = new Uint8Array(size);
  let j = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c === 0x2f) out[j++] = 0x5c;
      out[j++] = c;
    } else {
      out[j++] = 0x5c;
      out[j++] = 0x75;
      out[j++] = HEX_DIGITS[c >> 12]!;
      out[j++] = HEX_DIGITS[(c >> 8) & 15]!;
      out[j++] = HEX_DIGITS[(c >> 4) & 15]!;
      out[j++] = HEX_DIGITS[c & 15]!;
    }
  }
  return utf8Decode(out);
}

/** `0`-`9`, `a`-`f`: PHP prints `\uXXXX` in lowercase. */
const HEX_DIGITS: readonly number[] = [...'0123456789abcdef'].map((d) => d.charCodeAt(0));
