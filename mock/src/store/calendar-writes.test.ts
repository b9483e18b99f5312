// The store's refusals of post and term writes, byte for byte (code, message, field): these messages reach API
// clients as WordPress-style errors, so moving the rules into the model (contracts/model/calendar-rules.ts) must not
// change one of them; and each refusal is the model's verdict on the record, as the store words it
// (calendar-refusals.ts). A refused write leaves the state as it was.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  brokenAuthor, brokenCategoryParent, brokenEventDates, brokenEventParent, brokenReferences, brokenSlug, brokenTimeZone, brokenTranslation,
  type CalendarBreak,
} from '../../../contracts/model/calendar-rules.ts';
import type { FixtureSet } from '../../../contracts/model/records.ts';
import { worldOf, type CalendarTable } from '../../../contracts/model/world.ts';
import { calendarRefusal } from './calendar-refusals.ts';
import { loadFixtures } from './load-fixtures.ts';
import { createStore } from './store.ts';
import { refusal, type Refusal } from '../testing/refusal.ts';

let fixtures: FixtureSet;
beforeAll(async () => {
  fixtures = await loadFixtures(fileURLToPath(new URL('../../../fixtures/', import.meta.url)));
});

const NOW = new Date('2026-11-01T10:00:00Z');
const fresh = () => createStore(fixtures, { now: () => NOW });

const ref = (field: string, message: string): Refusal => ({ code: 'invalid_reference', message: `${field}: ${message}`, field });

