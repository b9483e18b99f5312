// The mock's in-memory state: reads straight from the tables, writes as transactions.
//
// Every method is synchronous: an ID is taken from its sequence and the record inserted in the same
// turn of the event loop, so any number of concurrent requests get distinct IDs without locks.
// Every write runs its rules (post-rules.ts, term-rules.ts, addon-writes.ts) against a transaction and is
// committed only when all of them pass (registry.ts): a refused write changes nothing, not the records, not
// the version, not the sequences, not the slug hints. Every write is checked against contracts/model/schema.json and
// the fixture loader's cross-record rules, so the state can always be saved and loaded again.

import { activateTheme, insertRecord, putRecord, removeRecord, setSingleton } from './addon-writes.ts';
import { recordProblems } from '../../../contracts/model/check.ts';
import { minimumSequences } from '../../../contracts/model/integrity.ts';
import type { FixtureSet, Lang, PostType, PostTypeMap, Sequences, StoreData, TermType, TermTypeMap } from '../../../contracts/model/records.ts';
import { createPost, deletePost, trashPost, untrashPost, updatePost, WallClock, type PostInput } from './post-rules.ts';
import { Registry, SINGLETON_DEFS, type Listener, type RowChange, type Singletons } from './registry.ts';
import { TABLES, type KeyOf, type RecordTableName, type RecordTables, type Stored, type TableName } from '../../../contracts/model/tables.ts';
import { firstFreeSuffix, isReservedPostSlug, sanitizeTitle, withSuffix } from '../../../contracts/wordpress/slug.ts';
import { snapshotOf } from './snapshot.ts';
import { invalid } from './store-error.ts';
import { deepFreeze, type DeepReadonly, type ReadTable } from './table.ts';
import { createTerm, deleteTerm, updateTerm, type TermInput } from './term-rules.ts';
import { Tx } from './transaction.ts';
import { applyPatch, type Patch } from './delta.ts';

export { StoreError } from './store-error.ts';
export type { PostInput } from './post-rules.ts';
export type { Commit, RowChange, StoreChange } from './registry.ts';
export type { Stored, TableName } from '../../../contracts/model/tables.ts';
export { diffSnapshots } from './snapshot.ts';

export interface StoreOptions {
  /** Clock for `date`/`modified` of new and updated posts. */
  now?: () => Date;
}

/** A committed transaction as the state file's journal keeps it, to be applied again on the next start. */
export interface RecordedCommit {
  reset: boolean;
  rows: readonly RowChange[];
  singletons: Partial<DeepReadonly<Singletons>>;
  /** Settings saved as what changed (the journal's `patch`), applied to the value before. */
  patches?: Readonly<Record<string, Patch>>;
  sequences: Readonly<Sequences>;
}

/** Fixture set + sequences derived from it: the state `reset()` returns to. */
export function fixturesToData(set: FixtureSet): StoreData {
  return { version: 1, sequences: minimumSequences(set), calendar: set.calendar, addons: set.addons, users: set.users };
}

export class Store {
  readonly #reg: Registry;
  readonly #baseline: DeepReadonly<StoreData>;
  readonly #now: () => Date;
  readonly #clock = new WallClock();
  #countCache: { version: number; counts: Map<number, number> } | undefined;

  /**
   * `baseline` is what reset() returns to; `state` (e.g. from a state file) is where the store starts.
   * Both must already be valid (loadFixtures / parseStateText check that); their records get frozen.
   */
  constructor(baseline: DeepReadonly<StoreData>, options: StoreOptions = {}, state: DeepReadonly<StoreData> | Store = baseline) {
    this.#now = options.now ?? (() => new Date());
    deepFreeze(baseline);
    this.#baseline = baseline;
    // Cloning shares the frozen records and copies only the maps that point at them.
    if (!(state instanceof Store)) deepFreeze(state);
    this.#reg = new Registry(state instanceof Store ? state.#reg : state);
  }

  // ---- read access ------------------------------------------------------------------------------

