import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli.ts';
import type { RunArgs } from './src/cli/args.ts';
import { defaultCommands } from './src/cli/commands/index.ts';
import type { CommandContext } from './src/cli/context.ts';
import { NotImplementedError, TargetUnreachableError } from './src/errors.ts';
import { finishRun } from './src/cli/finish.ts';
import { captureDeps } from './src/testing/cli.ts';
import { sampleCases, sampleRun } from './src/report/sample.ts';
import { writeReports } from './src/report/write.ts';
import { parseRunJson } from './src/report/json.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'suites/bin/site-contracts.mjs');
const run = promisify(execFile);

const fakeDeps = captureDeps;

describe('main', () => {
  it('prints usage for --help and exits 0', async () => {
    const t = fakeDeps();
    expect(await main(['--help'], t.deps)).toBe(0);
    expect(t.out()).toContain('Usage: site-contracts <command> [flags]');
    expect(t.out()).toContain('--auth-env VAR');
    expect(t.out()).not.toContain('--password');
  });

  it('exits 2 on a usage error with the message and a hint on stderr', async () => {
    const t = fakeDeps();
    expect(await main(['test', '--base-url', 'http://h', '--shard', '3/2'], t.deps)).toBe(2);
    expect(t.err()).toBe(`site-contracts test: --shard expects i/n with 1 <= i <= n, got "3/2"; see site-contracts test --help\n`);
    expect(t.out()).toBe('');
  });

  it('hands parsed arguments to the command from the registry and returns its exit code', async () => {
    const test = vi.fn(async (_args: RunArgs, _ctx: CommandContext) => 1);
    const t = fakeDeps({ commands: { ...defaultCommands, test }, env: { SITE_CONTRACTS_AUTH: 'u:sekrit-pw' } });
    expect(await main(['test', '--base-url', 'http://h', '--only', 'wp/v2'], t.deps)).toBe(1);
    const [args, ctx] = test.mock.calls[0]!;
    expect(args).toMatchObject({ command: 'test', baseUrl: 'http://h', only: ['wp/v2'], auth: { envVar: 'SITE_CONTRACTS_AUTH' } });
    expect(ctx.secrets).toEqual(['u:sekrit-pw']);
    expect(ctx.redact('echo sekrit-pw')).toBe('echo [REDACTED]');
  });

  it('maps an unreachable target to 2, stubs and crashes to 3, and redacts what it prints', async () => {
    const env = { SITE_CONTRACTS_AUTH: 'u:sekrit-pw' };
    const unreachable = fakeDeps({
      env,
      commands: { ...defaultCommands, test: async () => { throw new TargetUnreachableError('cannot reach http://h/wp-json/ (ECONNREFUSED)'); } },
    });
    expect(await main(['test', '--base-url', 'http://h'], unreachable.deps)).toBe(2);
    expect(unreachable.err()).toBe('site-contracts: cannot reach http://h/wp-json/ (ECONNREFUSED)\n');

    // diff is implemented now; a registry entry that still throws NotImplementedError stands in for a stub.
    const stub = fakeDeps({ commands: { ...defaultCommands, diff: async () => { throw new NotImplementedError('`site-contracts diff` is not implemented yet'); } } });
    expect(await main(['diff', '--base-url', 'http://h'], stub.deps)).toBe(3);
    expect(stub.err()).toContain('`site-contracts diff` is not implemented yet');

    const crash = fakeDeps({ env, commands: { ...defaultCommands, proxy: async () => { throw new Error('boom with sekrit-pw'); } } });
    expect(await main(['proxy', '--upstream', 'http://u'], crash.deps)).toBe(3);
    expect(crash.err()).toContain('internal error: Error: boom with [REDACTED]');
    expect(crash.err()).not.toContain('sekrit-pw');
  });
});

describe('finishRun', () => {
  it('writes the reports, prints the verdict and returns the exit code', async () => {
    const files = new Map<string, string>();
    const t = fakeDeps();
    const ctx: CommandContext = {
      ...t.deps,
      secrets: [],
      secretHeaders: [],
      redact: (s) => s,
      fs: {
        mkdir: async () => undefined,
        writeFile: async (p, d) => void files.set(p, d),
        rename: async (a, b) => void files.set(b, files.get(a) ?? ''),
        rm: async () => undefined,
      },
    };
    const { code } = await finishRun(sampleRun(), { reportDir: 'r', formats: ['json'] }, ctx, {});
    expect(code).toBe(1);
    expect(files.has('r/site-contracts.json')).toBe(true);
    expect(t.out()).toContain('site-contracts: FAILED: 6 cases, 1 passed, 2 failed, 1 warned, 0 inconclusive, 1 errored, 1 skipped');
    expect(t.out()).toContain('  FAIL  not_a_server_error GET /wp/v2/posts [documented]: expected a status below 500, got 500');
    expect(t.out()).toContain('  ERROR index_lists_namespaces [documented]: connect ECONNRESET');
    expect(t.out()).toContain('reports:\n  r/site-contracts.json\n');
  });
});

