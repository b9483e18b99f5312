// --deviations REPORT at start: the report read, its deviations derived, --deviations-skip checked against them, and
// the lines the banner prints (what is played, what is not and why). A problem is one line naming the file (or the
// flag) and what was expected, for exit 2.
import { readFile } from 'node:fs/promises';
import type { Contract } from '../../../contracts/lib/contract.ts';
import { deriveDeviations } from './derive.ts';
import { readReport, ReportInputError } from './report-reader.ts';
import type { PlayedDeviations } from './stage.ts';

type LoadedDeviations = { played: PlayedDeviations; contract: Contract; lines: string[] } | { error: string };

/** The contract's `info.version`: what a report must have been made against. */
function contractVersion(contract: Contract): string {
  return String((contract.doc['info'] as { version?: unknown } | undefined)?.version ?? '');
}

/** The report's deviations, from its text (a test passes the text and the contract it has). */
export function deviationsOf(text: string, file: string, contract: Contract, skip: readonly string[]): { played: PlayedDeviations; lines: string[] } | { error: string } {
  let report;
  try {
    report = readReport(text, file, contractVersion(contract));
  } catch (e) {
    if (e instanceof ReportInputError) return { error: `--deviations ${e.message}` };
    throw e;
  }
  const { played, unplayable } = deriveDeviations(report.cases, contract);
  const unknown = skip.filter((id) => !played.some((d) => d.id === id));
  if (unknown.length > 0) {
    return { error: `--deviations-skip ${unknown.join(',')}: expected ids of deviations played from ${file}; it has ${played.length ? played.map((d) => d.id).join(', ') : 'none'}` };
  }
  const lines = [`mock: --deviations ${file}: ${played.length} deviation${played.length === 1 ? '' : 's'} of ${report.site} played${skip.length ? ` (${skip.length} switched off)` : ''}, ${unplayable.length} failure${unplayable.length === 1 ? '' : 's'} not playable`];
  for (const d of played) lines.push(`mock:   ${skip.includes(d.id) ? 'off   ' : 'played'} ${d.id}  ${d.summary}`);
  for (const u of unplayable) lines.push(`mock:   not played ${u.caseId}: ${u.reason}`);
  lines.push('mock: switch one off or on while running: POST /__mock/deviation-off/<id>, /__mock/deviation-on/<id>; GET /__mock/deviations lists them');
  return { played: { site: report.site, deviations: played, unplayable, skip }, lines };
}

export async function loadDeviations(file: string, skip: readonly string[], loadContract: () => Contract): Promise<LoadedDeviations> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return { error: `--deviations ${file}: expected a readable JSON run report (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  const contract = loadContract();
  const out = deviationsOf(text, file, contract, skip);
  return 'error' in out ? out : { ...out, contract };
}
