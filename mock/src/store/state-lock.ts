// One mock per state file. Two mocks writing the same journal hand out the same IDs, overwrite each other's
// snapshots and leave a journal that no longer loads, so the second start is refused: PATH.lock holds the pid of the
// process that has the file, created with O_EXCL. A lock whose process is gone (kill -9, power loss) is taken over.
//
// Taking over is a rename of the stale lock to a name of our own, then a check that what we moved is the stale one:
// rename is atomic, so of two processes taking over at once only one moves the stale lock; the other finds no lock
// (and tries O_EXCL again) or a live one (and is refused). With the lock held, the temporary files of compactions a
// crash interrupted are ours to remove.
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

async function readPid(path: string): Promise<number | undefined> {
  try {
    const n = Number.parseInt((await readFile(path, 'utf8')).trim(), 10);
    return Number.isInteger(n) && n > 0 ? n : undefined;
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
  // A few rounds at most: each one either takes the lock, is refused, or moved a dead lock out of the way.
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
    const aside = `${lockPath}.stale-${pid}-${randomUUID()}`;
    try {
      await rename(lockPath, aside);
    } catch (e) {
      if (errno(e) === 'ENOENT') continue; // someone else moved it first: try O_EXCL again
      throw e;
    }
    const moved = await readPid(aside);
    if (moved !== undefined && moved !== holder && alive(moved)) {
      // Between our read and our rename another process took the lock over: give it back and give way.
      await rename(aside, lockPath).catch(() => undefined);
      throw new StateLockError(path, moved, lockPath);
    }
    await unlink(aside).catch(() => undefined);
    if (holder !== undefined) tookOverFrom = holder;
  }
  throw new Error(`${lockPath}: could not be taken (it keeps changing)`);
}
