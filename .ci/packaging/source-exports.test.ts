// The package's shape, held together in the checkout: every export has a source, the build emits it (it is one of
// tsconfig.build.json's entry points), the tarball's `files` carry it, and tsconfig.json's `paths` (tsc's copy of
// the names, for tests importing the package by name) say what the exports say. The packed package itself is
// tried where it is installed by .ci/consumer/run.sh.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readPackageJson, sourceExports, sourceOfTarget, targetOf, type PackageJson } from './source-exports.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const pkg = readPackageJson(ROOT) as PackageJson & { bin: Record<string, string>; files: string[]; dependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> };

function tsconfig(name: string): { compilerOptions: { paths?: Record<string, string[]> }; files?: string[] } {
  const read = ts.readConfigFile(join(ROOT, name), ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return read.config;
}

const shipped = (path: string) => pkg.files.some((f) => (f.endsWith('/') ? path.startsWith(f) : path === f)) || path === 'package.json';

describe('the exports map', () => {
  it('maps built files back to their one source', () => {
    expect(sourceOfTarget('./dist/mock/src/index.js')).toBe('mock/src/index.ts');
    expect(sourceOfTarget('./dist/mock/src/index.d.ts')).toBe('mock/src/index.ts');
    expect(sourceOfTarget('./dist/bundle/mock/src/index.js')).toBe('mock/src/index.ts');
    expect(sourceOfTarget('./contracts/openapi.yaml')).toBe('contracts/openapi.yaml');
    expect(sourceExports({ name: 'p', exports: { '.': { types: './dist/a.d.ts', default: './dist/a.js' }, './b': './b.yaml' } })).toEqual(
      new Map([
        ['p', 'a.ts'],
        ['p/b', 'b.yaml'],
      ]),
    );
  });

  it('has every name the README promises, each with a source in the checkout', () => {
    const names = sourceExports(pkg);
    expect([...names.keys()].sort()).toEqual(
      ['site-contracts', 'site-contracts/arbitraries', 'site-contracts/mock', 'site-contracts/mock/browser', 'site-contracts/mock/msw', 'site-contracts/openapi.yaml', 'site-contracts/package.json', 'site-contracts/types'].sort(),
    );
    for (const [name, source] of names) expect(existsSync(join(ROOT, source)), `${name} → ${source}`).toBe(true);
  });

  it('gives types first, and the JavaScript and the declarations of one build entry point', () => {
    const entries = new Set(tsconfig('tsconfig.build.json').files);
    for (const [key, entry] of Object.entries(pkg.exports)) {
      if (typeof entry === 'string') continue;
      expect(Object.keys(entry)[0], key).toBe('types');
      const js = targetOf(entry);
      if (!js.startsWith('./dist/')) continue;
      // A bundled entry's declarations are tsc's of the same source (dist/bundle/X.js, dist/X.d.ts).
      expect(entry.types, key).toBe(js.replace(/^\.\/dist\/bundle\//, './dist/').replace(/\.js$/, '.d.ts'));
      expect(entries.has(sourceOfTarget(js)), `${key}: ${sourceOfTarget(js)} is not an entry point of tsconfig.build.json`).toBe(true);
    }
  });

  it('is shipped: every target (and the bin) is in `files`', () => {
    for (const [key, entry] of Object.entries(pkg.exports)) {
      const targets = typeof entry === 'string' ? [entry] : Object.values(entry);
      for (const t of targets) expect(shipped(t.replace(/^\.\//, '')), `${key}: ${t}`).toBe(true);
    }
    for (const bin of Object.values(pkg.bin)) {
      expect(shipped(bin), bin).toBe(true);
      expect(existsSync(join(ROOT, bin))).toBe(true);
    }
  });

  it("is what tsconfig.json's paths say, for every export tsc can read", () => {
    const paths = tsconfig('tsconfig.json').compilerOptions.paths ?? {};
    const code = [...sourceExports(pkg)].filter(([, source]) => /\.(c?ts|json)$/.test(source));
    expect(Object.fromEntries(Object.entries(paths).map(([name, [p]]) => [name, p?.replace(/^\.\//, '')]))).toEqual(Object.fromEntries(code));
  });
});

describe('dependencies', () => {
  it('runs on its dependencies alone; Prism and MSW are optional peers', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['ajv', 'ajv-formats', 'fast-check', 'fastest-levenshtein', 'log-update', 'undici', 'yaml']);
    expect(pkg.peerDependenciesMeta['@stoplight/prism-cli']?.optional).toBe(true);
    expect(pkg.peerDependenciesMeta['msw']?.optional).toBe(true);
  });
});
