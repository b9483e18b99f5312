// The HTTP mock's command line: `site-contracts mock` (the package's bin hands `mock` to runMockCli) and, in a clone,
// `npm run mock` (this file as the entry). The mock on http://127.0.0.1:4010 (see --help). Exit code 2 for bad flags
// and bad fixture or state files, with a message naming the flag or file and what was expected.
// This module imports only what reads the flags: it says it is starting before the contract, the store and the
// server (src/cli-start.ts) are even loaded, so a person sees a line at once.
import { isEntryModule } from '../contracts/lib/package-root.ts';
import { parseCliArgs, usage, UsageError, type CliOptions } from './src/cli-args.ts';
import { startedByNpm, StopRequests } from './src/launcher-watch.ts';

/**
 * Parses `argv` (the flags after `mock`), starts the mock and serves until SIGINT, SIGTERM or SIGHUP, or until the npm
 * that started it ends (launcher-watch.ts). `invokedAs` is how the user started it, for the one-line usage message
 * (`site-contracts mock`, or `npm run mock --` in a clone).
 */
export async function runMockCli(argv: readonly string[], invokedAs = 'npm run mock --'): Promise<void> {
  let opts: CliOptions;
  try {
    opts = parseCliArgs(argv);
  } catch (err) {
    // One line that says what is wrong and where the flags are listed, as site-contracts does.
    if (err instanceof UsageError) {
      process.stderr.write(`mock: ${err.message}; see ${invokedAs} --help\n`);
      process.exit(2);
    }
    throw err;
  }
  if (opts.help) {
    process.stdout.write(usage(invokedAs));
    return;
  }
  const started = performance.now();
  // From now on a stop (a signal, or `kill` of the npm that started it: launcher-watch.ts) is heard, and runs once
  // the mock has started.
  const stops = new StopRequests({ watchLauncher: startedByNpm(process.env) });
  // At once, before the contract and the fixtures load: a person sees that something is happening.
  process.stdout.write(`mock: starting: loading the contract and ${opts.fixturesDir ? `the fixtures in ${opts.fixturesDir}` : opts.seed !== undefined ? 'generated fixtures' : 'the bundled fixtures'}...\n`);
  const { startMock } = await import('./src/cli-start.ts');
  await startMock(opts, started, stops);
}

if (isEntryModule(import.meta.url, process.argv[1])) await runMockCli(process.argv.slice(2));
