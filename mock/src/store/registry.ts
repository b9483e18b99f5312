// The store's tables, what is derived from them (slug index, version), and the one place that changes them:
// `commit()`. Rules never touch a table: they stage their writes in a transaction (transaction.ts), and a write
// that passes every check is applied here in one synchronous step (rows, slug index, singletons, sequences,
// version, listeners). The row writers live in a private field of the registry, so nothing else can change a row.

import type { RecordDef } from '../../../contracts/model/check.ts';
import type {
  AmsState, CalendarSettings, JsonObject, OnOff, PageBuilderConnection, SeoMode, Sequences, StoreData, TranslationSettings,
} from '../../../contracts/model/records.ts';
import { keyOf, rowsOf, TABLE_NAMES, TABLES, type AllTables, type KeyOf, type TableName } from '../../../contracts/model/tables.ts';
import { SlugIndex, type SlugOverlay } from './slug-index.ts';
import { deepFreeze, Table, type DeepReadonly, type RowWriter } from './table.ts';

type Tables = { [N in TableName]: Table<KeyOf<N>, AllTables[N]> };
type Writers = { [N in TableName]: RowWriter<KeyOf<N>, AllTables[N]> };

export interface Singletons {
  calendarSettings: CalendarSettings;
  seoModules: Record<string, OnOff>;
  seoMode: SeoMode;
  seoSettings: JsonObject;
  pageBuilderSettings: JsonObject;
  pageBuilderConnection: PageBuilderConnection;
  translationSettings: TranslationSettings;
  customXmlConfig: string;
  ams: AmsState;
}

export const SINGLETON_DEFS: Record<keyof Singletons, RecordDef | undefined> = {
  calendarSettings: 'calendarSettings',
  seoModules: 'seoModules',
  seoMode: 'seoMode',
  seoSettings: 'jsonObject',
  pageBuilderSettings: 'jsonObject',
  pageBuilderConnection: 'pbConnection',
  translationSettings: 'translationSettings',
  customXmlConfig: undefined,
  ams: 'ams',
};

type AnyRecord = DeepReadonly<object>;

function singletonsOf(data: DeepReadonly<StoreData>): DeepReadonly<Singletons> {
  const a = data.addons;
  return deepFreeze({
    calendarSettings: data.calendar.settings,
    seoModules: a.seo.modules,
    seoMode: a.seo.mode,
    seoSettings: a.seo.settings,
    pageBuilderSettings: a.pageBuilder.settings,
    pageBuilderConnection: a.pageBuilder.connection,
    translationSettings: a.translation.settings,
    customXmlConfig: a.translation.customXmlConfig,
    ams: a.translation.ams,
  } as Singletons);
}

/** What one write was, for listeners that only need to know something changed (caches, the old persister API). */
export interface StoreChange {
  collection: string;
  op: 'create' | 'update' | 'delete' | 'reset';
  key?: string | number;
}

/** One row a commit changed: its new record, or `undefined` when it was deleted. */
export interface RowChange {
  table: TableName;
  key: string | number;
  record: AnyRecord | undefined;
}

/** Everything a transaction staged; the registry's commit applies it. */
export interface Staged {
  /** table -> key -> new record, or undefined for a deleted row; in staging order. */
  rows: ReadonlyMap<TableName, ReadonlyMap<string | number, AnyRecord | undefined>>;
  single: DeepReadonly<Singletons>;
  singletonsChanged: Partial<DeepReadonly<Singletons>>;
  sequences: Sequences;
  slugs: SlugOverlay;
  /** Set by a reset: the whole state becomes this. */
  replacement?: DeepReadonly<StoreData>;
  change: StoreChange;
}

/** A committed transaction, everything needed to apply it again (the state file's journal records these). */
export interface Commit {
  /** The registry's version after this commit. */
  version: number;
  change: StoreChange;
  rows: readonly RowChange[];
  singletons: Partial<DeepReadonly<Singletons>>;
  /** The values those singletons had before: the journal records a settings save by what it changed (delta.ts). */
  singletonsBefore: Partial<DeepReadonly<Singletons>>;
  /** The sequences after the commit (never lower than before: IDs are not handed out twice). */
  sequences: Readonly<Sequences>;
  /** The whole state was replaced by the baseline (reset), rows and singletons with it. */
  reset: boolean;
}

