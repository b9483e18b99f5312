// `npm run mock`: the mock on http://127.0.0.1:4010 (see --help). Exit code 2 for bad flags and bad fixture or
// state files, with a message naming the flag or file and what was expected.
import { createMock, DEFAULT_FIXTURES_DIR, listen } from './src/index.ts';
import { parseCliArgs, UsageError, USAGE } from './src/cli-args.ts';
import { FixtureError } from './src/store/fixture-error.ts';
import { StateFileError } from './src/store/persist.ts';

function die(message: string): never {
  process.stderr.write(`mock: ${message}\n`);
  process.exit(2);
}

let opts;
try {
  opts = parseCliArgs(process.argv.slice(2));
} catch (err) {
  // One line that says what is wrong and where the flags are listed, as site-contracts does.
  if (err instanceof UsageError) die(`${err.message}; see npm run mock -- --help`);
  throw err;
}
if (opts.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const started = performance.now();
let mock;
try {
  mock = await createMock({
    compileAll: true,
    auth: opts.auth,
    latencyMs: opts.latencyMs,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.fixturesDir ? { fixturesDir: opts.fixturesDir } : {}),
    ...(opts.stateFile ? { stateFile: opts.stateFile } : {}),
    ...(opts.siteUrl ? { siteUrl: opts.siteUrl } : {}),
    cache: opts.cache,
    onError: (err) => process.stderr.write(`mock: ${err instanceof StateFileError ? `--state-file ${err.message}` : `handler error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`}
`),
    onNote: (message) => process.stderr.write(`mock: --state-file: ${message}
`),
  });
} catch (err) {
  if (err instanceof StateFileError) die(`--state-file ${err.path}: ${err.reason}`);
  if (err instanceof FixtureError) die(`bad ${err.kind === 'unreadable' ? 'file' : 'fixture or state file'}:\n${err.message}`);
  throw err;
}

let server;
try {
  // respond(): an answer that wrote is sent once the write is in the state file's journal.
  server = await listen(mock.respond, { port: opts.port, host: opts.host });
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') die(`--port ${opts.port}: the port is already in use on ${opts.host}`);
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') die(`--host ${opts.host}: cannot listen on that address (${e.code})`);
  if (e.code === 'EACCES') die(`--port ${opts.port}: permission denied`);
  throw err;
}

const s = mock.store;
const source = opts.fixturesDir ? `loaded from ${opts.fixturesDir}` : opts.seed !== undefined ? `generated with seed ${opts.seed}` : `loaded from ${DEFAULT_FIXTURES_DIR}`;
const lines = [
  `mock: WordPress REST stand-in listening on ${server.url}  (REST root ${server.url}/wp-json/, also /uk/wp-json/ and /?rest_route=/)`,
  `mock: ${source}${opts.stateFile ? `, state file ${opts.stateFile}` : ''}: ${s.events.size} events, ${s.venues.size} venues, ${s.organizers.size} organizers, ${s.categories.size} categories, ${s.tags.size} tags, ${s.table('contactForms').size} contact forms, ${s.table('users').size} users`,
  `mock: ${mock.contract.operations.length} operations routed, started in ${Math.round(performance.now() - started)} ms${opts.latencyMs ? `, every answer held ${opts.latencyMs} ms` : ''}`,];
if (opts.siteUrl) lines.push(`mock: links, guid and Location are built on the site URL ${opts.siteUrl}`);
if (!opts.cache) lines.push('mock: --no-cache: every answer is computed afresh');
if (opts.auth) {
  const c = mock.credentials();
  lines.push(
    c
      ? `mock: --auth: writes need application-password Basic credentials, e.g. user "${c.username}" password "${c.password}"  (curl -u '${c.username}:${c.password}' ...)`
      : 'mock: --auth: no administrator with an application password in the fixtures; every write will answer 401',
  );
} else lines.push('mock: open mode: every request is served with or without credentials (start with --auth to require them for writes)');
lines.push(`mock: POST ${server.url}/__mock/reset restores the fixtures${opts.auth ? " (with the administrator's credentials)" : ''}`);
process.stdout.write(lines.join('\n') + '\n');

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await server.close();
  await mock.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
