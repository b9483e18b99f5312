// Command-line parsing for `site-contracts test|diff|proxy|merge`. Every input the suite takes from
// a person or a CI script is checked here, once, so the commands can trust what they get; every
// rejection is a UsageError that names the flag and what it wants. A config file's flags (config.ts) come in
// here too, under the command line's, and are checked by the same code.
// Credentials are never a flag: arguments end up in shell history, CI logs and `ps` output, so the
// suite only takes the NAME of an environment variable holding `user:application-password`.

import { DEFAULT_AUTH_ENV } from '../report/curl.ts';
import {
  DEFAULT_POLICY,
  DEFAULT_REPORT_FORMATS,
  REPORT_FORMATS,
  type PolicyLevel,
  type ReportFormat,
  type SeverityPolicy,
  type ShardInfo,
} from '../report/model.ts';
import { DEFAULT_REPORT_DIR } from '../report/write.ts';
import { REST_ROUTE_ROOT } from '../http/target.ts';
import { UsageError } from '../errors.ts';
import { HEADER_EXPECTS, headerSecrets, isAuthorization, parseHeaders, shownHeader, type ExtraHeader } from './headers.ts';
import { positionalsOf, suggestion, tokenize, type FlagSpec, type FlagValues } from '../../../contracts/lib/argv.ts';

export const COMMANDS = ['test', 'diff', 'proxy', 'merge'] as const;
/** Every command the bin answers, for messages: `mock` is handed to the mock's own command line before this parser runs. */
const COMMAND_LIST = [...COMMANDS, 'mock'];
const COMMAND_NAMES = COMMAND_LIST.join(', ');
export type Command = (typeof COMMANDS)[number];

export const DEFAULTS = {
  apiRoot: '/wp-json',
  runs: 3,
  maxRequests: 20000,
  rps: 0,
  timeoutMs: 10_000,
  port: 8787,
  workers: 6,
  maxDuration: '60m',
  /** Requests the stateful phase may send per calendar resource (checks/stateful.ts), shrinking included. */
  stateful: 300,
} as const;

/** `unknown command "tset" (did you mean test?)`: the same guess, by the same rule, as for a mistyped flag. */
function unknownCommand(name: string): string {
  const guess = suggestion(name, COMMAND_LIST);
  return `unknown command ${JSON.stringify(name)}${guess ? ` (did you mean ${guess}?)` : ''}: expected one of ${COMMAND_NAMES}`;
}

interface AuthRef {
  /** The variable the credentials came from; curl lines and messages name it instead of the value. */
  envVar: string;
  /** `user:application-password`: never print, never put in a report. */
  credentials: string;
}

export interface ReportArgs {
  reportDir: string;
  formats: ReportFormat[];
  baseline?: string;
}

export interface RunArgs extends ReportArgs {
  command: 'test' | 'diff';
  baseUrl: string;
  apiRoot: string;
  auth?: AuthRef;
  /** -H/--header: sent on every request to the target; secret ones are redacted everywhere. */
  headers: ExtraHeader[];
  readOnly: boolean;
  only: string[];
  skip: string[];
  /** Absent when not given: the command picks one and records it in the report. */
  seed?: number;
  runs: number;
  maxRequests: number;
  /** Requests per second; 0 means unlimited. */
  rps: number;
  timeoutMs: number;
  shard?: ShardInfo;
  /** test only: stop starting checks once this many cases fail the run (--max-failures, -x). */
  maxFailures?: number;
  /** test only (--disposable-target): the site is restored after the run, so writes the suite cannot undo are sent too. */
  disposableTarget?: boolean;
  /** test only (--low-auth-env): a user with fewer rights, whose refusals for permission must be 403 (auth_status). */
  lowAuth?: AuthRef;
  /** test only: checks run side by side (--workers); the report is the same for every number. */
  workers?: number;
  /** test only: the whole run's bound (--max-duration), in milliseconds. */
  maxDurationMs?: number;
  /** test only: the stateful phase's requests per calendar resource (--stateful; 0 turns it off). */
  stateful?: number;
  /** test only (--calls): a frontend's recorded calls (mock --record), replayed instead of the planned checks. */
  calls?: string;
  policy: SeverityPolicy;
}

