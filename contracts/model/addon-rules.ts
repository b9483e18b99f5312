// The add-on records' rules (contact forms, SEO, page builder, learning module, translation, sliders, users,
// import jobs), written once over a RecordWorld (world.ts): `addonIssues` runs them over a whole fixture set (the
// loader's and the state file's check, through set-integrity.ts), and the mock's store runs the same ones on each
// write before committing it (`brokenByWrite`, `brokenInvariant`, `brokenByRemoval`; mock/src/store/addon-writes.ts
// turns what they return into its refusals).

import type { PartIssue } from './integrity.ts';
import type { FixtureSet } from './records.ts';
import { keyOf, type KeyOf, type RecordTableName, type RecordTables, type Stored } from './tables.ts';
import { objectExists, postTypeOf, worldOf, type RecordWorld } from './world.ts';

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
const ADDON_RULES: { [N in RecordTableName]: TableRules<N> } = {
  importJobs: { part: 'calendar', at: '/importJobs', keyWhat: 'import_id' },
  // Contact forms are posts: their IDs are checked with the other posts' (integrity.ts over a set, brokenByWrite on a write).
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

// ---- a whole set ------------------------------------------------------------------------------------

/** Every record of every add-on table against its rules; key duplicates included. */
export function addonIssues(set: FixtureSet): PartIssue[] {
  const world = worldOf(set);
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

// ---- one write --------------------------------------------------------------------------------------

/** A rule a write would break: what the store refuses it with (`reference`: it names a record that is not there). */
export interface BrokenRule {
  kind: 'reference' | 'conflict';
  field: string;
  message: string;
}

const conflict = (field: string, message: string): BrokenRule => ({ kind: 'conflict', field, message });

/** The first rule of its table a record about to be written breaks, against the records around it. */
export function brokenByWrite<N extends RecordTableName>(world: RecordWorld, name: N, r: Rec<N>): BrokenRule | undefined {
  const rules = ADDON_RULES[name] as unknown as TableRules<N>;
  const key = keyOf(name, r as never) as string | number;
  if (name === 'contactForms') {
    // Contact forms are posts: one ID space with the calendar's (calendarIssues checks it over a set).
    const other = postTypeOf(world, key as number);
    if (other && other !== 'contactForm') return conflict('id', `id: post ${key} is a ${other}`);
  }
  for (const u of rules.unique ?? []) {
    const v = u.unique(r);
    if (v === undefined) continue;
    const clash = world.find(name, (x) => keyOf(name, x as never) !== key && u.unique(x as Rec<N>) === v);
    if (clash) return conflict(u.field, `${u.field}: ${u.what} ${v} is already used`);
  }
  for (const ref of rules.refs ?? []) {
    for (const id of ref.refs(r)) {
      if (!ref.exists(world, id, r)) return { kind: 'reference', field: ref.field, message: `${ref.field}: no ${ref.what(r)} ${JSON.stringify(id)}` };
    }
  }
  for (const rule of rules.record ?? []) {
    const problem = rule.problem(r);
    if (problem) return conflict(rule.field, `${rule.field}: ${problem}`);
  }
  return undefined;
}

/** The first invariant of the table its records break, as a write leaves them (read only if the table has any). */
export function brokenInvariant(world: RecordWorld, name: RecordTableName): BrokenRule | undefined {
  for (const inv of (ADDON_RULES[name] as TableRules<RecordTableName>).invariants ?? []) {
    const broken = inv.holds(world.values(name) as readonly Rec<RecordTableName>[]);
    if (broken) return conflict(inv.field, `${inv.field}: ${broken[1]}`);
  }
  return undefined;
}

/** What refuses removing a record outright: a user who still authors posts (every post needs its author). */
export function brokenByRemoval<N extends RecordTableName>(world: RecordWorld, name: N, key: KeyOf<N>): BrokenRule | undefined {
  if (name !== 'users') return undefined;
  const id = key as number;
  if ((['event', 'venue', 'organizer'] as const).some((t) => world.find(t, (p) => p.author === id))) {
    return conflict('id', `user ${id} still authors posts; reassign them first`);
  }
  return undefined;
}
