// The calendar's two generations differ in one table each (dialect.ts), read once: no other module of
// handlers/calendar/ asks which generation it serves. Issue 27 counted 23 such tests (`ns === 'legacy'` and the
// like) across posts.ts and write.ts; a scan keeps them from coming back. And the two tables differ where the
// documents say the generations do, so a fact copied from one into the other fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CURRENT, LEGACY } from './dialect.ts';

const GENERATION = String.raw`['"\`](?:legacy|cal|cal\/v1|cal\/events\/v1)['"\`]`;
/** A comparison with a generation's name on either side (`ns === 'legacy'`, `'cal/v1' !== namespace`...). */
const ASKS_GENERATION = [new RegExp(String.raw`[!=]==?\s*${GENERATION}`), new RegExp(String.raw`${GENERATION}\s*[!=]==?`), new RegExp(String.raw`case\s+${GENERATION}\s*:`)];

function generationTests(source: string): string[] {
  return source.split('\n').filter((line) => ASKS_GENERATION.some((re) => re.test(line)));
}

describe('one dialect per generation', () => {
  it("the scan finds a generation's name compared, either way round, and passes names that are only spelled", () => {
    // Lines of posts.ts and write.ts before the dialect table.
    expect(generationTests("  const strict = ns === 'legacy' ? flag(p.strict_dates) === true : true;")).toHaveLength(1);
    expect(generationTests("  const force = ns === 'cal' && ctx.params.force === true;")).toHaveLength(1);
    expect(generationTests("  return `${ctx.links.apiRoot}${ns === 'cal' ? 'cal/v1' : 'cal/events/v1'}/${COLLECTION[type]}/${id}`;")).toHaveLength(1);
    expect(generationTests("  if ('cal/events/v1' !== namespace) return;")).toHaveLength(1);
    expect(generationTests("    case 'legacy':")).toHaveLength(1);
    expect(generationTests("  memoName: 'legacy',\n  namespace: 'cal/events/v1',\n  const collection = `${base.apiRoot}cal/events/v1/categories`;")).toEqual([]);
  });

  it('no module of handlers/calendar/ but dialect.ts compares a generation', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'dialect.ts');
    expect(files.length).toBeGreaterThan(8);
    const found = files.flatMap((f) => generationTests(readFileSync(join(dir, f), 'utf8')).map((line) => `${f}: ${line.trim()}`));
    expect(found).toEqual([]);
  });

  it('the generations differ where the documents say they do (000 §2, §3, §4)', () => {
    expect([LEGACY.namespace, CURRENT.namespace]).toEqual(['cal/events/v1', 'cal/v1']);
    // §2.1 against §2.5: the legacy event's description, date_utc, categories, venue and organizer.
    expect(LEGACY.names).toEqual({ content: 'description', dateGmt: 'date_utc', categories: 'categories', venues: 'venue', organizers: 'organizer', venueTitle: 'venue', organizerTitle: 'organizer' });
    expect(CURRENT.names).toEqual({ content: 'content', dateGmt: 'date_gmt', categories: 'cal_events_cat', venues: 'venues', organizers: 'organizers', venueTitle: 'title', organizerTitle: 'title' });
    // §3: only cal/v1's DELETE takes force; §4.1.1 strict_dates and §4.2.1 orderby/order belong to one each.
    expect([LEGACY.forceDelete, CURRENT.forceDelete]).toEqual([false, true]);
    expect([LEGACY.strictDatesParam, CURRENT.strictDatesParam]).toEqual([true, false]);
    expect([LEGACY.ordering, CURRENT.ordering]).toEqual([false, true]);
    // §4.1.1 "events that end on the date" against §4.2.1 "events starting after / ending before the date".
    expect(LEGACY.listDates).toEqual({ start_date: 'endsAfter', end_date: 'startsBefore' });
    expect(CURRENT.listDates).toEqual({ start_date: 'startsAfter', end_date: 'endsBefore' });
    expect([LEGACY.postsController, CURRENT.postsController]).toEqual([false, true]);
  });
});