export type Listener = (change: StoreChange, commit: Commit) => void;

/** Commits from `from` (exclusive) to `to` (inclusive) were undone; the state is as it was at `from`. */
type UndoListener = (from: number, to: number) => void;

/** What one commit replaced, so that it can be undone while the state file has not taken it (persist.ts). */
interface UndoEntry {
  /** The version this commit made. */
  version: number;
  /** Rows as they were, in the order the commit changed them: the record before (undefined: there was none) and, for a row the commit deleted, its position. */
  rows: { table: TableName; key: string | number; before: AnyRecord | undefined; position: number | undefined }[];
  single: DeepReadonly<Singletons>;
  seq: Sequences;
  /** A reset replaced the tables themselves: the old ones, untouched since. */
  replaced?: { tables: Tables; writers: Writers };
}

/** The read side every transaction starts from. */
export interface RegistryView {
  readonly tables: Tables;
  readonly single: DeepReadonly<Singletons>;
  readonly sequences: Readonly<Sequences>;
  readonly slugs: SlugIndex;
}

function openTables(data: DeepReadonly<StoreData>): { tables: Tables; writers: Writers } {
  const rows = rowsOf(data) as Record<TableName, readonly AnyRecord[]>;
  const tables = {} as Record<TableName, Table<string | number, object>>;
  const writers = {} as Record<TableName, RowWriter<string | number, object>>;
  for (const name of TABLE_NAMES) {
    const opened = Table.open<string | number, object>(TABLES[name].list, (r) => keyOf(name, r as never), rows[name]);
    tables[name] = opened.table;
    writers[name] = opened.writer;
  }
  return { tables: tables as unknown as Tables, writers: writers as unknown as Writers };
}

export class Registry implements RegistryView {
  #tables: Tables;
  #writers: Writers;
  #single: DeepReadonly<Singletons>;
  #seq: Sequences;
  #slugs: SlugIndex;
  #version = 0;
  readonly #listeners = new Set<Listener>();
  readonly #undoListeners = new Set<UndoListener>();
  /** Commits not yet settled, oldest first, while undo is kept (a state file: persist.ts); undefined otherwise. */
  #undo: UndoEntry[] | undefined;

