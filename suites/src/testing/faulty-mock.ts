// For tests: the mock behind a fault, and the suite's whole command run against it, as faults.test.ts does. A fault
// wraps the mock's public request handler, so the mock stays as it is everywhere the fault does not reach; a test
// compares the run against the unbroken mock with the run against the broken one. The suites never import the mock
// (.ci/layers): a test passes the mock's createMock and listen in, and this module knows them by shape only.
// harnessForFile() is the one set-up of a test file's harness (made before its tests, closed after them).

import { parseRunJson } from '../report/json.ts';
import { basicAuthHeader } from '../http/client.ts';
import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadContractFile, type Contract } from '../../../contracts/lib/loader.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';
import { main, type MainDeps } from '../../cli.ts';
import { defaultCommands } from '../cli/commands/index.ts';
import { makeTestCommand, processTestDeps } from '../cli/commands/test.ts';
import type { CaseResult, RunResult } from '../report/model.ts';
import { undeclaredSeverities } from '../checks/registry.ts';

/** The mock's request and answer, as far as a fault reads and writes them (mock/src/core/types.ts). */
export interface MockRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string | undefined>>;
  body?: string | Uint8Array;
}

export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  bodyBytes?: Uint8Array;
}

interface Mock {
  handleNow(req: MockRequest): MockResponse;
  /** An administrator's by default; `'subscriber'`: a user with fewer rights (for --low-auth-env). */
  credentials(role?: string): { username: string; password: string } | undefined;
  close(): Promise<void>;
}

/** The mock's public entry, passed in by the test; M is the mock's own type, so a test keeps what else it offers. */
interface MockApi<M extends Mock = Mock> {
  createMock(options: { contract: Contract; auth: boolean }): Promise<M>;
  listen(handle: (req: MockRequest) => MockResponse, opts: { port: number; host: string }): Promise<Listening>;
}

interface Listening {
  url: string;
  close(): Promise<void>;
}

export type Next = (req: MockRequest) => MockResponse;
export type Fault = (req: MockRequest, next: Next) => MockResponse;

interface FaultyRun {
  run: RunResult;
  stdout: string;
  stderr: string;
  exitCode: number;
}

/**
 * Route and query of a request in every root style WordPress serves, language root (`/uk/wp-json`) and index.php's
 * (`/index.php/wp-json`) included, so that a fault on a route reaches it in every form the suite sends. WordPress
 * matches routes in any case (`@^route$@i`); the suite's other-case form capitalises each segment's first letter
 * (`/Cal/V1/Events`), which is undone here (every documented segment starts in lower case: `/seo/v1/updateMeta`).
 */
export function parse(req: MockRequest): { route: string; query: URLSearchParams } {
  const url = new URL(req.url, 'http://x');
  const restRoute = url.searchParams.get('rest_route');
  const route = restRoute ?? url.pathname.replace(/^(\/index\.php)?(\/[a-z]{2})?\/wp-json/, '');
  return { route: route.replace(/\/+$/, '').replace(/\/([A-Z])/g, (_m, c: string) => `/${c.toLowerCase()}`) || '/', query: url.searchParams };
}

export function bodyText(req: MockRequest): string {
  return req.body === undefined ? '' : typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
}

