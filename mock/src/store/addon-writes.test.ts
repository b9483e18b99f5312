// The store's refusals of add-on writes are the record model's verdicts (contracts/model/addon-rules.ts), word for
// word: one rule, judged by the same function for the fixture loader and for a write. A refused write leaves the
// state as it was.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { brokenByRemoval, brokenByWrite, brokenInvariant, type BrokenRule } from '../../../contracts/model/addon-rules.ts';
import type { FixtureSet } from '../../../contracts/model/records.ts';
import { worldOf } from '../../../contracts/model/world.ts';
import { loadFixtures } from './load-fixtures.ts';
import { createStore } from './store.ts';
import { refusal } from '../testing/refusal.ts';

let fixtures: FixtureSet;
beforeAll(async () => {
  fixtures = await loadFixtures(fileURLToPath(new URL('../../../fixtures/', import.meta.url)));
});

/** The fixtures as a write would leave them, for the model's verdict. */
const worldAfter = (edit: (f: FixtureSet) => void) => {
  const copy = structuredClone(fixtures);
  edit(copy);
  return worldOf(copy);
};

const asRefusal = (b: BrokenRule | undefined) => {
  expect(b).toBeDefined();
  return { code: b!.kind === 'reference' ? 'invalid_reference' : 'conflict', message: b!.message, field: b!.field };
};

describe("the store refuses add-on writes with the model's verdicts", () => {
  it('on one record: a slug another form has, an event\'s ID, a submission to no form, a token of no user, a job into its own language', () => {
    const s = createStore(fixtures);
    const world = worldOf(fixtures);
    const [form0, form1] = fixtures.addons.contactForms as [FixtureSet['addons']['contactForms'][number], FixtureSet['addons']['contactForms'][number]];
    const event = fixtures.calendar.events[0]!;
    const feedback = { id: 0, form_id: 424_242, submitted_at: '2026-11-01 12:00:00', status: 'mail_sent' as const, fields: {}, invalid_fields: [] };
    const token = { ...fixtures.addons.lms.tokens[0]!, username: 'nobody' };
    const job = fixtures.addons.translation.jobs[0]!;
    const cases: [ReturnType<typeof refusal>, BrokenRule | undefined, ReturnType<typeof refusal>][] = [
      [refusal(s, (x) => x.put('contactForms', { ...form1, slug: form0.slug })), brokenByWrite(world, 'contactForms', { ...form1, slug: form0.slug }),
        { code: 'conflict', message: "slug: contact form slug 'contact-form-1' is already used", field: 'slug' }],
      [refusal(s, (x) => x.put('contactForms', { ...form1, id: event.id, slug: 'fresh' })), brokenByWrite(world, 'contactForms', { ...form1, id: event.id, slug: 'fresh' }),
        { code: 'conflict', message: `id: post ${event.id} is a event`, field: 'id' }],
      [refusal(s, (x) => x.insert('feedback', (id) => ({ ...feedback, id }))), brokenByWrite(world, 'feedback', feedback),
        { code: 'invalid_reference', message: 'form_id: no contact form 424242', field: 'form_id' }],
      [refusal(s, (x) => x.put('lmsTokens', token)), brokenByWrite(world, 'lmsTokens', token),
        { code: 'invalid_reference', message: 'username: no learning-module user "nobody"', field: 'username' }],
      [refusal(s, (x) => x.put('translationJobs', { ...job, targetLanguageCode: job.sourceLanguageCode })), brokenByWrite(world, 'translationJobs', { ...job, targetLanguageCode: job.sourceLanguageCode }),
        { code: 'conflict', message: 'targetLanguageCode: must differ from sourceLanguageCode', field: 'targetLanguageCode' }],
    ];
    for (const [store, model, literal] of cases) {
      expect(store).toEqual(literal);
      expect(store).toEqual(asRefusal(model));
    }
  });

  it('on a whole table: a second active theme, a slide id in two sliders, no administrator left', () => {
    const s = createStore(fixtures);
    const themes = fixtures.addons.pageBuilder.themes;
    const inactive = themes.find((t) => t.status === 'inactive')!;
    expect(refusal(s, (x) => x.put('pbThemes', { ...inactive, status: 'active' }))).toEqual({
      code: 'conflict', message: 'status: must be the only active theme (use activateTheme to switch)', field: 'status',
    });
    expect(refusal(s, (x) => x.put('pbThemes', { ...inactive, status: 'active' }))).toEqual(asRefusal(brokenInvariant(worldAfter((f) => (f.addons.pageBuilder.themes.find((t) => t.slug === inactive.slug)!.status = 'active')), 'pbThemes')));

    const [slider0, slider1] = fixtures.addons.sliders as [FixtureSet['addons']['sliders'][number], FixtureSet['addons']['sliders'][number]];
    const clash = { ...slider1, slides: [{ ...slider1.slides[0]!, id: slider0.slides[0]!.id }, ...slider1.slides.slice(1)] };
    expect(refusal(s, (x) => x.put('sliders', clash))).toEqual({
      code: 'conflict', message: `slides: slide id ${slider0.slides[0]!.id} is used twice (slide ids are unique across sliders)`, field: 'slides',
    });
    expect(refusal(s, (x) => x.put('sliders', clash))).toEqual(asRefusal(brokenInvariant(worldAfter((f) => (f.addons.sliders[1] = clash)), 'sliders')));

    const admin = fixtures.users.users.find((u) => u.roles.includes('administrator'))!;
    const demoted = { ...admin, roles: ['editor' as const] };
    expect(refusal(s, (x) => x.put('users', demoted))).toEqual({
      code: 'conflict', message: 'roles: must contain at least one user with the administrator role', field: 'roles',
    });
    expect(refusal(s, (x) => x.put('users', demoted))).toEqual(asRefusal(brokenInvariant(worldAfter((f) => (f.users.users = f.users.users.map((u) => (u.id === admin.id ? demoted : u)))), 'users')));
  });

  it('on a removal: a user who still authors posts', () => {
    const s = createStore(fixtures);
    const author = fixtures.calendar.events[0]!.author;
    expect(refusal(s, (x) => x.remove('users', author))).toEqual({ code: 'conflict', message: `user ${author} still authors posts; reassign them first`, field: 'id' });
    expect(refusal(s, (x) => x.remove('users', author))).toEqual(asRefusal(brokenByRemoval(worldOf(fixtures), 'users', author)));
  });
});
