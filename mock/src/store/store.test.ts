import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures, parseStateText } from './load-fixtures.ts';
import type { EventRecord, FixtureSet } from '../../../contracts/model/records.ts';
import { createStore, diffSnapshots, fixturesToData, Store, StoreError, type StoreChange } from './store.ts';

let fixtures: FixtureSet;
beforeAll(async () => {
  fixtures = await loadFixtures(fileURLToPath(new URL('../../../fixtures/', import.meta.url)));
});

const NOW = new Date('2026-11-01T10:00:00Z'); // 12:00 in Kyiv
const fresh = () => createStore(fixtures, { now: () => NOW });

function storeError(f: () => unknown): StoreError {
  try {
    f();
  } catch (e) {
    if (e instanceof StoreError) return e;
    throw e;
  }
  throw new Error('expected a StoreError');
}

const publishedVenue = (s: Store) => s.venues.values().find((v) => v.status === 'publish' && v.lang === 'en')!;
const enCategory = (s: Store) => s.categories.values().find((c) => c.lang === 'en')!;

describe('loading', () => {
  it('holds every fixture record, and its first snapshot is the fixtures', () => {
    const s = fresh();
    expect(s.events.size).toBe(fixtures.calendar.events.length);
    expect(s.snapshot()).toEqual(fixturesToData(fixtures));
  });

  it('starts the sequences past every ID in use, featured media included', () => {
    const s = fresh();
    const posts = [...fixtures.calendar.events, ...fixtures.calendar.venues, ...fixtures.calendar.organizers];
    const maxPost = Math.max(...posts.flatMap((p) => [p.id, p.featured_media]), ...fixtures.addons.contactForms.map((f) => f.id));
    expect(s.sequences.post).toBe(maxPost + 1);
    expect(s.sequences.term).toBe(Math.max(...fixtures.calendar.categories.map((c) => c.id), ...fixtures.calendar.tags.map((t) => t.id)) + 1);
  });
});

