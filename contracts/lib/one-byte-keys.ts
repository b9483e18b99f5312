// V8 keeps one internalized string per object key, in whatever form it was first made. Parsing a text with
// characters beyond Latin-1 (the fixtures' and the contract's Ukrainian) makes its keys two-byte, and every later
// object with such a key - `taxonomy` and `_links` in each rendered event, say - then makes JSON.stringify build its
// whole output two-byte: twice the memory, and escaping, measuring and writing an answer cost about twice as much.
// Making the one-byte form of each plain-ASCII key first keeps them one-byte. Values are unaffected (V8 narrows those
// itself). A text that is ASCII already (the caches' JSON, ascii-json.ts) needs none of this.
import { latin1Copy } from '../wordpress/bytes.ts';

/** JSON object keys (first group). */
const JSON_KEY = /"([\x20\x21\x23-\x5b\x5d-\x7e]{1,100})"\s*:/g;
/** The words a YAML text's keys are made of, and the `a:b` keys of its media types and marks. */
export const YAML_KEYS = [/([A-Za-z_$][\w$-]{0,99})/g, /([A-Za-z_$][\w$-]*:[\w$-]+)/g] as const;

/** Kept for the life of the process: V8 drops internalized strings nothing references. */
const oneByteKeys: Record<string, true> = Object.create(null) as Record<string, true>;

/** Makes the one-byte form of every key `pattern` finds in `text` (its first group) before `text` is parsed. */
export function internalizeKeysOneByte(text: string, pattern: RegExp = JSON_KEY): void {
  // eslint-disable-next-line no-control-regex -- a Latin-1 text is parsed one-byte already
  if (!/[^\x00-\xff]/.test(text)) return;
  const seen = new Set<string>();
  for (const m of text.matchAll(pattern)) {
    const key = m[1]!;
    if (seen.has(key) || key.length > 100) continue;
    seen.add(key);
    oneByteKeys[latin1Copy(key)] = true;
  }
}
