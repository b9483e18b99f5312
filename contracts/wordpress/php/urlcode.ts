// PHP's urldecode() and urlencode(), byte for byte.
import { utf8Decode, utf8Encode } from '../bytes.ts';

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * PHP urldecode(): `+` is a space, `%XX` a byte, a malformed escape is kept as-is; the bytes are then read as UTF-8
 * (invalid sequences become U+FFFD). Other characters stand for their UTF-8 bytes, so text with nothing to decode
 * comes back as it was (a lone surrogate as U+FFFD).
 */
export function phpUrlDecode(s: string): string {
  let i = 0;
  // Nothing to decode in a leading run of plain ASCII.
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 0x25 || c === 0x2b || c >= 0x80) break;
    i++;
  }
  if (i === s.length) return s;
  const bytes = new Uint8Array(s.length * 3);
  let n = 0;
  for (let j = 0; j < i; j++) bytes[n++] = s.charCodeAt(j);
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2b) bytes[n++] = 0x20;
    else if (c === 0x25 && i + 2 < s.length && hexValue(s.charCodeAt(i + 1)) >= 0 && hexValue(s.charCodeAt(i + 2)) >= 0) {
      bytes[n++] = hexValue(s.charCodeAt(i + 1)) * 16 + hexValue(s.charCodeAt(i + 2));
      i += 2;
    } else if (c < 0x80) bytes[n++] = c;
    else {
      // One character (a surrogate pair included) as UTF-8; TextEncoder writes a lone surrogate as U+FFFD.
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      const enc = utf8Encode(String.fromCodePoint(cp));
      bytes.set(enc, n);
      n += enc.length;
    }
  }
  return utf8Decode(bytes.subarray(0, n));
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
