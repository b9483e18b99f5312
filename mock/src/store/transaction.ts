// A write in progress. Rules read the store through it (seeing their own staged changes) and stage every change in
// it; nothing reaches a table until the registry commits it. A refused write throws before the commit, and the
// staged changes are dropped with the transaction: snapshot, version, sequences and slug hints stay as they were.

import type { Sequences, StoreData } from '../../../contracts/model/records.ts';
import type { RegistryView, Singletons, Staged, StoreChange } from './registry.ts';
import { isSlugged, keyOf, TABLES, type AllTables, type Stored, type TableName } from '../../../contracts/model/tables.ts';
import { SlugOverlay, type SluggedType } from './slug-index.ts';
import { firstFreeSuffix, isReservedPostSlug, withSuffix } from '../../../contracts/wordpress/slug.ts';
import { freezeOwned, frozenCompact, type DeepReadonly } from './table.ts';

type AnyKey = string | number;
type AnyRecord = DeepReadonly<object>;

export class Tx {
  readonly #base: RegistryView;
  readonly #rows = new Map<TableName, Map<AnyKey, AnyRecord | undefined>>();
  readonly #slugs = new SlugOverlay();
  #single: DeepReadonly<Singletons>;
  #singletonsChanged: Partial<Record<keyof Singletons, unknown>> = {};
  #seq: Sequences;
  #replacement: DeepReadonly<StoreData> | undefined;
  #change: StoreChange | undefined;

  constructor(base: RegistryView) {
    this.#base = base;
    this.#single = base.single;
    this.#seq = { ...base.sequences };
  }

  // ---- reads, through what this transaction staged -------------------------------------------------

