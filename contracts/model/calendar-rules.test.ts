// The calendar's cross-record rules of the model, as the fixture loader words them: every kind of break named at
// its record, byte for byte (fixture authors read these messages), and the bundled fixtures keep every rule.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calendarIssues, type PartLocator } from './integrity.ts';
import type { FixtureSet } from './records.ts';

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/${name}.json`, import.meta.url), 'utf8'));
const bundled = (): FixtureSet => ({ calendar: read('calendar'), addons: read('addons'), users: read('users') }) as FixtureSet;
const where: PartLocator = {
  calendar: { file: 'calendar.json', prefix: '' },
  addons: { file: 'addons.json', prefix: '' },
  users: { file: 'users.json', prefix: '' },
};
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
