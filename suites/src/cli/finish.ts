// The common ending of every command that produces a run: apply the baseline, write the reports,
// tell the person what happened, and turn the verdict into the exit code.

import { applyBaseline, parseBaseline } from '../report/baseline.ts';
import type { RunResult } from '../report/model.ts';
import { exitCodeFor, failsRun, summarize } from '../report/run.ts';
import { writeReports, type WrittenReport } from '../report/write.ts';
import type { ReportArgs } from './args.ts';
import type { CommandContext } from './context.ts';
import { UsageError } from './errors.ts';

/** How many failing cases the terminal summary lists before pointing at the reports. */
const LISTED_FAILURES = 20;

export async function readInput(ctx: CommandContext, flag: string, path: string): Promise<string> {
  try {
    return await ctx.readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag} ${path}: cannot read it (${code ?? (e as Error).message})`);
  }
}

/** Re-applies the baseline named on the command line, if any; otherwise the run is left as it is. */
export async function withBaseline(run: RunResult, args: ReportArgs, ctx: CommandContext): Promise<RunResult> {
  if (args.baseline === undefined) return run;
  const baseline = parseBaseline(await readInput(ctx, '--baseline', args.baseline), args.baseline);
  const { cases, report } = applyBaseline(run.cases, baseline);
  return { ...run, cases, baseline: report, summary: summarize(cases) };
}

export async function finishRun(run: RunResult, args: ReportArgs, ctx: CommandContext): Promise<number> {
  const judged = await withBaseline(run, args, ctx);
  const written = await writeReports(judged, {
    dir: args.reportDir,
    formats: args.formats,
    secrets: ctx.secrets,
    fs: ctx.fs,
  });
  ctx.stdout.write(ctx.redact(describeRun(judged, written)));
  return exitCodeFor(judged);
}

export function describeRun(run: RunResult, written: readonly WrittenReport[]): string {
  const s = run.summary;
  const lines: string[] = [];
  const counts = [`${s.passed} passed`, `${s.failed} failed`, `${s.warned} warned`, `${s.inconclusive ?? 0} inconclusive`, `${s.errored} errored`, `${s.skipped} skipped`];
  const accepted = s.accepted > 0 ? ` (${s.accepted} accepted by the baseline)` : '';
  lines.push(`site-contracts: ${s.verdict.toUpperCase()}: ${s.total} cases, ${counts.join(', ')}${accepted}`);
  if (s.total === 0) lines.push('  warning: no case ran; check --only/--skip and --shard');

  const failing = run.cases.filter(failsRun);
  for (const c of failing.slice(0, LISTED_FAILURES)) {
    const where = [c.method, c.route].filter(Boolean).join(' ');
    lines.push(`  ${c.status === 'errored' ? 'ERROR' : 'FAIL '} ${c.check}${where ? ` ${where}` : ''} [${c.severity}]${c.message ? `: ${firstLine(c.message)}` : ''}`);
  }
  if (failing.length > LISTED_FAILURES) lines.push(`  ... and ${failing.length - LISTED_FAILURES} more in the reports`);

  const b = run.baseline;
  if (b) {
    lines.push(`  baseline ${b.source}: ${b.newFailures.length} new, ${b.accepted.length} accepted, ${b.fixed.length} fixed, ${b.notRun.length} not run`);
    for (const id of b.fixed) lines.push(`    fixed (remove from the baseline): ${id}`);
  }
  if (written.length > 0) {
    lines.push('reports:');
    for (const w of written) lines.push(`  ${w.path}`);
  }
  return lines.join('\n') + '\n';
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