describe('posts', () => {
  it('creates an event with defaults, derived dates and a unique slug', () => {
    const s = fresh();
    const id = s.sequences.post;
    const existing = s.events.values().find((e) => e.lang === 'en' && e.status === 'publish' && !/-\d+$/.test(e.slug))!;
    const e = s.createPost('event', { title: existing.title, start_date: '2026-12-05 19:00:00', timezone: 'Europe/London' });
    expect(e).toMatchObject({
      id, status: 'publish', lang: 'en', author: 1,
      date: '2026-11-01 12:00:00', date_gmt: '2026-11-01 10:00:00', modified: '2026-11-01 12:00:00',
      start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 21:00:00',
      start_date_utc: '2026-12-05 19:00:00', end_date_utc: '2026-12-05 21:00:00',
      categories: [], venues: [], post_parent: 0, meta: {},
    });
    expect(e.slug).toMatch(new RegExp(`^${existing.slug}-\\d+$`));
    expect(s.sequences.post).toBe(id + 1);
    expect(s.events.get(id)).toBe(e);
  });

  it('uses the calendar defaults (08:00-17:00 today) and derives a wall clock from UTC', () => {
    const s = fresh();
    expect(s.createPost('event', { title: 'Defaults' })).toMatchObject({ start_date: '2026-11-01 08:00:00', end_date: '2026-11-01 17:00:00', start_date_utc: '2026-11-01 06:00:00' });
    expect(s.createPost('event', { title: 'From UTC', start_date_utc: '2026-07-01 16:00:00', end_date_utc: '2026-07-01 18:00:00' })).toMatchObject({ start_date: '2026-07-01 19:00:00', end_date: '2026-07-01 21:00:00' });
  });

  it('stores all-day events as 00:00:00-23:59:59 of their days', () => {
    const s = fresh();
    const e = s.createPost('event', { title: 'Fair', all_day: true, start_date: '2026-12-01 10:00:00', end_date: '2026-12-02 12:00:00' });
    expect(e).toMatchObject({ start_date: '2026-12-01 00:00:00', end_date: '2026-12-02 23:59:59', start_date_utc: '2026-11-30 22:00:00' });
  });

  it('keeps drafts without a slug until they are published', () => {
    const s = fresh();
    const d = s.createPost('event', { title: 'Quiet draft', status: 'draft' });
    expect(d.slug).toBe('');
    expect(s.updatePost('event', d.id, { status: 'publish' }).slug).toBe('quiet-draft');
  });

  it('gives Cyrillic titles percent-encoded slugs, found by either spelling', () => {
    const s = fresh();
    const e = s.createPost('event', { title: 'Осінній концерт у Відні', lang: 'uk' });
    expect(e.slug).toBe('%d0%be%d1%81%d1%96%d0%bd%d0%bd%d1%96%d0%b9-%d0%ba%d0%be%d0%bd%d1%86%d0%b5%d1%80%d1%82-%d1%83-%d0%b2%d1%96%d0%b4%d0%bd%d1%96');
    expect(s.bySlug('event', 'осінній-концерт-у-відні', 'uk')).toBe(e);
    expect(s.bySlug('event', e.slug.toUpperCase(), 'uk')).toBe(e);
    expect(s.bySlug('event', e.slug, 'en')).toBeUndefined();
  });

  it('hands out 1,000 distinct IDs and slugs to 1,000 concurrent creates', async () => {
    const s = fresh();
    const first = s.sequences.post;
    const created = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        // Interleave like concurrent requests: each create runs in its own later turn.
        await new Promise((r) => setTimeout(r, i % 3));
        return s.createPost('event', { title: 'Load test', meta: { createdBy: 'suite-1' } });
      }),
    );
    const ids = created.map((e) => e.id);
    expect(new Set(ids).size).toBe(1000);
    expect(Math.min(...ids)).toBe(first);
    expect(Math.max(...ids)).toBe(first + 999);
    expect(new Set(created.map((e) => e.slug)).size).toBe(1000);
    expect(s.events.values().filter((e) => e.meta.createdBy === 'suite-1')).toHaveLength(1000);
  });

  it('refuses bad writes without changing anything or burning an ID', () => {
    const s = fresh();
    const before = s.snapshot();
    const seq = s.sequences.post;
    expect(storeError(() => s.createPost('event', { title: 'x', categories: [999_999] }))).toMatchObject({ code: 'invalid_reference', field: 'categories' });
    expect(storeError(() => s.createPost('event', { title: 'x', venues: [enCategory(s).id] })).message).toMatch(/is a category, not a venue/);
    expect(storeError(() => s.createPost('event', { title: 'x', start_date: '2026-13-01 00:00:00' }))).toMatchObject({ code: 'invalid_value', field: 'start_date' });
    expect(storeError(() => s.createPost('event', { title: 'x', start_date: '2026-12-02 10:00:00', end_date: '2026-12-01 10:00:00' }))).toMatchObject({ field: 'end_date' });
    expect(storeError(() => s.createPost('event', { title: 'x', cost: 12 as unknown as string })).message).toBe('invalid event: /cost must be string, got integer 12');
    expect(storeError(() => s.createPost('event', { title: 'x', timezone: 'Mars/Base' }))).toMatchObject({ field: 'timezone' });
    expect(storeError(() => s.createPost('venue', { title: 'x', author: 99 }))).toMatchObject({ code: 'invalid_reference', field: 'author' });
    expect(storeError(() => s.createPost('event', { title: 'x', status: 'published' as 'publish' }))).toMatchObject({ code: 'invalid_value', field: 'status' });
    expect(s.sequences.post).toBe(seq);
    expect(diffSnapshots(before, s.snapshot())).toEqual([]);
  });

  it('updates: bumps modified, recomputes UTC, keeps what was not sent, clears with null', () => {
    let clock = NOW;
    const s = createStore(fixtures, { now: () => clock });
    const e = s.createPost('event', { title: 'Talk', start_date: '2026-12-01 18:00:00', password: 'secret', venues: [publishedVenue(s).id] });
    clock = new Date('2026-11-02T08:30:00Z');
    const u = s.updatePost('event', e.id, { start_date: '2026-07-01 18:00:00', end_date: '2026-07-01 20:00:00', password: null });
    expect(u).toMatchObject({ title: 'Talk', modified: '2026-11-02 10:30:00', modified_gmt: '2026-11-02 08:30:00', date: e.date, start_date_utc: '2026-07-01 15:00:00', venues: e.venues });
    expect('password' in u).toBe(false);
    expect(s.updatePost('event', e.id, { timezone: 'Europe/London' }).start_date_utc).toBe('2026-07-01 17:00:00');
    expect(storeError(() => s.updatePost('event', 123_456_789, { title: 'x' }))).toMatchObject({ code: 'not_found' });
  });

  it('enforces translation links', () => {
    const s = fresh();
    const en = s.createPost('event', { title: 'Original' });
    const uk = s.createPost('event', { title: 'Переклад', lang: 'uk', translation_of: en.id });
    expect(uk.translation_of).toBe(en.id);
    expect(storeError(() => s.createPost('event', { title: 'Ще один', lang: 'uk', translation_of: en.id }))).toMatchObject({ code: 'conflict' });
    expect(storeError(() => s.createPost('event', { title: 'Same lang', lang: 'en', translation_of: en.id })).message).toMatch(/same language/);
    expect(storeError(() => s.createPost('event', { title: 'Chain', lang: 'en', translation_of: uk.id })).message).toMatch(/itself a translation/);
    expect(storeError(() => s.updatePost('event', en.id, { translation_of: uk.id }))).toMatchObject({ field: 'translation_of' });
  });

  it('prevents post_parent cycles', () => {
    const s = fresh();
    const a = s.createPost('event', { title: 'A' });
    const b = s.createPost('event', { title: 'B', post_parent: a.id });
    expect(storeError(() => s.updatePost('event', a.id, { post_parent: b.id }))).toMatchObject({ code: 'invalid_parent' });
  });

  it('trashes and restores like WordPress', () => {
    const s = fresh();
    const e = s.createPost('event', { title: 'Bin me' });
    const t = s.trashPost('event', e.id);
    expect(t).toMatchObject({ status: 'trash', slug: 'bin-me__trashed', meta: { trashedStatus: 'publish', desiredSlug: 'bin-me' } });
    expect(s.bySlug('event', 'bin-me', 'en')).toBeUndefined();
    const other = s.createPost('event', { title: 'Bin me' });
    expect(other.slug).toBe('bin-me');
    expect(storeError(() => s.trashPost('event', e.id)).code).toBe('already_trashed');
    const back = s.untrashPost('event', e.id);
    expect(back).toMatchObject({ status: 'draft', slug: 'bin-me-2', meta: {} });
    expect(storeError(() => s.untrashPost('event', e.id)).code).toBe('not_trashed');
    s.trashPost('event', other.id);
    expect(s.untrashPost('event', other.id, { restoreStatus: true })).toMatchObject({ status: 'publish', slug: 'bin-me' });
  });

  it('deleting a venue, organizer or event cleans up what pointed at it', () => {
    const s = fresh();
    const venue = s.createPost('venue', { title: 'Pop-up hall' });
    const organizer = s.createPost('organizer', { title: 'Pop-up crew' });
    const parent = s.createPost('event', { title: 'Series', venues: [venue.id], organizers: [organizer.id] });
    const child = s.createPost('event', { title: 'Series', post_parent: parent.id, venues: [venue.id] });
    const uk = s.createPost('event', { title: 'Серія', lang: 'uk', translation_of: parent.id });
    s.put('seoObjects', { objectType: 'post', objectID: parent.id, meta: { title: 'x' }, schemas: {} });
    s.deletePost('venue', venue.id);
    s.deletePost('organizer', organizer.id);
    expect(s.events.get(parent.id)).toMatchObject({ venues: [], organizers: [] });
    expect(s.events.get(child.id)?.venues).toEqual([]);
    s.deletePost('event', parent.id);
    expect(s.events.get(parent.id)).toBeUndefined();
    expect(s.events.get(child.id)?.post_parent).toBe(0);
    expect('translation_of' in (s.events.get(uk.id) as object)).toBe(false);
    expect(s.table('seoObjects').get(`post:${parent.id}`)).toBeUndefined();
    expect(() => parseStateText(JSON.stringify(s.snapshot()), 'state.json')).not.toThrow();
  });

  it('hands out tables that cannot be written: every change goes through a transaction\'s commit', () => {
    const s = fresh();
    for (const table of [s.events, s.venues, s.organizers, s.categories, s.tags, s.table('users'), s.table('sliders')]) {
      for (const m of ['put', 'putOwned', 'set', 'delete', 'clear', 'clone']) expect(m in table, `${m} on a table`).toBe(false);
      expect(Object.keys(table)).not.toContain('rows');
    }
    expect('nextId' in s).toBe(false);
  });

  it('returns frozen records that route handlers cannot corrupt', () => {
    const s = fresh();
    const e = s.events.values()[0] as EventRecord;
    expect(() => {
      e.title = 'changed';
    }).toThrow(TypeError);
    expect(() => e.categories.push(1)).toThrow(TypeError);
  });
});