export interface ProxyArgs extends ReportArgs {
  command: 'proxy';
  upstream: string;
  port: number;
  apiRoot: string;
  auth?: AuthRef;
  readOnly: boolean;
  only: string[];
  skip: string[];
  timeoutMs: number;
  policy: SeverityPolicy;
}

export interface MergeArgs extends ReportArgs {
  command: 'merge';
  inputs: string[];
}

export type CommandArgs = RunArgs | ProxyArgs | MergeArgs;

/** Where an effective value came from, for --print-config. */
export type Sources = Partial<Record<Flag, string>>;

/** `topic`: the command whose own help was asked for (`test --help`, `help test`). */
export type CliArgs =
  | CommandArgs
  | { command: 'help'; topic?: Command }
  | { command: 'version' }
  | { command: 'print-config'; args: CommandArgs; sources: Sources };

/**
 * Short flags are those Prism's and Schemathesis's users type: -u (Schemathesis's --url), -H (curl and
 * Schemathesis), -x (Schemathesis's --exitfirst), -p (Prism's --port). -n is left out: Schemathesis counts its
 * examples per operation, --runs counts cases per parameter, so `-n 100` would mean far more than it says.
 */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  config: { type: 'string' },
  'print-config': { type: 'boolean' },
  'base-url': { type: 'string', short: 'u' },
  'api-root': { type: 'string' },
  'auth-env': { type: 'string' },
  'low-auth-env': { type: 'string' },
  header: { type: 'string', short: 'H', multiple: true },
  'read-only': { type: 'boolean' },
  'disposable-target': { type: 'boolean' },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  seed: { type: 'string' },
  runs: { type: 'string' },
  'max-requests': { type: 'string' },
  'max-failures': { type: 'string' },
  exitfirst: { type: 'boolean', short: 'x' },
  workers: { type: 'string' },
  'max-duration': { type: 'string' },
  stateful: { type: 'string' },
  calls: { type: 'string' },
  rps: { type: 'string' },
  'timeout-ms': { type: 'string' },
  shard: { type: 'string' },
  'report-dir': { type: 'string' },
  format: { type: 'string', multiple: true },
  baseline: { type: 'string' },
  conventions: { type: 'string' },
  'response-shapes': { type: 'string' },
  upstream: { type: 'string' },
  port: { type: 'string', short: 'p' },
} as const;

export type Flag = keyof typeof OPTIONS;
export const FLAG_SPECS: Readonly<Record<Flag, FlagSpec>> = OPTIONS;

/** What each string flag expects, for messages that say so. */
const EXPECTS: Partial<Record<Flag, string>> = {
  config: 'a JSON or YAML file such as site-contracts.config.json',
  'base-url': 'an http(s) URL such as https://staging.example.org',
  'api-root': "a path such as /wp-json, or 'rest_route'",
  'auth-env': 'the name of an environment variable holding user:application-password',
  'low-auth-env': 'the name of an environment variable holding user:application-password of a user with fewer rights (a subscriber or author)',
  header: HEADER_EXPECTS,
  only: 'a comma-separated list of namespaces, routes or checks, or one case id from a report (check:operationId:variant)',
  skip: 'a comma-separated list of namespaces, routes or checks',
  seed: 'an integer from 0 to 4294967295',
  runs: 'a whole number of cases per parameter, at least 1',
  'max-requests': 'a whole number of requests, at least 1',
  'max-failures': 'a whole number of failing cases, at least 1',
  workers: 'a whole number of checks run side by side, from 1 to 64',
  'max-duration': 'a duration such as 90s, 10m, 1h or 1h30m',
  stateful: 'a whole number of requests per calendar resource for the stateful phase (0 = off)',
  calls: 'a recording of a frontend\'s calls (site-contracts mock --record calls.ndjson)',
  rps: 'a number of requests per second (0 = unlimited)',
  'timeout-ms': 'a whole number of milliseconds, at least 1',
  shard: 'i/n with 1 <= i <= n',
  'report-dir': 'a directory',
  format: `a comma-separated list of ${REPORT_FORMATS.join(', ')}`,
  baseline: 'a JSON report or a {accepted: [...]} file',
  conventions: 'error or warn',
  'response-shapes': 'error or warn',
  upstream: 'an http(s) URL of the server to proxy to',
  port: 'a port number from 0 to 65535',
};

