// What a cross-record rule may ask about the other records, and the answers every such rule shares (what kind of
// post an ID is, whether an object a record is about exists). Two things answer it: the mock's store transaction
// (seeing the writes it has staged) and a whole fixture set (`worldOf`), so a rule is written once for both.

import type { FixtureSet, PostType, TermType } from './records.ts';
import { keyOf, rowsOf, type AllTables, type KeyOf, type Stored, type TableName } from './tables.ts';

/** The post and term tables: their records have slugs and may translate one another. */
export type CalendarTable = PostType | TermType;

/** Read-only access to the records a rule checks one record against. */
export interface RecordWorld {
  has<N extends TableName>(name: N, key: KeyOf<N>): boolean;
  get<N extends TableName>(name: N, key: KeyOf<N>): Stored<AllTables[N]> | undefined;
  values<N extends TableName>(name: N): readonly Stored<AllTables[N]>[];
  find<N extends TableName>(name: N, predicate: (record: Stored<AllTables[N]>) => boolean): Stored<AllTables[N]> | undefined;
  /** The ID of the record of `type` holding `slug` in `lang` (slugs are unique per type and language). */
  slugOwner(type: CalendarTable, lang: string, slug: string): number | undefined;
  /** The records of `type` whose translation_of is `id`, in table order. */
  translationsOf<N extends CalendarTable>(type: N, id: number): readonly Stored<AllTables[N]>[];
}

/**
 * A fixture set as a RecordWorld. Each index (keys, slugs, translations) is built the first time a rule asks about
 * its table, so a whole set is checked in linear time: a rule asking per record must not scan the table per record.
 * Where two records share a key, `get` answers the last and `slugOwner` the first, as the set's checks report them.
 */
export function worldOf(set: FixtureSet): RecordWorld {
  const rows = rowsOf(set) as Record<TableName, readonly object[]>;
  const byKey = new Map<TableName, Map<string | number, object>>();
  const slugs = new Map<CalendarTable, Map<string, number>>();
  const translations = new Map<CalendarTable, Map<number, object[]>>();
  const keyed = (name: TableName) => {
    let known = byKey.get(name);
    if (!known) byKey.set(name, (known = new Map(rows[name].map((r) => [keyOf(name, r as never), r]))));
    return known;
  };
  return {
    has: (name, key) => keyed(name).has(key),
    get: (name, key) => keyed(name).get(key) as never,
    values: (name) => rows[name] as never,
    find: (name, predicate) => (rows[name] as readonly Stored<AllTables[typeof name]>[]).find(predicate),
    slugOwner: (type, lang, slug) => {
      let owners = slugs.get(type);
      if (!owners) {
        slugs.set(type, (owners = new Map()));
        for (const r of rows[type] as readonly Slugged[]) {
          const k = `${r.lang}\u0000${r.slug}`;
          if (r.slug !== '' && !owners.has(k)) owners.set(k, r.id);
        }
      }
      return owners.get(`${lang}\u0000${slug}`);
    },
    translationsOf: (type, id) => {
      let of = translations.get(type);
      if (!of) {
        translations.set(type, (of = new Map()));
        for (const r of rows[type] as readonly Slugged[]) {
          if (r.translation_of === undefined) continue;
          const list = of.get(r.translation_of);
          if (list) list.push(r);
          else of.set(r.translation_of, [r]);
        }
      }
      return (of.get(id) ?? []) as never;
    },
  };
}

type Slugged = { id: number; slug: string; lang: string; translation_of?: number };

/** What kind of post an ID names (contact forms are posts too), if any. */
export function postTypeOf(world: RecordWorld, id: number): PostType | 'contactForm' | undefined {
  if (world.has('event', id)) return 'event';
  if (world.has('venue', id)) return 'venue';
  if (world.has('organizer', id)) return 'organizer';
  if (world.has('contactForms', id)) return 'contactForm';
  return undefined;
}

/** Whether the post, term or user an add-on record is about exists. */
export function objectExists(world: RecordWorld, type: string, id: number): boolean {
  if (type === 'post') return postTypeOf(world, id) !== undefined;
  if (type === 'term') return world.has('category', id) || world.has('tag', id);
  return world.has('users', id);
}
