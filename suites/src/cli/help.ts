// The text `--help` prints: the general help, and each command's own (`test --help`, `help test`) with
// exactly the flags that command takes and example command lines. Kept next to the parser, and every
// flag described once here, so a new flag and its description change together.

import { SELECTABLE_CHECKS } from '../checks/registry.ts';
import { DEFAULT_AUTH_ENV } from '../report/curl.ts';
import { ALLOWED, COMMANDS, DEFAULTS, FLAG_SPECS, type Command, type Flag } from './args.ts';
import { CONFIG_FILE, PACKAGE_KEY } from './config.ts';

interface FlagHelp {
  /** What follows the flag: `URL`, `N`... */
  value?: string;
  text: string[];
}

const FLAG_HELP: Record<Flag, FlagHelp> = {
  'base-url': { value: 'URL', text: ['Site to test, http(s) (required), e.g. https://staging.example.org'] },
  'api-root': { value: 'PATH', text: [`REST root under the site (default ${DEFAULTS.apiRoot}); 'rest_route' for`, 'sites without pretty permalinks (/?rest_route=)'] },
  'auth-env': {
    value: 'VAR',
    text: ['Name of the environment variable that holds user:application-password', `(default: ${DEFAULT_AUTH_ENV}, when it is set). There is no password flag.`],
  },
  header: {
    value: "'NAME: VALUE'",
    text: [
      'Send this header on every request to the target (repeatable), e.g. a WAF or',
      "gateway token: -H \"X-Waf-Token: $WAF_TOKEN\". Its value is a secret, redacted from",
      'reports and output, unless the name never carries one (Accept-Language...)',
    ],
  },
  'low-auth-env': {
    value: 'VAR',
    text: [
      'Name of the environment variable that holds user:application-password of a user',
      'with fewer rights (a subscriber or author): refusals of what that user may not do',
      'must be 403, not 401 (auth_status). Needs --auth-env',
    ],
  },
  'read-only': { text: ['Send no request that creates, changes or deletes anything'] },
  'disposable-target': {
    text: [
      'The site is restored from a snapshot after each run: also send the writes the suite',
      'cannot undo (settings, redirections, tokens...), skipped by default. Needs --auth-env',
    ],
  },
  only: { value: 'LIST', text: ['Comma-separated namespaces, routes or checks to run (repeatable), or a', "report's case id to replay that one case: --only 'route_presence:getCalV1:'"] },
  skip: { value: 'LIST', text: ['Comma-separated namespaces, routes or checks to leave out (repeatable)'] },
  seed: { value: 'N', text: ['Seed for generated inputs (default: random, printed in the report)'] },
  runs: { value: 'N', text: [`Generated cases per parameter (default ${DEFAULTS.runs})`] },
  'max-requests': { value: 'N', text: [`Stop after N requests (default ${DEFAULTS.maxRequests}); a run that ends there is INCOMPLETE (exit 4)`] },
  'max-failures': {
    value: 'N',
    text: ['Start no more checks once N cases have failed the run; the checks left are', 'reported as not run, created records are still removed (default: no limit)'],
  },
  exitfirst: { text: ['Stop at the first failing case: --max-failures 1'] },
  workers: {
    value: 'N',
    text: [`Checks run side by side (default ${DEFAULTS.workers}; 1 sends one request at a time).`, 'The same seed gives the same cases, verdicts and report for every N'],
  },
  stateful: {
    value: 'N',
    text: [`Requests the stateful phase may send per calendar resource: random sequences of`, `writes and reads held to a model, a failure shrunk to its shortest (default ${DEFAULTS.stateful}; 0: off)`],
  },
  calls: {
    value: 'FILE',
    text: ['Replay a frontend\'s recorded calls (site-contracts mock --record FILE) instead of the checks:', 'one case per call, naming the deviations it meets; writes only on records the run makes'],
  },
  'max-duration': {
    value: 'TIME',
    text: [`Bound of the whole run, e.g. 90s, 10m, 1h (default ${DEFAULTS.maxDuration}); when reached, created`, 'records are removed and the run is INCOMPLETE (exit 4), naming the checks not run'],
  },
  rps: { value: 'N', text: [`At most N requests per second, 0 = unlimited (default ${DEFAULTS.rps})`] },
  'timeout-ms': { value: 'N', text: [`Timeout of one request (default ${DEFAULTS.timeoutMs})`] },
  shard: { value: 'i/n', text: ['Run the i-th of n parts (1 <= i <= n); merge the parts afterwards'] },
  upstream: { value: 'URL', text: ['Server to forward to (required for proxy)'] },
  port: { value: 'N', text: [`Port to listen on (default ${DEFAULTS.port})`] },
  conventions: { value: 'error|warn', text: ['Findings that break WordPress conventions (default error)'] },
  'response-shapes': {
    value: 'error|warn',
    text: ['Findings on response shapes the documents never showed (default warn).', 'Findings against documented facts always fail the run.'],
  },
  baseline: {
    value: 'FILE',
    text: ['Earlier JSON report, or {accepted: [{id, reason}]} (JSON or YAML):', 'only failures it does not list fail the run. Checked before anything is sent'],
  },
  'report-dir': { value: 'DIR', text: ['Where to write reports (default reports/); proven writable', 'before anything is sent'] },
  format: { value: 'LIST', text: ['Any of junit,json,html,json-full,har (default junit,json,html; json', 'summarises passed cases, json-full keeps every case whole, har: requests)'] },
  config: {
    value: 'FILE',
    text: [`Read flags from FILE, JSON or YAML (default: ${CONFIG_FILE} or .yaml in this`, `directory, or the "${PACKAGE_KEY}" key of package.json); flags given here win`],
  },
  'print-config': { text: ['Print the value of every flag and where it came from, then exit'] },
  help: { text: ['Show this text (after a command: that command\'s flags and examples)'] },
  version: { text: ['Show the version'] },
};

