// `npm run mock` as a process: bad flags and bad fixture files exit with code 2 and a message naming the flag or
// file; a good start prints the URL, what it loaded and (with --auth) the credentials; --state-file survives a restart.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, startCli, stopCli } from './src/testing/cli-process.ts';

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Exit> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the CLI, waits for its banner, runs `use` with the base URL, then stops it with SIGTERM. */
async function withServer<T>(args: string[], use: (url: string, banner: string) => Promise<T>): Promise<{ result: T; exit: Exit }> {
  const p = await startCli(args);
  let result: T;
  try {
    result = await use(p.url, p.stdout());
  } catch (err) {
    await stopCli(p, 'SIGKILL');
    throw err;
  }
  const code = await stopCli(p, 'SIGTERM');
  return { result, exit: { code, stdout: p.stdout(), stderr: p.stderr() } };
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mock-cli-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('bad input exits with code 2 and names the culprit', () => {
  it('an unknown flag, in our words with a suggestion, on one line', async () => {
    const r = await run(['--prot', '4010']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mock: unknown flag --prot (did you mean --port?); see npm run mock -- --help\n');
  });

  it('a flag value of the wrong shape', async () => {
    for (const [args, name] of [[['--port', 'abc'], '--port'], [['--port', '70000'], '--port'], [['--latency=-5'], '--latency'], [['--seed', 'x'], '--seed'], [['--site-url', 'events.example.org'], '--site-url'], [['--site-url', 'http://example.org/blog'], '--site-url']] as const) {
      const r = await run([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(name);
    }
  });

  it('a missing fixture directory names the file it looked for', async () => {
    const dir = join(tmp, 'nowhere');
    const r = await run(['--fixtures', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(dir, 'calendar.json'));
    expect(r.stderr).toContain('file not found');
  });

  it('a state file that cannot be written, before any request is served', async () => {
    const r = await run(['--port', '0', '--state-file', '/proc/nope/x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mock: --state-file \/proc\/nope\/x\.json: cannot be written \(ENOENT: no such file or directory/);
    expect(r.stdout).not.toContain('listening');
  });

  it('a fixture file with broken JSON names the file, line and column', async () => {
    const dir = join(tmp, 'broken');
    await rm(dir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(dir));
    for (const f of ['addons.json', 'users.json']) await copyFile(join(ROOT, 'fixtures', f), join(dir, f));
    await writeFile(join(dir, 'calendar.json'), '{\n  "version": 1,\n  "events": [\n');
    const r = await run(['--fixtures', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${join(dir, 'calendar.json').replace(/[/\\.]/g, '\\$&')}: line \\d+, column \\d+`));
  });
});

describe('start', () => {
  it('prints its URL, what it loaded and, with --auth, the credentials; writes then need them', async () => {
    const { result, exit } = await withServer(['--auth'], async (url, banner) => {
      expect(banner).toMatch(/loaded from .*: 300 events, 25 venues, 20 organizers, 18 categories, 30 tags/);
      const m = /user "([^"]+)" password "([^"]+)"/.exec(banner)!;
      const anon = await fetch(`${url}/wp-json/cal/v1/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' });
      const authed = await fetch(`${url}/wp-json/cal/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${m[1]}:${m[2]}`).toString('base64')}` },
        body: '{"title":"x"}',
      });
      return [anon.status, authed.status];
    });
    expect(result).toEqual([401, 201]);
    expect(exit.code).toBe(0);
  }, 30_000);

  it('--state-file keeps the store across a restart', async () => {
    const state = join(tmp, 'state.json');
    const { result: id } = await withServer(['--state-file', state], async (url) => {
      const res = await fetch(`${url}/wp-json/cal/v1/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Survives restarts"}' });
      return ((await res.json()) as { id: number }).id;
    });
    expect(JSON.parse(await readFile(state, 'utf8')).calendar.events.some((e: { id: number }) => e.id === id)).toBe(true);
    const { result: title } = await withServer(['--state-file', state], async (url) => {
      const res = await fetch(`${url}/wp-json/cal/events/v1/events/${id}`);
      return ((await res.json()) as { title: string }).title;
    });
    expect(title).toBe('Survives restarts');
  }, 40_000);

  it('--site-url is what links are built on; --no-cache answers the same', async () => {
    const { result } = await withServer(['--site-url', 'https://events.example.org', '--no-cache'], async (url) => {
      const res = await fetch(`${url}/wp-json/cal/v1/events/92`, { headers: { host: 'other.example' } });
      return [res.headers.get('link'), ((await res.json()) as { _links: { self: { href: string }[] } })._links.self[0]!.href];
    });
    expect(result).toEqual(['<https://events.example.org/event/science-cafe/>; rel="alternate"; type=text/html', 'https://events.example.org/wp-json/cal/v1/events/92']);
  }, 30_000);
});
