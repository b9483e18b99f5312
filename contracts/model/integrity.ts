// The model's rules that JSON Schema cannot express: references between records, uniqueness across a collection,
// category and parent-event cycles, real calendar dates, known time zones, and the smallest sequences a set allows.
// They run on data that already passed the schema and read nothing but the records, so every layer that reads the
// model can run them. The add-on tables' (and users') rules are in addon-rules.ts, and set-integrity.ts runs both
// over a whole set.

import {
  brokenAuthor, brokenCategoryParent, brokenEventDates, brokenEventParent, brokenReferences, brokenSlug, brokenTimeZone, brokenTranslation,
  type CalendarBreak, type MissingRecord,
} from './calendar-rules.ts';
import type { FixtureIssue } from './fixture-error.ts';
import type { FixtureSet, Lang, PostBase, Sequences } from './records.ts';
import { isDateTimeString } from '../wordpress/time.ts';
import { worldOf, type CalendarTable } from './world.ts';

/** Where each part of a fixture set lives: its file and the pointer prefix inside it. */
export type PartLocator = Record<keyof FixtureSet, { file: string; prefix: string }>;

type Part = keyof FixtureSet;

/** A problem of one part of a set, its pointer relative to that part (placed in a file by `locate`). */
export interface PartIssue {
  part: Part;
  pointer: string;
  message: string;
}

/** Each problem placed in its file, the part's pointer prefix before its own. */
export function locate(issues: readonly PartIssue[], where: PartLocator): FixtureIssue[] {
  return issues.map(({ part, pointer, message }) => ({ file: where[part].file, pointer: where[part].prefix + pointer, message }));
}

class Issues {
  readonly list: PartIssue[] = [];
  constructor(private readonly where: PartLocator) {}
  add(part: Part, pointer: string, message: string): void {
    this.list.push({ part, pointer, message });
  }
  fileOf(part: Part): string {
    return this.where[part].file;
  }
}

/** The loader's words for a reference to no record of the expected table: what the ID is in that ID space, if anything. */
function missingWords(b: MissingRecord, what: string): string {
  const space = b.expected === 'category' || b.expected === 'tag' ? b.names?.term : b.names?.post;
  const actual = space === 'contactForm' ? 'contact form' : space;
  return actual ? `refers to ${what} ${b.id}, but ${b.id} is a ${actual}` : `refers to ${what} ${b.id}, which does not exist`;
}

/**
 * The calendar's cross-record rules over a whole set: one post-ID space (events, venues, organizers, contact forms),
 * one term-ID space, real date-times, and every verdict of calendar-rules.ts (slugs, authors, translations, category
 * and parent-event cycles, references from events, dates, time zones) worded for fixture authors. `where` names the
 * users' file in messages.
 */
