// `npm run mock` flags, read strictly: an unknown flag, a missing value or a value of the wrong shape is a
// UsageError naming the flag and what it expects, in our words (not node's parseArgs text), which the CLI prints
// before exiting with code 2. Short flags are Prism's (`prism mock -p 4010 -h 0.0.0.0`): -p is --port and -h is
// --host, so help is --help only.
import { tokenize } from '../../contracts/lib/argv.ts';
import { siteUrlOf } from './site-url.ts';
import { DEFAULT_CLIENT_TIMEOUT_MS } from './adapters/client-timeouts.ts';

export interface CliOptions {
  port: number;
  host: string;
  stateFile?: string;
  seed?: number;
  auth: boolean;
  latencyMs: number;
  /** How long a client may take with its headers, a body's first part and reading its answer (--client-timeout). */
  clientTimeoutMs: number;
  fixturesDir?: string;
  /** Reload the fixture files when they change (--watch). */
  watch: boolean;
  /** The site URL links are built on; absent: the address the server listens on. */
  siteUrl?: string;
  /** false: no memos, every answer computed (--no-cache). */
  cache: boolean;
  /** Host names the mock answers to besides its own (--allowed-hosts), or 'all'. */
  allowedHosts: string[] | 'all';
  /** A run report (site-contracts test --format json-full) whose deviations the mock plays (--deviations). */
  deviations?: string;
  /** Deviation ids not to play (--deviations-skip). */
  deviationsSkip: string[];
  /** Where to write one line per REST call (--record): the calls a frontend makes, for site-contracts test --calls. */
  record?: string;
  /** One line per request (info, the default), with the request's headers and body size (debug), or none (quiet). */
  log: LogLevel;
  help: boolean;
}

const LOG_LEVELS = ['quiet', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The help, its examples spelled the way the mock was started: `npx site-contracts mock ...` from an installed
 * package, `npm run mock -- ...` in a clone.
 */
export function usage(invokedAs = 'npm run mock --'): string {
  const run = invokedAs === 'site-contracts mock' ? 'npx site-contracts mock' : invokedAs;
  return `Usage: ${run} [options]${run === 'npx site-contracts mock' ? '      (in a clone of the repository: npm run mock -- [options])' : '      (from the installed package: npx site-contracts mock [options])'}

  -p, --port N       port to listen on (default 4010; 0 picks a free one)
  -h, --host HOST    address to bind (default 127.0.0.1); -h is host, as in Prism
  --fixtures DIR     fixture directory with calendar.json, addons.json, users.json (default: the bundled
                     fixtures/); checked at start, exit 2 naming the file and what is wrong
  --watch            reload the fixtures when one of the three files changes; a reload starts over from them
                     (records written since are gone, as after POST /__mock/reset); a broken edit keeps the
                     last good data and prints what is wrong. Not with --state-file
  --state-file PATH  keep the store in PATH across restarts: a write is answered once it is in the journal
                     PATH.journal (fsynced), so an acknowledged write survives a crash or kill -9; the
                     journal is compacted into PATH now and then (temp file, fsync, rename)
  --seed N           seed for everything the mock generates (tokens, secrets), so runs repeat
  --auth             writes need application-password Basic credentials (printed at start)
  --latency MS       hold every answer MS milliseconds (also per request: Prefer: latency=MS)
  --client-timeout MS
                     cut a client that takes longer than MS to send its headers, whose body falls under
                     500 bytes a second after its first MS, or that reads nothing of its answer for MS
                     (default 20000, as Apache's mod_reqtimeout; 408 page, or the connection closed)
  --site-url URL     the site URL links, guid and Location are built on (WordPress's home/siteurl), e.g.
                     http://192.168.1.5:4010 (default: the address a request reached, never its Host header)
  --allowed-hosts NAMES
                     host names the mock also answers to, comma-separated or repeated (.example.org: the
                     domain and its subdomains), or all. Without them a request for a name other than
                     localhost, an IP address, --host or --site-url's host is refused with 403 (a page of
                     another site pointing its name here: DNS rebinding), as Vite's server.allowedHosts does
  --deviations REPORT
                     play a site's deviations: the failures of a run report (site-contracts test
                     --format json-full) become answers of this mock for the requests they match (a route
                     missing, another status or code, a value refused, a field absent or of another type,
                     a filter ignored, a header missing, a 500); listed at start and on the page
  --deviations-skip IDS
                     deviation ids not to play, comma-separated or repeated (switch them on and off while
                     running: POST /__mock/deviation-off/<id>, /__mock/deviation-on/<id>)
  --record FILE      write one line per REST call to FILE (NDJSON, format site-contracts-calls version 2:
                     method, path, who sent it (anonymous, or signed in and the user's role), request body and
                     the answer's status, headers and shape; secrets hidden;
                     at most 32 MiB), for site-contracts test --calls FILE against staging
  --no-cache         compute every answer (no memos of answers, renderings, lists); answers stay the same
  --log LEVEL        info (the default, wherever the output goes: a line per request with method, path,
                     status, time, and for a 4xx the error code and the parameters it names), debug (and
                     the request's headers) or quiet (none). Secrets hidden; colour on a terminal only
                     (NO_COLOR turns it off)
  --help             this text

The mock's page: http://127.0.0.1:4010/__mock/ (routes, recent requests, what the store holds, reset).

Examples:
  ${run} -p 8080 --auth --latency 300
  ${run} -h 0.0.0.0 -p 4010 --site-url http://192.168.1.5:4010
  ${run} --state-file .mock-state.json --seed 7 --log debug
`;
}

export const USAGE = usage();

/** What each flag that takes a value expects, for messages that say so. */
const EXPECTS: Readonly<Record<string, string>> = {
  port: 'a port number 0-65535',
  host: 'a host name or address',
  fixtures: 'a directory path',
  'state-file': 'a file path',
  seed: 'an integer 0-4294967295',
  latency: 'milliseconds 0-600000',
  'client-timeout': 'milliseconds 100-3600000',
  'site-url': 'a URL such as http://127.0.0.1:4010',
  log: `one of ${LOG_LEVELS.join(', ')}`,
  'allowed-hosts': 'host names such as mock,events.test or .example.org, or all',
  deviations: 'a JSON run report (site-contracts test --format json-full)',
  'deviations-skip': 'deviation ids, comma-separated',
  record: 'a file path',
};

function integer(flag: string, raw: string, min: number, max: number, what: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--${flag} expects ${what}, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`--${flag} expects ${what}, got ${raw}`);
  return n;
}

