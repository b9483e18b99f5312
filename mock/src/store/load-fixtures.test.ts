import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FixtureError } from '../../../contracts/model/fixture-error.ts';
import { generateFixtures, renderFixtureFiles } from '../../../fixtures/lib/generate-all.ts';
import { loadFixtures, parseFixtureTexts, parseStateText, type ReadFs } from './load-fixtures.ts';
import { recordProblems } from '../../../contracts/model/check.ts';
import { FIXTURE_FILES, type CategoryRecord, type EventRecord, type FixtureSet } from '../../../contracts/model/records.ts';
import { fixturesToData } from './store.ts';

const FIXTURES = new URL('../../../fixtures/', import.meta.url);
const committed = Object.fromEntries(
  Object.entries(FIXTURE_FILES).map(([part, name]) => [part, readFileSync(new URL(name, FIXTURES), 'utf8')]),
) as Record<keyof FixtureSet, string>;

type Files = Record<string, string | NodeJS.ErrnoException>;

function memoryFs(files: Files): ReadFs {
  return {
    readFile: async (path) => {
      const f = files[path];
      if (f === undefined) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
      if (typeof f !== 'string') throw f;
      return f;
    },
  };
}

/** The committed fixtures under `fixtures/`, with `edit` applied to the parsed content of one part. */
function withEdit<K extends keyof FixtureSet>(part: K, edit: (file: FixtureSet[K]) => void): Files {
  const files: Files = {};
  for (const [p, name] of Object.entries(FIXTURE_FILES)) files[`fixtures/${name}`] = committed[p as keyof FixtureSet];
  const parsed = JSON.parse(committed[part]) as FixtureSet[K];
  edit(parsed);
  files[`fixtures/${FIXTURE_FILES[part]}`] = JSON.stringify(parsed);
  return files;
}

async function failure(files: Files): Promise<FixtureError> {
  try {
    await loadFixtures('fixtures', memoryFs(files));
  } catch (e) {
    if (e instanceof FixtureError) return e;
    throw e;
  }
  throw new Error('expected loadFixtures to fail');
}

describe('loadFixtures', () => {
  it('loads the committed fixtures from disk', async () => {
    const set = await loadFixtures(fileURLToPath(FIXTURES));
    expect(set.calendar.events.length).toBeGreaterThan(250);
    expect(set.users.users.some((u) => u.roles.includes('administrator'))).toBe(true);
  });

  it('names file, pointer, expectation and actual value for a bad date', async () => {
    const e = await failure(withEdit('calendar', (c) => {
      (c.events[12] as { start_date: string }).start_date = '2026-13-01';
    }));
    expect(e.kind).toBe('schema');
    expect(e.message.split('\n')[0]).toBe('fixtures/calendar.json: /events/12/start_date must match YYYY-MM-DD HH:MM:SS, got "2026-13-01"');
    expect(e.file).toBe('fixtures/calendar.json');
    expect(e.issues[0]).toMatchObject({ file: 'fixtures/calendar.json', pointer: '/events/12/start_date' });
  });

  it('explains enums, types, unknown and missing properties', async () => {
    const e = await failure(withEdit('calendar', (c) => {
      const ev = c.events[0] as unknown as Record<string, unknown>;
      ev.status = 'published';
      ev.all_day = 'yes';
      ev.colour = 'red';
      delete ev.title;
      delete ev.cost;
    }));
    const lines = e.message.split('\n');
    expect(lines).toContain('fixtures/calendar.json: /events/0/status must be one of publish, pending, draft, future, private, trash, got "published"');
    expect(lines).toContain('fixtures/calendar.json: /events/0/all_day must be boolean, got string "yes"');
    expect(lines).toContain("fixtures/calendar.json: /events/0 has unknown property 'colour'");
    expect(lines).toContain("fixtures/calendar.json: /events/0 must have properties 'title', 'cost'");
  });

  it('collapses "either" shapes into one expectation', async () => {
    const e = await failure(withEdit('calendar', (c) => {
      (c.organizers[0] as { email: string }).email = 'not-an-address';
    }));
    expect(e.issues).toHaveLength(1);
    expect(e.message).toBe('fixtures/calendar.json: /organizers/0/email must be an e-mail address or an empty string, got "not-an-address"');
  });

  it('reports syntax errors with line and column', async () => {
    const files = withEdit('addons', () => undefined);
    files['fixtures/addons.json'] = '{\n  "version": 1,\n  "contactForms": [,]\n}';
    const e = await failure(files);
    expect(e.kind).toBe('syntax');
    expect(e.message).toBe("fixtures/addons.json: line 3, column 20: invalid JSON: expected a JSON value, found \",\"");
    expect(e.issues[0]).toMatchObject({ line: 3, column: 20 });
  });

  it('reports missing and unreadable files by name', async () => {
    const files = withEdit('users', () => undefined);
    delete files['fixtures/users.json'];
    files['fixtures/addons.json'] = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const e = await failure(files);
    expect(e.kind).toBe('unreadable');
    expect(e.message).toBe('fixtures/addons.json: cannot read file (EACCES: permission denied)\nfixtures/users.json: file not found');
  });

  it('caps the message at ten problems but keeps them all', async () => {
    const e = await failure(withEdit('calendar', (c) => {
      for (const ev of c.events.slice(0, 15)) (ev as { featured: unknown }).featured = 1;
    }));
    expect(e.issues).toHaveLength(15);
    expect(e.message.split('\n')).toHaveLength(11);
    expect(e.message).toMatch(/\.\.\. and 5 more problems$/);
  });
});

