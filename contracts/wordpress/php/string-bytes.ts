// PHP strings are bytes, JavaScript strings UTF-16 units. A PHP string of valid UTF-8 is its characters; a byte b of
// an invalid sequence (what urldecode('%ff') leaves in $_GET) is kept as the lone low surrogate U+DC00+b
// (U+DC80..U+DCFF, which no valid UTF-8 decodes to), so stringBytes() gives the very bytes back: WordPress rebuilds
// `x=%ff` as `x=%FF` in its pagination links, and so does the mock. Text with no such byte is plain UTF-8 both ways.
import { utf8DecodeStrict, utf8Encode } from '../bytes.ts';

/** Length of a valid UTF-8 sequence starting at b[i], 0 when invalid (overlongs and surrogates included). */
export function utf8SeqLen(b: Uint8Array, i: number): number {
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

/** The string PHP holds for these bytes: valid UTF-8 as text, each byte of an invalid sequence as U+DC00+b. */
export function bytesString(bytes: Uint8Array): string {
  const text = utf8DecodeStrict(bytes);
  if (text !== undefined) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < bytes.length; ) {
    const len = utf8SeqLen(bytes, i);
    if (len > 0) {
      i += len;
      continue;
    }
    if (from < i) out += utf8DecodeStrict(bytes.subarray(from, i))!;
    out += String.fromCharCode(0xdc00 + bytes[i]!);
    i++;
    from = i;
  }
  if (from < bytes.length) out += utf8DecodeStrict(bytes.subarray(from))!;
  return out;
}

/** A lone U+DC80..U+DCFF: a byte kept from an invalid sequence. */
function isKeptByte(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xdc80 || c > 0xdcff) return false;
  const before = i > 0 ? s.charCodeAt(i - 1) : 0;
  return before < 0xd800 || before > 0xdbff;
}

/** The bytes PHP holds for a string bytesString() made (any other lone surrogate is U+FFFD, as in UTF-8). */
export function stringBytes(s: string): Uint8Array {
  let kept = false;
  for (let i = 0; i < s.length && !kept; i++) kept = isKeptByte(s, i);
  if (!kept) return utf8Encode(s);
  const out: number[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (!isKeptByte(s, i)) continue;
    if (from < i) out.push(...utf8Encode(s.slice(from, i)));
    out.push(s.charCodeAt(i) - 0xdc00);
    from = i + 1;
  }
  if (from < s.length) out.push(...utf8Encode(s.slice(from)));
  return Uint8Array.from(out);
}
