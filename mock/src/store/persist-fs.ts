// The file operations the state file needs, passed in so tests can fail or "kill" any step, and the one way a whole
// file is replaced: written to a temporary file in the same directory, fsynced, renamed over the old one, and the
// directory fsynced so the rename itself is durable. A process killed at any point leaves the old file or the new
// one, never a torn one.

import { randomUUID } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ReadFs } from './load-fixtures.ts';

export interface FileHandleLike {
  /** Writes all of `data` (at the end, for a handle opened with 'a'). */
  write(data: Uint8Array): Promise<void>;
  /** fdatasync for files, fsync for directories: returns once what was written is on disk. */
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export interface PersistFs extends ReadFs {
  /** The file's bytes from `from` on (all of them by default). */
  readBytes(path: string, from?: number): Promise<Uint8Array>;
  open(path: string, flags: 'a' | 'wx' | 'r', mode?: number): Promise<FileHandleLike>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

export const nodePersistFs: PersistFs = {
  readFile: (path, encoding) => fsp.readFile(path, encoding),
  readBytes: async (path, from = 0) => {
    if (from === 0) return fsp.readFile(path);
    const fh = await fsp.open(path, 'r');
    try {
      const { size } = await fh.stat();
      const buf = Buffer.alloc(Math.max(0, size - from));
      let at = 0;
      while (at < buf.length) {
        const { bytesRead } = await fh.read(buf, at, buf.length - at, from + at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      return buf.subarray(0, at);
    } finally {
      await fh.close();
    }
  },
  open: async (path, flags, mode) => {
    const fh = await fsp.open(path, flags, mode);
    const isDir = flags === 'r' && (await fh.stat()).isDirectory();
    return {
      write: async (data) => {
        let at = 0;
        while (at < data.byteLength) at += (await fh.write(data, at, data.byteLength - at)).bytesWritten;
      },
      sync: () => (isDir ? fh.sync() : fh.datasync()),
      truncate: (length) => fh.truncate(length),
      close: () => fh.close(),
    };
  },
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

// Unique without a counter kept in the module: two writers (this process or another) never share a temporary file.
const defaultTmpSuffix = () => `${process.pid}-${randomUUID()}`;

/** The temporary file a replacement of `path` is written to first: same directory, so the rename is atomic. */
export function tempPathFor(path: string, suffix: string): string {
  return join(dirname(path), `.${basename(path)}.${suffix}.tmp`);
}

/** How long the event loop may be held writing one piece, and how big a piece may grow before it is written. */
const SLICE_MS = 2;
const SLICE_BYTES = 1 << 19;

/**
 * Replaces `path` with `content` atomically (see the file comment). `content` may come in pieces: they are joined
 * into writes of about a megabyte, and the event loop is given back between writes, so serialising a large state
 * never holds other requests for more than a few milliseconds. Returns the bytes written. On failure the temporary
 * file is removed when possible and the error rethrown; `path` is untouched unless the rename happened.
 */
export async function writeFileAtomic(path: string, content: string | Iterable<string>, fs: PersistFs = nodePersistFs, tmpSuffix: () => string = defaultTmpSuffix): Promise<number> {
  const tmp = tempPathFor(path, tmpSuffix());
  let handle: FileHandleLike | undefined;
  let bytes = 0;
  try {
    handle = await fs.open(tmp, 'wx', 0o644);
    let parts: string[] = [];
    let size = 0;
    let started = performance.now();
    const flush = async () => {
      const data = Buffer.from(parts.join(''), 'utf8');
      parts = [];
      size = 0;
      await handle!.write(data);
      bytes += data.byteLength;
      started = performance.now();
    };
    for (const part of typeof content === 'string' ? [content] : content) {
      parts.push(part);
      size += part.length;
      if (size >= SLICE_BYTES || performance.now() - started >= SLICE_MS) await flush();
    }
    if (size > 0 || bytes === 0) await flush();
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
  await syncDirectory(dirname(path), fs);
  return bytes;
}
