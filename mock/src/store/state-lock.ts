// One mock per state file. Two mocks writing the same journal hand out the same IDs, overwrite each other's
// snapshots and leave a journal that no longer loads, so the second start is refused: PATH.lock holds the pid of the
// process that has the file, created with O_EXCL. A lock whose process is gone (kill -9, power loss) is taken over.
//
// Taking over happens only under a second lock, PATH.lock.break, taken the same way: its holder reads the lock again,
// and removes it only if its process is still gone. Nobody else removes a lock meanwhile, so what it removes is the
// stale lock it read. (Moving the stale lock aside without it let a process that had read the dead pid move away the
// lock another had just taken, and put it back over a third's: two mocks on one file, seen in CI with six at once.)
// A breaker whose process died during a takeover is moved aside and checked the same way as the lock was before;
// that narrow race needs a crash in the middle of a takeover and another takeover at once. With the lock held, the
// temporary files of compactions a crash interrupted are ours to remove.
import { randomUUID } from 'node:crypto';
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
    super(`${path}: in use by process ${pid} (lock ${lockPath}); one mock per state file`);
  }
}

export interface StateLock {
  readonly lockPath: string;
  /** Temporary files of interrupted compactions removed when the lock was taken. */
  readonly removed: readonly string[];
  /** Pid of a dead process whose lock was taken over. */
  readonly tookOverFrom?: number;
  release(): Promise<void>;
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

const errno = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code;

function parsePid(text: string): number | undefined {
  const n = Number.parseInt(text.trim(), 10);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

async function readPid(path: string): Promise<number | undefined> {
  try {
    return parsePid(await readFile(path, 'utf8'));
  } catch (e) {
    if (errno(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * The lock appears whole or not at all: the pid is written to a file of our own, which is then hard-linked to the
 * lock's name (link() fails with EEXIST when the name is taken), so no reader ever sees an empty lock.
 */
async function tryCreate(lockPath: string, pid: number): Promise<boolean> {
  const mine = `${lockPath}.${pid}-${randomUUID()}`;
  const fh = await open(mine, 'wx', 0o644);
  try {
    await fh.writeFile(`${pid}\n`);
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

/** A breaker left by a process that died during a takeover, moved aside if its process is gone. */
async function clearDeadBreaker(breaker: string, alive: (pid: number) => boolean): Promise<void> {
  const holder = await readPid(breaker);
  // Gone already (or not yet readable): nothing to clear. Moving it aside then could move a breaker made meanwhile.
  if (holder === undefined || alive(holder)) return;
  const aside = `${breaker}.stale-${randomUUID()}`;
  try {
    await rename(breaker, aside);
  } catch (e) {
    if (errno(e) === 'ENOENT') return;
    throw e;
  }
  const moved = await readPid(aside);
  // A live breaker moved by mistake goes back, unless another was made meanwhile.
  if (moved !== undefined && alive(moved)) await link(aside, breaker).catch(() => undefined);
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

/**
 * Takes PATH.lock for this process, or throws StateLockError naming the live process that holds it. Errors of the
 * file system itself (a directory that cannot be written) are thrown as they are.
 */
export async function acquireStateLock(path: string, opts: { pid?: number; alive?: (pid: number) => boolean } = {}): Promise<StateLock> {
  const pid = opts.pid ?? process.pid;
  const alive = opts.alive ?? processAlive;
  const lockPath = `${path}.lock`;
  let tookOverFrom: number | undefined;
  // A few rounds at most: each one either takes the lock, is refused, or removed a dead lock; waits for another
  // process's takeover (a few file operations) are counted apart, and bounded too.
  let waits = 0;
  for (let round = 0; round < 8; round++) {
    if (await tryCreate(lockPath, pid)) {
      const removed = await removeLeftovers(path);
      let released = false;
      return {
        lockPath,
        removed,
        ...(tookOverFrom !== undefined ? { tookOverFrom } : {}),
        release: async () => {
          if (released) return;
          released = true;
          // Only our own lock: never remove one another process took over meanwhile.
          if ((await readPid(lockPath).catch(() => undefined)) === pid) await unlink(lockPath).catch(() => undefined);
        },
      };
    }
    const holder = await readPid(lockPath);
    // A lock that names no process (not one this code wrote) is as stale as a dead one.
    if (holder !== undefined && alive(holder)) throw new StateLockError(path, holder, lockPath);
    const breaker = `${lockPath}.break`;
    if (!(await tryCreate(breaker, pid))) {
      // Another process is taking over: wait for it, or clear the way if it died in the middle.
      await clearDeadBreaker(breaker, alive);
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
        const now = parsePid(text);
        if (now !== undefined && alive(now)) throw new StateLockError(path, now, lockPath);
        // The dead process's (or not a pid at all): no one but the breaker's holder removes a lock, and no one
        // creates one while it exists, so this removes what was read.
        await unlink(lockPath).catch((e: unknown) => {
          if (errno(e) !== 'ENOENT') throw e;
        });
        if (now !== undefined) tookOverFrom = now;
      }
    } finally {
      await unlink(breaker).catch(() => undefined);
    }
  }
  throw new Error(`${lockPath}: could not be taken (it keeps changing)`);
}
