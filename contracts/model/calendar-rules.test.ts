// The calendar's cross-record rules of the model (calendar-rules.ts): each verdict fires on exactly the record broken
// for it and on none of the bundled fixtures' records; and the fixture loader's words for them, every kind of break
// named at its record, byte for byte (fixture authors read these messages). The store's words for the same verdicts:
// mock/src/store/calendar-writes.test.ts.
import { describe, expect, it } from 'vitest';
import { BUNDLED_FILES, bundledFixtures } from './testing/bundled.ts';
import {
  brokenAuthor, brokenCategoryParent, brokenEventDates, brokenEventParent, brokenReferences, brokenSlug, brokenTimeZone, brokenTranslation,
  type CalendarBreak,
} from './calendar-rules.ts';
import { calendarIssues } from './integrity.ts';
import type { FixtureSet } from './records.ts';
import { worldOf, type CalendarTable, type RecordWorld } from './world.ts';

const bundled = bundledFixtures;
const where = BUNDLED_FILES;
const lines = (set: FixtureSet) => calendarIssues(set, where).map((i) => `${i.part} ${i.pointer} ${i.message}`);

/** Breaks the bundled set (in place) once per rule and kind of break. */
function breakEveryRule(set: FixtureSet): void {
  const c = set.calendar;
  const ev = (id: number) => c.events.find((e) => e.id === id)!;
  const cat = (id: number) => c.categories.find((x) => x.id === id)!;
  const translated = new Set(c.events.map((e) => e.translation_of));
  const lone = c.events.filter((e) => e.lang === 'uk' && e.translation_of === undefined && !translated.has(e.id) && e.post_parent === 0);
  // references from an event: missing, or of another kind (same ID space or not)
  Object.assign(ev(95), { categories: [999_999, 31], tags: [2], venues: [54, 2], organizers: [5] });
  // author, dates, time zone
  Object.assign(ev(98), { author: 77, start_date: '2027-01-02 10:00:00', end_date: '2027-01-01 10:00:00', timezone: 'Mars/Olympus' });
  // translations of posts
  ev(106).translation_of = 106;
  Object.assign(ev(102), { translation_of: 95 });
  lone[0]!.translation_of = 93;
  lone[1]!.translation_of = 92;
  lone[2]!.translation_of = 11;
  lone[3]!.translation_of = 999_999;
  c.venues[2]!.slug = c.venues[0]!.slug;
  // terms: slug, translations, parents
  c.tags[1]!.slug = c.tags[0]!.slug;
  cat(23).translation_of = 23;
  cat(7).translation_of = 4;
  const ukTags = c.tags.filter((t) => t.lang === 'uk' && t.translation_of !== undefined);
  c.tags.find((t) => t.lang === 'en' && !c.tags.some((u) => u.translation_of === t.id))!.translation_of = ukTags[1]!.id;
  ukTags[2]!.translation_of = 999;
  ukTags[3]!.translation_of = 2;
  cat(25).translation_of = 4;
  cat(9).parent = 9;
  cat(18).parent = 31;
  cat(2).parent = 6;
  // parent events
  ev(153).post_parent = 153;
  ev(151).post_parent = 155;
  ev(157).post_parent = 11;
  c.events.find((e) => e.post_parent === 0 && e.id > 157)!.post_parent = 999_999;
  c.settings.timezone = 'Mars/Olympus';
}