const GROUPS: { title: string; flags: Flag[] }[] = [
  { title: 'Target', flags: ['base-url', 'upstream', 'port', 'api-root', 'auth-env', 'low-auth-env', 'header', 'read-only', 'disposable-target'] },
  { title: 'Selection and pacing', flags: ['only', 'skip', 'seed', 'runs', 'max-requests', 'max-failures', 'exitfirst', 'workers', 'max-duration', 'stateful', 'calls', 'rps', 'timeout-ms', 'shard'] },
  { title: 'Verdict', flags: ['conventions', 'response-shapes', 'baseline'] },
  { title: 'Reports', flags: ['report-dir', 'format'] },
  { title: 'Configuration', flags: ['config', 'print-config'] },
  { title: 'Other', flags: ['help', 'version'] },
];

/** Every flag in the order the help lists them. */
export const FLAG_ORDER: readonly Flag[] = GROUPS.flatMap((g) => g.flags);

const SUMMARY: Record<Command, string> = {
  test: 'Send requests to a live site and check its REST interface against the contract',
  diff: "Compare a live site's route descriptor with the contract, and report the differences",
  proxy: "Forward a client's traffic to --upstream and check it against the contract",
  merge: 'Merge the JSON reports of a sharded run into one report in every format',
};

const SYNOPSIS: Record<Command, string> = {
  test: 'test --base-url URL [flags]',
  diff: 'diff --base-url URL [flags]',
  proxy: 'proxy --upstream URL [flags]',
  merge: 'merge REPORT.json... [flags]',
};

/** Real command lines (each is parsed in the tests); STAGING_AUTH holds user:application-password. */
export const EXAMPLES: Record<Command, { line: string; what: string }[]> = {
  test: [
    { line: 'test --base-url https://staging.example.org --read-only --only cal/v1', what: 'reads only, one namespace' },
    {
      line: 'test --base-url https://staging.example.org --auth-env STAGING_AUTH --seed 4242 --baseline baseline.yaml',
      what: 'writes its own records (STAGING_AUTH holds user:application-password), fails only on new findings',
    },
    { line: 'test --base-url https://staging.example.org --seed 4242 --shard 1/3 --format json --report-dir out/', what: 'one CI job of three' },
    {
      line: 'test -u https://staging.example.org -H "X-Waf-Token: $WAF_TOKEN" -x',
      what: 'behind a WAF (the token from the environment, redacted in reports); stop at the first failure',
    },
  ],
  diff: [
    { line: 'diff --base-url https://staging.example.org', what: 'every route and argument against the contract' },
    { line: 'diff --base-url https://staging.example.org --only cal/v1,cal/events/v1 --baseline accepted.yaml', what: 'the calendar only, known differences accepted' },
    { line: 'diff --base-url http://localhost:8080 --api-root rest_route --format junit', what: 'a site without pretty permalinks' },
    { line: 'diff --config ci/staging.json --print-config', what: 'what diff would run with, and where each value comes from' },
  ],
  proxy: [
    { line: 'proxy --upstream https://staging.example.org', what: 'then point the app at http://127.0.0.1:8787/wp-json/' },
    { line: 'proxy --upstream https://staging.example.org -p 9000 --api-root /uk/wp-json', what: 'another port (-p, as in Prism) and API root' },
  ],
  merge: [
    { line: 'merge reports/shard-1-of-3.json reports/shard-2-of-3.json reports/shard-3-of-3.json', what: 'after a sharded run' },
    { line: 'merge reports/shard-1-of-2.json reports/shard-2-of-2.json --baseline baseline.yaml --format junit,html', what: 'judged against a baseline' },
  ],
};

