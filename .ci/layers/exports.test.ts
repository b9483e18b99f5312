// No unused exports (issue 19, .ci/layers/exports.ts): the repository passes, and the check finds an unused export
// on small made-up file sets, through every import form it reads, and in a made-up package on disk.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readRepo, unusedExports, type ExportsInput } from './exports.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the repository has no unused exports', () => {
  const input = readRepo(root);

  it('reads the package entries from package.json and tsconfig.build.json, and the scripts', () => {
    // A read that found no entry or no script would report less than it should, or pass vacuously.
    expect(input.entries).toEqual(expect.arrayContaining(['contracts/lib/index.ts', 'mock/src/index.ts', 'mock/src/adapters/msw.ts', 'suites/bin/site-contracts.mjs', 'suites/cli.ts', 'mock/cli.ts']));
    expect(input.scripts.some((s) => s.includes('contracts/scripts/bundle.ts'))).toBe(true);
    expect(input.files.length).toBeGreaterThan(350);
  });

  it('every export of contracts/, mock/, suites/ and fixtures/ is used by another file, the package or a script', () => {
    const unused = unusedExports(input).map((u) => `${u.path}:${u.line} ${u.name}`);
    expect(unused).toEqual([]);
  });
});

/** The unused exports of a made-up file set, as `path name`. */
function unused(files: Record<string, string>, more: Partial<ExportsInput> = {}): string[] {
  return unusedExports({
    files: Object.entries(files).map(([path, text]) => ({ path, text })),
    packageNames: new Map([['site-contracts/mock', 'mock/src/index.ts']]),
    entries: [],
    scripts: [],
    ...more,
  }).map((u) => `${u.path} ${u.name}`);
}

