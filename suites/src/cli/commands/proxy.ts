// Placeholder for `site-contracts proxy` until its implementation lands here: it must resolve to the exit
// code, and should end with finishRun() (../finish.ts) so reports, baseline and exit code work as for merge.

import type { ProxyArgs } from '../args.ts';
import type { CommandContext } from '../context.ts';
import { NotImplementedError } from '../errors.ts';

export async function proxyCommand(_args: ProxyArgs, _ctx: CommandContext): Promise<number> {
  throw new NotImplementedError('`site-contracts proxy` is not implemented yet (suites/src/cli/commands/proxy.ts)');
}