describe('post and term writes the store refuses, word for word', () => {
  it("an event's references: missing, or naming a record of another kind (post kinds first, then term kinds)", () => {
    const s = fresh();
    const e = (input: Record<string, unknown>) => refusal(s, (x) => x.createPost('event', { title: 'x', ...input }));
    expect(e({ categories: [999_999] })).toEqual(ref('categories', 'no category with id 999999'));
    expect(e({ categories: [54] })).toEqual(ref('categories', '54 is a organizer, not a category'));
    expect(e({ tags: [2] })).toEqual(ref('tags', '2 is a category, not a tag'));
    expect(e({ venues: [5] })).toEqual(ref('venues', '5 is a contactForm, not a venue'));
    expect(e({ venues: [11, 2] })).toEqual(ref('venues', '2 is a category, not a venue'));
    expect(e({ organizers: [11] })).toEqual(ref('organizers', '11 is a venue, not a organizer'));
    // The first broken field in the order categories, tags, venues, organizers; 28 is a tag and a venue, and the
    // store names the post kind.
    expect(e({ organizers: [999_999], categories: [28] })).toEqual(ref('categories', '28 is a venue, not a category'));
    expect(e({ post_parent: 999_999 })).toEqual(ref('post_parent', 'no event with id 999999'));
    expect(e({ post_parent: 11 })).toEqual(ref('post_parent', '11 is a venue, not a event'));
  });

  it('an author who is no user', () => {
    const s = fresh();
    expect(refusal(s, (x) => x.createPost('venue', { title: 'x', author: 77 }))).toEqual(ref('author', 'no user with id 77'));
    expect(refusal(s, (x) => x.updatePost('organizer', 54, { author: 99 }))).toEqual(ref('author', 'no user with id 99'));
  });

  it('a parent event that makes a cycle, itself included', () => {
    const s = fresh();
    const cycle = (parent: number) => ({ code: 'invalid_parent', message: `post_parent: ${parent} would make a cycle`, field: 'post_parent' });
    expect(refusal(s, (x) => x.updatePost('event', 151, { post_parent: 153 }))).toEqual(cycle(153));
    expect(refusal(s, (x) => x.updatePost('event', 151, { post_parent: 151 }))).toEqual(cycle(151));
    // A new event cannot name itself: its ID is not a record yet.
    const next = s.sequences.post;
    expect(refusal(s, (x) => x.createPost('event', { title: 'x', post_parent: next }))).toEqual(ref('post_parent', `no event with id ${next}`));
  });

  it('an end before the start, and an unknown time zone (an event\'s and the settings\')', () => {
    const s = fresh();
    expect(refusal(s, (x) => x.createPost('event', { title: 'x', start_date: '2027-01-02 10:00:00', end_date: '2027-01-01 10:00:00' }))).toEqual({
      code: 'invalid_value', message: 'end_date: must not be before start_date (2027-01-02 10:00:00), got 2027-01-01 10:00:00', field: 'end_date',
    });
    expect(refusal(s, (x) => x.createPost('event', { title: 'x', timezone: 'Mars/Olympus' }))).toEqual({
      code: 'invalid_value', message: 'timezone: unknown time zone "Mars/Olympus"', field: 'timezone',
    });
    expect(refusal(s, (x) => x.set('calendarSettings', { ...x.get('calendarSettings'), timezone: 'Mars/Olympus' }))).toEqual({
      code: 'invalid_value', message: 'timezone: unknown time zone "Mars/Olympus"', field: 'timezone',
    });
  });

  it("a post's translation: missing, itself, same language, a translation's translation, a second one, an original becoming one", () => {
    const s = fresh();
    const tr = (type: 'event' | 'venue', input: Record<string, unknown>) => refusal(s, (x) => x.createPost(type, { title: 'x', ...input }));
    expect(tr('event', { translation_of: 999_999 })).toEqual(ref('translation_of', 'no event with id 999999'));
    expect(tr('venue', { translation_of: 92 })).toEqual(ref('translation_of', 'no venue with id 92'));
    expect(refusal(s, (x) => x.updatePost('event', 95, { translation_of: 95 }))).toEqual(ref('translation_of', 'a record cannot translate itself'));
    expect(tr('event', { lang: 'en', translation_of: 92 })).toEqual(ref('translation_of', 'event 92 is in the same language (en)'));
    expect(tr('event', { lang: 'en', translation_of: 93 })).toEqual(ref('translation_of', 'event 93 is itself a translation of 92'));
    expect(tr('event', { lang: 'uk', translation_of: 92 })).toEqual({ code: 'conflict', message: 'translation_of: event 92 already has a uk translation', field: 'translation_of' });
    const events = s.events.values();
    const lone = events.find((e) => e.lang === 'uk' && e.translation_of === undefined && !events.some((o) => o.translation_of === e.id))!;
    expect(refusal(s, (x) => x.updatePost('event', 92, { translation_of: lone.id }))).toEqual(
      ref('translation_of', 'event 92 has translations of its own, so it cannot become a translation'),
    );
  });

  it("a term's translation, parent and slug", () => {
    const s = fresh();
    expect(refusal(s, (x) => x.updateTerm('category', 2, { translation_of: 2 }))).toEqual(ref('translation_of', 'a record cannot translate itself'));
    expect(refusal(s, (x) => x.createTerm('tag', { name: 'Fresh', lang: 'en', translation_of: 28 }))).toEqual(ref('translation_of', 'tag 28 is in the same language (en)'));
    expect(refusal(s, (x) => x.createTerm('category', { name: 'Fresh', lang: 'en', translation_of: 23 }))).toEqual(ref('translation_of', 'category 23 is itself a translation of 2'));
    expect(refusal(s, (x) => x.createTerm('category', { name: 'Fresh', lang: 'uk', translation_of: 2 }))).toEqual({
      code: 'conflict', message: 'translation_of: category 2 already has a uk translation', field: 'translation_of',
    });
    expect(refusal(s, (x) => x.createTerm('tag', { name: 'Fresh', translation_of: 2 }))).toEqual(ref('translation_of', 'no tag with id 2'));
    const noParent = (id: number) => ({ code: 'invalid_parent', message: `parent: no category with id ${id}`, field: 'parent' });
    expect(refusal(s, (x) => x.createTerm('category', { name: 'Fresh', parent: 999_999 }))).toEqual(noParent(999_999));
    expect(refusal(s, (x) => x.createTerm('category', { name: 'Fresh', parent: 28 }))).toEqual(noParent(28));
    expect(refusal(s, (x) => x.updateTerm('tag', 31, { slug: 'free-entry' }))).toEqual({
      code: 'duplicate_slug', message: 'slug: "free-entry" is already used by another tag', field: 'slug',
    });
  });

  it("each refusal is the model's verdict on the record the write would store, in the store's words", () => {
    const s = fresh();
    const world = worldOf(fixtures);
    const post = s.sequences.post;
    const term = s.sequences.term;
    const said = (type: CalendarTable, b: CalendarBreak | undefined): Refusal => {
      expect(b, 'the model finds the break').toBeDefined();
      const e = calendarRefusal(type, b!);
      return { code: e.code, message: e.message, field: e.field };
    };
    const noRefs = { categories: [], tags: [], venues: [], organizers: [] };
    const events = s.events.values();
    const lone = events.find((e) => e.lang === 'uk' && e.translation_of === undefined && !events.some((o) => o.translation_of === e.id))!;
    const cases: [Refusal, Refusal][] = [
      [refusal(s, (x) => x.createPost('event', { title: 'x', tags: [2] })), said('event', brokenReferences(world, { ...noRefs, tags: [2] })[0])],
      [refusal(s, (x) => x.createPost('event', { title: 'x', venues: [5] })), said('event', brokenReferences(world, { ...noRefs, venues: [5] })[0])],
      [refusal(s, (x) => x.createPost('venue', { title: 'x', author: 77 })), said('venue', brokenAuthor(world, { author: 77 }))],
      [refusal(s, (x) => x.createPost('event', { title: 'x', translation_of: 999_999 })), said('event', brokenTranslation(world, 'event', { id: post, lang: 'en', translation_of: 999_999 }))],
      [refusal(s, (x) => x.updatePost('event', 95, { translation_of: 95 })), said('event', brokenTranslation(world, 'event', { id: 95, lang: 'en', translation_of: 95 }))],
      [refusal(s, (x) => x.createPost('event', { title: 'x', lang: 'en', translation_of: 93 })), said('event', brokenTranslation(world, 'event', { id: post, lang: 'en', translation_of: 93 }))],
      [refusal(s, (x) => x.createPost('event', { title: 'x', lang: 'uk', translation_of: 92 })), said('event', brokenTranslation(world, 'event', { id: post, lang: 'uk', translation_of: 92 }))],
      [refusal(s, (x) => x.updatePost('event', 92, { translation_of: lone.id })), said('event', brokenTranslation(world, 'event', { id: 92, lang: 'en', translation_of: lone.id }))],
      [refusal(s, (x) => x.createPost('event', { title: 'x', post_parent: 11 })), said('event', brokenEventParent(world, { id: post, post_parent: 11 }))],
      [refusal(s, (x) => x.updatePost('event', 151, { post_parent: 151 })), said('event', brokenEventParent(world, { id: 151, post_parent: 151 }))],
      [refusal(s, (x) => x.updatePost('event', 151, { post_parent: 153 })), said('event', brokenEventParent(world, { id: 151, post_parent: 153 }))],
      [refusal(s, (x) => x.createPost('event', { title: 'x', start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 09:00:00' })),
        said('event', brokenEventDates({ start_date: '2027-01-02 10:00:00', end_date: '2027-01-02 09:00:00' }))],
      [refusal(s, (x) => x.createPost('event', { title: 'x', timezone: 'Europe/Kiev2' })), said('event', brokenTimeZone('timezone', 'Europe/Kiev2'))],
      [refusal(s, (x) => x.set('calendarSettings', { ...x.get('calendarSettings'), timezone: 'Europe/Kiev2' })), said('event', brokenTimeZone('timezone', 'Europe/Kiev2'))],
      [refusal(s, (x) => x.createTerm('category', { name: 'Fresh', lang: 'uk', translation_of: 2 })), said('category', brokenTranslation(world, 'category', { id: term, lang: 'uk', translation_of: 2 }))],
      [refusal(s, (x) => x.createTerm('category', { name: 'Fresh', parent: 31 })), said('category', brokenCategoryParent(world, { id: term, parent: 31 }))],
      // A taken slug is refused on update (wp_update_term()); a new term's is made unique instead (wp_insert_term()).
      [refusal(s, (x) => x.updateTerm('tag', 31, { slug: 'free-entry' })), said('tag', brokenSlug(world, 'tag', { id: 31, lang: 'en', slug: 'free-entry' }))],
    ];
    for (const [store, model] of cases) expect(store).toEqual(model);
  });

  it('a category made its own parent or moved under its descendant gets no parent, not a refusal (wp_check_term_hierarchy_for_loops)', () => {
    const s = fresh();
    expect(s.updateTerm('category', 9, { parent: 9 }).parent).toBe(0);
    // 2 <- 4 <- 6: 2 under 6 would close the model's cycle; WordPress drops the new parent (2 becomes top-level) and
    // leaves 4 and 6 where they are.
    expect(brokenCategoryParent(worldOf(fixtures), { id: 2, parent: 6 })).toEqual({ kind: 'cycle', field: 'parent', path: [2, 6, 4, 2] });
    expect(s.updateTerm('category', 2, { parent: 6 }).parent).toBe(0);
    expect([s.categories.get(6)!.parent, s.categories.get(4)!.parent]).toEqual([4, 2]);
  });
});