describe('terms', () => {
  it('derives unique slugs, trying the parent slug first for categories', () => {
    const s = fresh();
    const music = s.categories.values().find((c) => c.slug === 'music')!;
    const a = s.createTerm('category', { name: 'Outdoor', parent: music.id });
    const arts = s.categories.values().find((c) => c.slug === 'arts')!;
    const b = s.createTerm('category', { name: 'Outdoor', parent: arts.id });
    const c = s.createTerm('category', { name: 'Outdoor ', parent: s.createTerm('category', { name: 'Sports' }).id });
    expect([a.slug, b.slug, c.slug]).toEqual(['outdoor', 'outdoor-arts', 'outdoor-sports']);
  });

  it('refuses the same name under the same parent, a slug clash on update and an unknown parent', () => {
    const s = fresh();
    expect(storeError(() => s.createTerm('category', { name: 'music' })).code).toBe('term_exists');
    // wp_insert_term() makes a given slug unique; wp_update_term() refuses one another term has.
    expect(s.createTerm('tag', { name: 'Fresh', slug: 'outdoor' }).slug).toBe('outdoor-2');
    const fresh2 = s.createTerm('tag', { name: 'Fresher' });
    expect(storeError(() => s.updateTerm('tag', fresh2.id, { slug: 'outdoor' })).code).toBe('duplicate_slug');
    expect(storeError(() => s.createTerm('tag', { name: '  ' })).code).toBe('invalid_value');
    expect(storeError(() => s.createTerm('category', { name: 'Orphan', parent: 999_999 })).code).toBe('invalid_parent');
  });

  it('makes no hierarchy loop on update, as wp_check_term_hierarchy_for_loops() does: the new parent is dropped', () => {
    const s = fresh();
    const music = s.categories.values().find((c) => c.slug === 'music')!;
    const child = s.categories.values().find((c) => c.parent === music.id)!;
    // Its own parent: none.
    expect(s.updateTerm('category', child.id, { parent: child.id }).parent).toBe(0);
    s.updateTerm('category', child.id, { parent: music.id });
    // Under its own child: the category gets no parent, and the child stays where it is (measured on a live 6.1.9).
    const moved = s.updateTerm('category', music.id, { parent: child.id });
    expect(moved.parent).toBe(0);
    expect(s.categories.get(child.id)!.parent).toBe(music.id);
  });

  it('deleting a category moves its children up and removes it from events', () => {
    const s = fresh();
    const classical = s.categories.values().find((c) => c.slug === 'classical-music')!;
    const chamber = s.categories.values().find((c) => c.parent === classical.id && c.lang === 'en')!;
    const tagged = s.events.values().filter((e) => e.categories.includes(classical.id));
    expect(tagged.length).toBeGreaterThan(0);
    s.deleteTerm('category', classical.id);
    expect(s.categories.get(chamber.id)?.parent).toBe(classical.parent);
    expect(s.events.values().some((e) => e.categories.includes(classical.id))).toBe(false);
    expect(s.categories.values().some((c) => c.translation_of === classical.id)).toBe(false);
  });

  it('counts published events per term, and follows writes', () => {
    const s = fresh();
    const cat = enCategory(s);
    const expected = s.events.values().filter((e) => e.status === 'publish' && e.categories.includes(cat.id)).length;
    expect(s.termCounts().get(cat.id) ?? 0).toBe(expected);
    s.createPost('event', { title: 'Counted', categories: [cat.id] });
    s.createPost('event', { title: 'Not counted', status: 'draft', categories: [cat.id] });
    expect(s.termCounts().get(cat.id)).toBe(expected + 1);
    const film = s.categories.values().find((c) => c.slug === 'film')!;
    expect(s.termCounts().get(film.id)).toBeUndefined();
  });
});

