// The web-standard byte helpers give exactly what the Node Buffer calls they replaced gave.
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Decode, isAscii, latin1Copy, utf8Decode, utf8DecodeStrict, utf8Encode, utf8Length, Utf8StrictPieces } from './bytes.ts';

const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme-ascii' }),
  // lone surrogates and a BOM, where the web APIs and Buffer are most likely to part ways
  fc.array(fc.constantFrom('a', '\ufeff', '\ud800', '\udfff', '\ud83d\ude00', 'é', 'Ї', '\u0080', '\u07ff', '\uffff', '\x7f')).map((a) => a.join('')),
);
// Byte strings that are mostly not UTF-8: truncated sequences, overlongs, encoded surrogates, a BOM.
const anyBytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.array(fc.constantFrom([0xef, 0xbb, 0xbf], [0xc3], [0xa9], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x41], [0xf0, 0x9f, 0x98, 0x80])).map((a) => Uint8Array.from(a.flat())),
);

describe('bytes helpers match Buffer', () => {
  it('utf8Encode, utf8Length, isAscii', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect([...utf8Encode(s)]).toEqual([...Buffer.from(s, 'utf8')]);
        expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
        expect(isAscii(s)).toBe(Buffer.byteLength(s, 'utf8') === s.length);
      }),
      { numRuns: 2000 },
    );
    const long = 'a'.repeat(300 * 1024);
    expect(isAscii(long)).toBe(true);
    expect(isAscii(`${long}é`)).toBe(false);
    expect(isAscii(`${'b'.repeat(5000)}\u0100`)).toBe(false);
  });

  it('utf8Decode and utf8DecodeStrict', () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        expect(utf8Decode(bytes)).toBe(Buffer.from(bytes).toString('utf8'));
        expect(utf8DecodeStrict(bytes)).toBe(isUtf8(bytes) ? Buffer.from(bytes).toString('utf8') : undefined);
      }),
      { numRuns: 2000 },
    );
    expect(utf8Decode(Uint8Array.of(0xef, 0xbb, 0xbf, 0x41))).toBe('\ufeffA');
  });

  it('Utf8StrictPieces: the bytes cut anywhere, in any number of pieces, decode as utf8DecodeStrict() decodes them whole', () => {
    fc.assert(
      fc.property(anyBytes, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
        const at = [...new Set(cuts.map((c) => (bytes.length === 0 ? 0 : c % bytes.length)))].sort((a, b) => a - b);
        const pieces = new Utf8StrictPieces();
        let from = 0;
        for (const c of [...at, bytes.length]) {
          pieces.add(bytes.subarray(from, c));
          from = c;
        }
        expect(pieces.end()).toBe(utf8DecodeStrict(bytes));
      }),
      { numRuns: 2000 },
    );
    // A leading BOM is kept, and a sequence cut short at the very end is not valid.
    const bom = new Utf8StrictPieces();
    bom.add(Uint8Array.of(0xef, 0xbb));
    bom.add(Uint8Array.of(0xbf, 0x41));
    expect(bom.end()).toBe('\ufeffA');
    const cut = new Utf8StrictPieces();
    cut.add(Uint8Array.of(0x41, 0xd0));
    expect(cut.end()).toBeUndefined();
  });

  it('latin1Copy', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20_000 }), (s) => {
        expect(latin1Copy(s)).toBe(Buffer.from(s, 'latin1').toString('latin1'));
      }),
      { numRuns: 300 },
    );
  });

  it('base64Decode', () => {
    const b64 = fc.array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n.é'), { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(b64, fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64')), fc.string()), (s) => {
        expect([...base64Decode(s)]).toEqual([...Buffer.from(s, 'base64')]);
      }),
      { numRuns: 3000 },
    );
  });
});