  /** Over a state (already valid and frozen), or a copy of another registry sharing its frozen records. */
  constructor(source: DeepReadonly<StoreData> | Registry) {
    if (source instanceof Registry) {
      const tables = {} as Record<TableName, Table<string | number, object>>;
      const writers = {} as Record<TableName, RowWriter<string | number, object>>;
      for (const name of TABLE_NAMES) {
        const opened = Table.copy(source.#tables[name] as unknown as Table<string | number, object>);
        tables[name] = opened.table;
        writers[name] = opened.writer;
      }
      this.#tables = tables as unknown as Tables;
      this.#writers = writers as unknown as Writers;
      this.#single = source.#single;
      this.#seq = { ...source.#seq };
      this.#slugs = source.#slugs.copy();
      return;
    }
    ({ tables: this.#tables, writers: this.#writers } = openTables(source));
    this.#single = singletonsOf(source);
    this.#seq = { ...source.sequences };
    this.#slugs = SlugIndex.build((type) => this.#tables[type].values());
  }

  get tables(): Tables {
    return this.#tables;
  }

  get single(): DeepReadonly<Singletons> {
    return this.#single;
  }

  get sequences(): Readonly<Sequences> {
    return this.#seq;
  }

  get slugs(): SlugIndex {
    return this.#slugs;
  }

  /** Bumped by every commit; a cheap "did anything change". */
  get version(): number {
    return this.#version;
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Applies what a transaction staged, in one synchronous step, then tells the listeners. */
  commit(staged: Staged): Commit {
    const rows: RowChange[] = [];
    const singletonsBefore: Partial<Record<keyof Singletons, unknown>> = {};
    for (const name of Object.keys(staged.singletonsChanged) as (keyof Singletons)[]) singletonsBefore[name] = this.#single[name];
    const undo: UndoEntry | undefined = this.#undo && { version: this.#version + 1, rows: [], single: this.#single, seq: this.#seq };
    if (staged.replacement) {
      if (undo) undo.replaced = { tables: this.#tables, writers: this.#writers };
      ({ tables: this.#tables, writers: this.#writers } = openTables(staged.replacement));
      this.#single = singletonsOf(staged.replacement);
      this.#slugs = SlugIndex.build((type) => this.#tables[type].values());
    } else {
      for (const [name, changes] of staged.rows) {
        const writer = this.#writers[name] as unknown as RowWriter<string | number, AnyRecord>;
        const table = this.#tables[name] as unknown as Table<string | number, AnyRecord>;
        for (const [key, record] of changes) {
          const before = undo ? table.get(key) : undefined;
          const position = record === undefined ? writer.delete(key) : (writer.set(key, record), undefined);
          if (undo) undo.rows.push({ table: name, key, before, position });
          rows.push({ table: name, key, record });
        }
      }
      this.#single = staged.single;
      this.#slugs.apply(staged.slugs);
    }
    this.#seq = staged.sequences;
    this.#version++;
    if (undo) this.#undo!.push(undo);
    const commit: Commit = {
      version: this.#version,
      change: staged.change,
      rows,
      singletons: staged.singletonsChanged,
      singletonsBefore: singletonsBefore as Partial<DeepReadonly<Singletons>>,
      sequences: this.#seq,
      reset: staged.replacement !== undefined,
    };
    for (const listener of this.#listeners) listener(commit.change, commit);
    return commit;
  }

  // ---- undo, while a state file has not taken a commit ----------------------------------------------

  /** From now on every commit can be undone until it is settled; `false`: no longer (what was kept is let go). */
  keepUndo(keep = true): void {
    if (keep) this.#undo ??= [];
    else this.#undo = undefined;
  }

  /** The commits up to `version` are saved: they are never undone, and what they replaced is let go. */
  settle(version: number): void {
    const undo = this.#undo;
    if (!undo || undo.length === 0) return;
    let n = 0;
    while (n < undo.length && undo[n]!.version <= version) n++;
    if (n > 0) undo.splice(0, n);
  }

  /**
   * Undoes every commit after `version`, newest first: rows, their positions, singletons, sequences, the slug index.
   * The version then moves on (never back), so nothing remembered of an undone state (memos keyed by version) is
   * taken for the state that follows. Returns the version after the undo; tells the undo listeners.
   */
  undoAfter(version: number): number {
    const undo = this.#undo ?? [];
    const from = this.#version;
    if (from <= version) return from;
    const kept = undo.length - undo.findIndex((e) => e.version > version);
    if (undo.length === 0 || kept !== from - version || undo.at(-1)!.version !== from) throw new Error(`commits ${version + 1}-${from} cannot be undone: the store keeps no undo for them`);
    const reorder = new Set<RowWriter<string | number, AnyRecord>>();
    for (let i = undo.length - 1; i >= 0 && undo[i]!.version > version; i--) {
      const entry = undo[i]!;
      if (entry.replaced) {
        this.#tables = entry.replaced.tables;
        this.#writers = entry.replaced.writers;
      }
      for (let j = entry.rows.length - 1; j >= 0; j--) {
        const { table, key, before, position } = entry.rows[j]!;
        const writer = this.#writers[table] as unknown as RowWriter<string | number, AnyRecord>;
        if (before === undefined) writer.delete(key);
        else if (position !== undefined) {
          writer.restore(key, before, position);
          reorder.add(writer);
        } else writer.set(key, before);
      }
      this.#single = entry.single;
      this.#seq = entry.seq;
      undo.length = i;
    }
    for (const writer of reorder) writer.reorder();
    // The hints the index learned are a memo; who owns which slug follows from the rows.
    this.#slugs = SlugIndex.build((type) => this.#tables[type].values());
    this.#version = from + 1;
    for (const listener of this.#undoListeners) listener(version, from);
    return this.#version;
  }

  /** Called when commits are undone (the state file could not save them); returns the unsubscribe function. */
  onUndo(listener: UndoListener): () => void {
    this.#undoListeners.add(listener);
    return () => this.#undoListeners.delete(listener);
  }
}
