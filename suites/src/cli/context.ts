// What a command handler may touch. Everything with a side effect (streams, clock, files, env) comes
// in through here so that tests can hand in fakes and a handler never reaches for `process`.

import type { ToolInfo } from '../report/model.ts';
import type { ReportFs } from '../report/write.ts';
import type { MergeArgs, ProxyArgs, RunArgs } from './args.ts';
import type { ProgressStream } from './progress.ts';

type OutputStream = ProgressStream;

export interface CommandContext {
  tool: ToolInfo;
  env: Readonly<Record<string, string | undefined>>;
  stdout: OutputStream;
  stderr: OutputStream;
  now(): Date;
  readFile(path: string): Promise<string>;
  fs: ReportFs;
  /** Credentials of this invocation; reports and printed messages are redacted with them. */
  secrets: readonly string[];
  /** --secret-header: headers whose values are secret besides Authorization, Cookie and the like. */
  secretHeaders: readonly string[];
  /** Use on anything printed that came from outside (server messages, error text). */
  redact(text: string): string;
}

/** Resolves to the process exit code. */
export type CommandHandler<A> = (args: A, ctx: CommandContext) => Promise<number>;

/** One handler per command; adding a command's implementation means replacing its entry. */
export interface CommandRegistry {
  test: CommandHandler<RunArgs>;
  diff: CommandHandler<RunArgs>;
  proxy: CommandHandler<ProxyArgs>;
  merge: CommandHandler<MergeArgs>;
}
