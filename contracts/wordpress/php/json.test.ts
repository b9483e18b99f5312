// The shortcuts inside the PHP codecs against the walks they stand in for, on generated inputs: wpJsonEncode()'s
// JSON.stringify path and its steps (a long list item by item, a long text's escaping in chunks) against
// encodeExact(), phpJsonDecode()'s JSON.parse path against PHP's scanner, and phpUrlDecode()'s early exit against
// decoding byte by byte. Any difference fails; the steps are counted too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Encode } from '../bytes.ts';
import { bytesString, decodeScanned, encodeExact, ESCAPE_CHUNK, LIST_TURN_CHARS, phpJsonDecode, phpUrlDecode, stringBytes, wpJsonEncode, wpJsonEncodeSteps, type EncodeRoom } from './index.ts';

/** Numbers on both sides of every notation switch of JSON.stringify and json_encode. */
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e21, -1e21, 1e20, 1e17, 99999999999999990, 1e16, 2 ** 53, 2 ** 53 + 2, 1e-4, 9.9e-5, 1e-5, 1.5e-5, 1e-6, 1e-7, 1.5e-7, 0.1, -0, 0, 5e-324, 1.7976931348623157e308, NaN, Infinity, -Infinity),
);

const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('/', '\\', '"', '\u007f', '\u0000', '\u2028', '\ud800', '\udc00', 'é', 'ї', '😀', '{}', '0.0000', '1e+5') }));

const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, number, text, fc.boolean(), fc.constant(null), tie('list'), tie('object'), tie('map')),
  list: fc.array(tie('any'), { maxLength: 5 }),
  object: fc.dictionary(text, tie('any'), { maxKeys: 5 }),
  map: fc.array(fc.tuple(fc.oneof(fc.integer({ min: -2, max: 5 }), text), tie('any')), { maxLength: 4 }).map((entries) => new Map(entries)),
})).any;

describe('wpJsonEncode: the JSON.stringify path prints what the walk prints', () => {
  it('on generated values (numbers, Maps, escapes, nesting)', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(wpJsonEncode(v)).toBe(encodeExact(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('prints floats as PHP does, where JSON.stringify does not', () => {
    // PHP 8.2: json_encode([1e21, 1e20, 1e17, 1e-5, 1.5e-7, 0.0001, 1.5, 9007199254740994])
    expect(wpJsonEncode([1e21, 1e20, 1e17, 1e-5, 1.5e-7, 0.0001, 1.5, 9007199254740994])).toBe('[1.0e+21,1.0e+20,1.0e+17,1.0e-5,1.5e-7,0.0001,1.5,9007199254740994]');
    expect(wpJsonEncode({ cost: 1e21 })).toBe('{"cost":1.0e+21}');
  });

  it('a long answer is escaped in chunks with a pause before each, and prints what the walk prints', () => {
    // Astral characters (surrogate pairs) and `/` throughout, so chunk edges fall inside pairs and between escapes.
    const text = 'Кіно / cinema \u{1F642} "quoted" \\ é\n'.repeat(60_000);
    const v = { raw: text, rendered: `<p>${text}</p>`, id: 7 };
    const { value, pauses } = stepped(v);
    expect(value).toBe(encodeExact(v));
    expect(pauses).toBe(Math.ceil(JSON.stringify(v).length / ESCAPE_CHUNK));
    // The same text as an item of a list: its escaping steps inside the list's.
    const list = [1, v, 'é/'];
    const inList = stepped(list);
    expect(inList.value).toBe(encodeExact(list));
    expect(inList.pauses).toBeGreaterThanOrEqual(pauses);
    // A short answer takes no step: it is its text.
    expect(wpJsonEncodeSteps({ a: 'é' })).toBe('{"a":"\\u00e9"}');
    expect(wpJsonEncodeSteps([{ a: 1 }, '/'])).toBe('[{"a":1},"\\/"]');
  });
});

/** The steps of wpJsonEncodeSteps(v): its text and the pauses it took on the way. */
function stepped(v: unknown, pretty = false): { value: string; pauses: number; isText: boolean } {
  const g = wpJsonEncodeSteps(v, { pretty });
  if (typeof g === 'string') return { value: g, pauses: 0, isText: true };
  let pauses = 0;
  let r = g.next();
  for (; !r.done; r = g.next()) pauses++;
  return { value: r.value, pauses, isText: false };
}

/** An item of a long list: a record with a text of 1-60K characters (non-ASCII, slashes and escapes among them). */
const longItem = fc.tuple(text, fc.integer({ min: 1_000, max: 40_000 }), fc.nat()).map(([t, n, id]) => ({ id, text: (t || 'x').repeat(Math.ceil(n / Math.max(1, t.length))).slice(0, n), list: [id, null, true, 1.5] }));

describe('wpJsonEncodeSteps: a list item by item, a pause whenever LIST_TURN_CHARS have been encoded since the last', () => {
  it('prints what the walk prints, pretty or not, short or long', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40 }), fc.boolean(), (v, pretty) => {
        expect(stepped(v, pretty).value).toBe(encodeExact(v, pretty));
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 40 }), fc.boolean(), (v, pretty) => {
        expect(stepped(v, pretty).value).toBe(encodeExact(v, pretty));
      }),
      { numRuns: 500 },
    );
  });

  it('pauses at that granularity: none for a short list, and between two pauses LIST_TURN_CHARS and at most one item more', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ arbitrary: longItem, weight: 3 }, { arbitrary: value, weight: 1 }), { maxLength: 30 }), (v) => {
        const r = stepped(v);
        expect(r.value).toBe(encodeExact(v));
        const items = v.map((x) => encodeExact(x).length);
        const total = items.reduce((a, b) => a + b, 0);
        const longest = Math.max(0, ...items);
        // No item is long enough to be escaped in chunks, so every pause is one between items.
        expect(longest).toBeLessThan(ESCAPE_CHUNK);
        if (total < LIST_TURN_CHARS) expect(r.isText).toBe(true);
        expect(r.pauses).toBeLessThanOrEqual(Math.floor(total / LIST_TURN_CHARS));
        expect(r.pauses).toBeGreaterThanOrEqual(Math.floor(total / (LIST_TURN_CHARS + longest)));
      }),
      // No shrinking: a failing list of megabytes shrinks for minutes, and the first counterexample says enough.
      { numRuns: 60, endOnFailure: true },
    );
  });

  it('a long list of many items is not encoded in one step', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ id: i, text: `é/${'x'.repeat(LIST_TURN_CHARS / 8)}😀`, list: [i, null, true, 1.5] }));
    const r = stepped(many);
    expect(r.value).toBe(wpJsonEncode(many));
    expect(r.value).toBe(encodeExact(many));
    expect(r.pauses).toBeGreaterThanOrEqual(4);
    // Pretty too (`?_embed&_pretty` asked for 122 MB at once).
    const pretty = stepped(many, true);
    expect(pretty.value).toBe(encodeExact(many, true));
    expect(pretty.pauses).toBeGreaterThanOrEqual(4);
  });
});

