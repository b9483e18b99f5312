// The calendar's post and term rules, each one pure verdict over a RecordWorld (world.ts): an event's references,
// a post's author, a translation, a parent event, a parent category, an event's dates and time zone, a slug. A
// verdict says what is wrong (its kind, the field, the details) or nothing; it does not word it. The fixture
// loader's whole-set check (integrity.ts) and the mock's store on each write (mock/src/store/calendar-refusals.ts)
// call the same verdicts and word them for their own readers: fixture authors, and API clients.
// These run on every post and term write: they read single records and the world's indexes, never a whole table.

import type { Lang, PostType, TermType } from './records.ts';
import { isDateTimeString, isKnownTimeZone } from '../wordpress/time.ts';
import { postTypeOf, type CalendarTable, type RecordWorld } from './world.ts';

/** What an ID names in each ID space (posts, contact forms among them, and terms), for saying what it is instead. */
interface IdNames {
  post: PostType | 'contactForm' | undefined;
  term: TermType | undefined;
}

/** A reference that names no record of the table it must name. */
export interface MissingRecord {
  kind: 'missing';
  field: string;
  /** Position of the ID in a list field. */
  index?: number;
  id: number;
  expected: CalendarTable | 'user';
  names?: IdNames;
}

export type CalendarBreak =
  | MissingRecord
  /** translation_of or a parent naming the record (`id`) itself. */
  | { kind: 'self'; field: string; id: number }
  | { kind: 'same-language'; field: 'translation_of'; original: number; lang: Lang }
  /** The original is itself a translation (of `of`). */
  | { kind: 'chained'; field: 'translation_of'; original: number; of: number }
  /** The original already has a translation into this language: record `by`. */
  | { kind: 'taken'; field: 'translation_of'; original: number; lang: Lang; by: number }
  /** The record has translations of its own, so it cannot become one. */
  | { kind: 'has-translations'; field: 'translation_of'; id: number }
  /** Following the parents from the record's parent leads back to it: path from the record to itself. */
  | { kind: 'cycle'; field: string; path: number[] }
  | { kind: 'end-before-start'; field: 'end_date'; start: string; end: string }
  | { kind: 'unknown-time-zone'; field: string; value: string }
  | { kind: 'slug-taken'; field: 'slug'; slug: string; lang: string; by: number };

function namesOf(world: RecordWorld, id: number): IdNames {
  return { post: postTypeOf(world, id), term: world.has('category', id) ? 'category' : world.has('tag', id) ? 'tag' : undefined };
}

const missing = (world: RecordWorld, field: string, id: number, expected: CalendarTable, index?: number): MissingRecord =>
  index === undefined ? { kind: 'missing', field, id, expected, names: namesOf(world, id) } : { kind: 'missing', field, index, id, expected, names: namesOf(world, id) };

interface EventRefs {
  categories: readonly number[];
  tags: readonly number[];
  venues: readonly number[];
  organizers: readonly number[];
}

const EVENT_REFS = [['categories', 'category'], ['tags', 'tag'], ['venues', 'venue'], ['organizers', 'organizer']] as const;
const NONE: readonly MissingRecord[] = Object.freeze([]);

/** An event's terms, venues and organizers that name no record of their table: the first one, or `all` of them. */
export function brokenReferences(world: RecordWorld, e: EventRefs, all = false): readonly MissingRecord[] {
  let out: MissingRecord[] | undefined;
  for (const [field, table] of EVENT_REFS) {
    const ids = e[field];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (world.has(table, id)) continue;
      (out ??= []).push(missing(world, field, id, table, i));
      if (!all) return out;
    }
  }
  return out ?? NONE;
}

/** A post's author is a user. */
export function brokenAuthor(world: RecordWorld, p: { author: number }): MissingRecord | undefined {
  return world.has('users', p.author) ? undefined : { kind: 'missing', field: 'author', id: p.author, expected: 'user' };
}

/**
 * A translation links an original of the same type and another language that is no translation itself, once per
 * language, and a record that has translations cannot become one.
 */
