// The add-on records' writes (contact forms, SEO, page builder, learning module, translation, sliders, users,
// import jobs): put, insert, remove with what depends on the removed record, the one-active-theme switch, and the
// settings objects. Each write is checked against the model's add-on rules (contracts/model/addon-rules.ts), the
// same ones the fixture loader runs over a whole set, read through the transaction, and refused before anything
// is committed.

import { shareUnchanged } from './delta.ts';
import { brokenByRemoval, brokenByWrite, brokenInvariant, type BrokenRule } from '../../../contracts/model/addon-rules.ts';
import { brokenTimeZone } from '../../../contracts/model/calendar-rules.ts';
import { recordProblems } from '../../../contracts/model/check.ts';
import { refuseCalendar } from './calendar-refusals.ts';
import type { CalendarSettings } from '../../../contracts/model/records.ts';
import { keyOf, TABLES, type KeyOf, type RecordTableName, type RecordTables, type Stored } from '../../../contracts/model/tables.ts';
import { dropObjectRecords } from './links.ts';
import { SINGLETON_DEFS, type Singletons } from './registry.ts';
import { invalid, StoreError } from './store-error.ts';
import { deepFreeze, type DeepReadonly } from './table.ts';
import type { Tx } from './transaction.ts';

type Rec<N extends RecordTableName> = Stored<RecordTables[N]>;

/** A broken rule as the store's refusal. */
function refuse(broken: BrokenRule | undefined): void {
  if (broken) throw new StoreError(broken.kind === 'reference' ? 'invalid_reference' : 'conflict', broken.message, broken.field);
}

/** Inserts or replaces a record after checking it; a new numeric key moves the table's sequence past it. */
export function putRecord<N extends RecordTableName>(tx: Tx, name: N, record: RecordTables[N] | Rec<N>): Rec<N> {
  const spec = TABLES[name];
  const problems = recordProblems(spec.def, record);
  if (problems.length) throw invalid(spec.def, problems);
  const r = record as Rec<N>;
  refuse(brokenByWrite(tx, name, r));
  const key = keyOf(name, r as never);
  tx.describe({ collection: name, op: tx.has(name, key) ? 'update' : 'create', key });
  const stored = tx.put(name, r as never) as Rec<N>;
  refuse(brokenInvariant(tx, name));
  if (name === 'sliders') for (const s of (r as Rec<'sliders'>).slides) tx.raiseSequence('slide', s.id + 1);
  return stored;
}

/** Allocates the table's next ID and inserts what `build` makes of it, in the same transaction. */
export function insertRecord<N extends RecordTableName>(tx: Tx, name: N, build: (id: number) => RecordTables[N]): Rec<N> {
  const seq = TABLES[name].seq;
  if (!seq) throw new StoreError('invalid_value', `${name} is keyed by a caller-chosen key; use put`);
  return putRecord(tx, name, build(tx.nextId(seq)));
}

/** Removes a record and what depends on it (a form's submissions, a user's tokens, a package's jobs...). */
export function removeRecord<N extends RecordTableName>(tx: Tx, name: N, key: KeyOf<N>): Rec<N> | undefined {
  const old = tx.get(name, key as never) as Rec<N> | undefined;
  if (!old) return undefined;
  tx.describe({ collection: name, op: 'delete', key });
  refuse(brokenByRemoval(tx, name, key));
  tx.delete(name, key as never);
  refuse(brokenInvariant(tx, name));
  switch (name) {
    case 'contactForms':
      for (const f of tx.values('feedback')) if (f.form_id === key) tx.delete('feedback', f.id);
      dropObjectRecords(tx, 'post', key as number);
      break;
    case 'lmsUsers':
      for (const tk of tx.values('lmsTokens')) if (tk.username === key) tx.delete('lmsTokens', tk.token);
      break;
    case 'translationStrings':
      for (const p of tx.values('stringPackages')) {
        if (p.stringIds.includes(key as number)) tx.put('stringPackages', { ...p, stringIds: p.stringIds.filter((s) => s !== key) });
      }
      break;
    case 'stringPackages':
      for (const j of tx.values('translationJobs')) if (j.elementType === 'package' && j.elementId === key) tx.delete('translationJobs', j.id);
      break;
    case 'users':
      dropObjectRecords(tx, 'user', key as number);
      break;
    default:
      break;
  }
  return old;
}

/** Makes one theme active and every other one inactive. */
export function activateTheme(tx: Tx, slug: string): Rec<'pbThemes'> {
  const theme = tx.get('pbThemes', slug);
  if (!theme) throw new StoreError('not_found', `no theme ${JSON.stringify(slug)}`, 'slug');
  tx.describe({ collection: 'pbThemes', op: 'update', key: slug });
  for (const t of tx.values('pbThemes')) if (t.status === 'active' && t.slug !== slug) tx.put('pbThemes', { ...t, status: 'inactive' });
  return tx.put('pbThemes', { ...theme, status: 'active' });
}

/** Replaces a settings object after checking it against its definition. */
export function setSingleton<K extends keyof Singletons>(tx: Tx, name: K, value: Singletons[K] | DeepReadonly<Singletons[K]>): DeepReadonly<Singletons[K]> {
  const def = SINGLETON_DEFS[name];
  const problems = def ? recordProblems(def, value) : typeof value === 'string' ? [] : ['(record) must be string'];
  if (problems.length) throw invalid(name, problems);
  // The site's time zone is held to the events' rule (the type only words refusals that name one; this one does not).
  if (name === 'calendarSettings') refuseCalendar('event', brokenTimeZone('timezone', (value as CalendarSettings).timezone));
  tx.describe({ collection: name, op: 'update' });
  // The parts the save left as they were stay the stored objects: shared in memory, and the journal writes only
  // what changed (delta.ts).
  tx.setSingleton(name, deepFreeze(shareUnchanged(tx.single[name], structuredClone(value) as Singletons[K])));
  return tx.single[name];
}