describe('the check finds an unused export', () => {
  it('an export used only in its own file is unused; one imported elsewhere is used', () => {
    expect(unused({ 'mock/a.ts': 'export const used = 1;\nexport function lonely() { return used; }\nlonely();', 'mock/b.ts': "import { used } from './a.ts';" })).toEqual(['mock/a.ts lonely']);
  });

  it('names every kind of declaration: const (destructured too), function, class, interface, type, enum, export { }, default', () => {
    const a = [
      'export const c = 1, { d } = { d: 2 };',
      'export function f() {}',
      'export class K {}',
      'export interface I {}',
      'export type T = number;',
      'export enum E { A }',
      'const g = 1;',
      'export { g as h };',
      'export default 3;',
    ].join('\n');
    expect(unused({ 'mock/a.ts': a })).toEqual(['mock/a.ts c', 'mock/a.ts d', 'mock/a.ts f', 'mock/a.ts K', 'mock/a.ts I', 'mock/a.ts T', 'mock/a.ts E', 'mock/a.ts h', 'mock/a.ts default']);
  });

  it.each([
    ['a named import', "import { x } from './a.ts';"],
    ['a renamed import', "import { x as y } from './a.ts';\ny;"],
    ['a type import', "import type { x } from './a.ts';"],
    ['an inline type import', "import { type x } from './a.ts';"],
    ['an import without its extension', "import { x } from './a';"],
    ['an import of the .js name', "import { x } from './a.js';"],
    ['a namespace import, by property', "import * as m from './a.ts';\nm.x();"],
    ['a namespace import, in a type', "import type * as m from './a.ts';\nlet v: m.x;"],
    ['import(), destructured', "const { x } = await import('./a.ts');"],
    ['import(), renamed in the pattern', "const { x: y } = await import('./a.ts');"],
    ['import(), by property', "(await import('./a.ts')).x();"],
    ["import('…').x in a type", "let v: import('./a.ts').x;"],
    ['a re-export, used through it', "export { x } from './a.ts';", "import { x } from './b.ts';"],
    ['a renamed re-export, used through it', "export { x as z } from './a.ts';", "import { z } from './b.ts';"],
    ['export *, used through it', "export * from './a.ts';", "import { x } from './b.ts';"],
    ['export * twice over', "export * from './a.ts';", "export * from './b.ts';", "import { x } from './c.ts';"],
    ['the package name', "import { x } from 'site-contracts/mock';", undefined, undefined, 'mock/src/index.ts'],
  ])('%s uses x and only x', (_: string, b: string, c?: string, d?: string, at = 'mock/a.ts') => {
    const files: Record<string, string> = { [at]: 'export function x() {}\nexport function unusedOne() {}', 'mock/b.ts': b };
    if (c !== undefined) files['mock/c.ts'] = c;
    if (d !== undefined) files['mock/d.ts'] = d;
    const found = unused(files);
    expect(found).toContain(`${at} unusedOne`);
    expect(found).not.toContain(`${at} x`);
  });

  it('a re-export nothing uses is unused where it stands and where it comes from', () => {
    expect(unused({ 'mock/a.ts': 'export const x = 1;', 'mock/b.ts': "export { x } from './a.ts';" })).toEqual(['mock/a.ts x', 'mock/b.ts x']);
  });

  it('export * passes on only the names used through it', () => {
    expect(unused({ 'mock/a.ts': 'export const x = 1;\nexport const y = 2;', 'mock/b.ts': "export * from './a.ts';", 'mock/c.ts': "import { x } from './b.ts';" })).toEqual(['mock/a.ts y']);
  });

  it.each([
    ['a namespace used as a value', "import * as m from './a.ts';\nconsole.log(Object.keys(m));"],
    ['a namespace read by index', "import * as m from './a.ts';\nm['x'];"],
    ['import() kept whole', "const m = await import('./a.ts');"],
    ['import() with a rest pattern', "const { ...m } = await import('./a.ts');"],
    ["typeof import('…')", "type M = typeof import('./a.ts');"],
    ['require()', "const m = require('./a.ts');"],
    ['export * as', "export * as m from './a.ts';", "import { m } from './b.ts';"],
  ])('%s uses every export', (_: string, b: string, c?: string) => {
    const files: Record<string, string> = { 'mock/a.ts': 'export const x = 1;\nexport const y = 2;', 'mock/b.ts': b };
    if (c !== undefined) files['mock/c.ts'] = c;
    expect(unused(files)).toEqual([]);
  });

  it('an import from a test is a use; the exports of tests and generated files are not checked', () => {
    expect(unused({ 'mock/a.ts': 'export const x = 1;', 'mock/a.test.ts': "import { x } from './a.ts';\nexport const t = 1;" })).toEqual([]);
    expect(unused({ 'mock/gen.ts': '// GENERATED by `npm run x`: edit the source.\nexport const x = 1;' })).toEqual([]);
    expect(unused({ 'mock/gen.ts': '// Made by hand; GENERATED is no marker here.\nexport const x = 1;' })).toEqual(['mock/gen.ts x']);
  });

  it('only project modules are checked: contracts/, mock/, suites/, fixtures/', () => {
    expect(unused({ '.ci/tool.ts': 'export const x = 1;', 'vitest.config.ts': 'export default {};', 'suites/s.ts': 'export const y = 1;', 'fixtures/lib/f.ts': 'export const z = 1;', 'contracts/c.ts': 'export const w = 1;' })).toEqual([
      'contracts/c.ts w',
      'fixtures/lib/f.ts z',
      'suites/s.ts y',
    ]);
  });

  it("an entry point's exports are used, and so are the exports it passes on", () => {
    const files = { 'mock/src/index.ts': "export const x = 1;\nexport * from './a.ts';\nexport { y } from './b.ts';", 'mock/src/a.ts': 'export const a = 1;', 'mock/src/b.ts': 'export const y = 1;\nexport const notPassedOn = 1;' };
    expect(unused(files)).toContain('mock/src/index.ts x');
    expect(unused(files, { entries: ['mock/src/index.ts'] })).toEqual(['mock/src/b.ts notPassedOn']);
  });

  it.each([
    ['a package.json script', { scripts: ['tsx mock/run.ts --flag'] }, {}],
    ['a shell line', { scripts: ['node --import tsx "./mock/run.ts" >/dev/null'] }, {}],
    ["new URL('./…', import.meta.url)", {}, { 'mock/spawn.ts': "fork(fileURLToPath(new URL('./run.ts', import.meta.url)));" }],
    ['a path from the root in a string', {}, { 'mock/bench.ts': "await import(pathToFileURL(join(ROOT, 'mock/run.ts')).href);" }],
    ['a path from the root without its extension', {}, { 'suites/bin/x.mjs': "const { main } = await import(entry('mock/run'));" }],
  ])('a file run by its path (%s) has its exports used', (_, more, others) => {
    const run = { 'mock/run.ts': 'export function main() {}' };
    expect(unused(run)).toEqual(['mock/run.ts main']);
    expect(unused({ ...run, ...others }, more)).toEqual([]);
  });
});

