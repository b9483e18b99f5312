// One mock per state file. Two mocks writing the same journal hand out the same IDs, overwrite each other's
// snapshots and leave a journal that no longer loads, so the second start is refused: PATH.lock names the process
// that has the file, created with O_EXCL. A lock whose holder is gone (kill -9, power loss) is taken over. A pid alone
// does not say that: pids are given again, and in a container the mock is process 1 at every start, so a lock naming
// a live pid refused every later start ("in use by process 1": itself). The lock also holds the holder's start time
// (Linux's /proc/<pid>/stat), the boot, the holder's clock origin and a token: a live process of that pid that started
// at another time, or this very process with another origin, is not the holder.
//
// Taking over happens only under a second lock, PATH.lock.break, taken the same way: its holder reads the lock again,
// and removes it only if its holder is still gone. Nobody else removes a lock meanwhile, so what it removes is the
// stale lock it read. (Moving the stale lock aside without it let a process that had read the dead pid move away the
// lock another had just taken, and put it back over a third's: two mocks on one file, seen in CI with six at once.)
// A breaker whose process died during a takeover is moved aside and checked the same way as the lock was before;
// that narrow race needs a crash in the middle of a takeover and another takeover at once. With the lock held, the
// temporary files of compactions a crash interrupted are ours to remove.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The state file is held by another live process. */
export class StateLockError extends Error {
  override readonly name = 'StateLockError';
  constructor(
    readonly path: string,
    readonly pid: number,
    readonly lockPath: string,
  ) {
    super(
      `${path}: in use by process ${pid} (lock ${lockPath}); one mock per state file. ` +
        `If no mock is running on ${path}, the lock is left over from one: removing ${lockPath} is then safe, and the next start takes the file`,
    );
  }
}

export interface StateLock {
  readonly lockPath: string;
  /** Temporary files of interrupted compactions removed when the lock was taken. */
  readonly removed: readonly string[];
  /** Pid of the process whose stale lock was taken over. */
  readonly tookOverFrom?: number;
  /** Why that lock was stale, in words for the note (`is gone`, `is gone; pid 1 is now this process`...). */
  readonly staleBecause?: string;
  release(): Promise<void>;
}

/**
 * What the lock says of its holder. A pid alone cannot tell a live holder from a later process that was given the
 * same number (a container's mock is process 1 at every start), so the holder also writes its start time as the
 * system keeps it, the boot it ran in, its own clock origin and a token of this lock.
 */
interface Holder {
  pid: number;
  /** Linux: /proc/<pid>/stat's starttime (clock ticks after boot); absent where the system does not say. */
  start?: string;
  /** Linux: /proc/sys/kernel/random/boot_id. */
  boot?: string;
  /** performance.timeOrigin of the holder: the same number for every lock one process takes, in no other process. */
  origin?: string;
  token?: string;
}

/** The processes of this system, passed in so tests can make pids live, dead or reused. */
interface ProcessTable {
  /** Whether a process with this pid exists. */
  alive(pid: number): boolean;
  /** When it started, as the system keeps it (undefined where it does not say). */
  startOf(pid: number): string | undefined;
  /** This boot's id (undefined where the system does not say). */
  boot(): string | undefined;
}

/** process.kill(pid, 0): ESRCH means no such process; EPERM means one we may not signal, still alive. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function procStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start !== undefined && /^\d+$/.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

function procBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** This system's processes: signal 0 for life, /proc for start times (Linux; elsewhere the pid alone decides). */
export const systemProcesses: ProcessTable = { alive: processAlive, startOf: procStartTime, boot: procBootId };

const errno = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

/** `4242` (the format before start times) or `4242\nstart=… boot=… origin=… token=…`. */
function parseHolder(text: string): Holder | undefined {
  const [first = '', rest = ''] = text.split('\n', 2);
  const pid = Number.parseInt(first.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0 || !/^\s*\d+\s*$/.test(first)) return undefined;
  const holder: Holder = { pid };
  for (const pair of rest.trim().split(/\s+/)) {
    const eq = pair.indexOf('=');
    const key = pair.slice(0, eq);
    if (eq > 0 && (key === 'start' || key === 'boot' || key === 'origin' || key === 'token')) holder[key] = pair.slice(eq + 1);
  }
  return holder;
}