describe('add-on records', () => {
  it('checks references and cascades removals', () => {
    const s = fresh();
    const form = s.table('contactForms').values()[0]!;
    expect(storeError(() => s.insert('feedback', (id) => ({ id, form_id: 424_242, submitted_at: '2026-11-01 12:00:00', status: 'mail_sent', fields: {}, invalid_fields: [] }))).code).toBe('invalid_reference');
    const fb = s.insert('feedback', (id) => ({ id, form_id: form.id, submitted_at: '2026-11-01 12:00:00', status: 'mail_sent', fields: { 'your-name': 'A' }, invalid_fields: [] }));
    expect(fb.id).toBe(fixtures.addons.feedback.length + 1);
    s.remove('contactForms', form.id);
    expect(s.table('feedback').values().some((f) => f.form_id === form.id)).toBe(false);

    const user = s.table('lmsUsers').values()[0]!;
    expect(s.table('lmsTokens').values().some((t) => t.username === user.username)).toBe(true);
    s.remove('lmsUsers', user.username);
    expect(s.table('lmsTokens').values().some((t) => t.username === user.username)).toBe(false);
    expect(() => parseStateText(JSON.stringify(s.snapshot()), 'state.json')).not.toThrow();
  });

  it('keeps one active theme', () => {
    const s = fresh();
    const inactive = s.table('pbThemes').values().find((t) => t.status === 'inactive')!;
    expect(storeError(() => s.put('pbThemes', { ...inactive, status: 'active' })).code).toBe('conflict');
    s.activateTheme(inactive.slug);
    expect(s.table('pbThemes').values().filter((t) => t.status === 'active').map((t) => t.slug)).toEqual([inactive.slug]);
  });

  it('keeps an administrator and refuses to orphan posts', () => {
    const s = fresh();
    expect(storeError(() => s.remove('users', 1)).code).toBe('conflict');
    const admin = s.table('users').get(1)!;
    expect(storeError(() => s.put('users', { ...admin, roles: ['editor'] })).message).toMatch(/administrator/);
    expect(s.remove('users', 4)?.username).toBe('reader');
  });

  it('validates settings objects', () => {
    const s = fresh();
    s.set('seoMode', 'easy');
    expect(s.get('seoMode')).toBe('easy');
    expect(storeError(() => s.set('seoMode', 'expert' as 'easy')).code).toBe('invalid_value');
    s.set('seoModules', { ...s.get('seoModules'), sitemap: 'off' });
    expect(s.get('seoModules').sitemap).toBe('off');
    expect(storeError(() => s.set('calendarSettings', { timezone: 'Nowhere/Else', default_lang: 'en' })).code).toBe('invalid_value');
  });
});

