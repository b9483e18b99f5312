// The mock's command line, once its flags are read (../cli.ts): load the contract and the store, listen, print the
// banner, log requests, reload on --watch, stop on SIGINT, SIGTERM or SIGHUP, or when the npm that started it is gone.
// Loaded by a dynamic import, after the first line.
import { createMock, DEFAULT_FIXTURES_DIR, listen, loadContract, type Mock, type MockOptions } from './index.ts';
import { allowedHostsOf, bindsEveryAddress, type CliOptions } from './cli-args.ts';
import { withRequestLog } from './adapters/request-log.ts';
import type { Handle } from './adapters/node-http.ts';
import { boundedLog } from './log-writer.ts';
import { clientTimeouts } from './adapters/client-timeouts.ts';
import { watchFixtures } from './fixture-watch.ts';
import type { StopRequests } from './launcher-watch.ts';
import { hostname } from 'node:os';
import { createWriteStream } from 'node:fs';
import { withCallRecord } from './calls-record.ts';
import { FixtureError } from '../../contracts/model/fixture-error.ts';
import { StateFileError } from './store/persist.ts';
import { StateLockError } from './store/state-lock.ts';
import { loadDeviations } from './playback/load.ts';
import type { PlayedDeviations } from './playback/stage.ts';
import type { Contract } from '../../contracts/lib/contract.ts';

