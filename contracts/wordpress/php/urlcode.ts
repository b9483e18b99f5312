// PHP's urldecode(), rawurldecode() and urlencode(), byte for byte (bytes that are no UTF-8 kept as string-bytes.ts keeps them).
import { bytesString, stringBytes } from './string-bytes.ts';

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** `%XX` as a byte, `+` as a space when `plus`, other characters as their UTF-8 bytes; then the bytes as PHP's string. */
function decode(s: string, plus: boolean): string {
  let i = 0;
  // Nothing to decode in a leading run of plain ASCII.
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 0x25 || (plus && c === 0x2b) || c >= 0x80) break;
    i++;
  }
  if (i === s.length) return s;
  const bytes = new Uint8Array(s.length * 3);
  let n = 0;
  for (let j = 0; j < i; j++) bytes[n++] = s.charCodeAt(j);
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (plus && c === 0x2b) bytes[n++] = 0x20;
    else if (c === 0x25 && i + 2 < s.length && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0) {
      bytes[n++] = hexValue(s.charCodeAt(i + 1)) * 16 + hexValue(s.charCodeAt(i + 2));
      i += 2;
    } else if (c < 0x80) bytes[n++] = c;
    else {
      // One character (a surrogate pair included) as the bytes PHP holds for it.
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      const enc = stringBytes(String.fromCodePoint(cp));
      bytes.set(enc, n);
      n += enc.length;
    }
  }
  return bytesString(bytes.subarray(0, n));
}

/**
 * PHP urldecode(): `+` is a space, `%XX` a byte, a malformed escape is kept as-is; the bytes are PHP's string
 * (string-bytes.ts: valid UTF-8 as text, other bytes kept). Text with nothing to decode comes back as it was.
 */
export function phpUrlDecode(s: string): string {
  return decode(s, true);
}

/** PHP rawurldecode(), and Apache's unescaping of a path: `%XX` only, `+` stays. */
export function phpRawUrlDecode(s: string): string {
  return decode(s, false);
}

/** PHP urlencode(): everything but `[A-Za-z0-9_.-]` is %XX (uppercase), space is `+` (so `~` is encoded, unlike rawurlencode). */
export function phpUrlEncode(s: string): string {
  let out = '';
  for (const b of stringBytes(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9_.-]/.test(c)) out += c;
    else if (b === 0x20) out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}