function expectsOf(flag: string): string {
  return EXPECTS[flag as Flag] ?? 'a value';
}

/**
 * Flags people bring from other tools (Schemathesis, Prism, Dredd, pytest), far from ours in spelling but the same
 * in meaning: `--exclude` is our `--skip`, whatever its edit distance.
 */
export const FLAG_SYNONYMS: Readonly<Record<string, Flag>> = {
  exclude: 'skip',
  'exclude-path': 'skip',
  'exclude-operation-id': 'skip',
  'exclude-tag': 'skip',
  include: 'only',
  'include-path': 'only',
  'include-operation-id': 'only',
  'include-tag': 'only',
  url: 'base-url',
  'base-path': 'api-root',
  'hypothesis-seed': 'seed',
  'max-examples': 'runs',
  'request-timeout': 'timeout-ms',
  'junit-xml': 'format',
  report: 'format',
  'rate-limit': 'rps',
};

/** Flags every command takes; they shape the invocation rather than the run. */
const INVOCATION_FLAGS: Flag[] = ['help', 'config', 'print-config'];
const REPORT_FLAGS: Flag[] = [...INVOCATION_FLAGS, 'report-dir', 'format', 'baseline'];
const TARGET_FLAGS: Flag[] = ['api-root', 'auth-env', 'read-only', 'only', 'skip', 'timeout-ms', 'conventions', 'response-shapes'];
const RUN_FLAGS: Flag[] = [...REPORT_FLAGS, ...TARGET_FLAGS, 'base-url', 'header', 'seed', 'runs', 'max-requests', 'rps', 'shard'];
/** The flags each command takes; its --help lists exactly these. */
export const ALLOWED: Record<Command, ReadonlySet<Flag>> = {
  test: new Set([...RUN_FLAGS, 'max-failures', 'exitfirst', 'disposable-target', 'low-auth-env', 'workers', 'max-duration', 'stateful', 'calls']),
  diff: new Set(RUN_FLAGS),
  // Prism validates and forwards; it writes no report and sends nothing of its own, so only these matter.
  proxy: new Set([...INVOCATION_FLAGS, 'upstream', 'port', 'api-root', 'timeout-ms']),
  merge: new Set(REPORT_FLAGS),
};

/** Flags that say how to run the command rather than what it does: never in a config file. */
export const NOT_IN_CONFIG: ReadonlySet<Flag> = new Set(['help', 'version', 'config', 'print-config']);

/** Flags people try for credentials; answered with where credentials go instead. */
const CREDENTIAL_FLAGS = /^--(password|pass|passwd|auth|app-password|application-password|token|secret)(=|$)/;

type Env = Readonly<Record<string, string | undefined>>;

/** The command line read into flags, before any config file is merged in. */
interface CommandLine {
  command?: string;
  rest: string[];
  values: FlagValues;
}

/** The command named on a command line, read leniently (for messages and suggestions before the strict read). */
export function commandOf(argv: readonly string[]): Command | undefined {
  const first = positionalsOf(argv, OPTIONS)[0];
  return first !== undefined && isCommand(first) ? first : undefined;
}

export function readCommandLine(argv: readonly string[]): CommandLine {
  rejectCredentialFlags(argv);
  const known = commandOf(argv);
  const { values, positionals } = tokenize(argv, OPTIONS, {
    expects: expectsOf,
    error: (message, flag) => new UsageError(message, flag),
    suggestFrom: [...(known ? ALLOWED[known] : Object.keys(OPTIONS))],
    synonyms: FLAG_SYNONYMS,
  });
  const [command, ...rest] = positionals;
  return { ...(command !== undefined ? { command } : {}), rest, values };
}

/** Whether the invocation runs a command (and so reads a config file): not help, version or a usage error. */
export function runsCommand(line: CommandLine): line is CommandLine & { command: Command } {
  return line.command !== undefined && line.command !== 'help' && isCommand(line.command) && !line.values['help'] && !line.values['version'];
}

/** Flag values read from the project's config file (config.ts), and which file they came from. */
export interface ConfigValues {
  source: string;
  values: FlagValues;
}

export function parseCli(argv: readonly string[], env: Env, config?: ConfigValues): CliArgs {
  return buildArgs(readCommandLine(argv), env, config);
}