function die(message: string): never {
  process.stderr.write(`mock: ${message}\n`);
  process.exit(2);
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

function complain(line: string): void {
  process.stderr.write(`mock: ${line}\n`);
}

/** What the flags ask of createMock(), the same at start and at every --watch reload. */
function mockOptions(opts: CliOptions, deviations?: PlayedDeviations): MockOptions {
  return {
    ...(deviations ? { deviations } : {}),
    allowedHosts: allowedHostsOf(opts, hostname()),
    // Each operation's validator is compiled on its first request (a few ms), not all 204 before the first answer:
    // that took a quarter of the start.
    compileAll: false,
    auth: opts.auth,
    latencyMs: opts.latencyMs,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.fixturesDir ? { fixturesDir: opts.fixturesDir } : {}),
    ...(opts.stateFile ? { stateFile: opts.stateFile } : {}),
    ...(opts.siteUrl ? { siteUrl: opts.siteUrl } : {}),
    cache: opts.cache,
    onError: (err) => complain(err instanceof StateFileError ? `--state-file ${err.message}` : `handler error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    onNote: (message) => complain(`--state-file: ${message}`),
  };
}

/** The --record file, written as calls come; a file that cannot be written is exit 2 at start. */
function recordSink(path: string): { write(line: string): void } {
  const stream = createWriteStream(path, { flags: 'w' });
  stream.on('error', (e) => die(`--record ${path}: cannot be written (${(e as NodeJS.ErrnoException).code ?? e.message})`));
  return { write: (line) => void stream.write(line) };
}

function loadedLine(mock: Mock): string {
  const s = mock.store;
  return `${s.events.size} events, ${s.venues.size} venues, ${s.organizers.size} organizers, ${s.categories.size} categories, ${s.tags.size} tags, ${s.table('contactForms').size} contact forms, ${s.table('users').size} users`;
}

function credentialsLine(mock: Mock): string {
  const c = mock.credentials();
  return c
    ? `mock: --auth: writes need application-password Basic credentials, e.g. user "${c.username}" password "${c.password}"  (curl -u '${c.username}:${c.password}' ...)`
    : 'mock: --auth: no administrator with an application password in the fixtures; every write will answer 401';
}

/** A subscriber's credentials, for site-contracts test --low-auth-env: a signed-in user whom writes refuse with 403. */
function lowCredentialsLine(mock: Mock): string | undefined {
  const c = mock.credentials('subscriber');
  return c ? `mock: --auth: a subscriber, signed in with fewer rights (writes answer 403): user "${c.username}" password "${c.password}"` : undefined;
}

/**
 * Starts the mock the flags describe and serves until `stops` says (SIGINT, SIGTERM, SIGHUP, or the npm that started
 * it ended); `started` is when the command began.
 */
export async function startMock(opts: CliOptions, started: number, stops: StopRequests): Promise<void> {
  let mock: Mock;
  let deviations: PlayedDeviations | undefined;
  let deviationLines: string[] = [];
  let contract: Contract | undefined;
  if (opts.deviations) {
    const loaded = await loadDeviations(opts.deviations, opts.deviationsSkip, loadContract);
    if ('error' in loaded) die(loaded.error);
    ({ played: deviations, lines: deviationLines, contract } = loaded);
  }
  try {
    mock = await createMock({ ...mockOptions(opts, deviations), ...(contract ? { contract } : {}) });
  } catch (err) {
    if (err instanceof StateFileError) die(`--state-file ${err.path}: ${err.reason}`);
    if (err instanceof StateLockError) die(`--state-file ${err.message}`);
    if (err instanceof FixtureError) die(`bad ${err.kind === 'unreadable' ? 'file' : 'fixture or state file'}:\n${err.message}`);
    throw err;
  }

  let server;
  try {
    // respond(): an answer that wrote is sent once the write is in the state file's journal. Through `mock`, not a
    // bound method, so that a --watch reload swaps the mock every later request reaches.
    // Plain text off a terminal (a pipe, docker compose, an IDE task, a CI log), colour on one unless NO_COLOR.
    const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
    const log = boundedLog(process.stdout);
    const respond: Handle = (req) => mock.respond(req);
    const recorded = opts.record ? withCallRecord(respond, recordSink(opts.record), { contract: String((mock.contract.doc['info'] as { version?: unknown } | undefined)?.version ?? ''), identityOf: (req) => mock.identityOf(req) }) : respond;
    server = await listen(
      withRequestLog(recorded, { level: opts.log, color, write: log.line }),
      { port: opts.port, host: opts.host, timeouts: clientTimeouts(opts.clientTimeoutMs), clientOf: (req) => mock.clientOf(req) },
    );
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') die(`--port ${opts.port}: the port is already in use on ${opts.host}`);
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') die(`--host ${opts.host}: cannot listen on that address (${e.code})`);
    if (e.code === 'EACCES') die(`--port ${opts.port}: permission denied`);
    throw err;
  }

  const fixturesDir = opts.fixturesDir ?? DEFAULT_FIXTURES_DIR;
  const source = opts.fixturesDir ? `loaded from ${opts.fixturesDir}` : opts.seed !== undefined ? `generated with seed ${opts.seed}` : `loaded from ${DEFAULT_FIXTURES_DIR}`;
  const lines = [
    `mock: WordPress REST stand-in listening on ${server.url}  (REST root ${server.url}/wp-json/, also /uk/wp-json/ and /?rest_route=/)`,
    `mock: ${source}${opts.stateFile ? `, state file ${opts.stateFile}` : ''}: ${loadedLine(mock)}`,
    `mock: ${mock.contract.operations.length} operations routed, started in ${Math.round(performance.now() - started)} ms${opts.latencyMs ? `, every answer held ${opts.latencyMs} ms` : ''}`,
  ];
  if (opts.siteUrl) lines.push(`mock: links, guid and Location are built on the site URL ${opts.siteUrl}`);
  const names = allowedHostsOf(opts, hostname());
  if (names === 'all') lines.push('mock: --allowed-hosts all: requests for any Host name are answered (no guard against DNS rebinding)');
  else if (bindsEveryAddress(opts.host) || opts.allowedHosts.length > 0) {
    lines.push(`mock: answers requests for localhost, IP addresses and ${names.join(', ')}${opts.siteUrl ? ` and the site URL's host` : ''}; another Host name is refused (403; add it with --allowed-hosts NAME)`);
  }
  if (!opts.cache) lines.push('mock: --no-cache: every answer is computed afresh');
  lines.push(...deviationLines);
  if (opts.record) lines.push(`mock: --record ${opts.record}: one line per REST call (format site-contracts-calls 2, secrets hidden, at most 32 MiB)`);
  const low = opts.auth ? lowCredentialsLine(mock) : undefined;
  if (opts.auth) lines.push(credentialsLine(mock), ...(low ? [low] : []));
  else lines.push('mock: open mode: every request is served with or without credentials (start with --auth to require them for writes)');
  if (opts.watch) lines.push(`mock: --watch: reloading ${fixturesDir} when calendar.json, addons.json or users.json change (what was written since is then gone)`);
  lines.push(`mock: POST ${server.url}/__mock/reset restores the fixtures${opts.auth ? " (with the administrator's credentials)" : ''}; the mock's page: ${server.url}/__mock/`);
  lines.push(
    opts.log === 'quiet'
      ? 'mock: --log quiet: requests are not logged (--log info prints a line per request)'
      : opts.log === 'debug'
        ? 'mock: --log debug: a line per request follows, with its headers (secrets hidden)'
        : 'mock: a line per request follows (--log quiet for none, --log debug for headers too)',
  );
  say(lines.join('\n'));

  // A reload builds a whole new mock from the files (the same createMock() as at start, sharing the compiled
  // contract) and swaps it in only if that succeeded: a broken edit leaves the last good mock serving.
  const watch = opts.watch
    ? watchFixtures(
        fixturesDir,
        async () => {
          const t0 = performance.now();
          try {
            const next = await createMock({ ...mockOptions(opts, deviations), contract: mock.contract });
            const before = opts.auth ? credentialsLine(mock) : '';
            const old = mock;
            mock = next;
            await old.close();
            say(`mock: --watch: reloaded ${fixturesDir} in ${Math.round(performance.now() - t0)} ms: ${loadedLine(mock)}; records written since the last load are gone`);
            if (opts.auth && credentialsLine(mock) !== before) say(credentialsLine(mock));
          } catch (err) {
            if (err instanceof FixtureError) complain(`--watch: kept the last good fixtures; ${err.kind === 'unreadable' ? 'cannot read' : 'bad fixture file'}:\n${err.message}`);
            else complain(`--watch: kept the last good fixtures; reload failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          }
        },
        { onWatchError: (err) => complain(`--watch: ${fixturesDir}: ${err.message}; no longer watching (the last data keeps serving)`) },
      )
    : undefined;

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    watch?.close();
    await server.close();
    await mock.close();
    process.exit(0);
  };
  stops.onStop((why) => {
    if (why === 'launcher' && process.stderr.isTTY) complain('stopping: the npm process that started it has ended');
    void shutdown();
  });
}
