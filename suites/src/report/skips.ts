// Why cases were skipped, counted: the run's end and the JSON report's options say how much was left out and for
// what ("a write the suite could not undo": 287), so that a gate that skips a third of a site shows it.

import type { CaseResult } from './model.ts';

/** The reason a skip message gives, without its particulars: up to its first `;` or ` (`, numbers as N. */
function skipReason(message: string | undefined): string {
  const head = (message ?? 'no reason given').split(/;| \(/, 1)[0]!.trim();
  return head.replace(/\d+/g, 'N') || 'no reason given';
}

/** Skipped cases by reason, most first. */
export function skipReasons(cases: readonly CaseResult[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const c of cases) if (c.status === 'skipped') counts.set(skipReason(c.message), (counts.get(skipReason(c.message)) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}