function nonEmpty(flag: string, raw: string | undefined, what: string): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw new UsageError(`--${flag} expects ${what}, got an empty string`);
  return raw;
}

/** A name as a Host header carries it (letters, digits, dots, hyphens; `.example.org` for a domain), or an address. */
const HOST_NAME = /^\.?[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$|^\[?[0-9a-f:.]+\]?$/i;

function allowedHosts(raws: readonly string[] | undefined): string[] | 'all' {
  const names: string[] = [];
  for (const raw of raws ?? []) {
    const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (items.length === 0) throw new UsageError(`--allowed-hosts expects ${EXPECTS['allowed-hosts']}, got ${JSON.stringify(raw)}`);
    for (const item of items) {
      if (item === 'all') return 'all';
      if (!HOST_NAME.test(item)) throw new UsageError(`--allowed-hosts expects ${EXPECTS['allowed-hosts']}, got ${JSON.stringify(item)} (a name without scheme, port or path)`);
      names.push(item.toLowerCase());
    }
  }
  return [...new Set(names)];
}

/** Bound to every address (--host 0.0.0.0 or ::): reached by the machine's own name too. */
export function bindsEveryAddress(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/**
 * The names the mock answers to besides localhost and IP addresses (core/front-door.ts): --allowed-hosts, --host
 * when it names one address, and the machine's name (`machineName`, os.hostname()) when it binds every address.
 */
export function allowedHostsOf(opts: Pick<CliOptions, 'allowedHosts' | 'host'>, machineName: string): string[] | 'all' {
  if (opts.allowedHosts === 'all') return 'all';
  const own = bindsEveryAddress(opts.host) ? machineName : opts.host;
  // An address needs no listing: every IP address is one of the mock's names.
  const isAddress = /^[\d.]+$/.test(own) || own.includes(':');
  return [...new Set([...opts.allowedHosts, ...(isAddress ? [] : [own.toLowerCase()])])];
}

export function parseCliArgs(argv: readonly string[]): CliOptions {
  const { values, positionals } = tokenize(argv, {
    port: { type: 'string', short: 'p' },
    host: { type: 'string', short: 'h' },
    fixtures: { type: 'string' },
    'state-file': { type: 'string' },
    seed: { type: 'string' },
    auth: { type: 'boolean' },
    latency: { type: 'string' },
    'client-timeout': { type: 'string' },
    'site-url': { type: 'string' },
    'no-cache': { type: 'boolean' },
    watch: { type: 'boolean' },
    log: { type: 'string' },
    'allowed-hosts': { type: 'string', multiple: true },
    deviations: { type: 'string' },
    'deviations-skip': { type: 'string', multiple: true },
    record: { type: 'string' },
    help: { type: 'boolean' },
  }, {
    expects: (flag) => EXPECTS[flag] ?? 'a value',
    error: (message) => new UsageError(message),
    // People who know other tools type -h for help; here it is Prism's host, and the message says so.
    shortNotes: { h: 'as in Prism; help is --help' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (flags start with --)`);

  const str = (k: string) => values[k] as string | undefined;
  const out: CliOptions = {
    port: str('port') === undefined ? 4010 : integer('port', str('port')!, 0, 65535, 'a port number 0-65535'),
    host: nonEmpty('host', str('host'), 'a host name or address') ?? '127.0.0.1',
    auth: values.auth === true,
    latencyMs: str('latency') === undefined ? 0 : integer('latency', str('latency')!, 0, 600_000, 'milliseconds 0-600000'),
    clientTimeoutMs: str('client-timeout') === undefined ? DEFAULT_CLIENT_TIMEOUT_MS : integer('client-timeout', str('client-timeout')!, 100, 3_600_000, 'milliseconds 100-3600000'),
    cache: values['no-cache'] !== true,
    watch: values.watch === true,
    log: 'info',
    allowedHosts: allowedHosts(values['allowed-hosts'] as string[] | undefined),
    deviationsSkip: ((values['deviations-skip'] as string[] | undefined) ?? []).flatMap((raw) => raw.split(',').map((s) => s.trim()).filter((s) => s !== '')),
    help: values.help === true,
  };
  const deviations = nonEmpty('deviations', str('deviations'), EXPECTS['deviations']!);
  if (deviations) out.deviations = deviations;
  const record = nonEmpty('record', str('record'), 'a file path');
  if (record) out.record = record;
  if (out.deviationsSkip.length > 0 && !deviations) throw new UsageError('--deviations-skip needs --deviations REPORT: it names deviations of that report');
  const siteUrl = nonEmpty('site-url', str('site-url'), 'a URL such as http://127.0.0.1:4010');
  if (siteUrl) {
    try {
      out.siteUrl = siteUrlOf(siteUrl);
    } catch {
      throw new UsageError(`--site-url expects http(s)://host[:port] with no path, query or credentials, got ${JSON.stringify(siteUrl)}`);
    }
  }
  const log = str('log');
  if (log !== undefined) {
    if (!(LOG_LEVELS as readonly string[]).includes(log)) throw new UsageError(`--log expects ${EXPECTS['log']}, got ${JSON.stringify(log)}`);
    out.log = log as LogLevel;
  }
  const stateFile = nonEmpty('state-file', str('state-file'), 'a file path');
  if (stateFile) out.stateFile = stateFile;
  const fixtures = nonEmpty('fixtures', str('fixtures'), 'a directory path');
  if (fixtures) out.fixturesDir = fixtures;
  if (str('seed') !== undefined) out.seed = integer('seed', str('seed')!, 0, 2 ** 32 - 1, 'an integer 0-4294967295');
  if (out.watch && out.stateFile) {
    throw new UsageError('--watch and --state-file do not go together: a reload starts over from the fixtures, while the state file keeps what was written');
  }
  if (out.watch && out.seed !== undefined && !out.fixturesDir) {
    throw new UsageError('--watch needs fixture files to watch: with --seed and no --fixtures the fixtures are generated (add --fixtures DIR)');
  }
  return out;
}
