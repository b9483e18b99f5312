// What wp_insert_term() / wp_update_term() decide for categories and tags: names unique under a parent, slugs
// unique per language (derived ones try `-<parent slug>` first), a parent that would make a loop refused, and what a
// deleted term takes with it. Every change is staged in the transaction and only committed once every check has
// passed. A given slug, a translation and a parent category are judged by
// the model's verdicts (contracts/model/calendar-rules.ts), the ones the fixture loader runs.

import { recordProblems } from '../../../contracts/model/check.ts';
import { brokenCategoryParent, brokenSlug, brokenTranslation, type CalendarBreak } from '../../../contracts/model/calendar-rules.ts';
import { refuseCalendar } from './calendar-refusals.ts';
import { dropObjectRecords, dropTranslationLinks } from './links.ts';
import type { CategoryRecord, Lang, TagRecord, TermType, TermTypeMap } from '../../../contracts/model/records.ts';
import type { Stored } from '../../../contracts/model/tables.ts';
import { MAX_SLUG_LENGTH, sanitizeTitle, truncateSlug } from '../../../contracts/wordpress/slug.ts';
import { invalid, StoreError, stripUndefined } from './store-error.ts';
import type { Tx } from './transaction.ts';

export type TermInput<K extends TermType> = {
  [F in keyof Omit<TermTypeMap[K], 'id'>]?: TermTypeMap[K][F] | (F extends 'translation_of' ? null : never);
};

function requireTerm<K extends TermType>(tx: Tx, type: K, id: number): Stored<TermTypeMap[K]> {
  const r = tx.get(type, id) as Stored<TermTypeMap[K]> | undefined;
  if (!r) throw new StoreError('not_found', `no ${type} with id ${id}`, 'id');
  return r;
}

/**
 * wp_check_term_hierarchy_for_loops() on wp_update_term_parent (WordPress 6.1): a category made its own parent, or
 * moved under one of its own descendants, gets no parent (`return 0`: it becomes top-level, whatever parent it had),
 * and no other category changes. (Its last branch, which makes a loop's members top-level, is for a loop above the
 * category that does not pass through it; the store never holds one: the model refuses loops.) Measured on a live
 * 6.1.9: X > A > B, then A under B, leaves A top-level and B under A. The loop is the model's verdict (a parent that
 * is no category is refused); the answer to it is WordPress's.
 */
function parentWithoutLoop(broken: CalendarBreak | undefined, parent: number): number {
  return broken?.kind === 'self' || broken?.kind === 'cycle' ? 0 : parent;
}

function finishTerm<K extends TermType>(tx: Tx, type: K, draft: Record<string, unknown>, given: Record<string, unknown>, old?: Stored<TermTypeMap[K]>): TermTypeMap[K] {
  if (draft.translation_of === null) delete draft.translation_of;
  const name = String(draft.name ?? '').trim();
  if (name === '') throw new StoreError('invalid_value', 'name: must not be empty', 'name');
  draft.name = name;
  const id = draft.id as number;
  const lang = draft.lang as Lang;
  let parent = type === 'category' ? (draft.parent as number) : 0;
  if (type === 'category' && parent !== 0) {
    const broken = brokenCategoryParent(tx, { id, parent });
    if (broken?.kind === 'missing') refuseCalendar(type, broken);
    parent = parentWithoutLoop(broken, parent);
    draft.parent = parent;
  }
  // WordPress refuses a second term with the same name under the same parent.
  if ('name' in given || 'parent' in given || !old) {
    const lower = name.toLowerCase();
    const clash = tx.find(type, (t: Stored<CategoryRecord | TagRecord>) => t.id !== id && t.lang === lang && t.name.toLowerCase() === lower && ('parent' in t ? t.parent : 0) === parent);
    if (clash) throw new StoreError('term_exists', `a ${type} named ${JSON.stringify(name)} already exists${parent ? ' under this parent' : ''} (id ${clash.id})`, 'name');
  }
  if ('slug' in given && typeof given.slug === 'string' && given.slug !== '') {
    const slug = sanitizeTitle(given.slug);
    refuseCalendar(type, brokenSlug(tx, type, { id, lang, slug }));
    draft.slug = slug;
  } else if (!old || (typeof given.slug === 'string' && given.slug === '')) {
    // Derived slugs never fail: a clash first tries "<slug>-<parent slug>" (hierarchical), then "-2", "-3"... The
    // terms table holds 200 characters, so the parent's slug is cut to fit as the suffix search cuts the base.
    let slug = sanitizeTitle(name) || String(id);
    const parentSlug = parent ? tx.get('category', parent)?.slug : undefined;
    if (tx.slugTaken(type, lang, slug, id) && parentSlug) slug = truncateSlug(`${slug}-${parentSlug}`, MAX_SLUG_LENGTH);
    draft.slug = tx.uniqueSlug(type, lang, slug, id);
  }
  const problems = recordProblems(type, draft);
  if (problems.length) throw invalid(type, problems);
  const rec = draft as unknown as TermTypeMap[K];
  refuseCalendar(type, brokenTranslation(tx, type, rec));
  return rec;
}

export function createTerm<K extends TermType>(tx: Tx, type: K, input: TermInput<K>): Stored<TermTypeMap[K]> {
  const id = tx.nextId('term');
  const given = stripUndefined(input);
  const base = { id, name: '', slug: '', description: '', ...(type === 'category' ? { parent: 0 } : {}), lang: tx.single.calendarSettings.default_lang };
  const rec = finishTerm(tx, type, { ...base, ...given, id }, given);
  tx.describe({ collection: type, op: 'create', key: id });
  return tx.put(type, rec as never) as Stored<TermTypeMap[K]>;
}

export function updateTerm<K extends TermType>(tx: Tx, type: K, id: number, patch: TermInput<K>): Stored<TermTypeMap[K]> {
  const old = requireTerm(tx, type, id);
  const given = stripUndefined(patch);
  delete given.id;
  const rec = finishTerm(tx, type, { ...(old as object), ...given, id }, given, old);
  tx.describe({ collection: type, op: 'update', key: id });
  return tx.put(type, rec as never) as Stored<TermTypeMap[K]>;
}

/** Deletes a term: events drop it, child categories move up to its parent, translations unlink. */
export function deleteTerm<K extends TermType>(tx: Tx, type: K, id: number): Stored<TermTypeMap[K]> {
  const old = requireTerm(tx, type, id);
  tx.describe({ collection: type, op: 'delete', key: id });
  tx.delete(type, id);
  const field = type === 'category' ? 'categories' : 'tags';
  for (const e of tx.values('event')) {
    if (e[field].includes(id)) tx.put('event', { ...e, [field]: e[field].filter((x) => x !== id) });
  }
  if (type === 'category') {
    const parent = (old as Stored<CategoryRecord>).parent;
    for (const c of tx.values('category')) if (c.parent === id) tx.put('category', { ...c, parent });
  }
  dropTranslationLinks(tx, type, id);
  dropObjectRecords(tx, 'term', id);
  return old;
}
