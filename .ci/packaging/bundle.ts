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
import { build, type Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntryModule } from '../../contracts/lib/package-root.ts';
import { bundledExports, readPackageJson } from './source-exports.ts';
import { fileCacheIo } from '../../contracts/lib/loader.ts';
import { keepCheckedFixtures } from '../../mock/src/store/load-fixtures.ts';

/** The model's validators as a CommonJS file of a bundle in `outdir` (both from the package's root). */
export const modelValidatorsOf = (outdir: string): string => join(outdir, 'chunks', 'model-validators.cjs').split(sep).join('/');

const MODEL_VALIDATORS = 'contracts/model/schema-validators.ts';

/**
 * contracts/model/schema-validators.ts (Ajv's standalone code of the fixture model, 900 KB) replaced in the bundle
 * by functions of the same names that require() the real ones, built as CommonJS beside it, on their first call.
 * Compiling and evaluating that module (its schemas are object literals) was about a quarter of importing the mock,
 * in every vitest file, while a mock answers from the checked fixtures (fixture-cache/) and calls one only when a
 * record is written. Each stand-in hands on the real one's verdict and `errors`, the two things check.ts reads.
 */
function lazyModelValidators(root: string, outdir: string): Plugin {
  const schema = JSON.parse(readFileSync(join(root, 'contracts/model/schema.json'), 'utf8')) as { $defs: Record<string, unknown> };
  const names = Object.keys(schema.$defs);
  const packageRoot = join(root, 'contracts/lib/package-root.ts');
  return {
    name: 'lazy-model-validators',
    setup(b) {
      b.onResolve({ filter: /schema-validators\.ts$/ }, (args) => {
        const path = join(args.resolveDir, args.path);
        return path === join(root, MODEL_VALIDATORS) ? { path: MODEL_VALIDATORS, namespace: 'lazy-model-validators' } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy-model-validators' }, () => ({
        resolveDir: root,
        loader: 'js',
        contents: [
          `import { createRequire } from 'node:module';`,
          `import { packagePath } from ${JSON.stringify(packageRoot)};`,
          `const requireHere = createRequire(import.meta.url);`,
          `const PATH = ${JSON.stringify(modelValidatorsOf(outdir))};`,
          `function lazy(name) {`,
          `  let real;`,
          `  const v = function (data) {`,
          `    real ??= requireHere(packagePath(PATH))[name];`,
          `    const ok = real(data);`,
          `    v.errors = real.errors;`,
          `    return ok;`,
          `  };`,
          `  return v;`,
          `}`,
          ...names.map((n) => `export const ${n} = lazy(${JSON.stringify(n)});`),
        ].join('\n'),
      }));
    },
  };
}

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
    plugins: [lazyModelValidators(root, outdir)],
  });
  // The real validators the stand-ins require(): the same module, as CommonJS (Ajv's runtime stays a package import).
  const validators = await build({
    absWorkingDir: root,
    entryPoints: [MODEL_VALIDATORS],
    outfile: modelValidatorsOf(outdir),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    metafile: true,
  });
  const outputs = { ...result.metafile.outputs, ...validators.metafile.outputs };
  const files = Object.keys(outputs).map((p) => relative(root, join(root, p)).split(sep).join('/'));
  const written = (target: string) => files.includes(join(outdir, relative('dist/bundle', target)).split(sep).join('/'));
  const missing = [...entries].filter(([, e]) => !written(e.target));
  if (missing.length > 0) throw new Error(`bundle: esbuild wrote no file for ${missing.map(([key, e]) => `${key} (${e.target})`).join(', ')}`);
  // The bundled fixtures checked once here, by the same code the bundle runs, instead of in every createMock().
  const kept = await keepCheckedFixtures(join(root, 'fixtures'), join(root, fixtureCacheOf(outdir)), fileCacheIo);
  files.push(relative(root, kept).split(sep).join('/'));
  return { files, bytes: Object.values(outputs).reduce((n, o) => n + o.bytes, 0) };
}

if (isEntryModule(import.meta.url, process.argv[1])) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const out = await bundlePackage(root);
  // On stderr: `npm pack --json` runs this (prepack) and its stdout must stay the JSON.
  console.error(`bundle: ${out.files.length} files, ${(out.bytes / 1024).toFixed(0)} KiB, in dist/bundle/`);
}
