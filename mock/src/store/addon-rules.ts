// The add-on records' rules (contact forms, SEO, page builder, learning module, translation, sliders, users,
// import jobs), written once: the fixture loader checks every record against them (integrity.ts), and the store
// checks each write against the same ones before committing it. Also the add-on writes themselves: put, insert,
// remove with what depends on the removed record, the one-active-theme switch, and the settings objects.

import { shareUnchanged } from './delta.ts';
import { recordProblems } from '../../../contracts/model/check.ts';
import type { PartIssue } from '../../../contracts/model/integrity.ts';
import { dropObjectRecords, objectExists, postTypeOf, type RecordWorld } from './links.ts';
import type { CalendarSettings, FixtureSet, Sequences, StoreData } from '../../../contracts/model/records.ts';
import { keyOf, rowsOf, SINGLETON_DEFS, TABLES, type KeyOf, type RecordTableName, type RecordTables, type Singletons, type Stored, type TableName } from './registry.ts';
import { invalid, StoreError } from './store-error.ts';
import { deepFreeze, type DeepReadonly } from './table.ts';
import { isKnownTimeZone } from '../../../contracts/wordpress/time.ts';
import type { Tx } from './transaction.ts';

type Rec<N extends RecordTableName> = Stored<RecordTables[N]>;

interface UniqueRule<N extends RecordTableName> {
  /** Two records of the table may not share this value (undefined: the record takes no part). */
  unique: (r: Rec<N>) => string | undefined;
  field: string;
  what: string;
}

interface RefRule<N extends RecordTableName> {
  /** The IDs a record points at; each must name a record `exists` accepts. */
  refs: (r: Rec<N>) => readonly (string | number)[];
  exists: (world: RecordWorld, id: string | number, r: Rec<N>) => boolean;
  field: string;
  /** Position of each ID under the field in the loader's pointers (lists); absent for a single value. */
  listed?: boolean;
  what: (r: Rec<N>) => string;
}

interface TableInvariant<N extends RecordTableName> {
  /** Over the whole table after the write: a broken rule as [index of the record, message], else undefined. */
  holds: (all: readonly Rec<N>[]) => [number, string] | undefined;
  field: string;
}

interface RecordRule<N extends RecordTableName> {
  problem: (r: Rec<N>) => string | undefined;
  field: string;
}

interface TableRules<N extends RecordTableName> {
  /** The file part and pointer of the table's list (messages of the loader). */
  part: keyof FixtureSet;
  at: string;
  /** What the key is called in the loader's duplicate messages; absent when another check covers it. */
  keyWhat?: string;
  unique?: UniqueRule<N>[];
  refs?: RefRule<N>[];
  record?: RecordRule<N>[];
  invariants?: TableInvariant<N>[];
}

const firstIndex = <T>(all: readonly T[], p: (x: T) => boolean): number => all.findIndex(p);

/** Each add-on table's rules. */
export type { RecordWorld } from './links.ts';

