// The add-on tables' and users' rules of the record model on their own, without the mock: the committed fixtures
// keep them, each kind of break is named at its record over a whole set, and the same rules judge one write (what
// the mock's store refuses it with: mock/src/store/addon-writes.test.ts holds the store to them).
import { describe, expect, it } from 'vitest';
import { BUNDLED_FILES, bundledFixtures } from './testing/bundled.ts';
import { addonIssues, brokenByRemoval, brokenByWrite, brokenInvariant } from './addon-rules.ts';
import type { FixtureSet } from './records.ts';
import { checkIntegrity } from './set-integrity.ts';
import { worldOf } from './world.ts';

const bundled = bundledFixtures;
const where = BUNDLED_FILES;
const issues = (set: FixtureSet) => addonIssues(set).map((i) => `${i.part} ${i.pointer} ${i.message}`);

describe('the add-on rules over a whole set', () => {
  it('the committed fixtures keep them, and the calendar rules with them (checkIntegrity)', () => {
    const set = bundled();
    // Empty add-on tables would pass vacuously.
    const a = set.addons;
    for (const n of [a.contactForms, a.feedback, a.pageBuilder.themes, a.lms.tokens, a.translation.packages, a.translation.jobs, a.sliders, a.seo.objects]) {
      expect(n.length).toBeGreaterThan(1);
    }
    expect(issues(set)).toEqual([]);
    expect(checkIntegrity(set, where)).toEqual([]);
  });

  const cases: [string, (s: FixtureSet) => void, string][] = [
    ['a contact-form slug used twice', (s) => (s.addons.contactForms[1]!.slug = s.addons.contactForms[0]!.slug),
      "addons /contactForms/1 duplicates contact form slug 'contact-form-1' already used at /contactForms/0"],
    ['a submission to a form that does not exist', (s) => (s.addons.feedback[0]!.form_id = 424_242),
      'addons /feedback/0/form_id refers to contact form 424242, which does not exist'],
    ['a second active theme', (s) => (s.addons.pageBuilder.themes[2]!.status = 'active'),
      'addons /pageBuilder/themes/2/status must be the only active theme (use activateTheme to switch)'],
    ['two SEO records about one object (a key used twice)', (s) => (s.addons.seo.objects[1] = { ...s.addons.seo.objects[1]!, objectID: s.addons.seo.objects[0]!.objectID }),
      'addons /seo/objects/1 duplicates object post 608 already used at /seo/objects/0'],
    ['SEO data about a term that does not exist', (s) => (s.addons.seo.objects[0] = { ...s.addons.seo.objects[0]!, objectType: 'term', objectID: 999_999 }),
      'addons /seo/objects/0/objectID refers to term 999999, which does not exist'],
    ["a token of a learning-module user who does not exist", (s) => (s.addons.lms.tokens[0]!.username = 'nobody'),
      "addons /lms/tokens/0/username refers to learning-module user 'nobody', which does not exist"],
    ['a string package listing a string that does not exist', (s) => (s.addons.translation.packages[0]!.stringIds[1] = 999_999),
      'addons /translation/packages/0/stringIds/1 refers to string 999999, which does not exist'],
    ['a translation job into its own language', (s) => (s.addons.translation.jobs[0]!.targetLanguageCode = s.addons.translation.jobs[0]!.sourceLanguageCode),
      'addons /translation/jobs/0/targetLanguageCode must differ from sourceLanguageCode'],
    ['a translation job for a post that does not exist', (s) => (s.addons.translation.jobs[0]!.elementId = 999_999),
      'addons /translation/jobs/0/elementId refers to post 999999, which does not exist'],
    ['a slider alias used twice', (s) => (s.addons.sliders[1]!.alias = s.addons.sliders[0]!.alias),
      'addons /sliders/1 duplicates slider alias home-hero already used at /sliders/0'],
    ['a slide id in two sliders', (s) => (s.addons.sliders[1]!.slides[0]!.id = s.addons.sliders[0]!.slides[0]!.id),
      'addons /sliders/1/slides slide id 1 is used twice (slide ids are unique across sliders)'],
    ['a tracked keyword twice in one language', (s) => (s.addons.seo.trackedKeywords[1] = { ...s.addons.seo.trackedKeywords[1]!, keyword: 'jazz concerts kyiv', lang: 'en' }),
      "addons /seo/trackedKeywords/1 duplicates keyword 'jazz concerts kyiv' (en) already used at /seo/trackedKeywords/0"],
    ['an import job ID twice', (s) => (s.calendar.importJobs[1]!.import_id = s.calendar.importJobs[0]!.import_id),
      'calendar /importJobs/1 duplicates import_id imp_ad7de042e170 already used at /importJobs/0'],
    ['an e-mail address twice, in another case', (s) => (s.users.users[1]!.email = 'ADMIN@events.example.org'),
      'users /users/1 duplicates e-mail admin@events.example.org already used at /users/0'],
    ['no administrator', (s) => (s.users.users[0]!.roles = ['editor']),
      'users /users must contain at least one user with the administrator role'],
  ];

  it.each(cases)('names %s at its record, and nothing else', (_what, edit, expected) => {
    const set = bundled();
    edit(set);
    expect(issues(set)).toEqual([expected]);
  });

  it('an empty contact-form slug takes no part in uniqueness (drafts have none)', () => {
    const set = bundled();
    set.addons.contactForms[0]!.slug = '';
    set.addons.contactForms[1]!.slug = '';
    expect(issues(set)).toEqual([]);
  });
});

