// A fixture set that passed every check (fixture-schema.ts: the schema, then the cross-record rules), kept as JSON
// keyed by the texts it came from. Checking the bundled fixtures (560 KB of calendar) cost every createMock() about
// 70 ms of CPU (parsing two-byte text, the schema's validators over every record, the integrity rules, the garbage
// they leave): a vitest file with the mock's MSW handlers pays it once per file. `npm run build` checks them once and
// writes the result to dist/bundle/fixture-cache/ (.ci/packaging/bundle.ts, through load-fixtures.ts's
// keepCheckedFixtures()), and only the bundle reads it: the checks are code, so an entry holds for the build that
// wrote it, and a checkout running its sources always checks. Read and written as contract-cache.ts keeps its JSON.
//
// The texts stay the one source: an entry is named by the SHA-256 of the three files' texts, so an edited fixture
// never meets an old entry, and an entry is written only for a set the cold path accepted and JSON gives back
// exactly. A file that does not parse is ignored. checked-fixtures.test.ts holds a hit equal to the cold path, and a
// mock started from it answering byte for byte as a cold one.
import { createHash } from 'node:crypto';
import { readCachedJson, writeCachedJson, type CacheIo } from '../../../contracts/lib/contract-cache.ts';
import { FIXTURE_FILES, type FixtureSet } from '../../../contracts/model/records.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

/** Part of every key: a change in what an entry holds must change this. */
const CACHE_FORMAT = 'checked-fixtures/v1';

export type FixtureTexts = Record<keyof FixtureSet, string>;

/** Where entries are read (in turn) and whether one may be written. */
export interface CheckedFixtureCache {
  dirs: readonly string[];
  io: CacheIo;
}

export function checkedFixturesKey(texts: FixtureTexts): string {
  const hash = createHash('sha256').update(CACHE_FORMAT);
  for (const part of Object.keys(FIXTURE_FILES) as (keyof FixtureSet)[]) hash.update(`\0${part}\0${texts[part].length}\0`).update(texts[part]);
  return hash.digest('hex').slice(0, 32);
}

const entryName = (texts: FixtureTexts): string => `fixtures-${checkedFixturesKey(texts)}.json`;

/** The checked set of `texts` from the first of the cache's folders holding it, or undefined. */
export function readCheckedFixtures(texts: FixtureTexts, cache: CheckedFixtureCache): FixtureSet | undefined {
  return readCachedJson(cache.dirs, entryName(texts), cache.io, isFixtureSetShape);
}

/** The three parts as objects: what a torn or foreign entry would lack (the checks vouched for the rest when it was written). */
function isFixtureSetShape(value: unknown): value is FixtureSet {
  if (!isPlainObject(value)) return false;
  const parts = Object.keys(FIXTURE_FILES);
  return Object.keys(value).length === parts.length && parts.every((p) => isPlainObject(value[p]));
}

/**
 * Writes `set`, which the cold path accepted from `texts`, to `dir`; the path written, or undefined where JSON would
 * not give it back exactly or the folder cannot be written.
 */
export function writeCheckedFixtures(texts: FixtureTexts, set: FixtureSet, dir: string, io: CacheIo): string | undefined {
  return writeCachedJson(dir, entryName(texts), set, io);
}
