// The model's rules that JSON Schema cannot express: references between records, uniqueness across a collection,
// category and parent-event cycles, real calendar dates, known time zones, and the smallest sequences a set allows.
// They run on data that already passed the schema and read nothing but the records, so every layer that reads the
// model can run them. The add-on tables' (and users') rules are in addon-rules.ts, and set-integrity.ts runs both
// over a whole set.

import type { FixtureIssue } from './fixture-error.ts';
import type { FixtureSet, Lang, PostBase, Sequences } from './records.ts';
import { isDateTimeString, isKnownTimeZone } from '../wordpress/time.ts';

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

/** Reports each repeated key after the first, naming where the first one was. */
function checkUnique<T>(
  issues: Issues,
  part: Part,
  rows: { pointer: string; value: T }[],
  key: (value: T) => string | undefined,
  what: string,
): void {
  const seen = new Map<string, string>();
  for (const { pointer, value } of rows) {
    const k = key(value);
    if (k === undefined) continue;
    const first = seen.get(k);
    if (first !== undefined) issues.add(part, pointer, `duplicates ${what} ${k} already used at ${first}`);
    else seen.set(k, pointer);
  }
}

const rows = <T>(list: readonly T[], base: string) => list.map((value, i) => ({ pointer: `${base}/${i}`, value }));

/**
 * The calendar's cross-record rules over a whole set: one post-ID space (events, venues, organizers, contact forms),
 * one term-ID space, unique slugs per type and language, translations, authors, category and parent-event cycles,
 * references from events, dates and time zones. `where` names the users' file in messages.
 */