const ADDON_RULES: { [N in RecordTableName]: TableRules<N> } = {
  importJobs: { part: 'calendar', at: '/importJobs', keyWhat: 'import_id' },
  // Contact forms are posts: their IDs are checked with the other posts' (contracts/model/integrity.ts, and postIdClash below).
  contactForms: {
    part: 'addons', at: '/contactForms',
    unique: [{ unique: (f) => (f.slug === '' ? undefined : `'${f.slug}'`), field: 'slug', what: 'contact form slug' }],
  },
  feedback: {
    part: 'addons', at: '/feedback', keyWhat: 'feedback id',
    refs: [{ refs: (f) => [f.form_id], exists: (w, id) => w.has('contactForms', id as number), field: 'form_id', what: () => 'contact form' }],
  },
  seoRedirections: {
    part: 'addons', at: '/seo/redirections', keyWhat: 'object',
    refs: [{ refs: (o) => [o.objectID], exists: (w, id, o) => objectExists(w, o.objectType, id as number), field: 'objectID', what: (o) => o.objectType }],
  },
  seoObjects: {
    part: 'addons', at: '/seo/objects', keyWhat: 'object',
    refs: [{ refs: (o) => [o.objectID], exists: (w, id, o) => objectExists(w, o.objectType, id as number), field: 'objectID', what: (o) => o.objectType }],
  },
  trackedKeywords: {
    part: 'addons', at: '/seo/trackedKeywords', keyWhat: 'keyword id',
    unique: [{ unique: (k) => `'${k.keyword}' (${k.lang})`, field: 'keyword', what: 'keyword' }],
  },
  pbThemes: {
    part: 'addons', at: '/pageBuilder/themes', keyWhat: 'theme slug',
    invariants: [{
      field: 'status',
      holds: (all) => {
        const active = all.filter((t) => t.status === 'active');
        return active.length > 1 ? [all.indexOf(active[1]!), 'must be the only active theme (use activateTheme to switch)'] : undefined;
      },
    }],
  },
  pbPlugins: { part: 'addons', at: '/pageBuilder/plugins', keyWhat: 'plugin slug' },
  pbLogs: { part: 'addons', at: '/pageBuilder/logs', keyWhat: 'log id' },
  lmsUsers: { part: 'addons', at: '/lms/users', keyWhat: 'username' },
  lmsTokens: {
    part: 'addons', at: '/lms/tokens', keyWhat: 'token',
    refs: [{ refs: (t) => [t.username], exists: (w, u) => w.has('lmsUsers', u as string), field: 'username', what: () => 'learning-module user' }],
  },
  translationStrings: {
    part: 'addons', at: '/translation/strings', keyWhat: 'string id',
    unique: [{ unique: (s) => `'${s.domain}' '${s.context}' '${s.name}'`, field: 'name', what: 'string (domain, context, name)' }],
  },
  stringPackages: {
    part: 'addons', at: '/translation/packages', keyWhat: 'package id',
    refs: [{ refs: (p) => p.stringIds, exists: (w, id) => w.has('translationStrings', id as number), field: 'stringIds', listed: true, what: () => 'string' }],
  },
  translationJobs: {
    part: 'addons', at: '/translation/jobs', keyWhat: 'job id',
    refs: [{
      refs: (j) => [j.elementId],
      exists: (w, id, j) => (j.elementType === 'post' ? postTypeOf(w, id as number) !== undefined : w.has('stringPackages', id as number)),
      field: 'elementId',
      what: (j) => (j.elementType === 'post' ? 'post' : 'string package'),
    }],
    record: [{ problem: (j) => (j.sourceLanguageCode === j.targetLanguageCode ? 'must differ from sourceLanguageCode' : undefined), field: 'targetLanguageCode' }],
  },
  sliders: {
    part: 'addons', at: '/sliders', keyWhat: 'slider id',
    unique: [{ unique: (s) => s.alias, field: 'alias', what: 'slider alias' }],
    invariants: [{
      field: 'slides',
      holds: (all) => {
        const seen = new Set<number>();
        for (let i = 0; i < all.length; i++) {
          for (const slide of all[i]!.slides) {
            if (seen.has(slide.id)) return [i, `slide id ${slide.id} is used twice (slide ids are unique across sliders)`];
            seen.add(slide.id);
          }
        }
        return undefined;
      },
    }],
  },
  users: {
    part: 'users', at: '/users', keyWhat: 'user id',
    unique: [
      { unique: (u) => u.username, field: 'username', what: 'username' },
      { unique: (u) => u.email.toLowerCase(), field: 'email', what: 'e-mail' },
    ],
    invariants: [{
      field: 'roles',
      holds: (all) => (firstIndex(all, (u) => u.roles.includes('administrator')) < 0 ? [-1, 'must contain at least one user with the administrator role'] : undefined),
    }],
  },
};

// ---- the loader's side ------------------------------------------------------------------------------

/** A RecordWorld over a fixture set, for the loader. */
function fixtureWorld(set: FixtureSet): RecordWorld {
  const rows = rowsOf({ ...set, version: 1, sequences: {} as Sequences } as DeepReadonly<StoreData>) as Record<TableName, readonly object[]>;
  const keys = new Map<TableName, Set<string | number>>();
  return {
    has: (name, key) => {
      let set = keys.get(name);
      if (!set) keys.set(name, (set = new Set(rows[name].map((r) => keyOf(name, r as never)))));
      return set.has(key);
    },
    values: (name) => rows[name] as never,
  };
}