describe("the generator's data", () => {
  // The fixtures' own tests check it against the schema; the cross-record rules are the store's, so they are run here.
  it('loads for other seeds, anchors and sizes, integrity included', () => {
    const sets = [{ seed: 2 }, { seed: 3 }, { seed: 99 }, { anchor: '2030-03-15' }, { eventCount: 12 }, { eventCount: 1000 }].map((o) => renderFixtureFiles(generateFixtures(o)));
    for (const files of sets) {
      const texts = { calendar: files[FIXTURE_FILES.calendar]!, addons: files[FIXTURE_FILES.addons]!, users: files[FIXTURE_FILES.users]! };
      expect(() => parseFixtureTexts(texts, FIXTURE_FILES)).not.toThrow();
    }
  });
});

describe('referential integrity', () => {
  it('finds references to records that do not exist or have the wrong type', async () => {
    const e = await failure(withEdit('calendar', (c) => {
      const ev = c.events[3] as { venues: number[]; organizers: number[]; categories: number[]; author: number };
      ev.venues = [999_999];
      ev.organizers = [c.venues[0]?.id as number];
      ev.categories = [c.tags[0]?.id as number];
      ev.author = 77;
    }));
    expect(e.kind).toBe('integrity');
    const lines = e.message.split('\n');
    const venue = c0((c) => c.venues[0]?.id);
    const tag = c0((c) => c.tags[0]?.id);
    expect(lines).toContain('fixtures/calendar.json: /events/3/venues/0 refers to venue 999999, which does not exist');
    expect(lines).toContain(`fixtures/calendar.json: /events/3/organizers/0 refers to organizer ${venue}, but ${venue} is a venue`);
    expect(lines).toContain(`fixtures/calendar.json: /events/3/categories/0 refers to category ${tag}, but ${tag} is a tag`);
    expect(lines).toContain('fixtures/calendar.json: /events/3/author refers to user 77, which does not exist in fixtures/users.json');
  });

  it('finds category parents that are missing or form a cycle', async () => {
    const e = await failure(withEdit('calendar', (c) => {
      const [a, b, x] = c.categories as [CategoryRecord, CategoryRecord, CategoryRecord];
      a.parent = b.id;
      b.parent = a.id;
      x.parent = 424_242;
    }));
    expect(e.message).toMatch(/\/categories\/0\/parent forms a cycle: \d+ -> \d+ -> \d+/);
    expect(e.message).toMatch(/\/categories\/2\/parent refers to parent category 424242, which does not exist/);
  });

  it('finds duplicate ids across post types and duplicate slugs within a language', async () => {
    const e = await failure(withEdit('calendar', (c) => {
      (c.venues[1] as { id: number }).id = c.events[0]?.id as number;
      const [x, y] = c.events.filter((ev) => ev.lang === 'en' && ev.slug !== '') as [EventRecord, EventRecord];
      y.slug = x.slug;
    }));
    expect(e.message).toMatch(/\/venues\/1\/id duplicates post id \d+ already used at \/events\/0/);
    expect(e.message).toMatch(/duplicates event slug '.+' \(en\) already used at \/events\/\d+/);
  });

  it('allows the same slug in two languages', async () => {
    const files = withEdit('calendar', (c) => {
      const en = c.events.find((ev) => ev.lang === 'en' && ev.slug !== '') as { slug: string };
      const uk = c.events.find((ev) => ev.lang === 'uk' && ev.slug !== '') as { slug: string };
      uk.slug = en.slug;
    });
    await expect(loadFixtures('fixtures', memoryFs(files))).resolves.toBeDefined();
  });

  it('checks translations, real dates and date order', async () => {
    const e = await failure(withEdit('calendar', (c) => {
      const twin = c.events.find((ev) => ev.translation_of) as { translation_of: number; lang: string };
      twin.lang = 'en';
      const ev = c.events[5] as { date: string; end_date: string; start_date: string };
      ev.date = '2026-02-30 10:00:00';
      ev.end_date = '2000-01-01 00:00:00';
    }));
    expect(e.message).toMatch(/translation_of refers to event \d+ in the same language \(en\)/);
    expect(e.message).toContain('/events/5/date must be a real calendar date-time, got "2026-02-30 10:00:00"');
    expect(e.message).toMatch(/\/events\/5\/end_date must not be before start_date/);
  });

  it('checks add-on references', async () => {
    const e = await failure(withEdit('addons', (a) => {
      (a.feedback[0] as { form_id: number }).form_id = 31_337;
      (a.translation.packages[0] as { stringIds: number[] }).stringIds.push(9_999);
      (a.lms.tokens[0] as { username: string }).username = 'ghost';
    }));
    expect(e.message).toContain('fixtures/addons.json: /feedback/0/form_id refers to contact form 31337, which does not exist');
    expect(e.message).toMatch(/\/translation\/packages\/0\/stringIds\/\d+ refers to string 9999/);
    expect(e.message).toContain("/lms/tokens/0/username refers to learning-module user 'ghost'");
  });

  it('requires an administrator', async () => {
    const e = await failure(withEdit('users', (u) => {
      for (const user of u.users) user.roles = ['editor'];
    }));
    expect(e.message).toBe('fixtures/users.json: /users must contain at least one user with the administrator role');
  });
});