export function calendarIssues(set: FixtureSet, where: PartLocator): PartIssue[] {
  const issues = new Issues(where);
  const { calendar, addons, users } = set;

  const userIds = new Set(users.users.map((u) => u.id));

  // -- posts: events, venues, organizers and contact forms share one ID space, as WordPress posts do
  type PostRow = { part: Part; pointer: string; id: number; kind: string };
  const postRows: PostRow[] = [
    ...calendar.events.map((r, i) => ({ part: 'calendar' as const, pointer: `/events/${i}`, id: r.id, kind: 'event' })),
    ...calendar.venues.map((r, i) => ({ part: 'calendar' as const, pointer: `/venues/${i}`, id: r.id, kind: 'venue' })),
    ...calendar.organizers.map((r, i) => ({ part: 'calendar' as const, pointer: `/organizers/${i}`, id: r.id, kind: 'organizer' })),
    ...addons.contactForms.map((r, i) => ({ part: 'addons' as const, pointer: `/contactForms/${i}`, id: r.id, kind: 'contact form' })),
  ];
  const postKind = new Map<number, string>();
  const postAt = new Map<number, string>();
  for (const row of postRows) {
    const first = postAt.get(row.id);
    if (first !== undefined) issues.add(row.part, `${row.pointer}/id`, `duplicates post id ${row.id} already used at ${first} (events, venues, organizers and contact forms share one ID sequence)`);
    else {
      postAt.set(row.id, row.pointer);
      postKind.set(row.id, row.kind);
    }
  }

  const eventIds = new Set(calendar.events.map((e) => e.id));
  const venueIds = new Set(calendar.venues.map((v) => v.id));
  const organizerIds = new Set(calendar.organizers.map((o) => o.id));

  const refCheck = (part: Part, pointer: string, id: number, expected: string, known: Set<number>, kindOf?: Map<number, string>) => {
    if (known.has(id)) return;
    const actual = kindOf?.get(id);
    issues.add(part, pointer, actual ? `refers to ${expected} ${id}, but ${id} is a ${actual}` : `refers to ${expected} ${id}, which does not exist`);
  };

  const checkPosts = <T extends PostBase>(list: readonly T[], base: string, kind: string, sameType: Map<number, T>) => {
    checkUnique(issues, 'calendar', rows(list, base), (p) => (p.slug === '' ? undefined : `'${p.slug}' (${p.lang})`), `${kind} slug`);
    const translated = new Map<string, string>();
    list.forEach((p, i) => {
      const at = `${base}/${i}`;
      if (!userIds.has(p.author)) issues.add('calendar', `${at}/author`, `refers to user ${p.author}, which does not exist in ${issues.fileOf('users')}`);
      for (const f of ['date', 'date_gmt', 'modified', 'modified_gmt'] as const) {
        if (!isDateTimeString(p[f])) issues.add('calendar', `${at}/${f}`, `must be a real calendar date-time, got ${JSON.stringify(p[f])}`);
      }
      if (p.translation_of !== undefined) {
        const original = sameType.get(p.translation_of);
        if (!original) refCheck('calendar', `${at}/translation_of`, p.translation_of, kind, new Set(), postKind);
        else if (original.id === p.id) issues.add('calendar', `${at}/translation_of`, 'refers to the record itself');
        else if (original.lang === p.lang) issues.add('calendar', `${at}/translation_of`, `refers to ${kind} ${original.id} in the same language (${p.lang}); a translation links records of different languages`);
        else if (original.translation_of !== undefined) issues.add('calendar', `${at}/translation_of`, `refers to ${kind} ${original.id}, which is itself a translation; link to the original instead`);
        else {
          const key = `${p.translation_of}/${p.lang}`;
          const first = translated.get(key);
          if (first) issues.add('calendar', `${at}/translation_of`, `${kind} ${p.translation_of} already has a ${p.lang} translation at ${first}`);
          else translated.set(key, at);
        }
      }
    });
  };

  const eventsById = new Map(calendar.events.map((e) => [e.id, e]));
  checkPosts(calendar.events, '/events', 'event', eventsById);
  checkPosts(calendar.venues, '/venues', 'venue', new Map(calendar.venues.map((v) => [v.id, v])));
  checkPosts(calendar.organizers, '/organizers', 'organizer', new Map(calendar.organizers.map((o) => [o.id, o])));

  // -- terms: categories and tags share one term-ID space
  const termKind = new Map<number, string>();
  const termAt = new Map<number, string>();
  const termRows = [
    ...calendar.categories.map((t, i) => ({ pointer: `/categories/${i}`, id: t.id, kind: 'category' })),
    ...calendar.tags.map((t, i) => ({ pointer: `/tags/${i}`, id: t.id, kind: 'tag' })),
  ];
  for (const row of termRows) {
    const first = termAt.get(row.id);
    if (first !== undefined) issues.add('calendar', `${row.pointer}/id`, `duplicates term id ${row.id} already used at ${first} (categories and tags share one ID sequence)`);
    else {
      termAt.set(row.id, row.pointer);
      termKind.set(row.id, row.kind);
    }
  }
  const categoryIds = new Set(calendar.categories.map((c) => c.id));
  const tagIds = new Set(calendar.tags.map((t) => t.id));
  checkUnique(issues, 'calendar', rows(calendar.categories, '/categories'), (c) => `'${c.slug}' (${c.lang})`, 'category slug');
  checkUnique(issues, 'calendar', rows(calendar.tags, '/tags'), (t) => `'${t.slug}' (${t.lang})`, 'tag slug');

  const checkTermTranslations = <T extends { id: number; lang: Lang; translation_of?: number }>(list: readonly T[], base: string, kind: string) => {
    const byId = new Map(list.map((t) => [t.id, t]));
    list.forEach((t, i) => {
      if (t.translation_of === undefined) return;
      const original = byId.get(t.translation_of);
      const at = `${base}/${i}/translation_of`;
      if (!original) refCheck('calendar', at, t.translation_of, kind, new Set(), termKind);
      else if (original.lang === t.lang) issues.add('calendar', at, `refers to ${kind} ${original.id} in the same language (${t.lang})`);
      else if (original.translation_of !== undefined) issues.add('calendar', at, `refers to ${kind} ${original.id}, which is itself a translation`);
    });
  };
  checkTermTranslations(calendar.categories, '/categories', 'category');
  checkTermTranslations(calendar.tags, '/tags', 'tag');

  const parentOf = new Map(calendar.categories.map((c) => [c.id, c.parent]));
  calendar.categories.forEach((c, i) => {
    if (c.parent === 0) return;
    const at = `/categories/${i}/parent`;
    if (c.parent === c.id) issues.add('calendar', at, 'refers to the category itself');
    else if (!categoryIds.has(c.parent)) refCheck('calendar', at, c.parent, 'parent category', categoryIds, termKind);
    else {
      // Walk up; a chain longer than the collection can only be a cycle.
      const path = [c.id];
      let cur = c.parent;
      while (cur !== 0 && path.length <= calendar.categories.length) {
        if (cur === c.id) {
          issues.add('calendar', at, `forms a cycle: ${[...path, cur].join(' -> ')}`);
          break;
        }
        path.push(cur);
        cur = parentOf.get(cur) ?? 0;
      }
    }
  });

  // -- events
  const parentEvent = new Map(calendar.events.map((e) => [e.id, e.post_parent]));
  calendar.events.forEach((e, i) => {
    const at = `/events/${i}`;
    e.categories.forEach((id, j) => refCheck('calendar', `${at}/categories/${j}`, id, 'category', categoryIds, termKind));
    e.tags.forEach((id, j) => refCheck('calendar', `${at}/tags/${j}`, id, 'tag', tagIds, termKind));
    e.venues.forEach((id, j) => refCheck('calendar', `${at}/venues/${j}`, id, 'venue', venueIds, postKind));
    e.organizers.forEach((id, j) => refCheck('calendar', `${at}/organizers/${j}`, id, 'organizer', organizerIds, postKind));
    for (const f of ['start_date', 'end_date', 'start_date_utc', 'end_date_utc'] as const) {
      if (!isDateTimeString(e[f])) issues.add('calendar', `${at}/${f}`, `must be a real calendar date-time, got ${JSON.stringify(e[f])}`);
    }
    if (isDateTimeString(e.start_date) && isDateTimeString(e.end_date) && e.end_date < e.start_date) {
      issues.add('calendar', `${at}/end_date`, `must not be before start_date ${JSON.stringify(e.start_date)}, got ${JSON.stringify(e.end_date)}`);
    }
    if (!isKnownTimeZone(e.timezone)) issues.add('calendar', `${at}/timezone`, `must be a known time zone, got ${JSON.stringify(e.timezone)}`);
    if (e.post_parent !== 0) {
      if (e.post_parent === e.id) issues.add('calendar', `${at}/post_parent`, 'refers to the event itself');
      else if (!eventIds.has(e.post_parent)) refCheck('calendar', `${at}/post_parent`, e.post_parent, 'parent event', eventIds, postKind);
      else {
        let cur = e.post_parent;
        for (let steps = 0; cur !== 0 && steps <= calendar.events.length; steps++) {
          if (cur === e.id) {
            issues.add('calendar', `${at}/post_parent`, 'forms a cycle of parent events');
            break;
          }
          cur = parentEvent.get(cur) ?? 0;
        }
      }
    }
  });
  if (!isKnownTimeZone(calendar.settings.timezone)) {
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
