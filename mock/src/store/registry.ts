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
    if (staged.replacement) {
      ({ tables: this.#tables, writers: this.#writers } = openTables(staged.replacement));
      this.#single = singletonsOf(staged.replacement);
      this.#slugs = SlugIndex.build((type) => this.#tables[type].values());
    } else {
      for (const [name, changes] of staged.rows) {
        const writer = this.#writers[name] as unknown as RowWriter<string | number, AnyRecord>;
        for (const [key, record] of changes) {
          if (record === undefined) writer.delete(key);
          else writer.set(key, record);
          rows.push({ table: name, key, record });
        }
      }
      this.#single = staged.single;
      this.#slugs.apply(staged.slugs);
    }
    this.#seq = staged.sequences;
    this.#version++;
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
}