  get events(): ReadTable<number, PostTypeMap['event']> { return this.#reg.tables.event; }
  get venues(): ReadTable<number, PostTypeMap['venue']> { return this.#reg.tables.venue; }
  get organizers(): ReadTable<number, PostTypeMap['organizer']> { return this.#reg.tables.organizer; }
  get categories(): ReadTable<number, TermTypeMap['category']> { return this.#reg.tables.category; }
  get tags(): ReadTable<number, TermTypeMap['tag']> { return this.#reg.tables.tag; }

  posts<K extends PostType>(type: K): ReadTable<number, PostTypeMap[K]> {
    return this.#reg.tables[type] as unknown as ReadTable<number, PostTypeMap[K]>;
  }

  terms<K extends TermType>(type: K): ReadTable<number, TermTypeMap[K]> {
    return this.#reg.tables[type] as unknown as ReadTable<number, TermTypeMap[K]>;
  }

  table<N extends RecordTableName>(name: N): ReadTable<KeyOf<N>, RecordTables[N]> {
    return this.#reg.tables[name] as unknown as ReadTable<KeyOf<N>, RecordTables[N]>;
  }

  get<K extends keyof Singletons>(name: K): DeepReadonly<Singletons[K]> {
    return this.#reg.single[name];
  }

  /** Current sequence values (the next ID each would hand out). */
  get sequences(): Readonly<Sequences> {
    return { ...this.#reg.sequences };
  }

  /** Bumped by every committed write; a cheap "did anything change" check. */
  get version(): number {
    return this.#reg.version;
  }

  /**
   * Post or term by slug in a language. The slug is normalised the way WordPress normalises a
   * queried slug, so both `день` and `%d0%b4%d0%b5%d0%bd%d1%8c` find the same record.
   */
  bySlug<K extends PostType | TermType>(type: K, slug: string, lang: Lang): Stored<(PostTypeMap & TermTypeMap)[K]> | undefined {
    const id = this.#reg.slugs.owner(type, lang, sanitizeTitle(slug));
    return id === undefined ? undefined : ((this.#reg.tables[type] as ReadTable<number, unknown>).get(id) as Stored<(PostTypeMap & TermTypeMap)[K]>);
  }

  /**
   * get_sample_permalink()'s wp_unique_post_slug() for a post that exists (`id`): `desired` (already sanitized), or
   * its first `-N` that no other post of the type and language owns. The search starts where the slug index's hint
   * says every lower suffix is owned, so that a run of posts with one title is not searched from 2 for each (the
   * edit context of every create answer asks this): among the owned suffixes the post's own slug answers at once.
   * transactions.test.ts holds it equal to the plain uniqueSlug() search over its model after every write.
   */
  sampleSlug(type: PostType, lang: Lang, desired: string, id: number): string {
    const slugs = this.#reg.slugs;
    const taken = (slug: string): boolean => {
      const owner = slugs.owner(type, lang, slug);
      return owner !== undefined && owner !== id;
    };
    if (!isReservedPostSlug(desired) && !taken(desired)) return desired;
    const from = slugs.hint(type, lang, desired);
    const own = (this.#reg.tables[type] as ReadTable<number, { slug: string; lang: string }>).get(id);
    const suffix = own && own.lang === lang ? /-(\d+)$/.exec(own.slug) : null;
    const n = suffix ? Number(suffix[1]) : 0;
    if (n >= 2 && n < from && withSuffix(desired, n) === own!.slug) return own!.slug;
    return withSuffix(desired, firstFreeSuffix(desired, taken, from));
  }

  /** Published events per term ID (WordPress counts published posts only); recomputed after writes. */
  termCounts(): ReadonlyMap<number, number> {
    if (this.#countCache?.version === this.version) return this.#countCache.counts;
    const counts = new Map<number, number>();
    for (const e of this.#reg.tables.event.values()) {
      if (e.status !== 'publish') continue;
      for (const id of [...e.categories, ...e.tags]) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    this.#countCache = { version: this.version, counts };
    return counts;
  }

  /** The slug index's remembered suffix hints, as plain data (tests: a refused write leaves them alone). */
  slugHints(): Record<string, Record<string, number>> {
    return this.#reg.slugs.hints();
  }

  // ---- change notification ----------------------------------------------------------------------

  /** Called after every commit with what changed (and the commit itself); returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    return this.#reg.subscribe(listener);
  }

  // ---- undo: what a state file could not save is taken back ------------------------------------

  /**
   * From now on every commit can be undone until it is settled (persist.ts calls this: a commit is applied at once,
   * so that the requests after it see it, but no answer that saw it goes out before the journal has it); `false` when
   * the state file closes.
   */
  keepUndo(keep = true): void {
    this.#reg.keepUndo(keep);
  }

  /** The commits up to `version` are saved: they will not be undone. */
  settle(version: number): void {
    this.#reg.settle(version);
  }

  /**
   * Undoes every commit after `version` (the journal could not take them): the state is exactly as it was then, rows
   * in their order, sequences and all; the version moves on to a new number. Returns it.
   */
  undoAfter(version: number): number {
    return this.#reg.undoAfter(version);
  }

  /** `listener(from, to)`: the commits after `from` up to `to` were undone. Returns the unsubscribe function. */
  onUndo(listener: (from: number, to: number) => void): () => void {
    return this.#reg.onUndo(listener);
  }

  // ---- writes -----------------------------------------------------------------------------------

  /** Runs `rules` in a transaction and commits what it staged; if it throws, nothing changed. */
  #write<R>(rules: (tx: Tx) => R): R {
    const tx = new Tx(this.#reg);
    const result = rules(tx);
    this.#reg.commit(tx.staged());
    return result;
  }

  #postWrite<R>(rules: (w: { tx: Tx; now: Date; clock: WallClock }) => R): R {
    const now = this.#now();
    return this.#write((tx) => rules({ tx, now, clock: this.#clock }));
  }

  createPost<K extends PostType>(type: K, input: PostInput<K>): Stored<PostTypeMap[K]> {
    return this.#postWrite((w) => createPost(w, type, input));
  }

  updatePost<K extends PostType>(type: K, id: number, patch: PostInput<K>): Stored<PostTypeMap[K]> {
    return this.#postWrite((w) => updatePost(w, type, id, patch));
  }

  /** Moves a post to the trash the WordPress way: status `trash`, slug freed as `<slug>__trashed`. */
  trashPost<K extends PostType>(type: K, id: number): Stored<PostTypeMap[K]> {
    return this.#postWrite((w) => trashPost(w, type, id));
  }

  /** Takes a post out of the trash: a draft (WordPress >= 5.6) unless `restoreStatus`; its old slug if still free. */
  untrashPost<K extends PostType>(type: K, id: number, options: { restoreStatus?: boolean } = {}): Stored<PostTypeMap[K]> {
    return this.#postWrite((w) => untrashPost(w, type, id, options));
  }

  /** Deletes a post for good, and cleans up what pointed at it (see post-rules.ts). */
  deletePost<K extends PostType>(type: K, id: number): Stored<PostTypeMap[K]> {
    return this.#postWrite((w) => deletePost(w, type, id));
  }

  createTerm<K extends TermType>(type: K, input: TermInput<K>): Stored<TermTypeMap[K]> {
    return this.#write((tx) => createTerm(tx, type, input));
  }

  updateTerm<K extends TermType>(type: K, id: number, patch: TermInput<K>): Stored<TermTypeMap[K]> {
    return this.#write((tx) => updateTerm(tx, type, id, patch));
  }

  /** Deletes a term: events drop it, child categories move up to its parent, translations unlink. */
  deleteTerm<K extends TermType>(type: K, id: number): Stored<TermTypeMap[K]> {
    return this.#write((tx) => deleteTerm(tx, type, id));
  }

  /**
   * Inserts or replaces a record of an add-on (or import-job, user) table after checking it. For a
   * new record with a numeric ID, let `insert` take the ID.
   */
  put<N extends RecordTableName>(name: N, record: RecordTables[N] | Stored<RecordTables[N]>): Stored<RecordTables[N]> {
    return this.#write((tx) => putRecord(tx, name, record));
  }

  /** Allocates the table's next ID and inserts what `build` makes of it, in one transaction. */
  insert<N extends RecordTableName>(name: N, build: (id: number) => RecordTables[N]): Stored<RecordTables[N]> {
    return this.#write((tx) => insertRecord(tx, name, build));
  }

  /** Removes a record and what depends on it (a form's submissions, a user's tokens, a package's jobs...). */
  remove<N extends RecordTableName>(name: N, key: KeyOf<N>): Stored<RecordTables[N]> | undefined {
    // Removing what is not there is no write.
    if (!this.#reg.tables[name].has(key as never)) return undefined;
    return this.#write((tx) => removeRecord(tx, name, key));
  }

  /** Makes one theme active and every other one inactive. */
  activateTheme(slug: string): Stored<RecordTables['pbThemes']> {
    return this.#write((tx) => activateTheme(tx, slug));
  }

  set<K extends keyof Singletons>(name: K, value: Singletons[K] | DeepReadonly<Singletons[K]>): DeepReadonly<Singletons[K]> {
    return this.#write((tx) => setSingleton(tx, name, value));
  }

  /**
   * Back to the fixtures the store was created with. The sequences stay where they are: an ID handed out before
   * the reset is never handed out again (a client may still hold it, and a state file's journal has it).
   */
  reset(): void {
    this.#write((tx) => {
      tx.describe({ collection: '*', op: 'reset' });
      tx.replaceAll(this.#baseline);
    });
  }

  /**
   * Applies a recorded commit again, as it was (the state file's journal on start): the records are checked against
   * the schema, not the rules, which held when they were committed.
   */
  replay(entry: RecordedCommit): void {
    this.#write((tx) => {
      tx.describe({ collection: '*', op: entry.reset ? 'reset' : 'update' });
      if (entry.reset) tx.replaceAll(this.#baseline);
      for (const row of entry.rows) {
        if (row.record === undefined) {
          tx.delete(row.table, row.key as never);
          continue;
        }
        const problems = recordProblems(TABLES[row.table].def, row.record);
        if (problems.length) throw invalid(row.table, problems);
        tx.put(row.table as TableName, row.record as never);
      }
      const patched = Object.entries(entry.patches ?? {}).map(([name, p]) => [name, applyPatch(tx.single[name as keyof Singletons], p)] as const);
      for (const [name, value] of [...Object.entries(entry.singletons), ...patched] as [keyof Singletons, unknown][]) {
        const def = SINGLETON_DEFS[name];
        const problems = def ? recordProblems(def, value) : typeof value === 'string' ? [] : ['(record) must be string'];
        if (problems.length) throw invalid(name, problems);
        tx.setSingleton(name, deepFreeze(value) as never);
      }
      tx.setSequences(entry.sequences);
    });
  }

  // ---- whole-state operations -------------------------------------------------------------------

  /**
   * The whole state as plain data, records in ID (insertion) order. Frozen and sharing records with
   * the store, so it is cheap, and it cannot change when the store changes later: compare two with
   * `toEqual` or `diffSnapshots`, or JSON.stringify one for a state file.
   */
  snapshot(): DeepReadonly<StoreData> {
    return snapshotOf(this.#reg, this.#baseline);
  }

  /** An independent store with the same state and baseline; records are shared (they are frozen). */
  clone(options: StoreOptions = { now: this.#now }): Store {
    return new Store(this.#baseline, options, this);
  }
}

/** A store over a fixture set; `state` (e.g. from a state file) overrides where it starts. */
export function createStore(fixtures: FixtureSet, options: StoreOptions & { state?: StoreData } = {}): Store {
  const baseline = fixturesToData(fixtures);
  return new Store(baseline, options, options.state ?? baseline);
}
