// Keyed collections of frozen records.
//
// Records are deep-frozen when they enter a table and are replaced, never mutated, on update. That
// makes snapshots and clones cheap (they share records) and makes accidental mutation of stored data
// by a route handler throw instead of silently corrupting a snapshot taken earlier.

import type { DeepReadonly } from '../../../contracts/model/tables.ts';

export type { DeepReadonly };

export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  // Same object, now frozen all the way down: exactly what DeepReadonly describes.
  return value as DeepReadonly<T>;
}

/**
 * A copy without keys whose value is undefined, at every depth, so a record's JSON form and its
 * structural equality agree, and so freezing it never freezes objects the caller still holds.
 * Frozen parts are already in that form (they came out of a table) and are shared, not copied.
 */
export function compact<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => compact(v)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) setOwn(out, k, compact(v));
  return out as T;
}

/** `target[key] = value`, except that a `__proto__` key (JSON.parse makes one) stays an own property. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * `Object.assign(target, ...sources)` with the semantics of `{ ...target, ...sources }`: a `__proto__` key (JSON.parse
 * makes one) becomes an own property instead of replacing the prototype. For hot paths, because V8 (Node 20) adds
 * properties to a spread copy slowly (about a microsecond each) and Object.assign into a fresh object is fast.
 */
export function assignOwn<T extends object>(target: T, ...sources: readonly (object | null | undefined)[]): T {
  for (const source of sources) {
    if (source === null || source === undefined) continue;
    if (!Object.prototype.hasOwnProperty.call(source, '__proto__')) {
      Object.assign(target, source);
      continue;
    }
    for (const key of Reflect.ownKeys(source)) {
      const d = Object.getOwnPropertyDescriptor(source, key);
      if (d?.enumerable) Object.defineProperty(target, key, { value: (source as Record<PropertyKey, unknown>)[key], enumerable: true, writable: true, configurable: true });
    }
  }
  return target;
}

/**
 * Shared by every stored record with an empty list or object (most events have no tags, no venues, empty meta...):
 * frozen, so they differ from copies only by identity, and a record costs ~25% less memory.
 */
const EMPTY_LIST: readonly never[] = Object.freeze([]);
const EMPTY_OBJECT: Readonly<Record<string, never>> = Object.freeze({});

/** `deepFreeze(compact(value))` in one pass (every write goes through it); empty lists and objects are shared. */
export function frozenCompact<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    // compact() copies with map(), which keeps a subclass: only plain arrays are shared.
    if (value.length === 0 && Object.getPrototypeOf(value) === Array.prototype) return EMPTY_LIST as T;
    return Object.freeze(value.map((v: unknown) => frozenCompact(v))) as T;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  if (keys.length === 0) return EMPTY_OBJECT as T;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = source[k];
    if (v !== undefined) setOwn(out, k, frozenCompact(v));
  }
  return Object.freeze(out) as T;
}

/** Read side of a table: what route handlers get for collections whose writes need the store's checks. */
export interface ReadTable<K, T> {
  get(key: K): DeepReadonly<T> | undefined;
  has(key: K): boolean;
  readonly size: number;
  /** In insertion order, which for numeric IDs is ascending ID order. */
  values(): DeepReadonly<T>[];
  find(predicate: (record: DeepReadonly<T>) => boolean): DeepReadonly<T> | undefined;
}

/**
 * The one handle that changes a table's rows. `Table.open` hands it out with the table, and the store's registry
 * keeps it where only its commit can reach it (registry.ts): nothing else can put or delete a row.
 */
export interface RowWriter<K, T> {
  /** Inserts or replaces a record that is already frozen and compact; replacing keeps the row's position. */
  set(key: K, record: DeepReadonly<T>): void;
  /** Removes the row; returns its position (for `restore`), or undefined when there was none. */
  delete(key: K): number | undefined;
  /**
   * Puts back a row that was deleted, at the position `delete` returned (undoing a commit the state file could not
   * save: the rows must come back in the order they had, which lists sorted with ties and the snapshot show).
   * The order is mended by `reorder()`, once after all the restores.
   */
  restore(key: K, record: DeepReadonly<T>, position: number): void;
  reorder(): void;
}

interface OpenTable<K extends string | number, T> {
  table: Table<K, T>;
  writer: RowWriter<K, T>;
}

