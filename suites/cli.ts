// Entry point of `site-contracts` (npm bin) and `npm run conformance`: parse the command line, hand
// the command to its handler, map the outcome to an exit code. Handlers live in
// suites/src/cli/commands/; this file only wires them to the process.
//
// Exit codes: 0 pass, 1 failures, 2 usage error / unreadable input / unwritable report directory /
// unreachable target / refused credentials, 3 internal, 130/143 interrupted.

import { readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { reportFs } from './src/report/make-directory.ts';
import { isEntryModule, packagePath } from '../contracts/lib/package-root.ts';
import { buildArgs, commandOf, readCommandLine, runsCommand, secretHeadersOf, secretsOf, type CliArgs, type CommandArgs } from './src/cli/args.ts';
import { defaultCommands } from './src/cli/commands/index.ts';
import { loadConfigFor } from './src/cli/config.ts';
import type { CommandContext, CommandRegistry } from './src/cli/context.ts';
import { CredentialsRefusedError, NotImplementedError, TargetUnreachableError, UsageError } from './src/errors.ts';
import { commandUsage, usage, usageError } from './src/cli/help.ts';
import { describeConfig } from './src/cli/print-config.ts';
import { BaselineError } from './src/report/baseline.ts';
import { ReportFormatError } from './src/report/json.ts';
import { MergeError } from './src/report/merge.ts';
import { createRedactor } from './src/report/redact.ts';
import { EXIT_INTERNAL, EXIT_USAGE } from './src/report/run.ts';
import { ReportWriteError } from './src/report/write.ts';

/**
 * What main() is given: a command's context before the invocation's own secrets are known, the commands, and
 * the working directory where site-contracts.config.json and package.json are looked for (without one, only a
 * --config FILE is read).
 */
export type MainDeps = Omit<CommandContext, 'secrets' | 'secretHeaders' | 'redact'> & { commands: CommandRegistry; cwd?: string };

export async function main(argv: readonly string[], deps: MainDeps): Promise<number> {
  let args: CliArgs;
  try {
    const line = readCommandLine(argv);
    const config = runsCommand(line) ? await loadConfigFor(line, deps) : undefined;
    args = buildArgs(line, deps.env, config);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    deps.stderr.write(usageError(deps.tool.name, commandOf(argv), e.message));
    return EXIT_USAGE;
  }
  if (args.command === 'help') {
    deps.stdout.write(args.topic ? commandUsage(deps.tool.name, args.topic) : usage(deps.tool.name));
    return 0;
  }
  if (args.command === 'version') {
    deps.stdout.write(`${deps.tool.name} ${deps.tool.version}\n`);
    return 0;
  }

  const secrets = secretsOf(args, deps.env);
  const secretHeaders = secretHeadersOf(args);
  const redactor = createRedactor(secrets, { secretHeaders });
  if (args.command === 'print-config') {
    deps.stdout.write(redactor.text(describeConfig(deps.tool.name, args.args, args.sources)));
    return 0;
  }
  const { commands, cwd: _cwd, ...io } = deps;
  const ctx: CommandContext = { ...io, secrets, secretHeaders, redact: redactor.text };
  try {
    return await dispatch(args, commands, ctx);
  } catch (e) {
    return reportError(e, ctx, args.command);
  }
}

function dispatch(args: CommandArgs, commands: CommandRegistry, ctx: CommandContext): Promise<number> {
  switch (args.command) {
    case 'test':
      return commands.test(args, ctx);
    case 'diff':
      return commands.diff(args, ctx);
    case 'proxy':
      return commands.proxy(args, ctx);
    case 'merge':
      return commands.merge(args, ctx);
  }
}

function reportError(e: unknown, ctx: CommandContext, command: CommandArgs['command']): number {
  const name = ctx.tool.name;
  const say = (text: string): void => void ctx.stderr.write(ctx.redact(`${name}: ${text}\n`));
  if (e instanceof UsageError) {
    ctx.stderr.write(ctx.redact(usageError(name, command, e.message)));
    return EXIT_USAGE;
  }
  if (
    e instanceof TargetUnreachableError ||
    e instanceof CredentialsRefusedError ||
    e instanceof BaselineError ||
    e instanceof ReportFormatError ||
    e instanceof MergeError ||
    e instanceof ReportWriteError
  ) {
    say(e.message);
    return EXIT_USAGE;
  }
  if (e instanceof NotImplementedError) {
    say(e.message);
    return EXIT_INTERNAL;
  }
  say(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return EXIT_INTERNAL;
}

export function processDeps(): MainDeps {
  const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version?: string };
  return {
    commands: defaultCommands,
    tool: { name: 'site-contracts', version: pkg.version ?? '0.0.0' },
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    now: () => new Date(),
    readFile: (path) => fs.readFile(path, 'utf8'),
    fs: reportFs,
    cwd: process.cwd(),
  };
}

export async function runFromProcess(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  // exitCode rather than exit(): lets stdout drain when it is a pipe.
  process.exitCode = await main(argv, processDeps());
}

if (isEntryModule(import.meta.url, process.argv[1])) await runFromProcess();
