// `npm run build`'s bundling step: the package's exports whose JavaScript is under dist/bundle/ ('site-contracts',
// '/arbitraries', '/mock', '/mock/msw': the ones that run in Node) as ES modules bundled by esbuild, each at its
// source's path below dist/bundle/ (mock/src/index.ts → dist/bundle/mock/src/index.js). Why: a frontend's vitest
// file is a process of its own (the forks pool), and importing `site-contracts/mock` from the per-module build read
// and linked about 180 modules of dist/ in every file; the bundle is a few files.
//
// One path: the bundle is built from the same sources tsc compiles to dist/ (the declaration files stay there), by
// esbuild without minifying (stack traces keep the functions' names). The entries are bundled in one run with shared
// chunks, so a module two entries use (the contract's loader) exists once, and a contract loaded through
// 'site-contracts' is the same code a mock from 'site-contracts/mock' runs. Packages stay imports (`packages:
// 'external'`): ajv, yaml, fast-check and msw (a peer) are the installing project's own copies. The bundle sits below
// the package root, so package-root.ts finds package.json, the contract, the fixtures and dist/contract-cache/ from
// it as from dist/. Beside the code, fixture-cache/ keeps the bundled fixtures as the checks accepted them
// (mock/src/store/checked-fixtures.ts), which only this bundle reads. bundle.test.ts holds the bundle's answers,
// from that cache, byte-equal to the sources' from a cold check.
//
//   tsx .ci/packaging/bundle.ts        (bundlePackage() below: the test builds one of its own to compare)
import { build } from 'esbuild';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntryModule } from '../../contracts/lib/package-root.ts';
import { bundledExports, readPackageJson } from './source-exports.ts';
import { fileCacheIo } from '../../contracts/lib/loader.ts';
import { keepCheckedFixtures } from '../../mock/src/store/load-fixtures.ts';

/** The folder of checked fixture sets of a bundle in `outdir` (both from the package's root). */
export const fixtureCacheOf = (outdir: string): string => join(outdir, 'fixture-cache').split(sep).join('/');

/**
 * Bundles the package at `root`'s bundled exports into `outdir` (from the root; default dist/bundle/), each at its
 * source's path there; returns the files written, from the root. Throws when an export's file was not written.
 */
export async function bundlePackage(root: string, outdir = 'dist/bundle'): Promise<{ files: string[]; bytes: number }> {
  const entries = bundledExports(readPackageJson(root));
  const result = await build({
    absWorkingDir: root,
    entryPoints: [...entries.values()].map((e) => e.source),
    outbase: '.',
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    metafile: true,
    // Where the bundle reads the checked fixtures kept below (mock/src/index.ts), from the package's root.
    define: { SITE_CONTRACTS_CHECKED_FIXTURES: JSON.stringify(fixtureCacheOf(outdir)) },
  });
  const files = Object.keys(result.metafile.outputs).map((p) => relative(root, join(root, p)).split(sep).join('/'));
  const written = (target: string) => files.includes(join(outdir, relative('dist/bundle', target)).split(sep).join('/'));
  const missing = [...entries].filter(([, e]) => !written(e.target));
  if (missing.length > 0) throw new Error(`bundle: esbuild wrote no file for ${missing.map(([key, e]) => `${key} (${e.target})`).join(', ')}`);
  // The bundled fixtures checked once here, by the same code the bundle runs, instead of in every createMock().
  const kept = await keepCheckedFixtures(join(root, 'fixtures'), join(root, fixtureCacheOf(outdir)), fileCacheIo);
  files.push(relative(root, kept).split(sep).join('/'));
  return { files, bytes: Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0) };
}

if (isEntryModule(import.meta.url, process.argv[1])) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const out = await bundlePackage(root);
  // On stderr: `npm pack --json` runs this (prepack) and its stdout must stay the JSON.
  console.error(`bundle: ${out.files.length} files, ${(out.bytes / 1024).toFixed(0)} KiB, in dist/bundle/`);
}
