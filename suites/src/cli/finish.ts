// The common ends of every command that produces a run. Before: read the baseline and prove the
// report directory writable, so that neither is found wrong after thousands of requests. After: apply
// the baseline, write the reports, tell the person what happened, and turn the verdict into the exit
// code.

import { applyBaseline, parseBaseline, type Baseline } from '../report/baseline.ts';
import type { CaseResult, Incompleteness, RunResult } from '../report/model.ts';
import { exitCodeFor, failsRun, notRunLines, stoppedHow, summarize } from '../report/run.ts';
import { ensureWritable, reportable, ReportWriteError, writeReports, type WrittenReport } from '../report/write.ts';
import type { ReportArgs } from './args.ts';
import type { CommandContext } from './context.ts';
import { UsageError } from '../errors.ts';

/** How many failing cases the terminal summary lists before pointing at the reports. */
const LISTED_FAILURES = 20;

const SIGNAL_NAMES = { SIGINT: 'Ctrl-C', SIGTERM: 'SIGTERM' } as const;

export async function readInput(ctx: CommandContext, flag: string, path: string): Promise<string> {
  try {
    return await ctx.readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag} ${path}: cannot read it (${code ?? (e as Error).message})`);
  }
}

/** What a command learns about its reports before it does anything else. */
interface Prepared {
  baseline?: Baseline;
}

/** Reads and parses --baseline and proves --report-dir writable; throws a usage-type error otherwise. */
export async function prepareReports(args: ReportArgs, ctx: CommandContext): Promise<Prepared> {
  const prepared: Prepared = {};
  if (args.baseline !== undefined) prepared.baseline = parseBaseline(await readInput(ctx, '--baseline', args.baseline), args.baseline);
  await ensureWritable(args.reportDir, ctx.fs);
  return prepared;
}

/** Re-applies the baseline read by prepareReports, if any; otherwise the run is left as it is. */
function withBaseline(run: RunResult, prepared: Prepared): RunResult {
  if (prepared.baseline === undefined) return run;
  const { cases, report } = applyBaseline(run.cases, prepared.baseline);
  return { ...run, cases, baseline: report, summary: summarize(cases, run) };
}

/** Writes the reports and prints the verdict; a report that cannot be written still leaves the verdict on stdout. */
interface FinishOptions {
  /** File name of the reports without extension (default: reportBaseName). */
  baseName?: string;
  /** Files the command wrote itself, listed with the reports. */
  alsoWritten?: readonly WrittenReport[];
}

export async function finishRun(run: RunResult, args: ReportArgs, ctx: CommandContext, prepared: Prepared, options: FinishOptions = {}): Promise<{ code: number; written: WrittenReport[] }> {
  const judged = withBaseline(run, prepared);
  // The terminal gets the same redacted, limited run the reports hold: a message cut for the
  // terminal must not cut a secret it could otherwise have recognised.
  const safe = reportable(judged, ctx.secrets, ctx.secretHeaders);
  let written: WrittenReport[];
  try {
    written = await writeReports(judged, {
      dir: args.reportDir,
      formats: args.formats,
      secrets: ctx.secrets,
      secretHeaders: ctx.secretHeaders,
      fs: ctx.fs,
      ...(options.baseName ? { baseName: options.baseName } : {}),
    });
  } catch (e) {
    if (e instanceof ReportWriteError) ctx.stdout.write(ctx.redact(describeRun(safe, options.alsoWritten ?? [])));
    throw e;
  }
  ctx.stdout.write(ctx.redact(describeRun(safe, [...(options.alsoWritten ?? []), ...written])));
  return { code: exitCodeFor(judged), written };
}

export function describeRun(run: RunResult, written: readonly WrittenReport[]): string {
  const s = run.summary;
  const lines: string[] = [];
  const counts = [`${s.passed} passed`, `${s.failed} failed`, `${s.warned} warned`, `${s.inconclusive ?? 0} inconclusive`, `${s.errored} errored`, `${s.skipped} skipped`];
  const accepted = s.accepted > 0 ? ` (${s.accepted} accepted by the baseline)` : '';
  const how = run.interrupted ? ` (stopped by ${SIGNAL_NAMES[run.interrupted.signal]}; only part of the run happened)` : run.incomplete ? ` (${stoppedHow(run.incomplete)}; only part of the run happened)` : '';
  lines.push(`site-contracts: ${s.verdict.toUpperCase()}${how}: ${s.total} cases, ${counts.join(', ')}${accepted}`);
  if (s.total === 0 && !run.interrupted && !run.incomplete) lines.push('  warning: no case ran; check --only/--skip and --shard');
  if (run.incomplete) lines.push(...describeNotRun(run.incomplete));

  const failing = run.cases.filter(failsRun);
  for (const c of failing.slice(0, LISTED_FAILURES)) {
    const where = [c.method, c.route].filter(Boolean).join(' ');
    lines.push(`  ${c.status === 'errored' ? 'ERROR' : 'FAIL '} ${c.check}${where ? ` ${where}` : ''} [${c.severity}]${c.message ? `: ${firstLine(c.message)}` : ''}`);
    lines.push(`        case:   ${c.id}`);
    const replay = replayCommand(run, c);
    if (replay) lines.push(`        replay: ${replay}`);
    if (c.curl) lines.push(`        curl:   ${c.curl}`);
  }
  if (failing.length > LISTED_FAILURES) lines.push(`  ... and ${failing.length - LISTED_FAILURES} more in the reports`);
  lines.push(...describeWarnings(run.cases));

  const b = run.baseline;
  if (b) {
    lines.push(`  baseline ${b.source}: ${b.newFailures.length} new, ${b.accepted.length} accepted, ${b.fixed.length} fixed, ${b.notRun.length} not run`);
    for (const id of b.fixed) lines.push(`    fixed (remove from the baseline): ${id}`);
  }
  const limits = run.options['reportLimits'] as { responseBodiesLeftOut?: number; responseBodies?: number } | undefined;
  if (limits?.responseBodiesLeftOut) {
    lines.push(`  ${limits.responseBodiesLeftOut} response bodies left out of the reports (they keep at most ${limits.responseBodies}, failing cases first)`);
  }
  if (written.length > 0) {
    lines.push('reports:');
    for (const w of written) lines.push(`  ${w.path}`);
  }
  return lines.join('\n') + '\n';
}

function describeNotRun(incomplete: Incompleteness): string[] {
  const lines = notRunLines(incomplete);
  if (lines.length === 0) return ['  every check had run when it stopped'];
  const total = incomplete.unitsNotRun.length + incomplete.unitsCutShort.length;
  return [`  not run or cut short: ${total} unit(s) of ${lines.length} check(s), in the order they would have run (the JSON report's "incomplete" lists the units):`, `    ${lines.join(', ')}`];
}

/** How many cases each warning group names before pointing at the reports. */
const LISTED_PER_WARNING = 3;

/** Warned cases by check and severity, after the failures: what each group found, and where. */
function describeWarnings(cases: readonly CaseResult[]): string[] {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases.filter((c) => c.status === 'warned')) {
    const key = `${c.check} [${c.severity}]`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  if (groups.size === 0) return [];
  const total = [...groups.values()].reduce((n, g) => n + g.length, 0);
  const lines = [`  warnings: ${total} case(s) in ${groups.size} group(s)`];
  for (const [key, group] of groups) {
    lines.push(`  WARN  ${key}: ${group.length} case(s)`);
    for (const c of group.slice(0, LISTED_PER_WARNING)) {
      const where = [c.method, c.route].filter(Boolean).join(' ');
      lines.push(`        ${c.id}${where ? ` (${where})` : ''}${c.message ? `: ${firstLine(c.message)}` : ''}`);
    }
    if (group.length > LISTED_PER_WARNING) lines.push(`        ... and ${group.length - LISTED_PER_WARNING} more in the reports`);
  }
  return lines;
}

const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The command that runs exactly this case again: the same target, seed and case-shaping options, `--only` its
 * case id. Only for `test` runs (a diff's findings are not replayed one by one); -H headers are left for the
 * reader to add, since their values may be secret.
 */
function replayCommand(run: RunResult, c: CaseResult): string | undefined {
  const o = run.options;
  if (o['command'] !== 'test') return undefined;
  const parts = ['npx site-contracts test', '--base-url', shellQuote(run.target.baseUrl)];
  if (run.target.apiRoot !== '/wp-json') parts.push('--api-root', shellQuote(run.target.apiRoot));
  parts.push('--seed', String(run.seed));
  if (typeof o['runs'] === 'number' && o['runs'] !== 3) parts.push('--runs', String(o['runs']));
  const policy = o['policy'] as { conventions?: string; responseShapes?: string } | undefined;
  if (policy?.conventions === 'warn') parts.push('--conventions', 'warn');
  if (policy?.responseShapes === 'error') parts.push('--response-shapes', 'error');
  if (o['readOnly'] === true) parts.push('--read-only');
  if (typeof o['authEnv'] === 'string') parts.push('--auth-env', o['authEnv']);
  if (typeof o['lowAuthEnv'] === 'string') parts.push('--low-auth-env', o['lowAuthEnv']);
  // A recording is replayed whole: a call may read the record an earlier one made.
  if (typeof o['calls'] === 'string') parts.push('--calls', shellQuote(o['calls']));
  else parts.push('--only', shellQuote(c.id));
  return parts.join(' ');
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