export function json(res: MockResponse): Record<string, unknown> {
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** The answer with another body; the cached bytes beside `body` are dropped, or the adapter would send those. */
export function withJson(res: MockResponse, body: unknown): MockResponse {
  const { bodyBytes: _stale, ...rest } = res;
  // Spelled as WordPress writes it (\/ and \uXXXX, pretty-printed where it was: ?_pretty), so that a fault changes
  // what it means to and no more (wire_bytes, pretty).
  return { ...rest, body: wpJsonEncode(body, { pretty: /^[[{]\n/.test(res.body) }) };
}

export function withHeader(res: MockResponse, name: string, value: string | undefined): MockResponse {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.toLowerCase() !== name.toLowerCase()));
  return { ...res, headers: value === undefined ? headers : { ...headers, [name]: value } };
}

export function wpError(status: number, code: string, data: Record<string, unknown> = {}): MockResponse {
  return { status, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: wpJsonEncode({ code, message: code, data: { status, ...data } }) };
}

/** The headers WordPress's serve_request() sends on every REST answer, whatever route served it (wire_headers). */
const FIXED_HEADERS = ['x-robots-tag', 'x-content-type-options', 'link'];

/**
 * An answer a fault made up (wpError(), a literal) carries none of FIXED_HEADERS: it gets them as WordPress would send
 * them, so that the fault breaks what it means to and not wire_headers besides. An answer that keeps any of them (the
 * mock's, edited) is left as the fault made it: a fault on those headers removes or changes one of them.
 */
function withFixedHeaders(req: MockRequest, res: MockResponse, url: string): MockResponse {
  const names = Object.keys(res.headers).map((k) => k.toLowerCase());
  if (FIXED_HEADERS.some((h) => names.includes(h))) return res;
  // To a signed-in user, wp_get_nocache_headers() too.
  const noCache: Record<string, string> = anonymous(req) ? {} : { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };
  return { ...res, headers: { ...res.headers, 'X-Robots-Tag': 'noindex', 'X-Content-Type-Options': 'nosniff', Link: `<${url}/wp-json/>; rel="https://api.w.org/"`, ...noCache } };
}

/** The Authorization header of a user's credentials (`h.mock.credentials(role)!`), as the suite sends it. */
export function basicAuth(c: { username: string; password: string }): string {
  return basicAuthHeader(`${c.username}:${c.password}`);
}

export function anonymous(req: MockRequest): boolean {
  return !Object.keys(req.headers).some((h) => h.toLowerCase() === 'authorization');
}

/** How one run differs from the harness's usual one. */
export interface RunOptions {
  /** --seed; 11 unless given. */
  seed?: number;
  /** Without the mock's credentials, although it has them. */
  anonymous?: boolean;
  /** Sees every request the suite sends, before the fault or the mock does. */
  seen?: (req: MockRequest) => void;
  /** More environment variables for the run (a credential a flag names). */
  env?: Readonly<Record<string, string>>;
}

interface Harness<M extends Mock = Mock> {
  mock: M;
  /** The suite's `test` command against the mock behind `fault`; `args` come after the harness's own. */
  run(fault: Fault | undefined, only: string, args?: readonly string[], options?: RunOptions): Promise<FaultyRun>;
  /**
   * The ids of the cases that fail against the unbroken mock for this selection, run once per harness and selection:
   * the same seed against the same mock gives the same cases (each run removes what it created), and the fault
   * files compare dozens of faults with the same few selections.
   */
  cleanFailures(only: string, args?: readonly string[], options?: Omit<RunOptions, 'seen'>): Promise<Set<string>>;
  /** The mock behind `fault` (none: the unbroken mock) on 127.0.0.1, for a test that drives the CLI itself: its URL. Open until close(). */
  serve(fault?: Fault): Promise<string>;
  /** Closes what serve() opened, then the mock. */
  close(): Promise<void>;
}

export async function harness<M extends Mock>(api: MockApi<M>, contract: Contract, mockOptions: { auth?: boolean } = {}): Promise<Harness<M>> {
  const mock = await api.createMock({ contract, auth: mockOptions.auth ?? true });
  const c = mockOptions.auth === false ? undefined : mock.credentials();
  const auth = c ? `${c.username}:${c.password}` : undefined;
  // A subscriber's, in MOCK_LOW_AUTH: a test that wants the signed-in half of auth_status passes --low-auth-env MOCK_LOW_AUTH.
  const lc = c ? mock.credentials('subscriber') : undefined;
  const lowAuth = lc ? `${lc.username}:${lc.password}` : undefined;
  const open = new Set<Listening>();
  const listen = async (fault: Fault | undefined, seen?: (req: MockRequest) => void): Promise<Listening> => {
    let url = '';
    const server = await api.listen((req: MockRequest) => {
      seen?.(req);
      const res = fault ? fault(req, mock.handleNow) : mock.handleNow(req);
      const { bodyBytes: _stale, ...rest } = res;
      return fault ? withFixedHeaders(req, rest, url) : res;
    }, { port: 0, host: '127.0.0.1' });
    url = server.url;
    open.add(server);
    return { url: server.url, close: () => (open.delete(server), server.close()) };
  };
  const run = async (fault: Fault | undefined, only: string, args: readonly string[] = [], options: RunOptions = {}): Promise<FaultyRun> => {
    const server = await listen(fault, options.seen);
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-faulty-'));
    let stdout = '';
    let stderr = '';
    const deps: MainDeps = {
      commands: { ...defaultCommands, test: makeTestCommand({ ...processTestDeps, loadContract: () => contract, signals: undefined }) },
      tool: { name: 'site-contracts', version: '0.0.0-test' },
      env: { ...(auth ? { MOCK_AUTH: auth } : {}), ...(lowAuth ? { MOCK_LOW_AUTH: lowAuth } : {}), ...options.env },
      stdout: { write: (s: string) => ((stdout += s), true) },
      stderr: { write: (s: string) => ((stderr += s), true) },
      now: () => new Date(),
      readFile: (p) => nodeFs.readFile(p, 'utf8'),
      fs: nodeFs,
    };
    try {
      const authArgs = auth && !options.anonymous ? ['--auth-env', 'MOCK_AUTH'] : [];
      const exitCode = await main(['test', '--base-url', server.url, ...authArgs, '--seed', String(options.seed ?? 11), '--runs', '1', '--only', only, '--report-dir', dir, '--format', 'json-full', ...args], deps);
      // json-full: tests read the messages of passed cases, which the summarised json leaves out.
      const text = await readFile(join(dir, 'site-contracts.full.json'), 'utf8').catch(() => {
        throw new Error(`the run (exit ${exitCode}) wrote no report: ${stderr}`);
      });
      const run = parseRunJson(text, 'site-contracts.full.json');
      // Every run of every fault test holds the registry to its word: a case's severity is one its row declares.
      const undeclared = undeclaredSeverities(run.cases);
      if (undeclared.length) throw new Error(`severities checks/registry.ts does not declare for these checks: ${undeclared.slice(0, 5).join('; ')}`);
      return { run, stdout, stderr, exitCode };
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  };
  const serve = async (fault?: Fault): Promise<string> => (await listen(fault)).url;
  const close = async (): Promise<void> => {
    await Promise.all([...open].map((s) => s.close()));
    await mock.close();
  };
  const clean = new Map<string, Promise<Set<string>>>();
  const cleanFailures = (only: string, args: readonly string[] = [], options: Omit<RunOptions, 'seen'> = {}): Promise<Set<string>> => {
    const key = JSON.stringify([only, args, options.seed, options.anonymous, options.env]);
    let failures = clean.get(key);
    if (!failures) clean.set(key, (failures = run(undefined, only, args, options).then((r) => new Set(r.run.cases.filter(failing).map((c) => c.id)))));
    return failures;
  };
  return { mock, run, cleanFailures, serve, close };
}

/**
 * The harness of a test file (or of the describe it is called in): made in beforeAll, closed in afterAll. What it
 * returns hands each call to that harness, so it is read inside tests only. `contract`: the one the file has loaded
 * already (else it loads the contract file); `auth`: as harness()'s.
 */
export function harnessForFile<M extends Mock>(api: MockApi<M>, options: { contract?: Contract; auth?: boolean } = {}): Harness<M> {
  let made: Harness<M> | undefined;
  const the = (): Harness<M> => {
    if (!made) throw new Error('the harness is made in beforeAll: use it inside a test');
    return made;
  };
  beforeAll(async () => {
    made = await harness(api, options.contract ?? loadContractFile(), options);
  });
  afterAll(async () => {
    await made?.close();
  });
  return {
    get mock() {
      return the().mock;
    },
    run: (...args) => the().run(...args),
    cleanFailures: (...args) => the().cleanFailures(...args),
    serve: (fault) => the().serve(fault),
    close: () => the().close(),
  };
}

export const failing = (c: CaseResult): boolean => c.status === 'failed' || c.status === 'errored';

/** The cases that fail with the fault and did not fail against the unbroken mock. */
export async function failedBy(h: Harness, fault: Fault, only: string, args: readonly string[] = [], options: RunOptions = {}): Promise<CaseResult[]> {
  const { seen: _seen, ...rest } = options;
  const clean = options.seen ? new Set((await h.run(undefined, only, args, options)).run.cases.filter(failing).map((c) => c.id)) : await h.cleanFailures(only, args, rest);
  return (await h.run(fault, only, args, options)).run.cases.filter((c) => failing(c) && !clean.has(c.id));
}

/** The answer as the node adapter must send it: without the cached bytes it would send instead of a rewritten body. */
export function plain(res: MockResponse): MockResponse {
  const { bodyBytes: _stale, ...rest } = res;
  return rest;
}

/** The request with its query edited, as the mock then sees it. */
export function withQuery(req: MockRequest, edit: (q: URLSearchParams) => void): MockRequest {
  const url = new URL(req.url, 'http://x');
  edit(url.searchParams);
  return { ...req, url: url.pathname + (url.search ? `?${url.searchParams.toString()}` : '') };
}

const contentTypeOf = (req: MockRequest): string => Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';

/** The body's fields as the suite sent them (a JSON object, or form fields as strings); undefined for any other body. */
export function bodyFields(req: MockRequest): Record<string, unknown> | undefined {
  const text = bodyText(req);
  if (contentTypeOf(req).startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  if (!contentTypeOf(req).startsWith('application/json')) return undefined;
  try {
    const body = JSON.parse(text) as unknown;
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The request with its body's fields edited, in the form it was sent (JSON, or form fields); any other body as it is. */
export function withBodyFields(req: MockRequest, edit: (fields: Record<string, unknown>) => Record<string, unknown>): MockRequest {
  const fields = bodyFields(req);
  if (!fields) return req;
  const edited = edit({ ...fields });
  if (!contentTypeOf(req).startsWith('application/x-www-form-urlencoded')) return { ...req, body: JSON.stringify(edited) };
  return { ...req, body: new URLSearchParams(Object.entries(edited).map(([k, v]) => [k, String(v)])).toString() };
}
