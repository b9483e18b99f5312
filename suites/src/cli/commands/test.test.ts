// The test command end to end, against the mock (through its public API, never from suites code) and
// against small servers that misbehave as a target can: unreachable, stalled, interrupted.

import { EventEmitter } from 'node:events';
import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { reportFs } from '../../report/make-directory.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import { createMock, listen, type Listening, type Mock, type MockRequest, type MockResponse } from '../../../../mock/src/index.ts';
import { main, type MainDeps } from '../../../cli.ts';
import type { RunResult } from '../../report/model.ts';
import { startServer, sendJson } from '../../testing/server.ts';
import { defaultCommands } from './index.ts';
import { makeTestCommand, processTestDeps, type SignalSource, type TestDeps } from './test.ts';
import { parseRunJson } from '../../report/json.ts';
import { DEFAULTS } from '../args.ts';
import { CHECKS, SELECTABLE_CHECKS, undeclaredSeverities, type Need } from '../../checks/registry.ts';

const contract = loadContractFile();

/** Whether the registry says every case of `check` needs `need`. */
function needsAlways(check: string, need: Need): boolean {
  return CHECKS.find((c) => c.name === check)?.needs.some((n) => n.need === need && n.every) ?? false;
}
/**
 * Requests a target may receive after it goes silent mid-run: what is in flight (--workers, default 6) plus the
 * cleanup's tries until the breaker trips. Measured: 7 with 4 workers, 9 with 6.
 */
const STALL_REQUEST_BOUND = DEFAULTS.workers + 4;

interface Captured {
  code: number;
  out: string;
  err: string;
  run: RunResult;
}

class FakeSignals extends EventEmitter implements SignalSource {
  override once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): this {
    return super.once(signal, listener);
  }
  override off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): this {
    return super.off(signal, listener);
  }
}

async function runCli(
  argv: string[],
  env: Record<string, string> = {},
  signals: SignalSource = new FakeSignals(),
  formats = ['json'],
  testDeps: Partial<TestDeps> = {},
): Promise<Captured & { reports: Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'site-contracts-test-'));
  const out: string[] = [];
  const err: string[] = [];
  const deps: MainDeps = {
    commands: { ...defaultCommands, test: makeTestCommand({ ...processTestDeps, loadContract: () => contract, signals, ...testDeps }) },
    tool: { name: 'site-contracts', version: '0.0.0-test' },
    env,
    stdout: { write: (s: string) => void out.push(s) },
    stderr: { write: (s: string) => void err.push(s) },
    now: () => new Date(),
    readFile: (p) => nodeFs.readFile(p, 'utf8'),
    fs: reportFs,
  };
  try {
    // A --report-dir of the test's own comes first, so that the harness's does not override it.
    const code = await main([...argv, ...(argv.includes('--report-dir') ? [] : ['--report-dir', dir]), '--format', formats.join(',')], deps);
    let run = {} as RunResult;
    const base = argv.includes('--shard') ? `shard-${argv[argv.indexOf('--shard') + 1]!.replace('/', '-of-')}` : 'site-contracts';
    try {
      run = parseRunJson(await readFile(join(dir, `${base}.json`), 'utf8'), `${base}.json`);
    } catch {
      // no report: the command stopped before writing one
    }
    const reports: Record<string, string> = {};
    for (const f of await readdir(dir)) reports[f] = await readFile(join(dir, f), 'utf8');
    return { code, out: out.join(''), err: err.join(''), run, reports };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function failing(run: RunResult): string[] {
  return run.cases.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => c.id);
}

/** Everything but the id counters: WordPress never hands out an id twice either. */
function records(mock: Mock): string {
  const { sequences: _s, ...rest } = mock.snapshot() as unknown as Record<string, unknown>;
  return JSON.stringify(rest);
}