/** wpJsonEncodeSteps(v) with room: its text, its pauses. */
function steppedWithRoom(v: unknown, room: EncodeRoom, pretty = false): { value: string | undefined; pauses: number } {
  const g = wpJsonEncodeSteps(v, { pretty, room });
  if (typeof g === 'string' || g === undefined) return { value: g, pauses: 0 };
  let pauses = 0;
  let r = g.next();
  for (; !r.done; r = g.next()) pauses++;
  return { value: r.value, pauses };
}

describe('wpJsonEncodeSteps with room: an object holding lists (an _envelope) in steps too, within the room it is given', () => {
  const unbounded: EncodeRoom = { open: () => ({ grow: () => true, close: () => undefined }) };

  it('prints what the walk prints, pretty or not, for objects holding lists', () => {
    const holder = fc.dictionary(fc.string(), fc.oneof(value, fc.array(value, { maxLength: 30 }), fc.array(fc.oneof({ arbitrary: longItem, weight: 1 }, { arbitrary: value, weight: 3 }), { maxLength: 12 })), { maxKeys: 5 });
    fc.assert(
      fc.property(holder, fc.boolean(), (v, pretty) => {
        expect(steppedWithRoom(v, unbounded, pretty).value).toBe(encodeExact(v, pretty));
      }),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('an envelope around a long list pauses as the list would, pretty or not', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ id: i, text: `é/${'x'.repeat(LIST_TURN_CHARS / 8)}😀` }));
    const env = { body: many, status: 200, headers: { 'X-WP-Total': 40 } };
    for (const pretty of [false, true]) {
      const r = steppedWithRoom(env, unbounded, pretty);
      expect(r.value).toBe(encodeExact(env, pretty));
      expect(r.pauses).toBeGreaterThanOrEqual(4);
    }
    // Without room (wpJsonEncode(), a batch's envelope), an object is one item, as before: its only pauses are its
    // escaping's, a chunk at a time.
    const whole = stepped(env);
    expect(whole.value).toBe(encodeExact(env));
    expect(whole.pauses).toBe(Math.ceil(JSON.stringify(env).length / ESCAPE_CHUNK));
  });

  it('takes room for all it builds once it first pauses, gives it back at the end, and stops when refused', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ id: i, text: 'x'.repeat(LIST_TURN_CHARS / 8) }));
    let taken = 0;
    let most = 0;
    let opened = 0;
    let closed = 0;
    const counting: EncodeRoom = {
      open: () => {
        opened++;
        return {
          grow: (n) => ((taken += n), (most = Math.max(most, taken)), true),
          close: () => ((closed++), (taken = 0)),
        };
      },
    };
    const whole = encodeExact(many);
    expect(steppedWithRoom(many, counting).value).toBe(whole);
    expect([opened, closed, taken]).toEqual([1, 1, 0]);
    expect(most).toBe(whole.length);
    // A short list never asks.
    expect(steppedWithRoom([1, 2, 3], counting).value).toBe('[1,2,3]');
    expect(opened).toBe(1);
    // Refused once past half of it: undefined, and the room given back.
    let left = whole.length / 2;
    const refusing: EncodeRoom = { open: () => ({ grow: (n) => (left -= n) >= 0, close: () => (closed++, undefined) }) };
    expect(steppedWithRoom(many, refusing).value).toBeUndefined();
    expect(closed).toBe(2);
  });
});

