// Loads and checks a fixture directory (calendar.json, addons.json, users.json) or a state file.
// Every problem becomes a FixtureError naming the file, the JSON pointer and the expectation,
// because the people who hit these errors are editing those files by hand.

import { readFile as nodeReadFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FixtureError, type FixtureIssue } from '../../../contracts/model/fixture-error.ts';
import { checkFixtureSet } from './fixture-schema.ts';
import { schemaIssues } from '../../../contracts/model/check.ts';
import { checkIntegrity } from '../../../contracts/model/set-integrity.ts';
import { minimumSequences } from '../../../contracts/model/integrity.ts';
import { parseJsonText } from './json-text.ts';
import { readCheckedFixtures, writeCheckedFixtures, type CheckedFixtureCache, type FixtureTexts } from './checked-fixtures.ts';
import type { CacheIo } from '../../../contracts/lib/contract-cache.ts';
import { FIXTURE_FILES, type FixtureSet, type Sequences, type StoreData } from '../../../contracts/model/records.ts';


/** The one fs function loading needs; tests pass an in-memory one. */
export interface ReadFs {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
}

const nodeReadFs: ReadFs = { readFile: (path, encoding) => nodeReadFile(path, encoding) };

function parseOrIssue(text: string, file: string): { value: unknown } | FixtureIssue {
  const parsed = parseJsonText(text);
  if (parsed.ok) return { value: parsed.value };
  const { line, column, message } = parsed.problem;
  return { file, line, column, message: `invalid JSON: ${message}` };
}

export function unreadable(file: string, error: unknown): FixtureIssue {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, not a file' : `cannot read file (${error instanceof Error ? error.message : String(error)})`;
  return { file, message: reason };
}

/**
 * Checks the texts of the three fixture files. `files` maps each part to the name used in messages.
 * Throws FixtureError (kind: syntax, schema or integrity) on the first stage that finds problems,
 * with every problem of that stage across all files.
 */
export function parseFixtureTexts(texts: Record<keyof FixtureSet, string>, files: Record<keyof FixtureSet, string>): FixtureSet {
  const parts = Object.keys(FIXTURE_FILES) as (keyof FixtureSet)[];
  const values: Partial<Record<keyof FixtureSet, unknown>> = {};
  const syntax: FixtureIssue[] = [];
  for (const part of parts) {
    const r = parseOrIssue(texts[part], files[part]);
    if ('value' in r) values[part] = r.value;
    else syntax.push(r);
  }
  if (syntax.length) throw new FixtureError('syntax', syntax);
  return checkFixtureSet(values as Record<keyof FixtureSet, unknown>, files);
}

/**
 * Reads `dir`/calendar.json, addons.json and users.json and checks them (see parseFixtureTexts), or takes the set
 * those very texts gave when `checked` holds it (checked-fixtures.ts).
 */
export async function loadFixtures(dir: string, fs: ReadFs = nodeReadFs, checked?: CheckedFixtureCache): Promise<FixtureSet> {
  const { texts, files } = await readFixtureTexts(dir, fs);
  return (checked && readCheckedFixtures(texts, checked)) ?? parseFixtureTexts(texts, files);
}

/**
 * `npm run build`'s step (.ci/packaging/bundle.ts): checks the fixtures of `dir` by the cold path and keeps the set in
 * `cacheDir` for the bundle to read; the file written. Throws what loading them throws.
 */
export async function keepCheckedFixtures(dir: string, cacheDir: string, io: CacheIo, fs: ReadFs = nodeReadFs): Promise<string> {
  const { texts, files } = await readFixtureTexts(dir, fs);
  const written = writeCheckedFixtures(texts, parseFixtureTexts(texts, files), cacheDir, io);
  if (!written) throw new Error(`could not keep the checked fixtures of ${dir} in ${cacheDir}`);
  return written;
}

async function readFixtureTexts(dir: string, fs: ReadFs): Promise<{ texts: FixtureTexts; files: FixtureTexts }> {
  const parts = Object.keys(FIXTURE_FILES) as (keyof FixtureSet)[];
  const files = Object.fromEntries(parts.map((p) => [p, join(dir, FIXTURE_FILES[p])])) as FixtureTexts;
  const texts: Partial<FixtureTexts> = {};
  const failures: FixtureIssue[] = [];
  await Promise.all(
    parts.map(async (p) => {
      try {
        texts[p] = await fs.readFile(files[p], 'utf8');
      } catch (e) {
        failures.push(unreadable(files[p], e));
      }
    }),
  );
  if (failures.length) {
    failures.sort((a, b) => a.file.localeCompare(b.file));
    throw new FixtureError('unreadable', failures);
  }
  return { texts: texts as FixtureTexts, files };
}

/** Checks the text of a state file (the store's whole state, see persist.ts); `file` names it in messages. */
export function parseStateText(text: string, file: string): StoreData {
  return parseStateFile(text, file).data;
}

/** parseStateText, with the number of the last journal transaction the state includes (0 when it does not say). */
export function parseStateFile(text: string, file: string): { data: StoreData; txn: number } {
  const r = parseOrIssue(text, file);
  if (!('value' in r)) throw new FixtureError('syntax', [r]);
  const invalid = schemaIssues('stateFile', r.value, file);
  if (invalid.length) throw new FixtureError('schema', invalid);
  // Shape vouched for by the schema.
  const data = r.value as StoreData & { savedAt?: string; txn?: number };
  const broken = checkIntegrity(data, {
    calendar: { file, prefix: '/calendar' },
    addons: { file, prefix: '/addons' },
    users: { file, prefix: '/users' },
  });
  const floor = minimumSequences(data);
  for (const [name, min] of Object.entries(floor) as [keyof Sequences, number][]) {
    if (data.sequences[name] < min) {
      broken.push({ file, pointer: `/sequences/${name}`, message: `must be at least ${min} (one past the highest ID in use), got ${data.sequences[name]}` });
    }
  }
  if (broken.length) throw new FixtureError('integrity', broken);
  const { savedAt: _savedAt, txn, ...state } = data;
  return { data: state, txn: txn ?? 0 };
}