/** Rows in insertion order, and each row's position in that order (so a deleted row can be put back where it was). */
interface Rows<K, T> {
  rows: Map<K, DeepReadonly<T>>;
  positions: Map<K, number>;
  next: number;
  unordered: boolean;
}

/** Keyed frozen records. Read-only to everyone but the holder of its RowWriter. */
export class Table<K extends string | number, T> implements ReadTable<K, T> {
  readonly #rows: Map<K, DeepReadonly<T>>;
  readonly #state: Rows<K, T>;

  private constructor(
    readonly name: string,
    readonly keyOf: (record: T | DeepReadonly<T>) => K,
    state: Rows<K, T>,
  ) {
    this.#rows = state.rows;
    this.#state = state;
  }

  /** A table holding `records` (frozen as they enter), and the writer of its rows. */
  static open<K extends string | number, T>(name: string, keyOf: (record: T | DeepReadonly<T>) => K, records: Iterable<T | DeepReadonly<T>> = []): OpenTable<K, T> {
    const state: Rows<K, T> = { rows: new Map(), positions: new Map(), next: 0, unordered: false };
    for (const r of records) {
      const key = keyOf(r);
      if (!state.rows.has(key)) state.positions.set(key, state.next++);
      state.rows.set(key, deepFreeze(r as T));
    }
    return Table.over(name, keyOf, state);
  }

  /** A table with the same (shared, frozen) records as `source` and rows of its own, for clones. */
  static copy<K extends string | number, T>(source: Table<K, T>): OpenTable<K, T> {
    const s = source.#state;
    return Table.over(source.name, source.keyOf, { rows: new Map(s.rows), positions: new Map(s.positions), next: s.next, unordered: false });
  }

  private static over<K extends string | number, T>(name: string, keyOf: (record: T | DeepReadonly<T>) => K, state: Rows<K, T>): OpenTable<K, T> {
    return { table: new Table(name, keyOf, state), writer: new TableWriter(state) };
  }

  get(key: K): DeepReadonly<T> | undefined {
    return this.#rows.get(key);
  }

  has(key: K): boolean {
    return this.#rows.has(key);
  }

  get size(): number {
    return this.#rows.size;
  }

  values(): DeepReadonly<T>[] {
    return [...this.#rows.values()];
  }

  /** The rows in insertion order, without copying them into an array. */
  entries(): IterableIterator<[K, DeepReadonly<T>]> {
    return this.#rows.entries();
  }

  find(predicate: (record: DeepReadonly<T>) => boolean): DeepReadonly<T> | undefined {
    for (const r of this.#rows.values()) if (predicate(r)) return r;
    return undefined;
  }

}

/** The writer of one table's rows (a class: its methods are made once, not per table). */
class TableWriter<K, T> implements RowWriter<K, T> {
  constructor(private readonly state: Rows<K, T>) {}

  set(key: K, record: DeepReadonly<T>): void {
    const s = this.state;
    if (!s.rows.has(key)) s.positions.set(key, s.next++);
    s.rows.set(key, record);
  }

  delete(key: K): number | undefined {
    const s = this.state;
    const position = s.positions.get(key);
    s.rows.delete(key);
    s.positions.delete(key);
    return position;
  }

  restore(key: K, record: DeepReadonly<T>, position: number): void {
    const s = this.state;
    s.rows.set(key, record);
    s.positions.set(key, position);
    s.unordered = true;
  }

  reorder(): void {
    const s = this.state;
    if (!s.unordered) return;
    s.unordered = false;
    const entries = [...s.rows].sort((a, b) => s.positions.get(a[0])! - s.positions.get(b[0])!);
    s.rows.clear();
    for (const [k, r] of entries) s.rows.set(k, r);
  }
}

/**
 * A record object built for one write and handed over (the store's drafts), compacted and frozen in place instead
 * of copied. Its nested values are still copied unless frozen, as `frozenCompact` does.
 */
export function freezeOwned<T>(record: T): DeepReadonly<T> {
  const r = record as Record<string, unknown>;
  for (const k of Object.keys(r)) {
    const v = r[k];
    if (v === undefined) delete r[k];
    else if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) r[k] = frozenCompact(v);
  }
  return Object.freeze(record) as DeepReadonly<T>;
}
