// JSON written with every character beyond ASCII as a \u escape, for the caches the package writes (the parsed
// contract, the checked fixtures): JSON.parse of an ASCII text makes one-byte keys and strings, so a cache hit needs
// neither one-byte-keys.ts's pass over the text nor the memory of a two-byte copy. JSON.parse gives back the same
// value as from JSON.stringify's own output.

/** JSON.stringify(value), its non-ASCII characters (lone surrogates too) escaped. */
export function asciiJson(value: unknown): string {
  // eslint-disable-next-line no-control-regex -- only what is beyond ASCII
  return JSON.stringify(value).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