describe('test against the mock', () => {
  let mock: Mock;
  let server: Listening;
  let auth: string;
  const methods: string[] = [];

  beforeAll(async () => {
    mock = await createMock({ contract, auth: true });
    const c = mock.credentials()!;
    auth = `${c.username}:${c.password}`;
    server = await listen(
      (req: MockRequest): MockResponse => {
        methods.push(req.method);
        return mock.handleNow(req);
      },
      { port: 0, host: '127.0.0.1' },
    );
  });
  afterAll(async () => {
    await server.close();
    await mock.close();
  });

  it('passes the whole suite with credentials, and leaves the store as it found it', async () => {
    const before = records(mock);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const r = await runCli(['test', '--base-url', server.url, '--auth-env', 'MOCK_AUTH', '--seed', '1'], { MOCK_AUTH: auth });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    // The mock and the suite both run in this process, so its CPU time is what the run costs; on a machine of
    // its own that is its wall clock too, while on a shared one the wall clock also counts other people's work.
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    expect(failing(r.run).map((id) => `${id}: ${r.run.cases.find((c) => c.id === id)?.message}`)).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^site-contracts: PASSED: /m);
    // What is left warns where the documents and WordPress part ways, saying why: the mock, like WordPress's
    // posts controller, refuses a cal/v1 event with no title, content or excerpt (empty_content), although the
    // documents mark no field required, and like its terms, a category or tag named "" (empty_term_name).
    // Like WordPress's oEmbed controller, it cleans the proxy's maxwidth and maxheight with absint() instead of refusing a
    // value that is not an integer (x-wire-enforced: false).
    const warned = r.run.cases.filter((c) => c.status === 'warned');
    const absint = ['maxwidth', 'maxheight'].flatMap((p) => [
      ...[1, 2, 3].map((n) => `negative_rejection:getOembed10Proxy:query.${p} type#${n}`),
      // the coverage phase's type edges: a fraction and trailing letters for an integer
      ...['fraction', 'trailing-letters'].map((t) => `negative_rejection:getOembed10Proxy:edge:query.${p} type ${t}`),
    ]);
    const terms = ['postCalEventsV1Categories', 'postCalEventsV1CategoriesById', 'putCalEventsV1CategoriesById', 'patchCalEventsV1CategoriesById', 'postCalEventsV1Tags', 'postCalEventsV1TagsById', 'putCalEventsV1TagsById', 'patchCalEventsV1TagsById'];
    expect(warned.map((c) => c.id).sort()).toEqual(
      [...absint, 'positive_acceptance:postCalV1Events:edge:minimal', 'positive_acceptance:postCalV1Events:edge:body.title empty', 'positive_acceptance:postCalEventsV1Events:edge:body.title empty', ...terms.map((t) => `positive_acceptance:${t}:edge:body.name empty`)].sort(),
    );
    for (const c of warned) {
      expect(c.severity, c.id).toBe('assumed');
      expect(c.message, c.id).toMatch(c.id.includes('Oembed') ? /held as assumed because the contract marks max(width|height) as not enforced on the wire/ : /held as assumed because WordPress's (wp_insert_post\(\) refuses|wp_insert_term\(\) and wp_update_term\(\) refuse)/);
    }
    // Inconclusive cases are counted apart and never passed: reads whose records the mock does not have (a
    // slider, a translation job): nothing in the mock's lists names one.
    const inconclusive = r.run.cases.filter((c) => c.status === 'inconclusive');
    expect(r.run.summary.inconclusive).toBe(inconclusive.length);
    // And list_order's menu_order: no record shows a menu_order to order by (issue 18).
    const menuOrder = inconclusive.filter((c) => /^list_order:getCalV1Events:menu_order_/.test(c.id));
    expect(menuOrder.map((c) => c.id).sort()).toEqual(['list_order:getCalV1Events:menu_order_ASC', 'list_order:getCalV1Events:menu_order_DESC']);
    // And post_parent: no event the mock lists shows its parent (nor does The Events Calendar's legacy answer), and no
    // documented write gives one (gaps.faults.test.ts judges it where the answers show one).
    const postParent = inconclusive.filter((c) => c.id === 'filter_event_links:getCalEventsV1Events:post_parent');
    expect(postParent.map((c) => c.message)).toEqual([expect.stringMatching(/shows a parent .*no documented write gives an event one/)]);
    menuOrder.push(...postParent);
    // Since reading POSTs go signed in (issue 26) and the coverage phase sends fixed ids (postId 0, id 1 alone), three
    // more namespaces have some: the LMS token check refuses the run's application password (it wants a token of its
    // own, which 001 §7 leaves unshown: 403 lms_auth_no_auth_header), and the SEO routes know no object 0 or 1 (404
    // seo_object_not_found), which says nothing about the value sent. None is passed.
    expect(new Set(inconclusive.filter((c) => !menuOrder.includes(c)).map((c) => c.namespace))).toEqual(new Set(['sliderrevolution', 'i18n/tm/v1', 'lms/v1', 'seo/v1', 'seo/v1/an']));
    expect(inconclusive.filter((c) => /^(lms|seo)/.test(c.namespace ?? '')).every((c) => /lms_auth_no_auth_header|404 seo_object_not_found; that says nothing about/.test(c.message ?? ''))).toBe(true);
    expect(r.err).toMatch(/removed \d+ record\(s\) the run created/);
    expect(r.err).not.toMatch(/still on the target/);
    expect(records(mock) === before, 'the store changed').toBe(true);
    // Every check a unit can carry passes somewhere against the mock, and every judged case carries a severity its
    // row in the registry declares (a skip's severity gates nothing, and a unit not run may be of any check).
    const checks = new Set(r.run.cases.filter((c) => c.status === 'passed').map((c) => c.check));
    expect([...checks].sort()).toEqual([...SELECTABLE_CHECKS].sort());
    expect(undeclaredSeverities(r.run.cases)).toEqual([]);
    // The coverage phase (each parameter alone, every enum value, type edges) took it from about 6,300 to 9,600, and
    // the stateful phase (3 resources × --stateful 300, and the deletes that end each sequence) to about 11,700, and
    // the checks that closed the catalogue's gaps (links_resolve, embed, core_list_params, post_dates, post_flags,
    // post_terms, rendered_text, oembed, views, body forms, low_rights...) to about 12,600.
    expect(r.run.options['requestsSent']).toBeLessThan(13000);
    // Issue 10's aim for this run's time (under 30 s) is a speed goal: `BENCH_ONLY=suite npm run bench` measures it
    // (mock/bench/suite-run.ts), since CPU time on a loaded machine moves by some 10% with other people's work.
    console.log(`full run against the mock: ${r.run.cases.length} cases, ${String(r.run.options['requestsSent'])} requests, ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s of CPU)`);
  }); // the bound is the CPU time above; on a shared machine the wall clock can be several times that

  it('writes nothing without credentials, and sends only GET, HEAD and OPTIONS with --read-only', async () => {
    const before = JSON.stringify(mock.snapshot());
    const anonymous = await runCli(['test', '--base-url', server.url, '--seed', '2', '--only', 'cal/v1', '--runs', '1']);
    expect(failing(anonymous.run)).toEqual([]);
    expect(JSON.stringify(mock.snapshot()) === before, 'the store changed').toBe(true);
    expect(anonymous.run.cases.find((c) => c.id.startsWith('lifecycle:'))?.message).toMatch(/no credentials/);
    // A check the registry says needs credentials for every case passes none without them.
    expect(anonymous.run.cases.filter((c) => needsAlways(c.check, 'credentials')).length).toBeGreaterThan(20);
    expect(anonymous.run.cases.filter((c) => c.status === 'passed' && needsAlways(c.check, 'credentials')).map((c) => c.id)).toEqual([]);

    methods.length = 0;
    const readOnly = await runCli(['test', '--base-url', server.url, '--auth-env', 'MOCK_AUTH', '--read-only', '--seed', '2', '--only', 'cal/v1,batch/v1', '--runs', '1'], { MOCK_AUTH: auth });
    expect(failing(readOnly.run)).toEqual([]);
    expect([...new Set(methods)].sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(JSON.stringify(mock.snapshot()) === before, 'the store changed').toBe(true);
    // And one that needs writes for every case passes none under --read-only.
    expect(readOnly.run.cases.filter((c) => needsAlways(c.check, 'writes')).length).toBeGreaterThan(20);
    expect(readOnly.run.cases.filter((c) => c.status === 'passed' && needsAlways(c.check, 'writes')).map((c) => c.id)).toEqual([]);
    expect(undeclaredSeverities(anonymous.run.cases)).toEqual([]);
    expect(undeclaredSeverities(readOnly.run.cases)).toEqual([]);
  });

  it('splits the cases across shards that merge back into the whole run', async () => {
    const args = ['test', '--base-url', server.url, '--seed', '3', '--only', 'oembed/1.0,root', '--runs', '1'];
    const whole = await runCli(args);
    const one = await runCli([...args, '--shard', '1/2']);
    const two = await runCli([...args, '--shard', '2/2']);
    const ids = (r: Captured) => r.run.cases.map((c) => c.id);
    expect(ids(one).length).toBeGreaterThan(0);
    expect(ids(two).length).toBeGreaterThan(0);
    expect([...ids(one), ...ids(two)].sort()).toEqual(ids(whole).sort());
    expect(one.err).toMatch(/shard 1\/2/);
  });

  it('prints the seed and how to replay one case', async () => {
    const r = await runCli(['test', '--base-url', server.url, '--seed', '42', '--only', 'root,cors']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('seed 42 (replay one case: --seed 42 --only <case id>)');
    expect(r.run.seed).toBe(42);
  });

  it('stops at the request budget with an INCOMPLETE run (exit 4) that names what did not run', async () => {
    const r = await runCli(['test', '--base-url', server.url, '--seed', '5', '--only', 'cal/v1', '--max-requests', '40']);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/the request budget \(--max-requests 40\) ran out: \d+ unit\(s\) never ran/);
    expect(r.out).toMatch(/^site-contracts: INCOMPLETE \(stopped at --max-requests 40; only part of the run happened\)/m);
    expect(r.out).toMatch(/^ {2}not run or cut short: \d+ unit\(s\) of \d+ check\(s\)/m);
    expect(r.run.options['requestsSent']).toBe(40);
    expect(r.run.summary.verdict).toBe('incomplete');
    expect(r.run.incomplete?.stoppedBy).toBe('max-requests');
    // What the budget kept from being sent is not run, not a finding about the site.
    expect(r.run.cases.filter((c) => c.status === 'errored')).toEqual([]);
    expect(r.run.cases.some((c) => c.status === 'skipped' && /request budget/.test(c.message ?? ''))).toBe(true);
  });

  it('cleans up after Ctrl-C and exits 130', async () => {
    const before = records(mock);
    const signals = new FakeSignals();
    let seen = 0;
    const interrupting = await listen(
      (req: MockRequest): MockResponse => {
        // Interrupt once the run has created records of its own.
        if (req.method === 'POST' && ++seen === 6) setImmediate(() => signals.emit('SIGINT'));
        return mock.handleNow(req);
      },
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const r = await runCli(['test', '--base-url', interrupting.url, '--auth-env', 'MOCK_AUTH', '--seed', '4', '--only', 'lifecycle,cross_namespace'], { MOCK_AUTH: auth }, signals, ['json', 'junit', 'html']);
      expect(r.code).toBe(130);
      expect(r.err).toMatch(/stopping \(Ctrl-C\)/);
      expect(r.run.cases.some((c) => c.status === 'skipped' && /stopped/.test(c.message ?? ''))).toBe(true);
      expect(records(mock) === before, 'the store changed').toBe(true);
      // Whatever the cases that ran say, the run is INTERRUPTED everywhere, never PASSED.
      expect(r.run.interrupted).toEqual({ signal: 'SIGINT' });
      expect(r.run.summary.verdict).toBe('interrupted');
      expect(r.out).toMatch(/^site-contracts: INTERRUPTED \(stopped by Ctrl-C; only part of the run happened\): /m);
      expect(r.out).not.toMatch(/PASSED/);
      expect(r.reports['site-contracts.junit.xml']).toContain('<testcase classname="(run)" name="run interrupted"');
      expect(r.reports['site-contracts.html']).toContain('<title>INTERRUPTED: ');
      // And which checks never ran, or were cut short, in every format.
      expect(r.run.incomplete?.stoppedBy).toBe('signal');
      expect(r.run.incomplete!.checks.length).toBeGreaterThan(0);
      expect(r.out).toMatch(/^ {2}not run or cut short: \d+ unit\(s\) of \d+ check\(s\)/m);
      expect(r.reports['site-contracts.junit.xml']).toMatch(/INTERRUPTED: the run was stopped by SIGINT before it was done; its cases are only part of the run; not run or cut short: (lifecycle|cross_namespace) /);
      expect(r.reports['site-contracts.html']).toMatch(/<p class="why" id="why">[^<]*Not run or cut short: /);
    } finally {
      await interrupting.close();
    }
  });

  it('ends with 143 and an INTERRUPTED report on SIGTERM, also when it comes before the run began', async () => {
    const signals = new FakeSignals();
    const interrupting = await listen(
      (req: MockRequest): MockResponse => {
        // The credential check's read: the run has not begun, nothing was written.
        if (req.url.includes('status=draft')) setImmediate(() => signals.emit('SIGTERM'));
        return mock.handleNow(req);
      },
      { port: 0, host: '127.0.0.1' },
    );
    try {
      methods.length = 0;
      const r = await runCli(['test', '--base-url', interrupting.url, '--auth-env', 'MOCK_AUTH', '--seed', '4', '--only', 'lifecycle'], { MOCK_AUTH: auth }, signals);
      expect(r.code).toBe(143);
      expect(r.err).toMatch(/stopping \(SIGTERM\)/);
      expect(r.run.summary.verdict).toBe('interrupted');
      expect(r.run.interrupted).toEqual({ signal: 'SIGTERM' });
      expect(r.out).toMatch(/^site-contracts: INTERRUPTED \(stopped by SIGTERM; only part of the run happened\): 0 cases/m);
      // Stopped before any check began: every planned check is named as not run.
      expect(r.run.incomplete).toMatchObject({ stoppedBy: 'signal', checks: [{ check: 'lifecycle', notRun: 8, cutShort: 0, planned: 8 }] });
    } finally {
      await interrupting.close();
    }
  });

  it('refuses wrong credentials before the first write: exit 2, what the site said, no contract failures', async () => {
    methods.length = 0;
    const r = await runCli(['test', '--base-url', server.url, '--auth-env', 'MOCK_AUTH', '--seed', '1'], { MOCK_AUTH: `${auth.split(':')[0]}:wrong wrong wrong wrong` });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^site-contracts: credentials refused by the site: GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/cal\/v1\/events\?status=draft&per_page=1 answered 400 rest_invalid_param \("Invalid parameter\(s\): status"\): the site treated the request as anonymous\.$/m,
    );
    expect(r.err).toContain('To fix: check that MOCK_AUTH holds user:application-password');
    expect(r.err).not.toContain('wrong wrong');
    expect(methods).toEqual(['GET', 'GET']);
    expect(r.reports).toEqual({});
  });

  it('ends the run before anything is written when WordPress logs in with an -H header, and sends it on every request when it does not', async () => {
    const basic = `Basic ${Buffer.from(auth).toString('base64')}`;
    methods.length = 0;
    const loggedIn = await runCli(['test', '-u', server.url, '-H', `Authorization: ${basic}`, '--seed', '1', '--only', 'lifecycle']);
    expect(loggedIn.code).toBe(2);
    expect(loggedIn.err).toMatch(/^site-contracts test: WordPress logs in with the headers given with -H \(Authorization\): GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/.* answered 200\./m);
    expect(loggedIn.err).toContain('Give WordPress credentials with --auth-env VAR');
    expect(loggedIn.err).not.toContain(basic.slice(6));
    expect(new Set(methods)).toEqual(new Set(['GET']));
    expect(loggedIn.reports).toEqual({});

    // --read-only sends nothing that writes, so a logged-in header is harmless there. But no request goes anonymous
    // then, so the root's probes that must (the cookie nonce's 403, an anonymous GET's Vary: Origin, which WordPress
    // leaves out for a signed-in user) skip, saying why, instead of failing a conformant site.
    const readOnly = await runCli(['test', '-u', server.url, '-H', `Authorization: ${basic}`, '--read-only', '--seed', '1', '--only', 'root']);
    expect(readOnly.code, readOnly.out).toBe(0);
    expect(readOnly.err).toContain('WordPress logs in with the headers given with -H (Authorization); under --read-only nothing writes');
    const anonymousOnly = ['auth_status:getRoot:cookie-nonce:anonymous', 'auth_status:getRoot:cookie-nonce:no-route', 'cors:getRoot:vary'];
    expect(readOnly.run.cases.filter((c) => c.status === 'skipped' && /-H log WordPress in/.test(c.message ?? '')).map((c) => c.id).sort()).toEqual(anonymousOnly);

    // A header WordPress does not log in with (a WAF's token) goes on every request of an anonymous run.
    const seen: (string | undefined)[] = [];
    const waf = await listen((req: MockRequest): MockResponse => {
      seen.push(req.headers['x-waf-token']);
      return mock.handleNow(req);
    }, { port: 0, host: '127.0.0.1' });
    try {
      const r = await runCli(['test', '-u', waf.url, '-H', 'X-Waf-Token: waf-0123456789abcdef', '--seed', '1', '--only', 'root,/cal/v1/venues', '--runs', '1']);
      expect(r.code, r.err + r.out).toBe(0);
      expect(r.err).toContain('with X-Waf-Token (-H) on every request');
      expect(seen.length).toBeGreaterThan(20);
      expect(new Set(seen)).toEqual(new Set(['waf-0123456789abcdef']));
      // A header that does not log in leaves those probes anonymous, so they are judged.
      expect(r.run.cases.filter((c) => anonymousOnly.includes(c.id)).map((c) => `${c.id} ${c.status}`).sort()).toEqual(anonymousOnly.map((id) => `${id} passed`));
    } finally {
      await waf.close();
    }
  });

  it('reads --baseline and proves --report-dir writable before the first request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-pre-'));
    try {
      const file = join(dir, 'a-file');
      await writeFile(file, 'not a directory');
      const broken = join(dir, 'broken.yaml');
      await writeFile(broken, 'accepted: [');
      for (const [args, message] of [
        [['--baseline', join(dir, 'missing.yaml')], `--baseline ${join(dir, 'missing.yaml')}: cannot read it (ENOENT)`],
        [['--baseline', broken], `--baseline ${broken}:1:12: neither JSON nor YAML`],
        [['--report-dir', join(file, 'reports')], `--report-dir ${join(file, 'reports')}: cannot write reports there (ENOTDIR`],
        // procfs answers ENOENT under an existing /proc: Node's recursive mkdir spun there for good.
        ...(existsSync('/proc/self') ? ([[['--report-dir', '/proc/nope/reports'], '--report-dir /proc/nope/reports: cannot write reports there (ENOENT']] as const) : []),
      ] as const) {
        methods.length = 0;
        const r = await runCli(['test', '--base-url', server.url, '--auth-env', 'MOCK_AUTH', ...args], { MOCK_AUTH: auth });
        expect(r.code, message).toBe(2);
        // A missing file is a usage error (`site-contracts test: ...; see site-contracts test --help`), the others not.
        expect(r.err).toMatch(/^site-contracts( test)?: /);
        expect(r.err).toContain(`: ${message}`);
        expect(r.err).not.toMatch(/internal error|\n\s+at /);
        expect(methods, message).toEqual([]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps a cleanup the target stops answering to a few requests, and calls those records unconfirmed, not left', async () => {
    const timeoutMs = 1500;
    let stalledAt = 0;
    let posts = 0;
    let afterStall = 0;
    const stalling = await listen(
      (req: MockRequest): MockResponse | Promise<MockResponse> => {
        // From the third create on, the target accepts connections and never answers.
        if (stalledAt > 0) {
          afterStall++;
          return new Promise<MockResponse>(() => {});
        }
        if (req.method === 'POST' && ++posts === 3) {
          stalledAt = performance.now();
          return new Promise<MockResponse>(() => {});
        }
        return mock.handleNow(req);
      },
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const r = await runCli(['test', '--base-url', stalling.url, '--auth-env', 'MOCK_AUTH', '--seed', '4', '--only', 'lifecycle,cross_namespace', '--timeout-ms', String(timeoutMs)], { MOCK_AUTH: auth });
      expect(stalledAt).toBeGreaterThan(0);
      // Work, not the wall clock: once silent, the target sees only what is in flight and one try per record to
      // remove, each ended by --timeout-ms, before the run gives up on it.
      expect(afterStall, `${afterStall} requests after the target stalled`).toBeLessThanOrEqual(STALL_REQUEST_BOUND);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/the target stopped answering/);
      expect(r.err).toMatch(/WARNING: \d+ record\(s\) the run created could not be confirmed removed \((no answer|not tried|DELETE \S+ answered no answer)/);
      expect(r.err).not.toMatch(/still on the target/);
      expect((r.run.options['cleanup'] as { unconfirmed: unknown[] }).unconfirmed.length).toBeGreaterThan(0);
      console.log(`stalled during the run: ${afterStall} requests after the stall (${(performance.now() - stalledAt).toFixed(0)} ms), --timeout-ms ${timeoutMs}`);
    } finally {
      await stalling.close();
      // The records the run could not remove while the target was silent.
      const lists = ['/wp-json/cal/v1/events', '/wp-json/cal/v1/venues', '/wp-json/cal/v1/organizers'];
      for (const list of lists) {
        const found = JSON.parse(mock.handleNow({ method: 'GET', url: `${list}?search=site-contracts&per_page=100&status[]=publish&status[]=draft&status[]=pending&status[]=future&status[]=private`, headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` }, body: '' }).body) as { id: number }[];
        for (const { id } of found) mock.handleNow({ method: 'DELETE', url: `${list}/${id}?force=true`, headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` }, body: '' });
      }
    }
  });
});