/** JSON texts, and the byte-level troubles PHP's scanner reports: bad UTF-8, surrogate escapes, depth, junk. */
const jsonBytes = fc.oneof(
  fc.json().map((s) => utf8Encode(s)),
  fc.tuple(fc.json(), fc.nat(), fc.constantFrom('\\ud800', '\\udc00', '\\ud83d\\ude00', '\\u00e9', '\u0001', '\t', '"', ',', ']', '}', '{', '\ufeff', 'é')).map(([s, at, ins]) => {
    const i = s.length === 0 ? 0 : at % s.length;
    return utf8Encode(s.slice(0, i) + ins + s.slice(i));
  }),
  fc.tuple(fc.json(), fc.nat(), fc.constantFrom(0x80, 0xc0, 0xed, 0xf5, 0xff)).map(([s, at, b]) => {
    const bytes = utf8Encode(s);
    const i = bytes.length === 0 ? 0 : at % bytes.length;
    return Uint8Array.from([...bytes.subarray(0, i), b, ...bytes.subarray(i)]);
  }),
  fc.integer({ min: 495, max: 520 }).map((n) => utf8Encode('['.repeat(n) + ']'.repeat(n))),
  fc.integer({ min: 495, max: 520 }).map((n) => utf8Encode(`{"a":${'['.repeat(n)}1${']'.repeat(n)}}`)),
  fc.uint8Array({ maxLength: 40 }),
);

describe('phpJsonDecode: the JSON.parse path decides as PHP\'s scanner does', () => {
  it('on generated texts and broken bytes', () => {
    fc.assert(
      fc.property(jsonBytes, (bytes) => {
        expect(phpJsonDecode(bytes)).toEqual(decodeScanned(bytes));
      }),
      { numRuns: 3000 },
    );
  });
});

/** urldecode() one byte at a time, without the early exit. */
function urlDecodeBytewise(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '+') bytes.push(0x20);
    else if (c === '%' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      bytes.push(...stringBytes(String.fromCodePoint(cp)));
    }
  }
  return bytesString(Uint8Array.from(bytes));
}

describe('PHP strings as bytes', () => {
  it('bytesString() keeps any bytes, stringBytes() gives them back', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 24 }), fc.string().map((t) => utf8Encode(t))), (bytes) => {
        expect(stringBytes(bytesString(bytes))).toEqual(bytes);
      }),
      { numRuns: 3000 },
    );
  });
  it('valid UTF-8 is its text, an invalid byte b the lone U+DC00+b, a real surrogate pair stays text', () => {
    expect(bytesString(Uint8Array.from([0x61, 0xc3, 0xa9]))).toBe('aé');
    expect(bytesString(Uint8Array.from([0xff, 0xe2, 0x82, 0x41]))).toBe('\udcff\udce2\udc82A');
    expect(stringBytes('\ud800\udc80')).toEqual(utf8Encode('\u{10080}'));
    expect(stringBytes('\ud800')).toEqual(Uint8Array.from([0xef, 0xbf, 0xbd]));
  });
});

describe('phpUrlDecode', () => {
  it('equals decoding byte by byte', () => {
    const piece = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('%', '%2', '%zz', '%41', '%C2%A0', '%e2%80', '+', '\ud800', 'ї', '%%41'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (parts) => {
        const s = parts.join('');
        expect(phpUrlDecode(s)).toBe(urlDecodeBytewise(s));
      }),
      { numRuns: 3000 },
    );
  });
});
