// Placeholder for `site-contracts test` until its implementation lands here: it must resolve to the exit
// code, and should end with finishRun() (../finish.ts) so reports, baseline and exit code work as for merge.

import type { RunArgs } from '../args.ts';
import type { CommandContext } from '../context.ts';
import { NotImplementedError } from '../errors.ts';

export async function testCommand(_args: RunArgs, _ctx: CommandContext): Promise<number> {
  throw new NotImplementedError('`site-contracts test` is not implemented yet (suites/src/cli/commands/test.ts)');
}
