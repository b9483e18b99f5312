// The one kind of cache the mock keeps: a pure memo (a value is what `compute` gives for its key, so dropping it
// changes nothing but time), owned by the object it serves, bounded in bytes rather than entries (800 large lists
// are gigabytes), least recently used first out, and switched off by the mock's `cache: false` (`--no-cache`): then
// every value is computed afresh. Its keys hold nothing a client picks freely (no Host header, no undeclared query
// parameter); a value's size is estimated by the memo's owner (`sizeOf`), keys of text counted at two bytes a unit.

export interface MemoSettings {
  /** false: nothing is kept, every get() computes. */
  enabled: boolean;
  /** Estimated bytes of keys and values together; the least recently used entries go first beyond it. */
  maxBytes: number;
}

export interface MemoStats {
  entries: number;
  bytes: number;
  maxBytes: number;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

/** Estimated bytes of a text held in memory: V8 keeps some strings one byte a unit, some two; count two. */
export function textBytes(s: string): number {
  return 2 * s.length + 32;
}

export class Memo<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private used = 0;

  constructor(
    readonly settings: MemoSettings,
    /** Estimated bytes an entry holds (key and value). */
    private readonly sizeOf: (key: K, value: V) => number,
  ) {}

  /** The value for `key`, computed (and kept, within the budget) when it is not held. */
  get(key: K, compute: () => V): V {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const value = compute();
    this.set(key, value);
    return value;
  }

  /** The value held for `key`, if any (a hit counts as a use). */
  peek(key: K): V | undefined {
    if (!this.settings.enabled) return undefined;
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    // Map keeps insertion order: re-inserting makes it the most recently used.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: K, value: V): void {
    if (!this.settings.enabled) return;
    this.delete(key);
    const bytes = this.sizeOf(key, value);
    if (bytes > this.settings.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [k, e] of this.entries) {
      if (this.used <= this.settings.maxBytes) break;
      this.entries.delete(k);
      this.used -= e.bytes;
    }
  }

  delete(key: K): void {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.entries.delete(key);
    this.used -= e.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  get stats(): MemoStats {
    return { entries: this.entries.size, bytes: this.used, maxBytes: this.settings.maxBytes };
  }
}

/**
 * A Memo that holds values for one state of a source only (the store's version): when the version moves on,
 * everything held is dropped at the next use.
 */
export class VersionedMemo<K, V> {
  private readonly memo: Memo<K, V>;
  private version: number | undefined;

  constructor(settings: MemoSettings, sizeOf: (key: K, value: V) => number) {
    this.memo = new Memo(settings, sizeOf);
  }

  /** The memo for `version`, emptied if it held another version's values. */
  at(version: number): Memo<K, V> {
    if (version !== this.version) {
      this.memo.clear();
      this.version = version;
    }
    return this.memo;
  }

  get stats(): MemoStats {
    return this.memo.stats;
  }
}
