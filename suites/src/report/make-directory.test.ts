import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDirectory } from './make-directory.ts';

describe('makeDirectory', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-contracts-mkdir-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes every missing component, and takes one that exists', async () => {
    const deep = join(dir, 'a', 'b', 'c');
    await makeDirectory(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
    await expect(makeDirectory(deep)).resolves.toBeUndefined();
    await expect(makeDirectory(dir)).resolves.toBeUndefined();
  });

  it('refuses a path through a file with ENOTDIR', async () => {
    await writeFile(join(dir, 'f'), '');
    await expect(makeDirectory(join(dir, 'f', 'x'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(makeDirectory(join(dir, 'f'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('settles with ENOENT under a dangling symlink, where recursive mkdir spins', async () => {
    const { symlink } = await import('node:fs/promises');
    await symlink(join(dir, 'nowhere'), join(dir, 'dangling'));
    // stat follows the link, so the link counts as missing; making it answers EEXIST (the link is there), and its
    // child ENOENT: final, since the parent was just found to exist.
    await expect(makeDirectory(join(dir, 'dangling', 'reports'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.runIf(existsSync('/proc/self'))('settles with ENOENT under /proc, where recursive mkdir spins for good', async () => {
    await expect(makeDirectory('/proc/nope/reports')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
