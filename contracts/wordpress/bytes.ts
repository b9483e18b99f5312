// Bytes and text with web-standard APIs only (TextEncoder, TextDecoder, Uint8Array), so the mock's core runs in a
// browser as well as in Node. Each function gives exactly what the Node `Buffer` call it replaced gave
// (bytes.test.ts checks them against Buffer), including the cases where that differs from the obvious web API:
// a leading BOM is kept (Buffer keeps it, TextDecoder strips it by default), Latin-1 is ISO-8859-1 (TextDecoder's
// 'latin1' is windows-1252) and Base64 is read as leniently as Buffer reads it (atob refuses what Buffer skips).

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const strictDecoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

/** UTF-8 bytes of `s`; a lone surrogate becomes U+FFFD (EF BF BD). `Buffer.from(s, 'utf8')`. */
export function utf8Encode(s: string): Uint8Array {
  return encoder.encode(s);
}

/** Text of UTF-8 bytes, each invalid sequence becoming U+FFFD. `Buffer.from(bytes).toString('utf8')`. */
export function utf8Decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Text of UTF-8 bytes, or undefined when they are not valid UTF-8. `isUtf8(bytes)` and a decode, in one pass. */
export function utf8DecodeStrict(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * utf8DecodeStrict() of bytes that arrive in pieces (a request body as the socket delivers it): `add()` each piece,
 * then `end()` gives the text of all of them, or undefined if they were not valid UTF-8 (a sequence cut between two
 * pieces is joined, as decoding them whole would). Decoding as the body arrives spreads the work over the turns it
 * takes to arrive, where decoding a body near the 8 MiB cap at once held other clients some 50 ms.
 */
export class Utf8StrictPieces {
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });
  readonly #texts: string[] = [];
  #valid = true;

  add(piece: Uint8Array): void {
    if (!this.#valid) return;
    try {
      this.#texts.push(this.#decoder.decode(piece, { stream: true }));
    } catch {
      this.#valid = false;
    }
  }

  end(): string | undefined {
    if (!this.#valid) return undefined;
    try {
      this.#texts.push(this.#decoder.decode());
    } catch {
      return undefined;
    }
    return this.#texts.join('');
  }
}

/** Length of `s` in UTF-8 bytes (PHP's strlen()). `Buffer.byteLength(s, 'utf8')`. */
export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}

// isAscii() encodes into this instead of allocating; strings longer than the cap are encoded the ordinary way.
const SCRATCH_CAP = 256 * 1024;
let scratch = new Uint8Array(4096);

/**
 * Every UTF-16 unit of `s` is below U+0080, i.e. its UTF-8 form is as long as it is (`Buffer.byteLength(s) ===
 * s.length`). Encoding into a reused buffer is as fast as Node's counting and faster than a regex scan.
 */
export function isAscii(s: string): boolean {
  const n = s.length;
  if (n > SCRATCH_CAP) return encoder.encode(s).length === n;
  if (scratch.length < n) scratch = new Uint8Array(Math.min(SCRATCH_CAP, Math.max(n, scratch.length * 2)));
  // Exactly n bytes of room: all of `s` fits only if no character takes more than one byte.
  return encoder.encodeInto(s, scratch.subarray(0, n)).read === n;
}

/**
 * A fresh copy of a string whose units are all below U+0100 (`Buffer.from(s, 'latin1').toString('latin1')`); V8
 * stores it one byte per character even when `s` is a slice of a two-byte text.
 */
export function latin1Copy(s: string): string {
  const codes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) codes[i] = s.charCodeAt(i);
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode.apply(null, codes.subarray(i, i + 8192) as unknown as number[]);
  return out;
}

/**
 * A copy of `s` that shares no memory with it. A slice of a large text (`body.slice(0, 400)`) keeps the whole text
 * alive in V8 as long as the slice lives; what is kept for long (a stored submission) is copied with this first.
 */
export function stringCopy(s: string): string {
  const codes = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) codes[i] = s.charCodeAt(i);
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode.apply(null, codes.subarray(i, i + 8192) as unknown as number[]);
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_VALUE[B64.charCodeAt(i)] = i;
B64_VALUE['-'.charCodeAt(0)] = 62; // Buffer also reads the URL-safe alphabet
B64_VALUE['_'.charCodeAt(0)] = 63;

/**
 * Bytes of Base64 text, read as Node's Buffer reads it (`Buffer.from(s, 'base64')`): characters outside the
 * alphabet are skipped, the first `=` ends the data, a final incomplete group gives the bytes it completes.
 */
export function base64Decode(s: string): Uint8Array {
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3d) break;
    const v = c < 128 ? B64_VALUE[c]! : -1;
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}