export function brokenTranslation(world: RecordWorld, type: CalendarTable, rec: { id: number; lang: Lang; translation_of?: number | undefined }): CalendarBreak | undefined {
  const of = rec.translation_of;
  if (of === undefined) return undefined;
  const field = 'translation_of';
  const original = world.get(type, of) as { id: number; lang: Lang; translation_of?: number } | undefined;
  if (!original) return missing(world, field, of, type);
  if (original.id === rec.id) return { kind: 'self', field, id: rec.id };
  if (original.lang === rec.lang) return { kind: 'same-language', field, original: original.id, lang: rec.lang };
  if (original.translation_of !== undefined) return { kind: 'chained', field, original: original.id, of: original.translation_of };
  const twin = (world.translationsOf(type, original.id) as readonly { id: number; lang: Lang }[]).find((r) => r.id !== rec.id && r.lang === rec.lang);
  if (twin) return { kind: 'taken', field, original: original.id, lang: rec.lang, by: twin.id };
  if (world.translationsOf(type, rec.id).length > 0) return { kind: 'has-translations', field, id: rec.id };
  return undefined;
}

/** Walks the parents up from `parent`: the path back to `id` if it comes back, else undefined. */
function cycleThrough(id: number, parent: number, parentOf: (id: number) => number): number[] | undefined {
  const path = [id];
  const seen = new Set<number>();
  // A loop above the record that does not pass through it ends the walk: it is that loop's records' break.
  for (let cur = parent; cur !== 0 && !seen.has(cur); cur = parentOf(cur)) {
    if (cur === id) return [...path, cur];
    seen.add(cur);
    path.push(cur);
  }
  return undefined;
}

/** The calendar's two hierarchies, each a table whose records name their parent in one field. */
const HIERARCHIES = {
  event: { field: 'post_parent', parentOf: (world: RecordWorld, id: number) => world.get('event', id)?.post_parent ?? 0 },
  category: { field: 'parent', parentOf: (world: RecordWorld, id: number) => world.get('category', id)?.parent ?? 0 },
} as const;

/** A record's parent is another record of its table, and no chain of parents leads back to it. */
function brokenParent(world: RecordWorld, table: keyof typeof HIERARCHIES, id: number, parent: number): CalendarBreak | undefined {
  if (parent === 0) return undefined;
  const { field, parentOf } = HIERARCHIES[table];
  if (!world.has(table, parent)) return missing(world, field, parent, table);
  if (parent === id) return { kind: 'self', field, id: parent };
  const path = cycleThrough(id, parent, (up) => parentOf(world, up));
  return path ? { kind: 'cycle', field, path } : undefined;
}

/** An event's parent is another event, and no chain of parents leads back to it. */
export function brokenEventParent(world: RecordWorld, e: { id: number; post_parent: number }): CalendarBreak | undefined {
  return brokenParent(world, 'event', e.id, e.post_parent);
}

/** A category's parent is another category, and no chain of parents leads back to it. */
export function brokenCategoryParent(world: RecordWorld, c: { id: number; parent: number }): CalendarBreak | undefined {
  return brokenParent(world, 'category', c.id, c.parent);
}

/** An event does not end before it starts (dates that are no date-times are the schema's and the date check's). */
export function brokenEventDates(e: { start_date: string; end_date: string }): CalendarBreak | undefined {
  const { start_date: start, end_date: end } = e;
  return isDateTimeString(start) && isDateTimeString(end) && end < start ? { kind: 'end-before-start', field: 'end_date', start, end } : undefined;
}

/** A time zone is one the IANA database knows. */
export function brokenTimeZone(field: string, value: string): CalendarBreak | undefined {
  return isKnownTimeZone(value) ? undefined : { kind: 'unknown-time-zone', field, value };
}

/** A slug is unique per type and language ('' takes no part: a draft may have none). */
export function brokenSlug(world: RecordWorld, type: CalendarTable, rec: { id: number; lang: string; slug: string }): CalendarBreak | undefined {
  if (rec.slug === '') return undefined;
  const by = world.slugOwner(type, rec.lang, rec.slug);
  return by !== undefined && by !== rec.id ? { kind: 'slug-taken', field: 'slug', slug: rec.slug, lang: rec.lang, by } : undefined;
}