  get<N extends TableName>(name: N, key: AnyKey): Stored<AllTables[N]> | undefined {
    const staged = this.#rows.get(name);
    if (staged?.has(key)) return staged.get(key) as Stored<AllTables[N]> | undefined;
    return (this.#base.tables[name] as { get(k: AnyKey): unknown }).get(key) as Stored<AllTables[N]> | undefined;
  }

  has<N extends TableName>(name: N, key: AnyKey): boolean {
    return this.get(name, key) !== undefined;
  }

  /** The table's records in insertion order: replaced rows in place, new ones at the end. */
  values<N extends TableName>(name: N): Stored<AllTables[N]>[] {
    const base = this.#base.tables[name];
    const staged = this.#rows.get(name);
    if (!staged) return base.values() as Stored<AllTables[N]>[];
    const out: AnyRecord[] = [];
    for (const [k, r] of base.entries()) {
      if (!staged.has(k)) out.push(r as AnyRecord);
      else if (staged.get(k) !== undefined) out.push(staged.get(k)!);
    }
    for (const [k, r] of staged) if (r !== undefined && !base.has(k as never)) out.push(r);
    return out as Stored<AllTables[N]>[];
  }

  find<N extends TableName>(name: N, predicate: (record: Stored<AllTables[N]>) => boolean): Stored<AllTables[N]> | undefined {
    if (!this.#rows.has(name)) return this.#base.tables[name].find(predicate as never) as Stored<AllTables[N]> | undefined;
    return this.values(name).find(predicate);
  }

  /** The records of a post or term table that translate `id`: one scan, like a find that matches nothing. */
  translationsOf<N extends SluggedType>(name: N, id: number): Stored<AllTables[N]>[] {
    const out: Stored<AllTables[N]>[] = [];
    this.find(name, (r) => {
      if ((r as { translation_of?: number }).translation_of === id) out.push(r);
      return false;
    });
    return out;
  }

  size(name: TableName): number {
    const base = this.#base.tables[name];
    const staged = this.#rows.get(name);
    let n = base.size;
    if (staged) for (const [k, r] of staged) n += (r !== undefined ? 1 : 0) - (base.has(k as never) ? 1 : 0);
    return n;
  }

  get single(): DeepReadonly<Singletons> {
    return this.#single;
  }

  /** The sequences as this transaction leaves them. */
  get sequences(): Readonly<Sequences> {
    return this.#seq;
  }

  slugOwner(type: SluggedType, lang: string, slug: string): number | undefined {
    return this.#base.slugs.owner(type, lang, slug, this.#slugs);
  }

  slugTaken(type: SluggedType, lang: string, slug: string, exceptId?: number): boolean {
    const id = this.slugOwner(type, lang, slug);
    return id !== undefined && id !== exceptId;
  }

  /** slugTaken() for one record, as a callback: made here, not as a named closure per call (mock/bench/README.md, tsx). */
  #takenBy(type: SluggedType, lang: string, id: number): (slug: string) => boolean {
    return (s) => this.slugTaken(type, lang, s, id);
  }

  /**
   * wp_unique_post_slug(): `desired`, or the first free `desired-N` (for a post's reserved slugs, isReservedPostSlug(),
   * too). For a record being created the search starts where the index's hint says (every lower suffix is taken), and
   * what it finds becomes the next hint when this transaction commits. A record that exists may own one of those
   * suffixes itself, so its search starts at 2.
   */
  uniqueSlug(type: SluggedType, lang: string, desired: string, id: number): string {
    const taken = this.#takenBy(type, lang, id);
    // A post may not have a feed name or `embed` as it is, taken or not; terms may.
    const reserved = type !== 'category' && type !== 'tag' && isReservedPostSlug(desired);
    if (!reserved && !taken(desired)) return desired;
    const creating = !this.has(type, id);
    const n = firstFreeSuffix(desired, taken, creating ? this.#base.slugs.hint(type, lang, desired, this.#slugs) : 2);
    if (creating) this.#base.slugs.learn(this.#slugs, type, lang, desired, n + 1);
    return withSuffix(desired, n);
  }

  // ---- staging -------------------------------------------------------------------------------------

  #stage(name: TableName, key: AnyKey, record: AnyRecord | undefined): void {
    if (this.#replacement) throw new Error('a reset transaction stages nothing else');
    if (isSlugged(name)) {
      const old = this.get(name, key as number) as { id: number; slug: string; lang: string } | undefined;
      this.#base.slugs.stage(this.#slugs, name, old, record as { id: number; slug: string; lang: string } | undefined);
    }
    let rows = this.#rows.get(name);
    if (!rows) this.#rows.set(name, (rows = new Map()));
    rows.set(key, record);
    const seq = TABLES[name].seq;
    // IDs given by the caller (fixtures, put of a record with its own ID) move the sequence past them.
    if (record !== undefined && seq && typeof key === 'number' && key >= this.#seq[seq]) this.#seq[seq] = key + 1;
  }

  /** Stages a record (copied, compacted and frozen); returns what will be stored. */
  put<N extends TableName>(name: N, record: AllTables[N] | Stored<AllTables[N]>): Stored<AllTables[N]> {
    const frozen = frozenCompact(record) as Stored<AllTables[N]>;
    this.#stage(name, keyOf(name, frozen), frozen as AnyRecord);
    return frozen;
  }

  /** `put` for a record object built for this write and handed over: frozen in place instead of copied. */
  putOwned<N extends TableName>(name: N, record: AllTables[N]): Stored<AllTables[N]> {
    const frozen = freezeOwned(record) as Stored<AllTables[N]>;
    this.#stage(name, keyOf(name, frozen), frozen as AnyRecord);
    return frozen;
  }

  delete<N extends TableName>(name: N, key: AnyKey): Stored<AllTables[N]> | undefined {
    const old = this.get(name, key);
    if (old !== undefined) this.#stage(name, key as AnyKey, undefined);
    return old;
  }

  setSingleton<K extends keyof Singletons>(name: K, value: DeepReadonly<Singletons[K]>): void {
    this.#single = Object.freeze({ ...this.#single, [name]: value }) as DeepReadonly<Singletons>;
    this.#singletonsChanged[name] = value;
  }

  /** Takes the next ID of a sequence (given back, with everything else, if the write is refused). */
  nextId(name: keyof Sequences): number {
    return this.#seq[name]++;
  }

  /** Moves a sequence up to `atLeast` (IDs a caller chose, such as a slider's slides). */
  raiseSequence(name: keyof Sequences, atLeast: number): void {
    if (this.#seq[name] < atLeast) this.#seq[name] = atLeast;
  }

  /**
   * Replaces the whole state with `data` (a reset). The sequences stay where they are when they are ahead of the
   * data's: IDs handed out before are never handed out again.
   */
  replaceAll(data: DeepReadonly<StoreData>): void {
    if (this.#rows.size > 0 || this.#replacement) throw new Error('a reset transaction stages nothing else');
    this.#replacement = data;
    for (const name of Object.keys(this.#seq) as (keyof Sequences)[]) this.#seq[name] = Math.max(this.#seq[name], data.sequences[name]);
  }

  /** Sets the sequences outright (replaying a journal: they are what the original commit left). */
  setSequences(sequences: Readonly<Sequences>): void {
    this.#seq = { ...sequences };
  }

  /** What this write is, for the listeners; the first one said wins (a write may call other writes). */
  describe(change: StoreChange): void {
    this.#change ??= change;
  }

  staged(): Staged {
    return {
      rows: this.#rows,
      single: this.#single,
      singletonsChanged: this.#singletonsChanged as Partial<DeepReadonly<Singletons>>,
      sequences: this.#seq,
      slugs: this.#slugs,
      ...(this.#replacement ? { replacement: this.#replacement } : {}),
      change: this.#change ?? { collection: '*', op: 'update' },
    };
  }
}