describe('snapshot, reset, clone', () => {
  it('a snapshot does not change when the store does, and diffs name what changed', () => {
    const s = fresh();
    const before = s.snapshot();
    const copy = structuredClone(before);
    const e = s.createPost('event', { title: 'New' });
    const first = s.events.values()[0]!;
    s.updatePost('event', first.id, { featured: !first.featured });
    s.set('seoMode', 'custom');
    expect(before).toEqual(copy);
    expect(diffSnapshots(before, s.snapshot())).toEqual([
      { path: 'calendar.events', key: first.id, change: 'changed' },
      { path: 'calendar.events', key: e.id, change: 'added' },
      { path: 'sequences', change: 'changed' },
      { path: 'addons.seo.mode', change: 'changed' },
    ]);
  });

  it('reset returns to the fixtures, but IDs handed out before it are not handed out again', () => {
    const s = fresh();
    const before = s.snapshot();
    const gone = s.createPost('event', { title: 'Gone after reset' });
    s.deleteTerm('tag', s.tags.values()[0]!.id);
    const version = s.version;
    s.reset();
    expect(s.version).toBe(version + 1);
    expect(diffSnapshots(before, s.snapshot())).toEqual([{ path: 'sequences', change: 'changed' }]);
    expect({ ...s.snapshot(), sequences: before.sequences }).toEqual(before);
    expect(s.sequences.post).toBe(gone.id + 1);
    expect(s.createPost('event', { title: 'After reset' }).id).toBe(gone.id + 1);
  });

  it('clones are independent and share unchanged records', () => {
    const s = fresh();
    const c = s.clone();
    const id = s.events.values()[0]!.id;
    expect(c.events.get(id)).toBe(s.events.get(id));
    c.createPost('event', { title: 'Only in clone' });
    c.deletePost('event', id);
    expect(s.events.get(id)).toBeDefined();
    expect(s.events.size).toBe(fixtures.calendar.events.length);
    expect(c.sequences.post).toBe(s.sequences.post + 1);
    c.reset();
    expect(diffSnapshots(s.snapshot(), c.snapshot(), { ignoreSequences: true })).toEqual([]);
    expect(s.sequences.post).toBe(fresh().sequences.post);
  });

  it('notifies subscribers of each write', () => {
    const s = fresh();
    const seen: StoreChange[] = [];
    const off = s.subscribe((c) => seen.push(c));
    const e = s.createPost('event', { title: 'Watched' });
    s.trashPost('event', e.id);
    off();
    s.deletePost('event', e.id);
    expect(seen).toEqual([
      { collection: 'event', op: 'create', key: e.id },
      { collection: 'event', op: 'update', key: e.id },
    ]);
  });
});