describe("the loader's words for the calendar rules", () => {
  it('the bundled fixtures keep every rule', () => {
    expect(lines(bundled())).toEqual([]);
  });

  it('names each break at its record, in the order the loader reports them', () => {
    const set = bundled();
    breakEveryRule(set);
    expect(lines(set)).toEqual([
      'calendar /events/3/author refers to user 77, which does not exist in users.json',
      'calendar /events/4/translation_of refers to event 95 in the same language (en); a translation links records of different languages',
      'calendar /events/5/translation_of refers to the record itself',
      'calendar /events/7/translation_of refers to event 106, which is itself a translation; link to the original instead',
      'calendar /events/13/translation_of refers to event 93 in the same language (uk); a translation links records of different languages',
      'calendar /events/14/translation_of event 92 already has a uk translation at /events/1',
      'calendar /events/26/translation_of refers to event 11, but 11 is a venue',
      'calendar /events/32/translation_of refers to event 999999, which does not exist',
      "calendar /venues/2 duplicates venue slug 'podil-chamber-hall' (en) already used at /venues/0",
      "calendar /tags/1 duplicates tag slug 'family-friendly' (en) already used at /tags/0",
      'calendar /categories/3/translation_of refers to category 4 in the same language (en)',
      // A term translating itself is named as a post's is (it used to be called a same-language translation), and a
      // second translation of a term into one language is found as the store refuses it (it used to pass the loader).
      'calendar /categories/13/translation_of refers to the record itself',
      'calendar /categories/15/translation_of category 4 already has a uk translation at /categories/14',
      'calendar /tags/10/translation_of refers to tag 57, which is itself a translation',
      'calendar /tags/22/translation_of refers to tag 999, which does not exist',
      'calendar /tags/23/translation_of refers to tag 2, but 2 is a category',
      'calendar /categories/0/parent forms a cycle: 2 -> 6 -> 4 -> 2',
      'calendar /categories/1/parent forms a cycle: 4 -> 2 -> 6 -> 4',
      'calendar /categories/2/parent forms a cycle: 6 -> 4 -> 2 -> 6',
      'calendar /categories/4/parent refers to the category itself',
      'calendar /categories/9/parent refers to parent category 31, but 31 is a tag',
      'calendar /events/2/categories/0 refers to category 999999, which does not exist',
      'calendar /events/2/categories/1 refers to category 31, but 31 is a tag',
      'calendar /events/2/tags/0 refers to tag 2, but 2 is a category',
      'calendar /events/2/venues/0 refers to venue 54, but 54 is a organizer',
      'calendar /events/2/venues/1 refers to venue 2, which does not exist',
      'calendar /events/2/organizers/0 refers to organizer 5, but 5 is a contact form',
      'calendar /events/3/end_date must not be before start_date "2027-01-02 10:00:00", got "2027-01-01 10:00:00"',
      'calendar /events/3/timezone must be a known time zone, got "Mars/Olympus"',
      'calendar /events/28/post_parent forms a cycle of parent events',
      'calendar /events/29/post_parent refers to the event itself',
      'calendar /events/30/post_parent forms a cycle of parent events',
      'calendar /events/31/post_parent refers to parent event 11, but 11 is a venue',
      'calendar /events/32/post_parent refers to parent event 999999, which does not exist',
      'calendar /settings/timezone must be a known time zone, got "Mars/Olympus"',
    ]);
  });
});

type Verdict = (world: RecordWorld, type: CalendarTable, r: never) => CalendarBreak | undefined;
/** Every verdict, each over the records it judges. */
const VERDICTS: [string, CalendarTable[], Verdict][] = [
  ['references', ['event'], (w, _t, e) => brokenReferences(w, e)[0]],
  ['author', ['event', 'venue', 'organizer'], (w, _t, p) => brokenAuthor(w, p)],
  ['translation', ['event', 'venue', 'organizer', 'category', 'tag'], (w, t, r) => brokenTranslation(w, t, r)],
  ['parent event', ['event'], (w, _t, e) => brokenEventParent(w, e)],
  ['parent category', ['category'], (w, _t, c) => brokenCategoryParent(w, c)],
  ['dates', ['event'], (_w, _t, e) => brokenEventDates(e)],
  ['time zone', ['event'], (_w, _t, e: { timezone: string }) => brokenTimeZone('timezone', e.timezone)],
  ['slug', ['event', 'venue', 'organizer', 'category', 'tag'], (w, t, r) => brokenSlug(w, t, r)],
];
const listOf = (set: FixtureSet, t: CalendarTable) =>
  ({ event: set.calendar.events, venue: set.calendar.venues, organizer: set.calendar.organizers, category: set.calendar.categories, tag: set.calendar.tags })[t] as readonly { id: number }[];

/** Each verdict over every record it judges: `rule table id` of those it fires on, with what it says. */
function verdicts(set: FixtureSet): Record<string, CalendarBreak> {
  const world = worldOf(set);
  const out: Record<string, CalendarBreak> = {};
  for (const [rule, types, verdict] of VERDICTS) {
    for (const t of types) for (const r of listOf(set, t)) {
      const b = verdict(world, t, r as never);
      if (b) out[`${rule} ${t} ${r.id}`] = b;
    }
  }
  return out;
}

