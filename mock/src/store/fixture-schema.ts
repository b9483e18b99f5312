// The whole fixture set checked: every schema problem of the three files (the model's check, contracts/model/check.ts),
// then the cross-record rules (contracts/model/set-integrity.ts). No file access: the mock's browser entry checks
// the fixtures it is given, and load-fixtures.ts adds reading and parsing the files.
import { schemaIssues, type FileDef } from '../../../contracts/model/check.ts';
import { FixtureError } from '../../../contracts/model/fixture-error.ts';
import type { FixtureSet } from '../../../contracts/model/records.ts';
import type { PartLocator } from '../../../contracts/model/integrity.ts';
import { checkIntegrity } from '../../../contracts/model/set-integrity.ts';

const DEF_OF: Record<keyof FixtureSet, FileDef> = { calendar: 'calendarFile', addons: 'addonsFile', users: 'usersFile' };

/**
 * Checks the parsed values of the three fixture files: every schema problem across all files, or else every
 * integrity problem, as a FixtureError (kind: schema or integrity). `files` maps each part to the name used in messages.
 */
export function checkFixtureSet(values: Record<keyof FixtureSet, unknown>, files: Record<keyof FixtureSet, string>): FixtureSet {
  const parts = Object.keys(DEF_OF) as (keyof FixtureSet)[];
  const invalid = parts.flatMap((part) => schemaIssues(DEF_OF[part], values[part], files[part]));
  if (invalid.length) throw new FixtureError('schema', invalid);
  // The schema has just vouched for the shapes.
  const set = values as FixtureSet;
  const locator = Object.fromEntries(parts.map((p) => [p, { file: files[p], prefix: '' }])) as PartLocator;
  const broken = checkIntegrity(set, locator);
  if (broken.length) throw new FixtureError('integrity', broken);
  return set;
}