function formatHolder(h: Holder): string {
  const fields = (['start', 'boot', 'origin', 'token'] as const).filter((k) => h[k] !== undefined).map((k) => `${k}=${h[k]}`);
  return `${h.pid}\n${fields.join(' ')}\n`;
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    return parseHolder(await readFile(path, 'utf8'));
  } catch (e) {
    if (errno(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Why a lock's holder no longer holds it, or undefined while it does. A lock naming this process's own pid is this
 * process's (another mock in it) only if its clock origin is ours: otherwise an earlier process had the same pid (a
 * container's process 1, restarted). Another pid holds it while a process of that pid lives, unless that process
 * started after the holder did, or in another boot: the number was given again.
 */
function staleBecause(h: Holder, self: Holder, procs: ProcessTable): string | undefined {
  if (h.pid === self.pid) return h.origin !== undefined && h.origin === self.origin ? undefined : `is gone; pid ${h.pid} is now this process`;
  if (!procs.alive(h.pid)) return 'is gone';
  const boot = procs.boot();
  if (h.boot !== undefined && boot !== undefined && h.boot !== boot) return `is gone (it ran before the system restarted); pid ${h.pid} is another process now`;
  const start = h.start === undefined ? undefined : procs.startOf(h.pid);
  if (start !== undefined && start !== h.start) return `is gone; pid ${h.pid} is another process now (started at ${start}, the holder at ${h.start}, clock ticks after boot)`;
  return undefined;
}

/**
 * The lock appears whole or not at all: the holder is written to a file of our own, which is then hard-linked to the
 * lock's name (link() fails with EEXIST when the name is taken), so no reader ever sees an empty lock.
 */
async function tryCreate(lockPath: string, self: Holder): Promise<boolean> {
  const mine = `${lockPath}.${self.pid}-${randomUUID()}`;
  const fh = await open(mine, 'wx', 0o644);
  try {
    await fh.writeFile(formatHolder(self));
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await link(mine, lockPath);
    return true;
  } catch (e) {
    if (errno(e) === 'EEXIST') return false;
    throw e;
  } finally {
    await unlink(mine).catch(() => undefined);
  }
}

/** A breaker left by a process that died during a takeover, moved aside if its holder is gone. */
async function clearDeadBreaker(breaker: string, stale: (h: Holder) => string | undefined): Promise<void> {
  const holder = await readHolder(breaker);
  // Gone already (or not yet readable): nothing to clear. Moving it aside then could move a breaker made meanwhile.
  if (holder === undefined || stale(holder) === undefined) return;
  const aside = `${breaker}.stale-${randomUUID()}`;
  try {
    await rename(breaker, aside);
  } catch (e) {
    if (errno(e) === 'ENOENT') return;
    throw e;
  }
  const moved = await readHolder(aside);
  // A live breaker moved by mistake goes back, unless another was made meanwhile.
  if (moved !== undefined && stale(moved) === undefined) await link(aside, breaker).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/** Files `.<name>.<suffix>.tmp` and `.<name>.journal.<suffix>.tmp` beside the state file (persist-fs.ts tempPathFor). */
async function removeLeftovers(path: string): Promise<string[]> {
  const dir = dirname(path);
  const prefixes = [`.${basename(path)}.`, `.${basename(path)}.journal.`];
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.tmp') || !prefixes.some((p) => name.startsWith(p))) continue;
    await unlink(join(dir, name)).catch(() => undefined);
    removed.push(join(dir, name));
  }
  return removed;
}

interface LockOptions {
  /** This process's pid (tests: several contenders in one process). */
  pid?: number;
  /** This process's clock origin (tests: a restarted process 1). */
  origin?: string;
  procs?: ProcessTable;
}

/**
 * Takes PATH.lock for this process, or throws StateLockError naming the live process that holds it. Errors of the
 * file system itself (a directory that cannot be written) are thrown as they are.
 */
export async function acquireStateLock(path: string, opts: LockOptions = {}): Promise<StateLock> {
  const procs = opts.procs ?? systemProcesses;
  const pid = opts.pid ?? process.pid;
  const start = procs.startOf(pid);
  const boot = procs.boot();
  const self: Holder = {
    pid,
    ...(start !== undefined ? { start } : {}),
    ...(boot !== undefined ? { boot } : {}),
    origin: opts.origin ?? String(performance.timeOrigin),
    token: randomUUID(),
  };
  const stale = (h: Holder) => staleBecause(h, self, procs);
  const lockPath = `${path}.lock`;
  let tookOver: { pid: number; because: string } | undefined;
  // A few rounds at most: each one either takes the lock, is refused, or removed a stale lock; waits for another
  // process's takeover (a few file operations) are counted apart, and bounded too.
  let waits = 0;
  for (let round = 0; round < 8; round++) {
    if (await tryCreate(lockPath, self)) {
      const removed = await removeLeftovers(path);
      let released = false;
      return {
        lockPath,
        removed,
        ...(tookOver ? { tookOverFrom: tookOver.pid, staleBecause: tookOver.because } : {}),
        release: async () => {
          if (released) return;
          released = true;
          // Only our own lock: never remove one another mock took over meanwhile.
          if ((await readHolder(lockPath).catch(() => undefined))?.token === self.token) await unlink(lockPath).catch(() => undefined);
        },
      };
    }
    const holder = await readHolder(lockPath);
    // A lock that names no process (not one this code wrote) is as stale as a dead one.
    if (holder !== undefined && stale(holder) === undefined) throw new StateLockError(path, holder.pid, lockPath);
    const breaker = `${lockPath}.break`;
    if (!(await tryCreate(breaker, self))) {
      // Another process is taking over: wait for it, or clear the way if it died in the middle.
      await clearDeadBreaker(breaker, stale);
      if (++waits > 400) break;
      await new Promise((r) => setTimeout(r, 5));
      round--;
      continue;
    }
    try {
      const text = await readFile(lockPath, 'utf8').catch((e: unknown) => {
        if (errno(e) === 'ENOENT') return undefined;
        throw e;
      });
      // Gone: someone may be creating it this moment, so it is not ours to remove; try O_EXCL again.
      if (text !== undefined) {
        const now = parseHolder(text);
        const because = now && stale(now);
        if (now !== undefined && because === undefined) throw new StateLockError(path, now.pid, lockPath);
        // The stale holder's (or not a pid at all): no one but the breaker's holder removes a lock, and no one
        // creates one while it exists, so this removes what was read.
        await unlink(lockPath).catch((e: unknown) => {
          if (errno(e) !== 'ENOENT') throw e;
        });
        if (now !== undefined && because !== undefined) tookOver = { pid: now.pid, because };
      }
    } finally {
      await unlink(breaker).catch(() => undefined);
    }
  }
  throw new Error(`${lockPath}: could not be taken (it keeps changing)`);
}