export function calendarIssues(set: FixtureSet, where: PartLocator): PartIssue[] {
  const issues = new Issues(where);
  const { calendar, addons } = set;
  const world = worldOf(set);

  // -- posts: events, venues, organizers and contact forms share one ID space, as WordPress posts do
  type PostRow = { part: Part; pointer: string; id: number };
  const postRows: PostRow[] = [
    ...calendar.events.map((r, i) => ({ part: 'calendar' as const, pointer: `/events/${i}`, id: r.id })),
    ...calendar.venues.map((r, i) => ({ part: 'calendar' as const, pointer: `/venues/${i}`, id: r.id })),
    ...calendar.organizers.map((r, i) => ({ part: 'calendar' as const, pointer: `/organizers/${i}`, id: r.id })),
    ...addons.contactForms.map((r, i) => ({ part: 'addons' as const, pointer: `/contactForms/${i}`, id: r.id })),
  ];
  const postAt = new Map<number, string>();
  for (const row of postRows) {
    const first = postAt.get(row.id);
    if (first !== undefined) issues.add(row.part, `${row.pointer}/id`, `duplicates post id ${row.id} already used at ${first} (events, venues, organizers and contact forms share one ID sequence)`);
    else postAt.set(row.id, row.pointer);
  }

  /** Where the (first) record of a list with an ID sits. */
  const positions = (list: readonly { id: number }[]) => {
    const at = new Map<number, number>();
    list.forEach((r, i) => at.has(r.id) || at.set(r.id, i));
    return at;
  };
  /** A translation's break as the loader says it; undefined for what it reports elsewhere. */
  const translationWords = (b: CalendarBreak, kind: string, post: boolean, base: string, at: Map<number, number>, i: number): string | undefined => {
    switch (b.kind) {
      case 'missing':
        return missingWords(b, kind);
      case 'self':
        return 'refers to the record itself';
      case 'same-language':
        return `refers to ${kind} ${b.original} in the same language (${b.lang})${post ? '; a translation links records of different languages' : ''}`;
      case 'chained':
        return `refers to ${kind} ${b.original}, which is itself a translation${post ? '; link to the original instead' : ''}`;
      case 'taken': {
        // Reported at each translation after the first one into that language.
        const first = at.get(b.by)!;
        return first < i ? `${kind} ${b.original} already has a ${b.lang} translation at ${base}/${first}` : undefined;
      }
      default:
        // 'has-translations': the same pair is reported at its translation, whose original is itself a translation.
        return undefined;
    }
  };
  /** Each record whose slug an earlier one of its list holds. */
  const checkSlugs = (type: CalendarTable, list: readonly { id: number; slug: string; lang: Lang }[], base: string) => {
    const at = positions(list);
    list.forEach((r, i) => {
      const b = brokenSlug(world, type, r);
      if (b?.kind === 'slug-taken') issues.add('calendar', `${base}/${i}`, `duplicates ${type} slug '${b.slug}' (${b.lang}) already used at ${base}/${at.get(b.by)}`);
    });
  };
  /** Each record's translation (and, for posts, before it, its author and dates), in list order. */
  const checkRecords = <T extends { id: number; lang: Lang; translation_of?: number }>(type: CalendarTable, list: readonly T[], base: string, each?: (r: T, at: string) => void) => {
    const at = positions(list);
    const post = type !== 'category' && type !== 'tag';
    list.forEach((r, i) => {
      each?.(r, `${base}/${i}`);
      const b = brokenTranslation(world, type, r);
      const words = b && translationWords(b, type, post, base, at, i);
      if (words) issues.add('calendar', `${base}/${i}/translation_of`, words);
    });
  };
  const postChecks = (p: PostBase, at: string) => {
    if (brokenAuthor(world, p)) issues.add('calendar', `${at}/author`, `refers to user ${p.author}, which does not exist in ${issues.fileOf('users')}`);
    for (const f of ['date', 'date_gmt', 'modified', 'modified_gmt'] as const) {
      if (!isDateTimeString(p[f])) issues.add('calendar', `${at}/${f}`, `must be a real calendar date-time, got ${JSON.stringify(p[f])}`);
    }
  };
  for (const [type, list, base] of [['event', calendar.events, '/events'], ['venue', calendar.venues, '/venues'], ['organizer', calendar.organizers, '/organizers']] as const) {
    checkSlugs(type, list, base);
    checkRecords<PostBase>(type, list, base, postChecks);
  }

  // -- terms: categories and tags share one term-ID space
  const termAt = new Map<number, string>();
  const termRows = [
    ...calendar.categories.map((t, i) => ({ pointer: `/categories/${i}`, id: t.id })),
    ...calendar.tags.map((t, i) => ({ pointer: `/tags/${i}`, id: t.id })),
  ];
  for (const row of termRows) {
    const first = termAt.get(row.id);
    if (first !== undefined) issues.add('calendar', `${row.pointer}/id`, `duplicates term id ${row.id} already used at ${first} (categories and tags share one ID sequence)`);
    else termAt.set(row.id, row.pointer);
  }
  checkSlugs('category', calendar.categories, '/categories');
  checkSlugs('tag', calendar.tags, '/tags');
  checkRecords('category', calendar.categories, '/categories');
  checkRecords('tag', calendar.tags, '/tags');

  calendar.categories.forEach((c, i) => {
    const b = brokenCategoryParent(world, c);
    if (!b) return;
    const at = `/categories/${i}/parent`;
    if (b.kind === 'self') issues.add('calendar', at, 'refers to the category itself');
    else if (b.kind === 'missing') issues.add('calendar', at, missingWords(b, 'parent category'));
    else if (b.kind === 'cycle') issues.add('calendar', at, `forms a cycle: ${b.path.join(' -> ')}`);
  });

  // -- events
  calendar.events.forEach((e, i) => {
    const at = `/events/${i}`;
    for (const b of brokenReferences(world, e, true)) issues.add('calendar', `${at}/${b.field}/${b.index}`, missingWords(b, b.expected));
    for (const f of ['start_date', 'end_date', 'start_date_utc', 'end_date_utc'] as const) {
      if (!isDateTimeString(e[f])) issues.add('calendar', `${at}/${f}`, `must be a real calendar date-time, got ${JSON.stringify(e[f])}`);
    }
    const dates = brokenEventDates(e);
    if (dates?.kind === 'end-before-start') issues.add('calendar', `${at}/end_date`, `must not be before start_date ${JSON.stringify(dates.start)}, got ${JSON.stringify(dates.end)}`);
    if (brokenTimeZone('timezone', e.timezone)) issues.add('calendar', `${at}/timezone`, `must be a known time zone, got ${JSON.stringify(e.timezone)}`);
    const parent = brokenEventParent(world, e);
    if (parent?.kind === 'self') issues.add('calendar', `${at}/post_parent`, 'refers to the event itself');
    else if (parent?.kind === 'missing') issues.add('calendar', `${at}/post_parent`, missingWords(parent, 'parent event'));
    else if (parent?.kind === 'cycle') issues.add('calendar', `${at}/post_parent`, 'forms a cycle of parent events');
  });
  if (brokenTimeZone('timezone', calendar.settings.timezone)) {
    issues.add('calendar', '/settings/timezone', `must be a known time zone, got ${JSON.stringify(calendar.settings.timezone)}`);
  }

  return issues.list;
}

/** Smallest sequence values that cannot hand out an ID already in use. */
export function minimumSequences(set: FixtureSet): Sequences {
  const next = (ids: Iterable<number>) => {
    let max = 0;
    for (const id of ids) if (id > max) max = id;
    return max + 1;
  };
  const { calendar: c, addons: a, users: u } = set;
  const posts = [...c.events, ...c.venues, ...c.organizers];
  return {
    // Featured media are attachments, which are posts too: new posts must not take their IDs.
    post: next([...posts.map((p) => p.id), ...posts.map((p) => p.featured_media), ...a.contactForms.map((f) => f.id)]),
    term: next([...c.categories.map((t) => t.id), ...c.tags.map((t) => t.id)]),
    feedback: next(a.feedback.map((f) => f.id)),
    translationString: next(a.translation.strings.map((s) => s.id)),
    stringPackage: next(a.translation.packages.map((p) => p.id)),
    translationJob: next(a.translation.jobs.map((j) => j.id)),
    slider: next(a.sliders.map((s) => s.id)),
    slide: next(a.sliders.flatMap((s) => s.slides.map((sl) => sl.id))),
    keyword: next(a.seo.trackedKeywords.map((k) => k.id)),
    log: next(a.pageBuilder.logs.map((l) => l.id)),
    user: next(u.users.map((x) => x.id)),
  };
}
