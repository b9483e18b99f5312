// The JSON report is the run result itself: the format merge and --baseline read back. `json` writes passed and
// skipped cases in their short form (summary-form.ts), one case per line; `json-full` writes every case whole.

import { REPORT_VERSION, type RunResult } from './model.ts';
import { expandCases, shortCasesProblem, summarizeCases, type ShortCases } from './summary-form.ts';

/** The summarised report: indented, with each case and each short row on one line (a passing full run of 19,207 cases: under 1 MB). */
export function renderJson(run: RunResult): string {
  const { cases, summarized, ...rest } = summarizeCases(run);
  const marks = { cases: '\u0000cases', rows: '\u0000rows' };
  const list = (items: readonly unknown[]) => (items.length === 0 ? '[]' : `[\n${items.map((c) => `    ${JSON.stringify(c)}`).join(',\n')}\n  ]`);
  const head = JSON.stringify({ ...rest, cases: marks.cases, summarized: { ...summarized, rows: marks.rows } }, null, 2);
  return (
    head
      .replace(JSON.stringify(marks.cases), () => list(cases))
      // Rows unindented: at 19,000 rows an indent is 115 KB of spaces.
      .replace(JSON.stringify(marks.rows), () => (summarized.rows.length === 0 ? '[]' : `[\n${summarized.rows.map((r) => JSON.stringify(r)).join(',\n')}\n    ]`)) + '\n'
  );
}

/** Every case whole, requests and answers included (`--format json-full`). */
export function renderJsonFull(run: RunResult): string {
  return JSON.stringify(run, null, 2) + '\n';
}

export class ReportFormatError extends Error {
  override name = 'ReportFormatError';
}

/** Checks only what merging relies on; a report from a newer, incompatible tool is refused by version. */
export function parseRunJson(text: string, source: string): RunResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ReportFormatError(`${source}: not JSON (${(e as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ReportFormatError(`${source}: expected a site-contracts JSON report object`);
  }
  const r = data as Partial<RunResult>;
  if (r.reportVersion !== REPORT_VERSION) {
    throw new ReportFormatError(
      `${source}: report version ${JSON.stringify(r.reportVersion)} is not ${REPORT_VERSION}; re-run the shard with this version of site-contracts`,
    );
  }
  if (!Array.isArray(r.cases) || typeof r.target !== 'object' || typeof r.tool !== 'object') {
    throw new ReportFormatError(`${source}: missing "cases", "target" or "tool"; is this a site-contracts JSON report?`);
  }
  for (const [i, c] of r.cases.entries()) {
    if (typeof c !== 'object' || c === null || typeof c.id !== 'string' || typeof c.status !== 'string') {
      throw new ReportFormatError(`${source}: cases[${i}] has no string "id" and "status"`);
    }
  }
  const { summarized, ...run } = data as RunResult & { summarized?: ShortCases };
  if (summarized !== undefined) {
    const problem = shortCasesProblem(summarized, r.cases.length);
    if (problem) throw new ReportFormatError(`${source}: "summarized" ${problem}`);
  }
  return { ...run, cases: expandCases({ ...run, ...(summarized ? { summarized } : {}) }) };
}
