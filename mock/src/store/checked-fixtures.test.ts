// The checked-fixtures cache (checked-fixtures.ts) against the cold path (parseFixtureTexts: parse, schema, integrity):
// whatever the texts, a set read back from the cache equals the cold path's, an entry exists only for texts the cold
// path accepted, an edited text never meets an old entry, and a torn or foreign entry falls back to the checks. The
// bundle reads it as a package does: .ci/packaging/bundle.test.ts holds a bundled mock started from the cache
// answering byte for byte as a mock from the sources' cold path.
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CacheIo } from '../../../contracts/lib/contract-cache.ts';
import { FixtureError } from '../../../contracts/model/fixture-error.ts';
import { FIXTURE_FILES, type FixtureSet } from '../../../contracts/model/records.ts';
import { generateFixtures } from '../../../fixtures/lib/generate-all.ts';
import { checkedFixturesKey, readCheckedFixtures, writeCheckedFixtures, type FixtureTexts } from './checked-fixtures.ts';
import { keepCheckedFixtures, loadFixtures, parseFixtureTexts } from './load-fixtures.ts';

const PARTS = Object.keys(FIXTURE_FILES) as (keyof FixtureSet)[];
/** The files as loadFixtures('/f') names them in messages. */
const FILES = Object.fromEntries(PARTS.map((p) => [p, `/f/${FIXTURE_FILES[p]}`])) as FixtureTexts;

function memoryIo(): CacheIo & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return { files, read: (p) => files.get(p), write: (p, t) => void files.set(p, t) };
}

/** The cold path's verdict on `texts`: the set, or the error's kind and issues. */
function cold(texts: FixtureTexts): { set: FixtureSet } | { error: unknown } {
  try {
    return { set: parseFixtureTexts(texts, FILES) };
  } catch (e) {
    if (!(e instanceof FixtureError)) throw e;
    return { error: [e.kind, e.issues] };
  }
}

/** What a load gives: the set, or the FixtureError's kind and issues. */
async function loaded(texts: FixtureTexts, cache: { dirs: string[]; io: CacheIo }): Promise<{ set: FixtureSet } | { error: unknown }> {
  const fs = { readFile: (path: string) => Promise.resolve(texts[(PARTS.find((p) => path.endsWith(FILES[p])) ?? 'calendar')]) };
  try {
    return { set: await loadFixtures('/f', fs, cache) };
  } catch (e) {
    if (!(e instanceof FixtureError)) throw e;
    return { error: [e.kind, e.issues] };
  }
}

// Small generated sets (the bundled ones are made by the same generator), written as a person might (indented or
// not), with Ukrainian and characters beyond the BMP in titles; then, half the time, one edit that may break them:
// a record's field removed or given another type, an ID repeated, a text cut short.
const edit = fc.oneof(
  fc.constant<null>(null),
  fc.record({ kind: fc.constantFrom('remove', 'retype', 'duplicate', 'truncate'), part: fc.constantFrom(...PARTS), at: fc.nat(), cut: fc.nat() }),
);
const textsArb = fc
  .record({ seed: fc.integer({ min: 1, max: 10_000 }), indent: fc.constantFrom(0, 2), title: fc.string({ unit: 'binary', maxLength: 12 }), edit })
  .map(({ seed, indent, title, edit }) => {
    const set = structuredClone(generateFixtures({ seed, eventCount: 3 }));
    const event = set.calendar.events[0];
    if (event) event.title = `${event.title} Київ ${title} 🎫`;
    const texts = Object.fromEntries(PARTS.map((p) => [p, JSON.stringify(set[p], null, indent)])) as FixtureTexts;
    if (edit === null) return texts;
    if (edit.kind === 'truncate') {
      texts[edit.part] = texts[edit.part].slice(0, edit.cut % texts[edit.part].length);
      return texts;
    }
    const part = set[edit.part] as unknown as Record<string, unknown>;
    const lists = Object.values(part).filter((v): v is Record<string, unknown>[] => Array.isArray(v) && v.length > 0 && typeof v[0] === 'object');
    const list = lists[edit.at % Math.max(1, lists.length)];
    if (list) {
      const record = list[edit.cut % list.length]!;
      const keys = Object.keys(record);
      const key = keys[edit.at % keys.length]!;
      if (edit.kind === 'remove') delete record[key];
      else if (edit.kind === 'retype') record[key] = typeof record[key] === 'string' ? 7 : 'seven';
      else list.push(structuredClone(record));
    }
    texts[edit.part] = JSON.stringify(set[edit.part], null, indent);
    return texts;
  });

describe('the checked-fixtures cache', () => {
  it('gives back what the cold path gives, and keeps only what it accepted, for any texts', async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(textsArb, async (texts) => {
        const io = memoryIo();
        const verdict = cold(texts);
        const cache = { dirs: ['/c'], io };
        // A miss gives the cold verdict, whatever it is.
        expect(await loaded(texts, cache)).toEqual(verdict);
        if ('error' in verdict) {
          refused++;
          // Nothing is kept for texts the checks refuse: the build's step fails instead.
          await expect(keepCheckedFixtures('/f', '/c', io, { readFile: async (p) => texts[PARTS.find((x) => p.endsWith(FILES[x]))!] })).rejects.toBeInstanceOf(FixtureError);
          expect(io.files.size).toBe(0);
          return;
        }
        accepted++;
        const path = writeCheckedFixtures(texts, verdict.set, '/c', io);
        expect(path).toBe(`/c/fixtures-${checkedFixturesKey(texts)}.json`);
        // Written as ASCII, so a hit parses to one-byte strings with no pass over the text.
        expect(io.files.get(path!)).toMatch(/^[\x00-\x7f]*$/);
        const hit = readCheckedFixtures(texts, cache);
        expect(hit).toBeDefined();
        expect(isDeepStrictEqual(hit, verdict.set)).toBe(true);
        expect(await loaded(texts, cache)).toEqual(verdict);
        // Any edit of any file misses (and is checked again), even one that leaves the values equal.
        for (const p of PARTS) {
          const edited = { ...texts, [p]: `${texts[p]} ` };
          expect(checkedFixturesKey(edited)).not.toBe(checkedFixturesKey(texts));
          expect(readCheckedFixtures(edited, cache)).toBeUndefined();
        }
        // A torn or foreign entry is not taken: the cold path checks the texts.
        for (const torn of ['{"calendar":', '[]', '{"calendar":{},"addons":{}}', 'null']) {
          io.files.set(path!, torn);
          expect(readCheckedFixtures(texts, cache)).toBeUndefined();
          expect(await loaded(texts, cache)).toEqual(verdict);
        }
      }),
      { numRuns: 60 },
    );
    // Both sides were exercised.
    expect(accepted).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(5);
  });

  it('reads the folders in turn and carries on where it cannot write', () => {
    const set = generateFixtures({ seed: 3, eventCount: 2 });
    const texts = Object.fromEntries(PARTS.map((p) => [p, JSON.stringify(set[p])])) as FixtureTexts;
    const io = memoryIo();
    writeCheckedFixtures(texts, set, '/second', io);
    expect(readCheckedFixtures(texts, { dirs: ['/first', '/second'], io })).toEqual(set);
    const readOnly: CacheIo = { read: () => undefined, write: () => { throw new Error('EROFS'); } };
    expect(writeCheckedFixtures(texts, set, '/x', readOnly)).toBeUndefined();
    // A set JSON would not give back exactly (-0) is never kept.
    expect(writeCheckedFixtures(texts, { ...set, calendar: { ...set.calendar, version: -0 as 1 } }, '/y', io)).toBeUndefined();
  });
});