describe('the same rules on one write (what the store refuses it with)', () => {
  const set = bundled();
  const world = worldOf(set);
  const [form0, form1] = set.addons.contactForms as [FixtureSet['addons']['contactForms'][number], FixtureSet['addons']['contactForms'][number]];

  it('passes every committed record written again as it is', () => {
    for (const f of set.addons.contactForms) expect(brokenByWrite(world, 'contactForms', f)).toBeUndefined();
    for (const f of set.addons.feedback) expect(brokenByWrite(world, 'feedback', f)).toBeUndefined();
    for (const s of set.addons.sliders) expect(brokenByWrite(world, 'sliders', s)).toBeUndefined();
    for (const u of set.users.users) expect(brokenByWrite(world, 'users', u)).toBeUndefined();
    expect(brokenInvariant(world, 'pbThemes')).toBeUndefined();
    expect(brokenInvariant(world, 'users')).toBeUndefined();
  });

  it('refuses a slug another form has, a form taking an event\'s ID, a submission to no form, a job into its own language', () => {
    expect(brokenByWrite(world, 'contactForms', { ...form1, slug: form0.slug })).toEqual({ kind: 'conflict', field: 'slug', message: "slug: contact form slug 'contact-form-1' is already used" });
    const event = set.calendar.events[0]!;
    expect(brokenByWrite(world, 'contactForms', { ...form1, id: event.id, slug: 'fresh' })).toEqual({ kind: 'conflict', field: 'id', message: `id: post ${event.id} is a event` });
    expect(brokenByWrite(world, 'feedback', { ...set.addons.feedback[0]!, form_id: 424_242 })).toEqual({ kind: 'reference', field: 'form_id', message: 'form_id: no contact form 424242' });
    const job = set.addons.translation.jobs[0]!;
    expect(brokenByWrite(world, 'translationJobs', { ...job, targetLanguageCode: job.sourceLanguageCode })).toEqual({ kind: 'conflict', field: 'targetLanguageCode', message: 'targetLanguageCode: must differ from sourceLanguageCode' });
  });

  it('refuses a second active theme and a set of users without an administrator', () => {
    const broken = bundled();
    for (const t of broken.addons.pageBuilder.themes) t.status = 'active';
    broken.users.users = broken.users.users.filter((u) => !u.roles.includes('administrator'));
    expect(brokenInvariant(worldOf(broken), 'pbThemes')).toEqual({ kind: 'conflict', field: 'status', message: 'status: must be the only active theme (use activateTheme to switch)' });
    expect(brokenInvariant(worldOf(broken), 'users')).toEqual({
      kind: 'conflict', field: 'roles', message: 'roles: must contain at least one user with the administrator role',
    });
  });

  it('refuses removing a user who still authors posts, and no one else', () => {
    const authors = new Set([...set.calendar.events, ...set.calendar.venues, ...set.calendar.organizers].map((p) => p.author));
    const author = set.users.users.find((u) => authors.has(u.id))!;
    const reader = set.users.users.find((u) => !authors.has(u.id))!;
    expect(brokenByRemoval(world, 'users', author.id)).toEqual({ kind: 'conflict', field: 'id', message: `user ${author.id} still authors posts; reassign them first` });
    expect(brokenByRemoval(world, 'users', reader.id)).toBeUndefined();
    expect(brokenByRemoval(world, 'contactForms', form0.id)).toBeUndefined();
  });
});
