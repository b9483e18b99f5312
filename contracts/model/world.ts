// What a cross-record rule may ask about the other records, and the answers every such rule shares (what kind of
// post an ID is, whether an object a record is about exists). Two things answer it: the mock's store transaction
// (seeing the writes it has staged) and a whole fixture set (`worldOf`), so a rule is written once for both.

import type { FixtureSet, PostType } from './records.ts';
import { keyOf, rowsOf, type AllTables, type KeyOf, type Stored, type TableName } from './tables.ts';

/** Read-only access to the records a rule checks one record against. */
export interface RecordWorld {
  has<N extends TableName>(name: N, key: KeyOf<N>): boolean;
  values<N extends TableName>(name: N): readonly Stored<AllTables[N]>[];
  find<N extends TableName>(name: N, predicate: (record: Stored<AllTables[N]>) => boolean): Stored<AllTables[N]> | undefined;
}

/** A fixture set as a RecordWorld; each table's keys are indexed the first time a rule asks about it. */
export function worldOf(set: FixtureSet): RecordWorld {
  const rows = rowsOf(set) as Record<TableName, readonly object[]>;
  const keys = new Map<TableName, Set<string | number>>();
  return {
    has: (name, key) => {
      let known = keys.get(name);
      if (!known) keys.set(name, (known = new Set(rows[name].map((r) => keyOf(name, r as never)))));
      return known.has(key);
    },
    values: (name) => rows[name] as never,
    find: (name, predicate) => (rows[name] as readonly Stored<AllTables[typeof name]>[]).find(predicate),
  };
}

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
