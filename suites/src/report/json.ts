// The JSON report is the run result itself: the format merge and --baseline read back.

import { REPORT_VERSION, type RunResult } from './model.ts';

export function renderJson(run: RunResult): string {
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
  return data as RunResult;
}
