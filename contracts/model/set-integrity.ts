// A whole fixture set (or a state file's records) against every cross-record rule of the model: the calendar's
// (integrity.ts: posts, terms, events, dates, time zones), then the add-on tables' and users' (addon-rules.ts).
import { addonIssues } from './addon-rules.ts';
import type { FixtureIssue } from './fixture-error.ts';
import { calendarIssues, locate, type PartLocator } from './integrity.ts';
import type { FixtureSet } from './records.ts';

export function checkIntegrity(set: FixtureSet, where: PartLocator): FixtureIssue[] {
  return locate([...calendarIssues(set, where), ...addonIssues(set)], where);
}
