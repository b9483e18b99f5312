// The mock stops when what the person started is stopped. `npm run mock` is three processes: npm, the shell npm runs
// the script in (`sh -c "node --import tsx mock/cli.ts"`; dash does not exec the command it runs) and the mock. A
// terminal's Ctrl-C reaches all three, but `kill <npm's pid>` reaches npm alone: npm passes SIGINT and SIGTERM to the
// shell, which ends without passing them on, and SIGHUP to nobody. The mock went on answering and holding its state
// file's lock, and the next starts were refused. So a mock that npm started (npm run, npx) watches its launcher: its
// parent, and, when that parent is only the shell npm made, npm itself. When one of them is gone (the parent changed,
// or the shell's parent did), the mock stops as on SIGTERM: the server closed, the state file saved, the lock given
// back. Started any other way (`node dist/mock/cli.js &` from a script that then exits), nothing is watched.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** What the watch reads of the processes: passed in, so a test can end a launcher. */
export interface ProcessView {
  /** This process's parent now (process.ppid). */
  parent(): number;
  /** A process's command name and parent (Linux: /proc/<pid>/stat), or undefined where the system does not say. */
  stat(pid: number): { name: string; parent: number } | undefined;
}

/** `/proc/<pid>/stat`: `pid (name) state ppid ...`; the name may hold spaces and parentheses. */
function procStat(pid: number): { name: string; parent: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const parent = Number(text.slice(close + 2).split(' ')[1]);
    return Number.isInteger(parent) ? { name: text.slice(text.indexOf('(') + 1, close), parent } : undefined;
  } catch {
    return undefined;
  }
}

const systemProcessView: ProcessView = { parent: () => process.ppid, stat: procStat };

/** Shells that npm runs a script or a bin in, and that only wait for it. */
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'ksh', 'mksh', 'busybox']);

/** npm run and npm exec (npx) set these for what they start. */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  return env['npm_lifecycle_event'] !== undefined && env['npm_execpath'] !== undefined;
}

/**
 * Calls `gone` (once) when the launcher is gone, polling every `everyMs`; returns the function that stops watching.
 * The parent is the launcher; when it is a shell, the shell's parent (npm) is watched too.
 */
export function watchLauncher(gone: () => void, options: { everyMs?: number; view?: ProcessView } = {}): () => void {
  const view = options.view ?? systemProcessView;
  const parent = view.parent();
  // npm's shell or npm itself is the parent of what npm starts; process 1 means it ended before this looked.
  if (parent === 1) {
    setImmediate(gone);
    return () => undefined;
  }
  const shell = view.stat(parent);
  const grandparent = shell && SHELLS.has(basename(shell.name)) ? shell.parent : undefined;
  const timer = setInterval(() => {
    if (view.parent() === parent && (grandparent === undefined || view.stat(parent)?.parent === grandparent)) return;
    clearInterval(timer);
    gone();
  }, options.everyMs ?? 250);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The ways a person stops the mock, listened for from the moment its flags are read: SIGINT, SIGTERM, SIGHUP (a closed
 * terminal), and the end of the npm that started it. A stop asked for while the mock is still starting runs as soon
 * as `onStop` gives the handler (a signal then no longer ends the process with its state file's lock held).
 */
export class StopRequests {
  #handler: ((why: string) => void) | undefined;
  #asked: string | undefined;

  constructor(options: { watchLauncher: boolean; view?: ProcessView }) {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => this.#ask(signal));
    if (options.watchLauncher) watchLauncher(() => this.#ask('launcher'), options.view ? { view: options.view } : {});
  }

  #ask(why: string): void {
    // A second signal (Ctrl-C again while the first waits for the start, or for a save that hangs) ends it at once.
    if (this.#asked !== undefined && why !== 'launcher') process.exit(130);
    this.#asked ??= why;
    this.#handler?.(why);
  }

  /** `handler(why)`: `SIGTERM`..., or `launcher` when npm (or its shell) ended. */
  onStop(handler: (why: string) => void): void {
    this.#handler = handler;
    if (this.#asked !== undefined) handler(this.#asked);
  }
}
