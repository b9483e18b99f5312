// `--state-file PATH`: the store's state survives restarts.
//
// Saves are atomic: the new state goes to a temporary file in the same directory, is fsynced, and
// replaces the old file by rename, after which the directory is fsynced so the rename itself is
// durable. A process killed at any point leaves either the old file or the new one, never a torn
// one. The fs functions are passed in, so tests can fail or "kill" any step.

import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { FixtureError } from './fixture-error.ts';
import { loadFixtures, parseStateText, unreadable, type ReadFs } from './load-fixtures.ts';
import type { StoreData } from './model.ts';
import { createStore, type Store, type StoreOptions } from './store.ts';
import type { DeepReadonly } from './table.ts';

export interface FileHandleLike {
  writeFile(data: string, encoding: 'utf8'): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface PersistFs extends ReadFs {
  open(path: string, flags: string, mode?: number): Promise<FileHandleLike>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

export const nodePersistFs: PersistFs = {
  readFile: (path, encoding) => fsp.readFile(path, encoding),
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  rename: (from, to) => fsp.rename(from, to),
  unlink: (path) => fsp.unlink(path),
};

// Directory fsync is a POSIX notion; these codes mean "this platform or fs cannot", not "it failed".
const DIR_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EINVAL', 'EBADF', 'ENOTSUP', 'EACCES']);

async function syncDirectory(dir: string, fs: PersistFs): Promise<void> {
  let handle: FileHandleLike | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (e) {
    if (!DIR_SYNC_UNSUPPORTED.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

let tmpCounter = 0;
const defaultTmpSuffix = () => `${process.pid}-${++tmpCounter}`;

/**
 * Replaces `path` with `text` atomically (see the file comment). On failure the temporary file is
 * removed when possible and the error rethrown; `path` is untouched unless the rename happened.
 */
export async function writeFileAtomic(path: string, text: string, fs: PersistFs = nodePersistFs, tmpSuffix: () => string = defaultTmpSuffix): Promise<void> {
  const dir = dirname(path);
  // Same directory as the target: rename is only atomic within one filesystem.
  const tmp = join(dir, `.${basename(path)}.${tmpSuffix()}.tmp`);
  let handle: FileHandleLike | undefined;
  try {
    handle = await fs.open(tmp, 'wx', 0o644);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    const h = handle;
    handle = undefined;
    await h.close();
    await fs.rename(tmp, path);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(tmp).catch(() => undefined);
    throw e;
  }
  await syncDirectory(dir, fs);
}

/** The state file's text: the store snapshot plus when it was saved. */
export function serializeState(data: DeepReadonly<StoreData>, savedAt?: Date): string {
  const { version, ...rest } = data;
  return `${JSON.stringify({ version, ...(savedAt ? { savedAt: savedAt.toISOString() } : {}), ...rest })}\n`;
}

/**
 * Reads and checks a state file; `undefined` when there is none yet (first run). Any other problem
 * is a FixtureError naming the file (and the JSON pointer, or line and column).
 */
export async function loadState(path: string, fs: ReadFs = nodePersistFs): Promise<StoreData | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return undefined;
    throw new FixtureError('unreadable', [unreadable(path, e)]);
  }
  return parseStateText(text, path);
}

export async function saveState(path: string, data: DeepReadonly<StoreData>, fs: PersistFs = nodePersistFs, savedAt?: Date): Promise<void> {
  await writeFileAtomic(path, serializeState(data, savedAt), fs);
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PersisterOptions {
  path: string;
  fs?: PersistFs;
  /** Quiet time after the last write before saving. */
  delayMs?: number;
  /** Under a steady stream of writes, save at least this often. */
  maxDelayMs?: number;
  timers?: Timers;
  now?: () => Date;
  /** Failures of background saves (a failed flush/close rejects instead). */
  onError?: (error: unknown) => void;
}

export interface Persister {
  /** Schedules a debounced save (the store subscription calls this on every write). */
  markDirty(): void;
  /** Saves now if anything changed since the last save, and waits until it is on disk. */
  flush(): Promise<void>;
  /** The final save on shutdown: stops listening to the store, saves, waits. Safe to call twice. */
  close(): Promise<void>;
  /** Completed saves, for tests and diagnostics. */
  readonly saves: number;
}

const realTimers: Timers = {
  setTimeout: (cb, ms) => {
    const t = setTimeout(cb, ms);
    // A pending debounce must not keep the process alive; shutdown calls close() for the last save.
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export function createPersister(store: Store, options: PersisterOptions): Persister {
  const fs = options.fs ?? nodePersistFs;
  const delay = options.delayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 2000;
  const timers = options.timers ?? realTimers;
  const now = options.now ?? (() => new Date());
  const onError = options.onError ?? ((e: unknown) => console.error(`state file ${options.path}: save failed:`, e));

  let savedVersion = store.version;
  let timer: unknown;
  let firstDirtyAt: number | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  let saves = 0;

  const clearTimer = () => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };

  // One save at a time; the snapshot is taken when the save starts, so it is a consistent state.
  const saveOnce = async (): Promise<void> => {
    while (running) await running.catch(() => undefined);
    if (store.version === savedVersion) return;
    const version = store.version;
    const data = store.snapshot();
    const attempt = saveState(options.path, data, fs, now());
    running = attempt;
    try {
      await attempt;
      savedVersion = Math.max(savedVersion, version);
      saves++;
    } finally {
      running = undefined;
    }
  };

  const background = () => {
    timer = undefined;
    firstDirtyAt = undefined;
    saveOnce()
      .then(() => {
        // Writes that arrived during the save need one more.
        if (store.version !== savedVersion && !closed) markDirty();
      })
      .catch(onError);
  };

  const markDirty = () => {
    if (closed) return;
    const t = now().getTime();
    firstDirtyAt ??= t;
    clearTimer();
    const wait = Math.max(0, Math.min(delay, firstDirtyAt + maxDelay - t));
    timer = timers.setTimeout(background, wait);
  };

  const unsubscribe = store.subscribe(() => markDirty());

  return {
    markDirty,
    flush: async () => {
      clearTimer();
      firstDirtyAt = undefined;
      await saveOnce();
    },
    close: async () => {
      if (!closed) {
        closed = true;
        unsubscribe();
        clearTimer();
      }
      await saveOnce();
    },
    get saves() {
      return saves;
    },
  };
}

export interface OpenStoreOptions extends StoreOptions {
  fixturesDir: string;
  /** When set, state is loaded from it if it exists, and saved to it after writes. */
  stateFile?: string;
  fs?: PersistFs;
  persister?: Omit<PersisterOptions, 'path' | 'fs'>;
}

/** Fixtures + optional state file -> a ready store (and its persister when a state file is used). */
export async function openStore(options: OpenStoreOptions): Promise<{ store: Store; persister?: Persister }> {
  const fs = options.fs ?? nodePersistFs;
  const fixtures = await loadFixtures(options.fixturesDir, fs);
  const storeOptions: StoreOptions = options.now ? { now: options.now } : {};
  if (!options.stateFile) return { store: createStore(fixtures, storeOptions) };
  const state = await loadState(options.stateFile, fs);
  const store = createStore(fixtures, state ? { ...storeOptions, state } : storeOptions);
  const persister = createPersister(store, { ...options.persister, path: options.stateFile, fs, ...(options.now ? { now: options.now } : {}) });
  return { store, persister };
}
