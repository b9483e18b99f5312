// `mkdir -p` that always settles. Node's own `mkdir(path, { recursive: true })` never settles when a parent exists
// but cannot hold the child: procfs answers ENOENT for `/proc/nope`, Node takes that for a missing parent, makes the
// parent (it exists), and tries again, forever at 100 % CPU (the same with a dangling symlink). A user's
// `--report-dir /proc/nope` hung the run before its first request. Here each missing component is made on its own,
// and an ENOENT once its parent is known to exist is final.
import * as nodeFs from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

interface DirectoryFs {
  stat(path: string): Promise<{ isDirectory(): boolean }>;
  mkdir(path: string): Promise<unknown>;
}

export async function makeDirectory(path: string, fs: DirectoryFs = nodeFs): Promise<void> {
  const missing: string[] = [];
  for (let p = resolve(path); ; p = dirname(p)) {
    const kind = await fs.stat(p).then(
      (s) => (s.isDirectory() ? 'directory' : 'other'),
      (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? 'missing' : Promise.reject(e)),
    );
    if (kind === 'directory') break;
    if (kind === 'other') throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${p}'`), { code: 'ENOTDIR', path: p });
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing.reverse()) {
    await fs.mkdir(p).catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
  }
}

/** node:fs/promises with a `mkdir` that settles (makeDirectory), for the report and diff writers. */
export const reportFs = {
  mkdir: (path: string, _options: { recursive: true }) => makeDirectory(path),
  writeFile: (path: string, data: string, encoding: 'utf8') => nodeFs.writeFile(path, data, encoding),
  rename: (from: string, to: string) => nodeFs.rename(from, to),
  rm: (path: string, options: { force: true }) => nodeFs.rm(path, options),
};