describe('a path in a string counts only where it names a file that may be run', () => {
  const run = { 'mock/src/run.ts': 'export function main() {}', 'mock/src/index.ts': 'export const x = 1;' };

  it("a test's path from the root is data (a list of modules, a made-up layout); one relative to it is a file it runs", () => {
    expect(unused({ ...run, 'mock/src/a.test.ts': "const nodeSide = ['mock/src/run.ts'];" }, { entries: ['mock/src/index.ts'] })).toEqual(['mock/src/run.ts main']);
    expect(unused({ ...run, 'mock/src/a.test.ts': "fork(fileURLToPath(new URL('./run.ts', import.meta.url)));" }, { entries: ['mock/src/index.ts'] })).toEqual([]);
  });

  it("'.', '..' and a folder name no file, not even the folder's index.ts", () => {
    const texts = ["s.split('.');", "s.split('..');", "new URL('./', import.meta.url);", "new URL('../src/', import.meta.url);", "join(ROOT, 'mock/src');"];
    for (const t of texts) expect(unused({ ...run, 'mock/src/b.ts': t }), t).toEqual(['mock/src/index.ts x', 'mock/src/run.ts main']);
  });

  it('contracts/examples/ is code shown to users, written as their modules would be: not checked', () => {
    expect(unused({ 'contracts/examples/client.ts': 'export const url = 1;' })).toEqual([]);
  });
});

describe('readRepo reads a package on disk', () => {
  it('entries from package.json "exports", "bin" and "main" and tsconfig.build.json, scripts from package.json and .ci/', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-exports-'));
    try {
      const put = async (path: string, text: string) => {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      };
      const pkg = { name: 'p', exports: { './lib': { types: './dist/contracts/lib.d.ts', default: './dist/contracts/lib.js' } }, bin: { p: 'suites/bin/p.mjs' }, main: './dist/mock/main.js', scripts: { gen: 'tsx fixtures/gen.ts' } };
      await put('package.json', JSON.stringify(pkg));
      await put('tsconfig.build.json', '{\n  // the build\n  "files": ["suites/cli.ts"]\n}\n');
      await put('.ci/run', 'npx tsx mock/tool.ts\n');
      await put('.ci/x/step.sh', 'node --import tsx suites/step.ts\n');
      const modules = ['contracts/lib.ts', 'suites/bin/p.mjs', 'mock/main.ts', 'suites/cli.ts', 'fixtures/gen.ts', 'mock/tool.ts', 'suites/step.ts', 'mock/nobody.ts'];
      for (const m of modules) await put(m, 'export const x = 1;\n');
      const input = readRepo(dir);
      expect([...input.entries].sort()).toEqual(['contracts/lib.ts', 'mock/main.ts', 'suites/bin/p.mjs', 'suites/cli.ts']);
      expect(unusedExports(input).map((u) => `${u.path} ${u.name}`)).toEqual(['mock/nobody.ts x']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
