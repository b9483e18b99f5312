// `npm run mock` flags, read strictly: an unknown flag, a missing value or a value of the wrong shape is a
// UsageError naming the flag and what it expects, which the CLI prints before exiting with code 2.
import { parseArgs } from 'node:util';
import { siteUrlOf } from './site-url.ts';

export interface CliOptions {
  port: number;
  host: string;
  stateFile?: string;
  seed?: number;
  auth: boolean;
  latencyMs: number;
  fixturesDir?: string;
  /** Reload the fixture files when they change (--watch). */
  watch: boolean;
  /** The site URL links are built on; absent: the address the server listens on. */
  siteUrl?: string;
  /** false: no memos, every answer computed (--no-cache). */
  cache: boolean;
  help: boolean;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: site-contracts mock [options]      (in a clone of the repository: npm run mock -- [options])

  --port N           port to listen on (default 4010; 0 picks a free one)
  --host HOST        address to bind (default 127.0.0.1)
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
  --site-url URL     the site URL links, guid and Location are built on (WordPress's home/siteurl), e.g.
                     http://192.168.1.5:4010 (default: the address a request reached, never its Host header)
  --no-cache         compute every answer (no memos of answers, renderings, lists); answers stay the same
  --help             this text
`;

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

export function parseCliArgs(argv: readonly string[]): CliOptions {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        fixtures: { type: 'string' },
        'state-file': { type: 'string' },
        seed: { type: 'string' },
        auth: { type: 'boolean' },
        latency: { type: 'string' },
        'site-url': { type: 'string' },
        'no-cache': { type: 'boolean' },
        watch: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    // node's messages already name the flag ("Unknown option '--prot'", "Option '--port <value>' argument missing").
    throw new UsageError((err as Error).message);
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (flags start with --)`);

  const str = (k: string) => values[k] as string | undefined;
  const out: CliOptions = {
    port: str('port') === undefined ? 4010 : integer('port', str('port')!, 0, 65535, 'a port number 0-65535'),
    host: nonEmpty('host', str('host'), 'a host name or address') ?? '127.0.0.1',
    auth: values.auth === true,
    latencyMs: str('latency') === undefined ? 0 : integer('latency', str('latency')!, 0, 600_000, 'milliseconds 0-600000'),
    cache: values['no-cache'] !== true,
    watch: values.watch === true,
    help: values.help === true,
  };
  const siteUrl = nonEmpty('site-url', str('site-url'), 'a URL such as http://127.0.0.1:4010');
  if (siteUrl) {
    try {
      out.siteUrl = siteUrlOf(siteUrl);
    } catch {
      throw new UsageError(`--site-url expects http(s)://host[:port] with no path, query or credentials, got ${JSON.stringify(siteUrl)}`);
    }
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
