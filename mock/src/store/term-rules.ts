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
import { sanitizeTitle, uniqueTermSlug, type TermSlugWorld } from '../../../contracts/wordpress/slug.ts';
import { phpStrToLower } from '../../../contracts/wordpress/php/strings.ts';
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

/**
 * The term wp_insert_term() says a new term would repeat (its term_exists error names it), or none. The names the
 * database matches under the same parent are compared after PHP's strtolower() (ASCII letters only); a match is
 * refused unless a slug is given that neither it nor another term of the taxonomy has. A category is refused only
 * when a sibling has the very name (case and all) or, failing that, the slug (so "MUSIC" beside "Music" is refused
 * by its slug). Measured on a live 6.1.9 (wp/v2/tags and wp/v2/categories).
 */
function existingTerm(tx: Tx, type: TermType, t: { id: number; lang: Lang; name: string; parent: number; slug: string; slugGiven: boolean }): Stored<CategoryRecord | TagRecord> | undefined {
  const parentOf = (x: Stored<CategoryRecord | TagRecord>): number => ('parent' in x ? x.parent : 0);
  const lower = phpStrToLower(t.name);
  const named = tx.find(type, (x: Stored<CategoryRecord | TagRecord>) => x.id !== t.id && x.lang === t.lang && parentOf(x) === t.parent && phpStrToLower(x.name) === lower);
  if (!named) return undefined;
  const slugOwner = t.slug === '' ? undefined : tx.slugOwner(type, t.lang, t.slug);
  const bySlug = slugOwner === undefined || slugOwner === t.id ? undefined : (tx.get(type, slugOwner) as Stored<CategoryRecord | TagRecord> | undefined);
  const sameSlug = named.slug === t.slug;
  if (t.slugGiven && !sameSlug && !bySlug) return undefined;
  if (type !== 'category') return named;
  const siblings = tx.values('category').filter((c) => c.id !== t.id && c.lang === t.lang && c.parent === t.parent);
  if ((!t.slugGiven || sameSlug) && siblings.some((c) => c.name === t.name)) return named;
  if (bySlug && siblings.some((c) => c.slug === t.slug)) return bySlug;
  return undefined;
}

/** What uniqueTermSlug() asks, for term `id` of `type` under `parent`, in the store's slug index (per language). */
function termSlugWorld(tx: Tx, type: TermType, lang: Lang, id: number, parent: number): TermSlugWorld {
  const ancestorSlugs: string[] = [];
  const seen = new Set<number>();
  for (let p = type === 'category' ? parent : 0; p !== 0 && !seen.has(p); ) {
    seen.add(p);
    const c = tx.get('category', p);
    if (!c) break;
    ancestorSlugs.push(c.slug);
    p = c.parent;
  }
  return {
    inTaxonomy: (s) => tx.slugTaken(type, lang, s, id),
    anywhere: (s) => tx.slugTaken('category', lang, s, id) || tx.slugTaken('tag', lang, s, id),
    ancestorSlugs,
  };
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
  if (!old) {
    // wp_insert_term(): a name another term has (see existingTerm()) is refused unless a new slug is given; the slug,
    // given or made of the name, is made unique (uniqueTermSlug()), never refused.
    const slugGiven = typeof given.slug === 'string' && given.slug !== '';
    const slug = slugGiven ? sanitizeTitle(given.slug as string) : sanitizeTitle(name);
    const existing = existingTerm(tx, type, { id, lang, name, parent, slug, slugGiven });
    if (existing) throw new StoreError('term_exists', `a ${type} named ${JSON.stringify(name)} already exists${type === 'category' ? ' under this parent' : ''} (id ${existing.id})`, 'name', existing.id);
    draft.slug = slug === '' ? String(id) : uniqueTermSlug(slug, termSlugWorld(tx, type, lang, id, parent));
  } else if (typeof given.slug === 'string' && given.slug !== '') {
    // wp_update_term(): a slug another term of the taxonomy has is refused (duplicate_term_slug), unless the parent
    // changes, which makes it unique instead. Names may repeat on update.
    const slug = sanitizeTitle(given.slug);
    const parentChanged = type === 'category' && parent !== (old as Stored<CategoryRecord>).parent;
    if (parentChanged) draft.slug = uniqueTermSlug(slug, termSlugWorld(tx, type, lang, id, parent));
    else {
      refuseCalendar(type, brokenSlug(tx, type, { id, lang, slug }));
      draft.slug = slug;
    }
  } else if (typeof given.slug === 'string' && given.slug === '') {
    // An emptied slug is made of the name again, unique.
    draft.slug = uniqueTermSlug(sanitizeTitle(name) || String(id), termSlugWorld(tx, type, lang, id, parent));
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
