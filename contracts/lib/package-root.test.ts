import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isEntryModule, PACKAGE_ROOT, packagePath, packageRootOf } from './package-root.ts';

describe('the package root', () => {
  const root = '/opt/app/node_modules/site-contracts';
  const has = (files: string[]) => (p: string) => files.includes(p);

  it('is the nearest directory with a package.json, from the sources or from the build', () => {
    const exists = has([join(root, 'package.json'), '/opt/app/package.json']);
    expect(packageRootOf(pathToFileURL(join(root, 'contracts/lib/loader.ts')), exists)).toBe(root);
    expect(packageRootOf(pathToFileURL(join(root, 'dist/contracts/lib/loader.js')), exists)).toBe(root);
  });

  it('is an error naming where it looked when there is none', () => {
    expect(() => packageRootOf(pathToFileURL('/x/y/z.js'), () => false)).toThrow('no package.json above /x/y');
  });

  it('holds the contract and the fixtures here', async () => {
    const { existsSync } = await import('node:fs');
    expect(existsSync(packagePath('contracts/openapi.yaml'))).toBe(true);
    expect(existsSync(packagePath('fixtures/calendar.json'))).toBe(true);
    expect(existsSync(join(PACKAGE_ROOT, 'package.json'))).toBe(true);
  });
});

describe('isEntryModule', () => {
  it('is true for the script node started, false for a module another imported', async () => {
    const { mkdtemp, writeFile, symlink, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'entry-'));
    try {
      const file = join(dir, 'cli.js');
      await writeFile(file, '');
      await symlink(file, join(dir, 'bin'));
      const url = pathToFileURL(file).href;
      expect(isEntryModule(url, file)).toBe(true);
      expect(isEntryModule(url, join(dir, 'bin'))).toBe(true); // npm's bin links
      expect(isEntryModule(url, join(dir, 'other.js'))).toBe(false);
      expect(isEntryModule(url, undefined)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