describe('any sequence of writes leaves a state that loads again', () => {
  type Op = { kind: string; a: number; b: number; text: string };
  const op = fc.record({
    kind: fc.constantFrom('createEvent', 'updateEvent', 'trash', 'untrash', 'deleteEvent', 'deleteVenue', 'deleteOrganizer', 'createCategory', 'deleteCategory', 'deleteTag', 'createVenue', 'twin'),
    a: fc.nat(),
    b: fc.nat(),
    text: fc.string({ maxLength: 12 }),
  });

  it('holds for random operation sequences', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops: Op[]) => {
        const s = fresh();
        const pick = <T>(xs: readonly T[], n: number) => (xs.length ? xs[n % xs.length] : undefined);
        for (const o of ops) {
          try {
            const event = pick(s.events.values(), o.a);
            switch (o.kind) {
              case 'createEvent':
                s.createPost('event', {
                  title: o.text,
                  categories: [pick(s.categories.values(), o.b)?.id ?? 1],
                  venues: o.b % 2 ? [pick(s.venues.values(), o.a)?.id ?? 1] : [],
                  organizers: [pick(s.organizers.values(), o.b)?.id ?? 1],
                  post_parent: o.b % 3 === 0 ? (event?.id ?? 0) : 0,
                });
                break;
              case 'updateEvent':
                if (event) s.updatePost('event', event.id, { title: o.text, slug: o.text, tags: [pick(s.tags.values(), o.b)?.id ?? 1], all_day: o.b % 2 === 0 });
                break;
              case 'trash':
                if (event) s.trashPost('event', event.id);
                break;
              case 'untrash':
                if (event) s.untrashPost('event', event.id, { restoreStatus: o.b % 2 === 0 });
                break;
              case 'deleteEvent':
                if (event) s.deletePost('event', event.id);
                break;
              case 'deleteVenue': {
                const v = pick(s.venues.values(), o.a);
                if (v) s.deletePost('venue', v.id);
                break;
              }
              case 'deleteOrganizer': {
                const v = pick(s.organizers.values(), o.a);
                if (v) s.deletePost('organizer', v.id);
                break;
              }
              case 'createCategory':
                s.createTerm('category', { name: o.text || 'x', parent: o.b % 2 ? (pick(s.categories.values(), o.a)?.id ?? 0) : 0, lang: o.b % 3 ? 'en' : 'uk' });
                break;
              case 'deleteCategory': {
                const c = pick(s.categories.values(), o.a);
                if (c) s.deleteTerm('category', c.id);
                break;
              }
              case 'deleteTag': {
                const t = pick(s.tags.values(), o.a);
                if (t) s.deleteTerm('tag', t.id);
                break;
              }
              case 'createVenue':
                s.createPost('venue', { title: o.text, lang: o.b % 2 ? 'uk' : 'en' });
                break;
              case 'twin':
                if (event) s.createPost('event', { title: o.text, lang: event.lang === 'en' ? 'uk' : 'en', translation_of: event.id });
                break;
            }
          } catch (e) {
            if (!(e instanceof StoreError)) throw e;
          }
        }
        const text = JSON.stringify(s.snapshot());
        expect(() => parseStateText(text, 'state.json')).not.toThrow();
      }),
      { numRuns: Number(process.env.STORE_PROPERTY_RUNS ?? 40) },
    );
  });
});