export function buildArgs(line: CommandLine, env: Env, config?: ConfigValues): CliArgs {
  const { command: name, rest } = line;
  if (name === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { command: 'help' };
    if (!isCommand(topic)) throw new UsageError(`help: ${unknownCommand(topic)}`);
    return { command: 'help', topic };
  }
  if (line.values['help']) return name !== undefined && isCommand(name) ? { command: 'help', topic: name } : { command: 'help' };
  if (line.values['version']) return { command: 'version' };

  if (name === undefined) throw new UsageError(`missing command: expected one of ${COMMAND_NAMES}`);
  if (!isCommand(name)) throw new UsageError(unknownCommand(name));
  for (const flag of Object.keys(line.values) as Flag[]) {
    if (!ALLOWED[name].has(flag)) throw new UsageError(notForCommand(flag, name), flag);
  }

  // Flags on the command line override the file's, whole: `--only x` replaces the file's list, not adds to it.
  const sources: Sources = {};
  const values: FlagValues = {};
  for (const [flag, v] of Object.entries(config?.values ?? {})) {
    if (v === undefined || flag in line.values) continue;
    values[flag] = v;
    sources[flag as Flag] = config!.source;
  }
  for (const [flag, v] of Object.entries(line.values)) {
    values[flag] = v;
    sources[flag as Flag] = 'command line';
  }
  let args: CommandArgs;
  try {
    args = commandArgs(name, rest, values as Values, env);
  } catch (e) {
    // A value from the file is named with the file, so the person knows which of the two to change.
    const flag = e instanceof UsageError ? (e.flag as Flag | undefined) : undefined;
    if (flag !== undefined && config !== undefined && sources[flag] === config.source) {
      throw new UsageError(`${config.source}: "${name}" section, "${flag}": ${e instanceof Error ? e.message : String(e)}`, flag);
    }
    throw e;
  }
  if (values['print-config']) return { command: 'print-config', args, sources };
  return args;
}

/** Flag values as the strict read leaves them: strings, booleans and (for repeatable flags) lists. */
type Values = { [F in Flag]?: (typeof OPTIONS)[F] extends { type: 'boolean' } ? boolean : (typeof OPTIONS)[F] extends { multiple: true } ? string[] : string };

