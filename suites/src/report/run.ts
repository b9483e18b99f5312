// Assembling a run result and deciding whether it passes: the single place the exit code comes from.

import type { BaselineReport, CaseResult, Interruption, RunResult, RunSummary, ShardInfo, TargetInfo, ToolInfo } from './model.ts';
import { REPORT_VERSION } from './model.ts';

/** A case fails the run when it is a failure or an error the baseline has not accepted. */
export function failsRun(c: CaseResult): boolean {
  return (c.status === 'failed' || c.status === 'errored') && c.baseline !== 'accepted';
}

/** An interrupted run did only part of its work, so it never passes, whatever its cases say. */
export function summarize(cases: readonly CaseResult[], interrupted?: Interruption): RunSummary {
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
  summary.verdict = interrupted ? 'interrupted' : summary.failing === 0 ? 'passed' : 'failed';
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
    summary: summarize(input.cases, input.interrupted),
  };
  if (input.contract) run.contract = input.contract;
  if (input.shard) run.shard = input.shard;
  if (input.baseline) run.baseline = input.baseline;
  if (input.interrupted) run.interrupted = input.interrupted;
  return run;
}

const EXIT_PASS = 0;
export const EXIT_FAILURES = 1;
/** Usage error, or the target could not be reached: the run says nothing about the server. */
export const EXIT_USAGE = 2;
/** The tool itself broke (a bug, or a command not implemented yet). */
export const EXIT_INTERNAL = 3;
/** Stopped by Ctrl-C / SIGTERM: 128 + the signal's number, as shells report it. */
export const EXIT_SIGNAL: Readonly<Record<Interruption['signal'], number>> = { SIGINT: 130, SIGTERM: 143 };

export function exitCodeFor(run: RunResult): number {
  if (run.interrupted) return EXIT_SIGNAL[run.interrupted.signal];
  return summarize(run.cases).verdict === 'passed' ? EXIT_PASS : EXIT_FAILURES;
}
