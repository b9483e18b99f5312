// CI's judgement of a replay (`test --calls`) against the quirky site: the deviations each recorded call meets must be
// exactly those .ci/calls/quirky-expected.yaml lists for its line, no more (a new deviation of the site, or a false
// failure of the suite) and no fewer (an expected deviation the replay no longer sees). Reads the replay's
// json-full report; exit 1 with one line per difference.
//
//   npx tsx .ci/calls/check.ts reports/calls-quirky/site-contracts.full.json .ci/calls/quirky-expected.yaml
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseRunJson } from '../../suites/src/report/json.ts';
import { deviationsOf } from '../../suites/src/runner/calls.ts';

interface Expected {
  line: number;
  call: string;
  meets: string[];
  why: string;
}

const [reportFile, expectedFile] = process.argv.slice(2);
if (!reportFile || !expectedFile) {
  process.stderr.write('usage: tsx .ci/calls/check.ts REPORT.full.json EXPECTED.yaml\n');
  process.exit(2);
}
const run = parseRunJson(readFileSync(reportFile, 'utf8'), reportFile);
const expected = (parse(readFileSync(expectedFile, 'utf8')) as { calls: Expected[] }).calls;
const byLine = new Map(expected.map((e) => [e.line, e]));
const problems: string[] = [];
const seen = new Set<number>();
for (const c of run.cases.filter((x) => x.check === 'recorded_calls')) {
  const line = Number(/^L(\d+)$/.exec(c.variant ?? '')?.[1]);
  seen.add(line);
  const met = deviationsOf(c).sort();
  const want = [...(byLine.get(line)?.meets ?? [])].sort();
  const head = `line ${line} (${c.method} ${c.route ?? ''}, ${c.status})`;
  for (const d of met.filter((m) => !want.includes(m))) problems.push(`${head}: meets ${d}, which ${expectedFile} does not expect: ${c.message ?? ''}`);
  for (const d of want.filter((w) => !met.includes(w))) problems.push(`${head}: does not meet ${d}, which ${expectedFile} expects (${byLine.get(line)!.why})`);
  if (c.status === 'errored' || c.status === 'skipped' || c.status === 'inconclusive') problems.push(`${head}: ${c.status}: ${c.message ?? ''}`);
}
for (const e of expected) if (!seen.has(e.line)) problems.push(`line ${e.line} (${e.call}): expected in the replay, which has no case for it`);
const left = run.cases.filter((x) => x.check === 'cleanup');
for (const c of left) problems.push(`a record of the replay was left on the site: ${c.message ?? c.id}`);
const calls = run.cases.filter((x) => x.check === 'recorded_calls');
const meeting = calls.filter((c) => deviationsOf(c).length > 0);
process.stdout.write(`${calls.length} recorded calls replayed; ${meeting.length} meet deviations: ${meeting.map((c) => `${c.variant} ${deviationsOf(c).join('+')}`).join(', ') || 'none'}\n`);
if (problems.length) {
  process.stdout.write(problems.map((p) => `  ${p}\n`).join(''));
  process.exit(1);
}
process.stdout.write(`  exactly the deviations ${expectedFile} expects\n`);