function commandArgs(name: Command, rest: readonly string[], values: Values, env: Env): CommandArgs {
  const report: ReportArgs = {
    reportDir: nonEmpty('report-dir', values['report-dir']) ?? DEFAULT_REPORT_DIR,
    formats: parseFormats(values.format),
  };
  const baseline = nonEmpty('baseline', values.baseline);
  if (baseline !== undefined) report.baseline = baseline;

  if (name === 'merge') {
    if (rest.length === 0) {
      throw new UsageError('merge expects one or more JSON reports, e.g. site-contracts merge reports/shard-*.json');
    }
    return { command: 'merge', ...report, inputs: [...rest] };
  }
  if (rest.length > 0) throw new UsageError(`${name} takes no arguments besides flags, got ${JSON.stringify(rest[0])}`);

  const auth = resolveAuth(values['auth-env'], env);
  const shared = {
    ...report,
    apiRoot: parseApiRoot(values['api-root']),
    readOnly: values['read-only'] ?? false,
    only: parseList('only', values.only),
    skip: parseList('skip', values.skip),
    timeoutMs: parseCount('timeout-ms', values['timeout-ms'], 1) ?? DEFAULTS.timeoutMs,
    policy: {
      conventions: parseLevel('conventions', values.conventions) ?? DEFAULT_POLICY.conventions,
      responseShapes: parseLevel('response-shapes', values['response-shapes']) ?? DEFAULT_POLICY.responseShapes,
    },
    ...(auth ? { auth } : {}),
  };

  if (name === 'proxy') {
    if (values.upstream === undefined) throw new UsageError(`proxy needs --upstream: ${EXPECTS.upstream}`, 'upstream');
    return {
      command: 'proxy',
      ...shared,
      upstream: parseHttpUrl('upstream', values.upstream),
      port: parseCount('port', values.port, 0, 65535) ?? DEFAULTS.port,
    };
  }

  if (values['base-url'] === undefined) throw new UsageError(`${name} needs --base-url (-u): ${EXPECTS['base-url']}`, 'base-url');
  const headers = parseHeaders(values.header);
  const authorization = headers.find(isAuthorization);
  if (authorization && auth) {
    throw new UsageError(
      `--header ${authorization.name} and the WordPress credentials from ${auth.envVar} would both go in the one Authorization header; ` +
        `give WordPress's application password with --auth-env alone${auth.envVar === DEFAULT_AUTH_ENV && values['auth-env'] === undefined ? ` (${DEFAULT_AUTH_ENV} is set, so it is used)` : ''}`,
      'header',
    );
  }
  const args: RunArgs = {
    command: name,
    ...shared,
    baseUrl: parseHttpUrl('base-url', values['base-url']),
    headers,
    runs: parseCount('runs', values.runs, 1) ?? DEFAULTS.runs,
    maxRequests: parseCount('max-requests', values['max-requests'], 1) ?? DEFAULTS.maxRequests,
    rps: parseRate(values.rps) ?? DEFAULTS.rps,
  };
  const seed = parseCount('seed', values.seed, 0, 0xffff_ffff);
  if (seed !== undefined) args.seed = seed;
  if (values.shard !== undefined) args.shard = parseShard(values.shard);
  const maxFailures = parseCount('max-failures', values['max-failures'], 1);
  if (values.exitfirst && maxFailures !== undefined && maxFailures !== 1) {
    throw new UsageError(`-x (--exitfirst) is --max-failures 1; it cannot go with --max-failures ${maxFailures}`, 'exitfirst');
  }
  if (values.exitfirst || maxFailures !== undefined) args.maxFailures = maxFailures ?? 1;
  if (values['disposable-target']) {
    if (args.readOnly) throw new UsageError('--disposable-target sends writes the suite cannot undo, and --read-only sends no write at all; give one of them', 'disposable-target');
    if (!args.auth) throw new UsageError('--disposable-target sends writes the suite cannot undo, which need credentials: give them with --auth-env VAR (user:application-password)', 'disposable-target');
    args.disposableTarget = true;
  }
  if (values['low-auth-env'] !== undefined) args.lowAuth = resolveLowAuth(values['low-auth-env'], env, args.auth);
  if (name === 'test') {
    args.workers = parseCount('workers', values.workers, 1, 64) ?? DEFAULTS.workers;
    args.maxDurationMs = parseDuration('max-duration', values['max-duration'] ?? DEFAULTS.maxDuration);
    args.stateful = parseCount('stateful', values.stateful, 0) ?? DEFAULTS.stateful;
    const calls = nonEmpty('calls', values.calls);
    if (calls !== undefined) {
      if (args.only.length || args.skip.length) throw new UsageError('--calls replays the recording\'s calls, each judged by every check that judges an answer; --only and --skip select the checks of a full run: give one or the other', 'calls');
      args.calls = calls;
    }
  }
  return args;
}

/** The options as they go into the report: everything a reader needs to rerun, nothing secret. */
export function reportableOptions(args: CommandArgs): Record<string, unknown> {
  const { auth, lowAuth, headers, ...rest } = args as CommandArgs & { auth?: AuthRef; lowAuth?: AuthRef; headers?: ExtraHeader[] };
  return {
    ...rest,
    ...(auth ? { authEnv: auth.envVar } : {}),
    ...(lowAuth ? { lowAuthEnv: lowAuth.envVar } : {}),
    ...(headers && headers.length > 0 ? { headers: headers.map(shownHeader) } : {}),
  };
}

/** Secrets to redact from anything written or printed; the env fallback covers `merge`, which takes no auth. */
export function secretsOf(args: CliArgs, env: Env): string[] {
  const secrets = new Set<string>();
  const auth = (args as { auth?: AuthRef }).auth;
  if (auth) secrets.add(auth.credentials);
  const lowAuth = (args as { lowAuth?: AuthRef }).lowAuth;
  if (lowAuth) secrets.add(lowAuth.credentials);
  const fallback = env[DEFAULT_AUTH_ENV];
  if (fallback) secrets.add(fallback);
  for (const value of headerSecrets(headersOf(args)).values) secrets.add(value);
  return [...secrets];
}

