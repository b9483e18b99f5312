// `site-contracts merge reports/shard-*.json`: one report (in every format) for a sharded run.

import { parseRunJson } from '../../report/json.ts';
import { mergeRuns } from '../../report/merge.ts';
import type { MergeArgs } from '../args.ts';
import type { CommandContext } from '../context.ts';
import { EXIT_FAILURES, EXIT_SIGNAL } from '../../report/run.ts';
import { finishRun, prepareReports, readInput } from '../finish.ts';

export async function mergeCommand(args: MergeArgs, ctx: CommandContext): Promise<number> {
  const prepared = await prepareReports(args, ctx);
  const inputs = [];
  for (const path of args.inputs) {
    inputs.push({ source: path, run: parseRunJson(await readInput(ctx, 'merge', path), path) });
  }
  // A --baseline given here replaces the one the shards carried (finishRun re-applies it).
  const { code } = await finishRun(mergeRuns(inputs), args, ctx, prepared);
  // An interrupted shard makes the merged run INTERRUPTED, but merge itself was not stopped by a signal; an
  // incomplete one (its --max-duration or --max-requests) keeps its own code.
  return Object.values(EXIT_SIGNAL).includes(code) ? EXIT_FAILURES : code;
}
