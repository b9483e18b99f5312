// A whole fixture set against every cross-record rule: the model's own (contracts/model/integrity.ts: posts, terms,
// events, dates, time zones), then the add-on tables' and users' (addon-rules.ts), which are written once beside the
// store's writes that check them and so stay in the mock.
import { addonIssues } from './addon-rules.ts';
import type { FixtureIssue } from '../../../contracts/model/fixture-error.ts';
import { calendarIssues, locate, type PartLocator } from '../../../contracts/model/integrity.ts';
import type { FixtureSet } from '../../../contracts/model/records.ts';

export function checkIntegrity(set: FixtureSet, where: PartLocator): FixtureIssue[] {
  return locate([...calendarIssues(set, where), ...addonIssues(set)], where);
}