/** Names of the -H headers whose values are secret: blanked wherever they appear, in requests and answers. */
export function secretHeadersOf(args: CliArgs): string[] {
  return headerSecrets(headersOf(args)).names;
}

function headersOf(args: CliArgs): readonly ExtraHeader[] {
  return (args as { headers?: ExtraHeader[] }).headers ?? [];
}

function isCommand(name: string): name is Command {
  return (COMMANDS as readonly string[]).includes(name);
}

function rejectCredentialFlags(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    const m = CREDENTIAL_FLAGS.exec(arg);
    // The value is deliberately not echoed: it is most likely the secret itself.
    if (m) {
      throw new UsageError(
        `--${m[1]} is not accepted: credentials on the command line leak into shell history and CI logs. ` +
          `Put user:application-password in an environment variable and pass its name with --auth-env VAR ` +
          `(${DEFAULT_AUTH_ENV} is read when set).`,
      );
    }
  }
}

function notForCommand(flag: Flag, command: Command): string {
  if (command === 'proxy' && flag === 'base-url') return '--base-url is not used by proxy: give the server to forward to with --upstream';
  const users = COMMANDS.filter((c) => ALLOWED[c].has(flag));
  return `--${flag} does not apply to ${command} (it is for ${users.join(', ')})`;
}

function expected(flag: Flag, raw: string): UsageError {
  return new UsageError(`--${flag} expects ${EXPECTS[flag] ?? 'a value'}, got ${JSON.stringify(raw)}`, flag);
}

function nonEmpty(flag: Flag, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw expected(flag, raw);
  return raw;
}

