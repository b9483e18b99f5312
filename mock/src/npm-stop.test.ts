// Stopping what the README tells people to start stops the mock: `npm run mock` (and `npx site-contracts mock`) is
// npm, the shell npm runs the script in and the mock. A signal sent to npm's pid alone (`npm run mock &` then
// `kill $!`; SIGHUP as a closing terminal sends it; SIGKILL) left the mock answering and holding its state file's
// lock (launcher-watch.ts says why). Each case starts the command as a user does, kills npm alone, and then polls, a
// bounded number of times, until the port is closed and the lock is gone; no process of the command may remain.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './testing/cli-process.ts';

const started: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  // Whatever a failing case left: the whole group it started (npm, the shell, the mock), by the group's id.
  for (const c of started.splice(0)) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * Starts `command` from the repository as a user types it, in a process group of its own; resolves with its URL once
 * it listens, or (`early`) as soon as the mock says it is starting.
 */
function start(command: string[], state: string, early = false): Promise<{ npm: ChildProcess; url: string }> {
  const npm = spawn(command[0]!, [...command.slice(1), '--port', '0', '--log', 'quiet', '--state-file', state], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(npm);
  let out = '';
  return new Promise((resolve, reject) => {
    npm.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (early && out.includes('mock: starting')) resolve({ npm, url: '' });
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('/__mock/reset')) resolve({ npm, url: m[1]! });
    });
    npm.stderr!.on('data', (d: Buffer) => (out += d));
    npm.on('exit', (code) => reject(new Error(`${command.join(' ')} exited (${code}) before listening:\n${out}`)));
  });
}

/** Whether something accepts connections at `url`. */
function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(port), hostname, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/**
 * Whether a running process of the group `pgid` is left. Zombies do not count: a shell whose parent npm was killed is
 * given to process 1, which in a container may never reap it.
 */
function groupAlive(pgid: number): boolean {
  if (!existsSync('/proc/self/stat')) return false;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}

const COMMANDS: Record<string, string[]> = {
  'npm run mock': ['npm', 'run', 'mock', '--'],
  'npx site-contracts mock': ['npx', '--no-install', 'site-contracts', 'mock'],
};

describe('stopping npm stops the mock it started', () => {
  const cases = [
    ['npm run mock', 'SIGTERM'],
    ['npm run mock', 'SIGHUP'],
    ['npm run mock', 'SIGKILL'],
    ['npx site-contracts mock', 'SIGTERM'],
  ] as const;
  it.each(cases)('%s, then %s to npm alone: the port closes and the lock is gone', async (name, signal) => {
    const dir = mkdtempSync(join(tmpdir(), 'npm-stop-'));
    dirs.push(dir);
    const state = join(dir, 'state.json');
    const { npm, url } = await start(COMMANDS[name]!, state);
    expect(existsSync(`${state}.lock`)).toBe(true);
    expect(await accepts(url)).toBe(true);
    process.kill(npm.pid!, signal);
    // The mock looks at its launcher every 250 ms, then closes the server, saves the state file and gives the lock
    // back: polls, not a time, bound the wait.
    let polls = 0;
    while ((await accepts(url)) || existsSync(`${state}.lock`) || groupAlive(npm.pid!)) {
      if (++polls >= 240) {
        const left = { answering: await accepts(url), locked: existsSync(`${state}.lock`), running: groupAlive(npm.pid!) };
        expect.fail(`after ${polls} polls: ${JSON.stringify(left)}`);
      }
      await new Promise((r) => setTimeout(r, 125));
    }
    expect(await accepts(url)).toBe(false);
    expect(existsSync(`${state}.lock`)).toBe(false);
    // Saved on the way out: the snapshot is there and the journal empty.
    expect(existsSync(state)).toBe(true);
  });

  it('npm run mock, then SIGTERM to npm while the mock is still loading: it stops once started, and nothing is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'npm-stop-'));
    dirs.push(dir);
    const state = join(dir, 'state.json');
    const { npm } = await start(COMMANDS['npm run mock']!, state, true);
    process.kill(npm.pid!, 'SIGTERM');
    let polls = 0;
    while (existsSync(`${state}.lock`) || groupAlive(npm.pid!)) {
      if (++polls >= 240) expect.fail(`after ${polls} polls: ${JSON.stringify({ locked: existsSync(`${state}.lock`), running: groupAlive(npm.pid!) })}`);
      await new Promise((r) => setTimeout(r, 125));
    }
  });
});