const EXIT_CODES: Record<Command, string[]> = {
  test: [
    '0  every case passed (or failed only as the baseline and the policy allow)',
    '1  at least one failure that fails the run (also when --max-failures stopped it)',
    '2  usage error, unreadable --baseline, unwritable --report-dir, unreachable target,',
    '   or credentials the site refuses (all found before the first request that could write)',
    '3  internal error',
    '4  INCOMPLETE: --max-duration or --max-requests ended the run before its plan was done',
    '   and no case failed; the reports name the checks that did not run',
    '130/143  stopped by Ctrl-C/SIGTERM: created records removed, reports say INTERRUPTED',
  ],
  diff: ['0  identical (or every difference accepted by the baseline)', '1  differences', '2  usage error, unreadable input, or the target could not be reached', '3  internal error'],
  proxy: ["Prism's exit code; 130/143 after Ctrl-C/SIGTERM; 2 when --upstream has no REST root or on a usage error"],
  merge: [
    '0  the merged run passes',
    '1  it fails, or a shard was interrupted',
    '2  a report is missing, unreadable, of another run, or a shard is missing',
    '4  a shard was incomplete (--max-duration, --max-requests) and no case failed',
  ],
};

const COLUMN = 34;

function flagLines(flags: readonly Flag[]): string[] {
  const lines: string[] = [];
  for (const flag of flags) {
    const h = FLAG_HELP[flag];
    const short = FLAG_SPECS[flag].short;
    const head = `  ${short ? `-${short}, ` : ''}--${flag}${h.value ? ` ${h.value}` : ''}`;
    h.text.forEach((t, i) => lines.push(i === 0 ? `${head.padEnd(COLUMN - 2)}  ${t}` : `${''.padEnd(COLUMN)}${t}`));
  }
  return lines;
}

export function usage(toolName: string): string {
  const lines = [`Usage: ${toolName} <command> [flags]`, `       ${toolName} <command> --help    (that command's flags and examples)`, '', 'Commands:'];
  for (const c of COMMANDS) lines.push(`  ${c.padEnd(8)}${SUMMARY[c]}`);
  // Not the suite's: the package's bin hands `mock` to the mock's own command line, which has its own --help.
  lines.push(`  ${'mock'.padEnd(8)}Start the HTTP mock of the site, with the bundled fixtures or --fixtures DIR (${toolName} mock --help)`);
  for (const g of GROUPS) {
    lines.push('', `${g.title}:`);
    lines.push(...flagLines(g.flags));
  }
  lines.push('', 'Exit codes (test):', ...EXIT_CODES.test.map((l) => `  ${l}`));
  return lines.join('\n') + '\n';
}

/** Words joined by ", " into lines of at most `width` characters, each indented. */
function wrapped(words: readonly string[], indent: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const [i, w] of words.entries()) {
    const word = i < words.length - 1 ? `${w},` : w;
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(' '.repeat(indent) + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(' '.repeat(indent) + line);
  return lines;
}

export function commandUsage(toolName: string, command: Command): string {
  const lines = [`Usage: ${toolName} ${SYNOPSIS[command]}`, '', SUMMARY[command] + '.'];
  for (const g of GROUPS) {
    const flags = g.flags.filter((f) => ALLOWED[command].has(f) || f === 'help');
    if (flags.length === 0) continue;
    lines.push('', `${g.title}:`, ...flagLines(flags));
  }
  if (command === 'test') lines.push('', 'Checks (names for --only and --skip):', ...wrapped(SELECTABLE_CHECKS, 2, 100));
  lines.push('', 'Examples:');
  for (const e of EXAMPLES[command]) lines.push(`  ${toolName} ${e.line}`, `      ${e.what}`);
  lines.push('', 'Exit codes:', ...EXIT_CODES[command].map((l) => `  ${l}`));
  return lines.join('\n') + '\n';
}

/**
 * A usage error as printed: `site-contracts test: unknown flag --bogus; see site-contracts test --help`. The
 * command's own help when the command is known, since that lists exactly the flags it takes.
 */
export function usageError(toolName: string, command: string | undefined, message: string): string {
  const who = command === undefined ? toolName : `${toolName} ${command}`;
  return `${who}: ${message}${message.includes('\n') ? '\n' : '; '}see ${who} --help\n`;
}