describe('merge command and the bin', () => {
  let dir = '';
  let shards: string[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-cli-'));
    const cases = sampleCases();
    shards = [];
    for (const [index, part] of [cases.slice(0, 3), cases.slice(3)].entries()) {
      const shardRun = { ...sampleRun(part), shard: { index: index + 1, total: 2 } };
      const [json] = await writeReports(shardRun, { dir: join(dir, 'shards'), formats: ['json'], secrets: [] });
      shards.push(json!.path);
    }
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('merges shard reports into every format and fails on their failures', async () => {
    const t = fakeDeps();
    const out = join(dir, 'merged');
    expect(await main(['merge', ...shards, '--report-dir', out], t.deps)).toBe(1);
    expect((await readdir(out)).sort()).toEqual(['site-contracts.html', 'site-contracts.json', 'site-contracts.junit.xml']);
    const merged = parseRunJson(await readFile(join(out, 'site-contracts.json'), 'utf8'), 'site-contracts.json');
    expect(merged.summary).toMatchObject({ total: 6, failing: 3 });
    expect(merged).not.toHaveProperty('shard');
  });

  it('passes when a --baseline accepts every failure, and lists fixed entries', async () => {
    const baseline = join(dir, 'baseline.yaml');
    await writeFile(
      baseline,
      'accepted:\n' +
        '  - {id: "not_a_server_error:wpV2.posts.list:", reason: WP-1}\n' +
        '  - id: "negative_rejection:wpV2.posts.create:title:type"\n' +
        '  - id: "index_lists_namespaces:-:"\n' +
        '  - id: "not_a_server_error:calV1.events.list:"\n',
    );
    const t = fakeDeps();
    expect(await main(['merge', ...shards, '--report-dir', join(dir, 'm'), '--format', 'json', '--baseline', baseline], t.deps)).toBe(0);
    expect(t.out()).toContain('PASSED');
    expect(t.out()).toContain('3 accepted by the baseline');
    expect(t.out()).toContain('fixed (remove from the baseline): not_a_server_error:calV1.events.list:');
  });

  it('exits 2 for a missing shard or an unreadable file', async () => {
    const missing = fakeDeps();
    expect(await main(['merge', shards[0]!, '--report-dir', join(dir, 'm')], missing.deps)).toBe(2);
    expect(missing.err()).toContain('shard 2/2 missing');
    const unreadable = fakeDeps();
    expect(await main(['merge', join(dir, 'nope.json')], unreadable.deps)).toBe(2);
    expect(unreadable.err()).toMatch(/merge .*nope\.json: cannot read it \(ENOENT\)/);
  });

  it('runs as the npm bin through tsx, with the documented exit codes', async () => {
    const out = join(dir, 'bin-out');
    const merged = await run(process.execPath, [BIN, 'merge', ...shards, '--report-dir', out, '--format', 'junit']).catch((e) => e);
    expect(merged.code).toBe(1);
    expect(merged.stdout).toContain('site-contracts: FAILED');
    expect(await readdir(out)).toEqual(['site-contracts.junit.xml']);

    const bad = await run(process.execPath, [BIN, 'test', '--base-url', 'http://h', '--password', 'x']).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('pass its name with --auth-env VAR');

    // Our wording, not node's parseArgs text (which had an unbalanced quote), and the command's own help.
    const bogus = await run(process.execPath, [BIN, 'test', '--bogus']).catch((e) => e);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toBe('site-contracts test: unknown flag --bogus; see site-contracts test --help\n');
    const typo = await run(process.execPath, [BIN, 'test', '--bse-url', 'http://h']).catch((e) => e);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('site-contracts test: unknown flag --bse-url (did you mean --base-url?); see site-contracts test --help\n');

    const help = await run('npx', ['site-contracts', '--help'], { cwd: ROOT });
    expect(help.stdout).toContain('Usage: site-contracts');
    expect(help.stdout).toMatch(/^ {2}mock {4}Start the HTTP mock of the site, with the bundled fixtures or --fixtures DIR \(site-contracts mock --help\)$/m);
  });

  it("hands `mock` to the mock's own command line, from the sources in a checkout", async () => {
    for (const args of [['mock', '--help'], ['help', 'mock']]) {
      const help = await run(process.execPath, [BIN, ...args]);
      expect(help.stdout, args.join(' ')).toMatch(/^Usage: npx site-contracts mock \[options\]/);
      expect(help.stdout).toMatch(/^  npx site-contracts mock -p 8080 --auth --latency 300$/m);
      expect(help.stdout).toContain('--watch');
    }
    // The mock's own refusals and exit code, not the suite's "unknown command".
    const missing = join(dir, 'no-fixtures');
    const bad = await run(process.execPath, [BIN, 'mock', '--fixtures', missing]).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('mock: bad file:\n');
    expect(bad.stderr).toContain(`${join(missing, 'calendar.json')}: file not found`);
    const flag = await run(process.execPath, [BIN, 'mock', '--watch', '--state-file', join(dir, 's.json')]).catch((e) => e);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--watch and --state-file do not go together');
  });

  it('starts the mock with `site-contracts mock`, and the suite passes against it', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--auth'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let banner = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          banner += d;
          if (banner.includes('/__mock/reset')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`the mock exited (${code}) before listening`)));
      });
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
      const [, user, password] = /user "([^"]+)" password "([^"]+)"/.exec(banner)!;
      const env = { ...process.env, SITE_CONTRACTS_AUTH: `${user}:${password}`, CI: 'true' };
      const r = await run(process.execPath, [BIN, 'test', '--base-url', url, '--only', '/cal/v1/venues', '--seed', '7', '--report-dir', join(dir, 'mock-run'), '--format', 'json'], { env });
      expect(r.stdout).toMatch(/site-contracts: PASSED: \d+ cases/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