function parseCount(flag: Flag, raw: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw expected(flag, raw);
  const n = Number(raw);
  if (n < min || n > max) throw expected(flag, raw);
  return n;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `90s`, `10m`, `1h`, `1h30m`: one or more whole numbers each with its unit, more than zero in all. */
export function parseDuration(flag: Flag, raw: string): number {
  const parts = [...raw.matchAll(/(\d+)(ms|s|m|h)/g)];
  if (!/^(\d+(ms|s|m|h))+$/.test(raw) || parts.length === 0) throw expected(flag, raw);
  const ms = parts.reduce((n, m) => n + Number(m[1]) * UNIT_MS[m[2]!]!, 0);
  if (ms <= 0 || !Number.isSafeInteger(ms)) throw expected(flag, raw);
  return ms;
}

/** 3600000 → `1h`, 90000 → `1m30s`: as --max-duration takes it. */
export function durationLabel(ms: number): string {
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1]] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)}${unit}`);
    rest %= size;
  }
  return parts.join('') || '0s';
}

function parseRate(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(Number(raw))) throw expected('rps', raw);
  return Number(raw);
}

function parseShard(raw: string): ShardInfo {
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || index < 1 || index > total || !Number.isSafeInteger(total)) throw expected('shard', raw);
  return { index, total };
}

function parseLevel(flag: Flag, raw: string | undefined): PolicyLevel | undefined {
  if (raw === undefined) return undefined;
  if (raw !== 'error' && raw !== 'warn') throw expected(flag, raw);
  return raw;
}

/** A report's case id (`check:operationId:variant`): its variant may hold commas, so it is never split. */
const CASE_ID = /^[a-z_]+:[^:,]*:/;

function parseList(flag: Flag, raws: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const raw of raws ?? []) {
    if (flag === 'only' && CASE_ID.test(raw.trim())) {
      out.push(raw.trim());
      continue;
    }
    const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (items.length === 0) throw expected(flag, raw);
    out.push(...items);
  }
  return [...new Set(out)];
}

function parseFormats(raws: readonly string[] | undefined): ReportFormat[] {
  if (raws === undefined) return [...DEFAULT_REPORT_FORMATS];
  const chosen = new Set<string>();
  for (const raw of raws) {
    const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (items.length === 0) throw expected('format', raw);
    for (const item of items) {
      if (!(REPORT_FORMATS as readonly string[]).includes(item)) {
        throw new UsageError(`--format expects ${EXPECTS.format}, got ${JSON.stringify(item)}`, 'format');
      }
      chosen.add(item);
    }
  }
  return REPORT_FORMATS.filter((f) => chosen.has(f));
}

function parseHttpUrl(flag: 'base-url' | 'upstream', raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw expected(flag, raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw expected(flag, raw);
  if (url.username !== '' || url.password !== '') {
    // Not echoed: the URL carries a credential.
    throw new UsageError(`--${flag} must not contain credentials; put user:application-password in an environment variable and pass --auth-env VAR`, flag);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(`--${flag} expects ${EXPECTS[flag]} without query or fragment, got ${JSON.stringify(raw)}`, flag);
  }
  // The REST root is added to the site's address (--api-root, /wp-json by default); given twice, every request
  // would go to /wp-json/wp-json/... and the run would end at "not a WordPress REST root".
  const root = /^(.*?)\/wp-json(\/.*)?$/.exec(url.pathname.replace(/\/+$/, ''));
  if (flag === 'base-url' && root) {
    const site = `${url.origin}${root[1]}`;
    throw new UsageError(
      `--base-url ${raw}: give the site's address without /wp-json: --base-url ${site} (the suite adds the REST root, /wp-json by default; --api-root sets another)`,
      flag,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseApiRoot(raw: string | undefined): string {
  if (raw === undefined) return DEFAULTS.apiRoot;
  if (raw === 'rest_route' || raw === '?rest_route=' || raw === REST_ROUTE_ROOT) return REST_ROUTE_ROOT;
  const trimmed = raw.replace(/\/+$/, '');
  if (!/^\/[A-Za-z0-9._~\-/]+$/.test(trimmed)) throw expected('api-root', raw);
  return trimmed;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * --low-auth-env: a second user, with fewer rights than --auth-env's, for the signed-in half of auth_status. It
 * needs --auth-env (the run's own record, which the low user is asked to change, is made and removed with it), and
 * the same user twice would show nothing.
 */
function resolveLowAuth(flagValue: string, env: Env, auth: AuthRef | undefined): AuthRef {
  const flag = 'low-auth-env';
  if (!ENV_NAME.test(flagValue)) throw new UsageError(`--${flag} expects the NAME of an environment variable (like SITE_CONTRACTS_LOW_AUTH), not its value`, flag);
  const credentials = env[flagValue];
  if (credentials === undefined || credentials === '') {
    throw new UsageError(`--${flag} ${flagValue}: the environment variable ${flagValue} is not set (it should hold user:application-password of a subscriber or author)`, flag);
  }
  const colon = credentials.indexOf(':');
  if (colon <= 0 || colon === credentials.length - 1) {
    throw new UsageError(`--${flag} ${flagValue}: ${flagValue} must hold user:application-password (a user name, a colon, the password)`, flag);
  }
  if (!auth) throw new UsageError(`--${flag} asks a user with fewer rights to change a record the run makes with --auth-env's credentials: give them too (--auth-env VAR)`, flag);
  if (credentials.slice(0, colon) === auth.credentials.slice(0, auth.credentials.indexOf(':'))) {
    throw new UsageError(`--${flag} ${flagValue} names the same user as --auth-env ${auth.envVar}: it must be a user with fewer rights (a subscriber or author)`, flag);
  }
  return { envVar: flagValue, credentials };
}

function resolveAuth(flagValue: string | undefined, env: Env): AuthRef | undefined {
  let envVar: string;
  if (flagValue !== undefined) {
    if (!ENV_NAME.test(flagValue)) {
      // Not echoed: people paste the credential itself here.
      throw new UsageError(`--auth-env expects the NAME of an environment variable (like ${DEFAULT_AUTH_ENV}), not its value`, 'auth-env');
    }
    envVar = flagValue;
  } else if (env[DEFAULT_AUTH_ENV]) {
    envVar = DEFAULT_AUTH_ENV;
  } else {
    return undefined;
  }
  const credentials = env[envVar];
  if (credentials === undefined || credentials === '') {
    throw new UsageError(`--auth-env ${envVar}: the environment variable ${envVar} is not set (it should hold user:application-password)`, 'auth-env');
  }
  const colon = credentials.indexOf(':');
  if (colon <= 0 || colon === credentials.length - 1) {
    throw new UsageError(`--auth-env ${envVar}: ${envVar} must hold user:application-password (a user name, a colon, the password)`, 'auth-env');
  }
  return { envVar, credentials };
}