/** Every record of every add-on table against its rules; key duplicates included. */
export function addonIssues(set: FixtureSet, world: RecordWorld = fixtureWorld(set)): PartIssue[] {
  const out: PartIssue[] = [];
  for (const name of Object.keys(ADDON_RULES) as RecordTableName[]) {
    const rules = ADDON_RULES[name] as TableRules<RecordTableName>;
    const all = world.values(name) as readonly Rec<RecordTableName>[];
    const unique = (value: (r: Rec<RecordTableName>) => string | undefined, what: string) => {
      const first = new Map<string, number>();
      all.forEach((r, i) => {
        const v = value(r);
        if (v === undefined) return;
        const at = first.get(v);
        if (at !== undefined) out.push({ part: rules.part, pointer: `${rules.at}/${i}`, message: `duplicates ${what} ${v} already used at ${rules.at}/${at}` });
        else first.set(v, i);
      });
    };
    if (rules.keyWhat) unique((r) => String(keyOf(name, r)).replace(/^(post|term|user):/, '$1 '), rules.keyWhat);
    for (const u of rules.unique ?? []) unique(u.unique, u.what);
    all.forEach((r, i) => {
      for (const ref of rules.refs ?? []) {
        ref.refs(r).forEach((id, j) => {
          if (ref.exists(world, id, r)) return;
          const shown = typeof id === 'string' ? `'${id}'` : id;
          out.push({ part: rules.part, pointer: `${rules.at}/${i}/${ref.field}${ref.listed ? `/${j}` : ''}`, message: `refers to ${ref.what(r)} ${shown}, which does not exist` });
        });
      }
      for (const rule of rules.record ?? []) {
        const problem = rule.problem(r);
        if (problem) out.push({ part: rules.part, pointer: `${rules.at}/${i}/${rule.field}`, message: problem });
      }
    });
    for (const inv of rules.invariants ?? []) {
      const broken = inv.holds(all);
      if (broken) out.push({ part: rules.part, pointer: broken[0] < 0 ? rules.at : `${rules.at}/${broken[0]}/${inv.field}`, message: broken[1] });
    }
  }
  return out;
}

// ---- the store's side -------------------------------------------------------------------------------

/** A record about to be written against its table's rules; the first broken one refuses the write. */
function checkRecord<N extends RecordTableName>(tx: Tx, name: N, r: Rec<N>): void {
  const rules = ADDON_RULES[name] as unknown as TableRules<N>;
  const key = keyOf(name, r as never) as string | number;
  if (name === 'contactForms') {
    const other = postTypeOf(tx, key as number);
    if (other && other !== 'contactForm') throw new StoreError('conflict', `id: post ${key} is a ${other}`, 'id');
  }
  for (const u of rules.unique ?? []) {
    const v = u.unique(r);
    if (v === undefined) continue;
    const clash = tx.find(name, (x) => keyOf(name, x as never) !== key && u.unique(x as Rec<N>) === v);
    if (clash) throw new StoreError('conflict', `${u.field}: ${u.what} ${v} is already used`, u.field);
  }
  for (const ref of rules.refs ?? []) {
    for (const id of ref.refs(r)) {
      if (!ref.exists(tx, id, r)) throw new StoreError('invalid_reference', `${ref.field}: no ${ref.what(r)} ${JSON.stringify(id)}`, ref.field);
    }
  }
  for (const rule of rules.record ?? []) {
    const problem = rule.problem(r);
    if (problem) throw new StoreError('conflict', `${rule.field}: ${problem}`, rule.field);
  }
}

/** The table's invariants over its records as this transaction leaves them. */
function checkInvariants(tx: Tx, name: RecordTableName): void {
  for (const inv of (ADDON_RULES[name] as TableRules<RecordTableName>).invariants ?? []) {
    const broken = inv.holds(tx.values(name) as readonly Rec<RecordTableName>[]);
    if (broken) throw new StoreError('conflict', `${inv.field}: ${broken[1]}`, inv.field);
  }
}

/** Inserts or replaces a record after checking it; a new numeric key moves the table's sequence past it. */
export function putRecord<N extends RecordTableName>(tx: Tx, name: N, record: RecordTables[N] | Rec<N>): Rec<N> {
  const spec = TABLES[name];
  const problems = recordProblems(spec.def, record);
  if (problems.length) throw invalid(spec.def, problems);
  const r = record as Rec<N>;
  checkRecord(tx, name, r);
  const key = keyOf(name, r as never);
  tx.describe({ collection: name, op: tx.has(name, key) ? 'update' : 'create', key });
  const stored = tx.put(name, r as never) as Rec<N>;
  checkInvariants(tx, name);
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
  if (name === 'users') {
    const id = key as number;
    if ((['event', 'venue', 'organizer'] as const).some((t) => tx.find(t, (p) => p.author === id))) {
      throw new StoreError('conflict', `user ${id} still authors posts; reassign them first`, 'id');
    }
  }
  tx.delete(name, key as never);
  checkInvariants(tx, name);
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
  if (name === 'calendarSettings' && !isKnownTimeZone((value as CalendarSettings).timezone)) {
    throw new StoreError('invalid_value', `timezone: unknown time zone ${JSON.stringify((value as CalendarSettings).timezone)}`, 'timezone');
  }
  tx.describe({ collection: name, op: 'update' });
  // The parts the save left as they were stay the stored objects: shared in memory, and the journal writes only
  // what changed (delta.ts).
  tx.setSingleton(name, deepFreeze(shareUnchanged(tx.single[name], structuredClone(value) as Singletons[K])));
  return tx.single[name];
}
