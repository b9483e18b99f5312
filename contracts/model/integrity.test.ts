// The model's cross-record rules on their own, without the mock: the bundled fixture files keep them, and each kind
// of break is named at its record (the mock's loader tests run them together with the add-on rules over files).
import { describe, expect, it } from 'vitest';
import { BUNDLED_FILES, bundledFixtures } from './testing/bundled.ts';
import { calendarIssues, locate, minimumSequences, type PartLocator } from './integrity.ts';
import type { FixtureSet } from './records.ts';

const bundled = bundledFixtures;
const where = BUNDLED_FILES;
const messages = (set: FixtureSet) => locate(calendarIssues(set, where), where).map((i) => `${i.file} ${i.pointer} ${i.message}`);

describe('the calendar rules of the record model', () => {
  it('the bundled fixtures keep them', () => {
    const set = bundled();
    expect(set.calendar.events.length).toBeGreaterThan(100);
    expect(messages(set)).toEqual([]);
  });

  it('names a missing venue, a post ID used twice, a category cycle, an unknown author and a bad time zone', () => {
    const set = bundled();
    const [a, b] = set.calendar.events;
    a!.venues = [999_999];
    b!.id = set.calendar.venues[0]!.id;
    const [c1, c2] = set.calendar.categories;
    c1!.parent = c2!.id;
    c2!.parent = c1!.id;
    set.calendar.organizers[0]!.author = 424_242;
    set.calendar.settings.timezone = 'Mars/Olympus';
    const found = messages(set);
    expect(found).toContain('calendar.json /events/0/venues/0 refers to venue 999999, which does not exist');
    expect(found.some((m) => m.startsWith('calendar.json /venues/0/id duplicates post id') || m.startsWith('calendar.json /events/1/id duplicates post id'))).toBe(true);
    expect(found.some((m) => m.startsWith('calendar.json /categories/0/parent forms a cycle'))).toBe(true);
    expect(found).toContain('calendar.json /organizers/0/author refers to user 424242, which does not exist in users.json');
    expect(found).toContain('calendar.json /settings/timezone must be a known time zone, got "Mars/Olympus"');
  });

  it('locate places a part\'s pointer in its file, after the part\'s prefix (a state file holds all three parts)', () => {
    const state: PartLocator = { calendar: { file: 's.json', prefix: '/calendar' }, addons: { file: 's.json', prefix: '/addons' }, users: { file: 's.json', prefix: '/users' } };
    expect(locate([{ part: 'addons', pointer: '/sliders/2', message: 'x' }], state)).toEqual([{ file: 's.json', pointer: '/addons/sliders/2', message: 'x' }]);
  });

  it('minimumSequences is one past the highest ID in use, featured media counted as posts', () => {
    const set = bundled();
    const posts = [...set.calendar.events, ...set.calendar.venues, ...set.calendar.organizers];
    const highest = Math.max(...posts.map((p) => p.id), ...posts.map((p) => p.featured_media), ...set.addons.contactForms.map((f) => f.id));
    expect(minimumSequences(set).post).toBe(highest + 1);
    set.calendar.events[0]!.featured_media = highest + 50;
    expect(minimumSequences(set).post).toBe(highest + 51);
  });
});
