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
      // The subscriber's line: a signed-in user with fewer rights, refused with 403 (site-contracts --low-auth-env).
      const low = /a subscriber, signed in with fewer rights \(writes answer 403\): user "([^"]+)" password "([^"]+)"/.exec(banner)!;
      const refused = await fetch(`${url}/wp-json/cal/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${low[1]}:${low[2]}`).toString('base64')}` },
        body: '{"title":"x"}',
      });
      return [anon.status, authed.status, refused.status];
    });
    expect(result).toEqual([401, 201, 403]);
    expect(exit.code).toBe(0);
  });

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
  });

  it('--site-url is what links are built on; --no-cache answers the same', async () => {
    const { result } = await withServer(['--site-url', 'https://events.example.org', '--no-cache'], async (url) => {
      const res = await fetch(`${url}/wp-json/cal/v1/events/92`, { headers: { host: 'other.example' } });
      return [res.headers.get('link'), ((await res.json()) as { _links: { self: { href: string }[] } })._links.self[0]!.href];
    });
    expect(result).toEqual(['<https://events.example.org/event/science-cafe/>; rel="alternate"; type=text/html', 'https://events.example.org/wp-json/cal/v1/events/92']);
  });
});

describe('--watch', () => {
  /** Polls `check` every 50 ms until it is true, or fails after `ms` with `what`. */
  async function until(check: () => boolean, what: string, ms = 120_000): Promise<void> {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const reloads = (out: string) => out.split('\n').filter((l) => l.startsWith('mock: --watch: reloaded')).length;

  it('reloads edited fixtures, drops what was written since, and keeps the last good data through a broken edit', async () => {
    const dir = join(tmp, 'watched');
    await rm(dir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(dir));
    for (const f of ['calendar.json', 'addons.json', 'users.json']) await copyFile(join(ROOT, 'fixtures', f), join(dir, f));
    const original = await readFile(join(dir, 'calendar.json'), 'utf8');
    const retitled = (title: string) => {
      const data = JSON.parse(original) as { events: { id: number; title: string }[] };
      data.events.find((e) => e.id === 92)!.title = title;
      return JSON.stringify(data);
    };

    const p = await startCli(['--fixtures', dir, '--watch']);
    try {
      const title = async () => ((await (await fetch(`${p.url}/wp-json/cal/events/v1/events/92`)).json()) as { title: string }).title;
      expect(p.stdout()).toContain(`mock: --watch: reloading ${dir} when calendar.json, addons.json or users.json change`);
      expect(await title()).toBe('Science Café');
      const created = await fetch(`${p.url}/wp-json/cal/v1/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Written before the reload"}' });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };

      // An edit written in two pieces, as an editor or a generator may: one reload, once it is quiet.
      const text = retitled('Science Café, watched');
      await writeFile(join(dir, 'calendar.json'), text.slice(0, 1000));
      await writeFile(join(dir, 'calendar.json'), text);
      await until(() => reloads(p.stdout()) === 1, 'the first reload');
      expect(p.stdout()).toMatch(/mock: --watch: reloaded .* in \d+ ms: 300 events, 25 venues, 20 organizers, .*; records written since the last load are gone/);
      expect(await title()).toBe('Science Café, watched');
      expect((await fetch(`${p.url}/wp-json/cal/v1/events/${id}`)).status).toBe(404);

      // A broken edit: the error names the file, line and column; the last good data keeps serving.
      const kept = () => p.stderr().split('kept the last good fixtures').length - 1;
      const keptBefore = kept();
      await writeFile(join(dir, 'calendar.json'), '{\n  "version": 1,\n  "events": [\n');
      await until(() => kept() === keptBefore + 1, 'the broken edit to be reported');
      expect(p.stderr()).toMatch(new RegExp(`mock: --watch: kept the last good fixtures; bad fixture file:\\n${join(dir, 'calendar.json').replace(/[/\\.]/g, '\\$&')}: line \\d+, column \\d+`));
      expect(await title()).toBe('Science Café, watched');
      expect(reloads(p.stdout())).toBe(1);

      // Mended, it loads again; a file beside them that is not a fixture reloads nothing.
      await writeFile(join(dir, 'calendar.json'), retitled('Science Café, mended'));
      await until(() => reloads(p.stdout()) === 2, 'the second reload');
      expect(await title()).toBe('Science Café, mended');
      await writeFile(join(dir, 'notes.txt'), 'not a fixture');
      await new Promise((r) => setTimeout(r, 600));
      expect(reloads(p.stdout())).toBe(2);
    } finally {
      await stopCli(p, 'SIGTERM');
    }
  });

  it('is refused with --state-file, and with --seed but no --fixtures (nothing to watch)', async () => {
    const a = await run(['--watch', '--state-file', join(tmp, 'w.json')]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('mock: --watch and --state-file do not go together');
    const b = await run(['--watch', '--seed', '3']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('mock: --watch needs fixture files to watch');
  });
});