describe('parseStateText', () => {
  const set: FixtureSet = {
    calendar: JSON.parse(committed.calendar),
    addons: JSON.parse(committed.addons),
    users: JSON.parse(committed.users),
  };

  it('accepts a state file made from the fixtures', () => {
    const data = fixturesToData(set);
    expect(parseStateText(JSON.stringify({ ...data, savedAt: '2026-11-01T00:00:00.000Z' }), '/var/state.json')).toEqual(data);
  });

  it('names the state file and the pointer inside it', () => {
    const data = structuredClone(fixturesToData(set));
    (data.calendar.events[2] as { venues: number[] }).venues = [123_456];
    data.sequences.post = 3;
    let error: unknown;
    try {
      parseStateText(JSON.stringify(data), '/var/state.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FixtureError);
    const message = (error as FixtureError).message;
    expect(message).toContain('/var/state.json: /calendar/events/2/venues/0 refers to venue 123456, which does not exist');
    expect(message).toMatch(/\/var\/state\.json: \/sequences\/post must be at least \d+ \(one past the highest ID in use\), got 3/);
  });

  it('reports a torn state file with line and column', () => {
    expect(() => parseStateText('{"version": 1, "sequences": {', 'state.json')).toThrow(/^state\.json: line 1, column 30: invalid JSON/);
  });
});

describe('recordProblems', () => {
  it('describes a record against its definition', () => {
    expect(recordProblems('pbTheme', { slug: 'a b', name: 'x', status: 'on' })).toEqual([
      '/slug must be letters, digits, underscore, hyphen, got "a b"',
      '/status must be one of inactive, active, got "on"',
    ]);
    expect(recordProblems('seoMode', 'easy')).toEqual([]);
  });
});

function c0(pick: (c: FixtureSet['calendar']) => number | undefined): number {
  return pick(JSON.parse(committed.calendar)) as number;
}