describe('stopping early with --max-failures', () => {
  let mock: Mock;
  let server: Listening;
  let auth: string;
  /** Every update of a cal/v1 event fails: failures in read-only units (probes) and in writing ones (lifecycle). */
  const broken = (req: MockRequest): MockResponse =>
    ['POST', 'PUT', 'PATCH'].includes(req.method) && /^\/wp-json\/cal\/v1\/events\/\d+(\?|$)/.test(req.url)
      ? { status: 500, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: '{"code":"boom","message":"Broken on purpose.","data":{"status":500}}' }
      : mock.handleNow(req);
  // One unit at a time, so that the cases of two runs with one seed come in the same order.
  const oneAtATime = { concurrency: 1 };
  const run = (extra: string[]) =>
    runCli(['test', '-u', server.url, '--auth-env', 'MOCK_AUTH', '--seed', '9', '--runs', '1', ...extra], { MOCK_AUTH: auth }, new FakeSignals(), ['json'], oneAtATime);
  const notRun = (r: Captured) => r.run.cases.filter((c) => c.variant?.startsWith('not-run:'));
  const ran = (r: Captured) => r.run.cases.filter((c) => !c.variant?.startsWith('not-run:'));

  beforeAll(async () => {
    mock = await createMock({ contract, auth: true });
    const c = mock.credentials()!;
    auth = `${c.username}:${c.password}`;
    server = await listen(broken, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server.close();
    await mock.close();
  });

  it('starts no check after the unit where the N-th failure came, reports the rest as not run, fails, exits 1', async () => {
    const whole = await run(['--only', 'cal/v1']);
    const all = failing(whole.run);
    expect(all.length).toBeGreaterThan(20);
    expect(notRun(whole)).toEqual([]);
    for (const n of [1, 7]) {
      const r = await run(['--only', 'cal/v1', '--max-failures', String(n)]);
      expect(r.code, `--max-failures ${n}`).toBe(1);
      expect(r.run.summary.verdict).toBe('failed');
      // What ran is the whole run's beginning, case for case, up to at least its n-th failure...
      const done = ran(r).map((c) => `${c.id} ${c.status}`);
      expect(done).toEqual(whole.run.cases.slice(0, done.length).map((c) => `${c.id} ${c.status}`));
      const failed = failing({ ...r.run, cases: ran(r) });
      expect(failed.length).toBeGreaterThanOrEqual(n);
      expect(failed.slice(0, n)).toEqual(all.slice(0, n));
      // ...and the rest did not run: skipped, saying why, and not counted as failures.
      expect(notRun(r).length).toBeGreaterThan(0);
      for (const c of notRun(r)) {
        expect(c.status).toBe('skipped');
        expect(c.message).toBe(`not run: the run stopped once ${n} case(s) had failed (--max-failures ${n})`);
      }
      expect(r.err).toContain(`stopped at --max-failures ${n}: no check started after ${n} case(s) had failed (checks already running finished); ${notRun(r).length} unit(s) not run`);
      expect(r.run.options['stoppedBy']).toBe('max-failures');
      expect(r.run.incomplete).toMatchObject({ stoppedBy: 'max-failures', limit: `--max-failures ${n}`, unitsNotRun: notRun(r).map((c) => c.variant!.slice('not-run:'.length)) });
    }
    // One failure more than the run has: nothing is left out.
    const all1 = await run(['--only', 'cal/v1', '--max-failures', String(all.length + 1)]);
    expect(notRun(all1)).toEqual([]);
    expect(failing(all1.run)).toEqual(all);
  });

  it('removes the records the run created before it stopped', async () => {
    const before = records(mock);
    const r = await run(['--only', 'lifecycle,cross_namespace', '-x']);
    expect(r.code).toBe(1);
    expect(notRun(r).length).toBeGreaterThan(0);
    expect(r.err).toMatch(/removed [1-9]\d* record\(s\) the run created/);
    expect(records(mock) === before, 'the store changed').toBe(true);
  });

  it('does not count failures the baseline accepts', async () => {
    const whole = await run(['--only', 'putCalV1EventsById,patchCalV1EventsById']);
    expect(failing(whole.run).length).toBeGreaterThan(0);
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-mf-'));
    try {
      const baseline = join(dir, 'baseline.json');
      await writeFile(baseline, JSON.stringify({ accepted: failing(whole.run).map((id) => ({ id, reason: 'known' })) }));
      const r = await run(['--only', 'putCalV1EventsById,patchCalV1EventsById', '-x', '--baseline', baseline]);
      expect(r.code).toBe(0);
      expect(notRun(r)).toEqual([]);
      // Without the baseline the first of them stops it.
      const stopped = await run(['--only', 'putCalV1EventsById,patchCalV1EventsById', '-x']);
      expect(stopped.code).toBe(1);
      expect(notRun(stopped).length).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('test against targets that do not answer', () => {
  it('exits 2 with what to fix when nothing listens', async () => {
    const s = await startServer(() => {});
    const url = s.url;
    await s.close();
    const r = await runCli(['test', '--base-url', url]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach .*\/wp-json\/ \(ECONNREFUSED.*check --base-url/);
  });

  it('exits 2 when the address answers but is not a REST root', async () => {
    const s = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>a blog</html>');
    });
    try {
      const r = await runCli(['test', '--base-url', s.url]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/is not a WordPress REST root: it answered 200 with text\/html/);
    } finally {
      await s.close();
    }
  });

  it('ends a run against a target that stalls after the root with a report, not a hang', async () => {
    // It lists oembed/1.0: a namespace the descriptor does not show is one finding and its checks are not run.
    const descriptor = { namespaces: ['oembed/1.0'], routes: {} };
    let stalled = 0;
    const s = await startServer((req, res) => {
      if (req.url === '/wp-json/') return sendJson(res, 200, descriptor);
      stalled++; // every other request stalls
    });
    try {
      const r = await runCli(['test', '--base-url', s.url, '--timeout-ms', '2000', '--only', 'oembed/1.0']);
      // The requests in flight (--workers) time out together and trip the breaker, then a few more: one or two rounds
      // of timeouts, not ten (counted in requests, not measured in seconds: a loaded machine stretches the clock, not
      // the count). Measured: 8 with 4 workers, 9 with 6.
      expect(stalled, `${stalled} requests reached the stalled target`).toBeLessThanOrEqual(DEFAULTS.workers + 4);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/the target stopped answering/);
      expect(r.run.cases.some((c) => c.status === 'errored' && /no answer within 2000 ms/.test(c.message ?? ''))).toBe(true);
      expect(r.run.cases.some((c) => c.status === 'errored' && /stopped answering/.test(c.message ?? ''))).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('ends within the timeout against a target that accepts connections and never answers', async () => {
    let asked = 0;
    const s = await startServer(() => {
      asked++; // never answers, not even the REST root
    });
    try {
      const r = await runCli(['test', '--base-url', s.url, '--timeout-ms', '1000'], { SITE_CONTRACTS_AUTH: 'editor:abcd efgh' });
      // One unanswered request to the root ends the run (a count, where a duration would depend on the machine's load).
      expect(asked, `${asked} requests`).toBe(1);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/\/wp-json\/ did not answer within the timeout: no answer within 1000 ms \(--timeout-ms\); check --base-url .*, or raise --timeout-ms/);
    } finally {
      await s.close();
    }
  });
});
