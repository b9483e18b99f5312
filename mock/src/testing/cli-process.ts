// `npm run mock` as a child process, for tests that need the real CLI (flags, exit codes, a kill -9): started on a
// free port, resolved once its banner says it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI = join(ROOT, 'mock/cli.ts');

interface CliProcess {
  child: ChildProcess;
  url: string;
  /** From spawn to listening. */
  startMs: number;
  stdout(): string;
  stderr(): string;
}

/** Starts the CLI with `--port 0` and `args`; rejects with its stderr if it exits before listening. */
export function startCli(args: readonly string[]): Promise<CliProcess> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let listening = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (m && !listening && stdout.includes('/__mock/reset')) {
        listening = true;
        resolve({ child, url: m[1]!, startMs: performance.now() - t0, stdout: () => stdout, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => {
      if (!listening) reject(new Error(`mock exited early (${code}): ${stderr}`));
    });
  });
}

/** Stops it with `signal` and resolves with its exit code once it is gone. */
export function stopCli(p: CliProcess, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve(p.child.exitCode);
    p.child.once('exit', (code) => resolve(code));
    p.child.kill(signal);
  });
}
