// Assembling a run result and deciding whether it passes: the single place the exit code comes from.

import type { BaselineReport, CaseResult, Incompleteness, Interruption, RunResult, RunSummary, ShardInfo, TargetInfo, ToolInfo } from './model.ts';
import { REPORT_VERSION } from './model.ts';

/** What ended a run before its plan was done, in the words of its flag or event. */
export function stoppedHow(incomplete: Incompleteness): string {
  switch (incomplete.stoppedBy) {
    case 'target-down':
      return 'the target stopped answering';
    case 'signal':
      return 'stopped by a signal';
    default:
      return `stopped at ${incomplete.limit ?? `--${incomplete.stoppedBy}`}`;
  }
}

/** The checks a run that ended early did not wholly run: each with how many of its units did not run or were cut short. */
export function notRunLines(incomplete: Incompleteness): string[] {
  return incomplete.checks.map((c) => `${c.check} ${c.notRun + c.cutShort} of ${c.planned} unit(s)${c.cutShort ? ` (${c.cutShort} cut short)` : ''}`);
}

/** A case fails the run when it is a failure or an error the baseline has not accepted. */
export function failsRun(c: CaseResult): boolean {
  return (c.status === 'failed' || c.status === 'errored') && c.baseline !== 'accepted';
}

/** An interrupted or incomplete run did only part of its work, so it never passes, whatever its cases say. */
export function summarize(cases: readonly CaseResult[], run: Pick<RunResult, 'interrupted' | 'incomplete'> = {}): RunSummary {
  const summary: RunSummary = {
    total: cases.length,
    passed: 0,
    failed: 0,
    warned: 0,
    inconclusive: 0,
    skipped: 0,
    errored: 0,
    accepted: 0,
    failing: 0,
    verdict: 'passed',
  };
  for (const c of cases) {
    // A report written before `inconclusive` existed has no such count; the cases say it all the same.
    summary[c.status] = (summary[c.status] ?? 0) + 1;
    if (failsRun(c)) summary.failing++;
    else if (c.baseline === 'accepted') summary.accepted++;
  }
  summary.verdict = run.interrupted ? 'interrupted' : summary.failing > 0 ? 'failed' : run.incomplete ? 'incomplete' : 'passed';
  return summary;
}

interface RunInput {
  tool: ToolInfo;
  target: TargetInfo;
  startedAt: Date;
  finishedAt: Date;
  seed: number;
  contract?: { version: string };
  shard?: ShardInfo;
  options: Record<string, unknown>;
  cases: CaseResult[];
  baseline?: BaselineReport;
  interrupted?: Interruption;
  incomplete?: Incompleteness;
}

export function buildRun(input: RunInput): RunResult {
  const run: RunResult = {
    reportVersion: REPORT_VERSION,
    tool: input.tool,
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: Math.max(0, input.finishedAt.getTime() - input.startedAt.getTime()),
    seed: input.seed,
    options: input.options,
    cases: input.cases,
    summary: summarize(input.cases, input),
  };
  if (input.contract) run.contract = input.contract;
  if (input.shard) run.shard = input.shard;
  if (input.baseline) run.baseline = input.baseline;
  if (input.interrupted) run.interrupted = input.interrupted;
  if (input.incomplete) run.incomplete = input.incomplete;
  return run;
}

const EXIT_PASS = 0;
export const EXIT_FAILURES = 1;
/** Usage error, or the target could not be reached: the run says nothing about the server. */
export const EXIT_USAGE = 2;
/** The tool itself broke (a bug, or a command not implemented yet). */
export const EXIT_INTERNAL = 3;
/**
 * Ended before its plan was done (--max-duration, --max-requests) with no case failing: neither passed nor failed.
 * CI tells it from both; a run that found failures before it stopped exits 1 (it failed, whatever else it would have found).
 */
export const EXIT_INCOMPLETE = 4;
/** Stopped by Ctrl-C / SIGTERM: 128 + the signal's number, as shells report it. */
export const EXIT_SIGNAL: Readonly<Record<Interruption['signal'], number>> = { SIGINT: 130, SIGTERM: 143 };

export function exitCodeFor(run: RunResult): number {
  if (run.interrupted) return EXIT_SIGNAL[run.interrupted.signal];
  const verdict = summarize(run.cases, run).verdict;
  return verdict === 'passed' ? EXIT_PASS : verdict === 'incomplete' ? EXIT_INCOMPLETE : EXIT_FAILURES;
}