/** The bundled set with the fields of one record changed. */
function broken(t: CalendarTable, id: number, change: Record<string, unknown>): FixtureSet {
  const set = bundled();
  Object.assign(listOf(set, t).find((r) => r.id === id)!, change);
  return set;
}

describe('each calendar verdict fires on exactly the broken record', () => {
  it('none fires on the bundled fixtures', () => {
    expect(verdicts(bundled())).toEqual({});
  });

  it("an event's references, its author, dates and time zone", () => {
    const names = (post?: string, term?: string) => ({ post, term });
    expect(verdicts(broken('event', 95, { categories: [2, 999_999], tags: [28] }))).toEqual({
      'references event 95': { kind: 'missing', field: 'categories', index: 1, id: 999_999, expected: 'category', names: names() },
    });
    // 54 is an organizer and a tag (posts and terms have their own IDs).
    expect(verdicts(broken('event', 95, { venues: [13, 54] }))).toEqual({
      'references event 95': { kind: 'missing', field: 'venues', index: 1, id: 54, expected: 'venue', names: names('organizer', 'tag') },
    });
    expect(verdicts(broken('event', 95, { organizers: [28] }))).toEqual({
      'references event 95': { kind: 'missing', field: 'organizers', index: 0, id: 28, expected: 'organizer', names: names('venue', 'tag') },
    });
    expect(verdicts(broken('venue', 13, { author: 77 }))).toEqual({ 'author venue 13': { kind: 'missing', field: 'author', id: 77, expected: 'user' } });
    expect(verdicts(broken('event', 98, { start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 09:59:59' }))).toEqual({
      'dates event 98': { kind: 'end-before-start', field: 'end_date', start: '2027-01-02 10:00:00', end: '2027-01-02 09:59:59' },
    });
    // The edge: ending when it starts is allowed.
    expect(verdicts(broken('event', 98, { start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 10:00:00' }))).toEqual({});
    expect(verdicts(broken('event', 98, { timezone: 'Europe/Kiev2' }))).toEqual({
      'time zone event 98': { kind: 'unknown-time-zone', field: 'timezone', value: 'Europe/Kiev2' },
    });
  });

  it('all of an event\'s broken references, in field order, when asked for all', () => {
    const world = worldOf(bundled());
    const e = { categories: [999_999], tags: [], venues: [2], organizers: [5] };
    expect(brokenReferences(world, e, true).map((b) => `${b.field}/${b.index} ${b.id}`)).toEqual(['categories/0 999999', 'venues/0 2', 'organizers/0 5']);
    expect(brokenReferences(world, e)).toHaveLength(1);
  });

  it('a translation: missing, itself, same language, of a translation, a second one, and an original becoming one', () => {
    expect(verdicts(broken('venue', 12, { translation_of: 92 }))).toEqual({
      'translation venue 12': { kind: 'missing', field: 'translation_of', id: 92, expected: 'venue', names: { post: 'event', term: undefined } },
    });
    const ukTag = bundled().calendar.tags.find((t) => t.lang === 'uk' && t.translation_of !== undefined)!.id;
    expect(verdicts(broken('tag', ukTag, { translation_of: ukTag }))).toEqual({ [`translation tag ${ukTag}`]: { kind: 'self', field: 'translation_of', id: ukTag } });
    expect(verdicts(broken('event', 95, { translation_of: 98 }))).toEqual({
      'translation event 95': { kind: 'same-language', field: 'translation_of', original: 98, lang: 'en' },
    });
    // 93 (uk) translates 92 (en): an en record cannot translate 93, and 93 cannot be translated. Both ends of the link
    // are judged; the loader words it at the translation's end only.
    expect(verdicts(broken('event', 95, { translation_of: 93 }))).toEqual({
      'translation event 93': { kind: 'has-translations', field: 'translation_of', id: 93 },
      'translation event 95': { kind: 'chained', field: 'translation_of', original: 93, of: 92 },
    });
    // Category 25 (uk) moved from 6 to 4, which 24 (uk) already translates: reported at both, each naming the other.
    expect(verdicts(broken('category', 25, { translation_of: 4 }))).toEqual({
      'translation category 24': { kind: 'taken', field: 'translation_of', original: 4, lang: 'uk', by: 25 },
      'translation category 25': { kind: 'taken', field: 'translation_of', original: 4, lang: 'uk', by: 24 },
    });
    // 92 (en) has a uk translation, 93; made a translation of a lone uk event, it breaks the rule, and so does 93,
    // whose original now is a translation.
    const set = bundled();
    const translated = new Set(set.calendar.events.map((e) => e.translation_of));
    const lone = set.calendar.events.find((e) => e.lang === 'uk' && e.translation_of === undefined && !translated.has(e.id))!;
    expect(verdicts(broken('event', 92, { translation_of: lone.id }))).toEqual({
      'translation event 92': { kind: 'has-translations', field: 'translation_of', id: 92 },
      'translation event 93': { kind: 'chained', field: 'translation_of', original: 92, of: lone.id },
    });
  });

  it('a parent event or category: missing, itself, a cycle (every member of it)', () => {
    expect(verdicts(broken('event', 153, { post_parent: 11 }))).toEqual({
      'parent event event 153': { kind: 'missing', field: 'post_parent', id: 11, expected: 'event', names: { post: 'venue', term: 'category' } },
    });
    expect(verdicts(broken('event', 153, { post_parent: 153 }))).toEqual({ 'parent event event 153': { kind: 'self', field: 'post_parent', id: 153 } });
    expect(verdicts(broken('event', 151, { post_parent: 153 }))).toEqual({
      'parent event event 151': { kind: 'cycle', field: 'post_parent', path: [151, 153, 151] },
      'parent event event 153': { kind: 'cycle', field: 'post_parent', path: [153, 151, 153] },
    });
    expect(verdicts(broken('category', 2, { parent: 31 }))).toEqual({
      'parent category category 2': { kind: 'missing', field: 'parent', id: 31, expected: 'category', names: { post: undefined, term: 'tag' } },
    });
    expect(verdicts(broken('category', 9, { parent: 9 }))).toEqual({ 'parent category category 9': { kind: 'self', field: 'parent', id: 9 } });
    expect(verdicts(broken('category', 2, { parent: 6 }))).toEqual({
      'parent category category 2': { kind: 'cycle', field: 'parent', path: [2, 6, 4, 2] },
      'parent category category 4': { kind: 'cycle', field: 'parent', path: [4, 2, 6, 4] },
      'parent category category 6': { kind: 'cycle', field: 'parent', path: [6, 4, 2, 6] },
    });
  });

  it('a slug another record of the type holds in the language (the first holder keeps it; other languages and types may share it)', () => {
    expect(verdicts(broken('tag', 30, { slug: 'family-friendly' }))).toEqual({
      'slug tag 30': { kind: 'slug-taken', field: 'slug', slug: 'family-friendly', lang: 'en', by: 28 },
    });
    const ukTag = bundled().calendar.tags.find((t) => t.lang === 'uk')!.id;
    expect(verdicts(broken('tag', ukTag, { slug: 'family-friendly' }))).toEqual({});
    expect(verdicts(broken('tag', 30, { slug: 'music' }))).toEqual({});
  });
});

describe("worldOf's indexes", () => {
  it('answer as a scan of the set does: get the last record with a key, slugOwner the first holder, translationsOf all in order', () => {
    const set = bundled();
    breakEveryRule(set);
    // A repeated ID and an empty slug besides the broken slugs and translations.
    set.calendar.venues.push({ ...set.calendar.venues[3]!, title: 'twin' });
    set.calendar.events[0]!.slug = '';
    const world = worldOf(set);
    for (const t of ['event', 'venue', 'organizer', 'category', 'tag'] as const) {
      const list = listOf(set, t) as readonly { id: number; slug: string; lang: string; translation_of?: number }[];
      for (const r of list) {
        expect(world.get(t, r.id)).toBe(list.filter((x) => x.id === r.id).at(-1));
        expect(world.slugOwner(t, r.lang, r.slug)).toBe(r.slug === '' ? undefined : list.find((x) => x.slug === r.slug && x.lang === r.lang)!.id);
        expect(world.translationsOf(t, r.id)).toEqual(list.filter((x) => x.translation_of === r.id));
      }
      expect(world.slugOwner(t, 'en', 'no-such-slug')).toBeUndefined();
    }
  });
});
