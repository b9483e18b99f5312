// A stable hash for seeds and names derived from ids (a unit's seed, a run's search word, a constraint's samples):
// the same on every machine and Node version, so a seed replays anywhere.

/** FNV-1a, 32 bit: a stable hash of a unit id, the same on every machine and Node version. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
