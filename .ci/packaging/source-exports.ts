// The package's exports map (package.json) read back to the TypeScript sources, for the checkout: the tests and the
// type check run from source, and some of them import the package by its name as a user would
// (`import { loadContractFile } from 'site-contracts'`). The exports point at the build (dist/), which mirrors the
// source tree, so each target has exactly one source: dist/X.js and dist/X.d.ts are X.ts, and so is the bundled
// entry dist/bundle/X.js (.ci/packaging/bundle.ts writes each bundled export at its source's path). vitest.config.ts
// aliases the names to these sources, the browser test's esbuild resolves them here, and tsconfig.json's `paths`
// spell them out for tsc (.ci/packaging/source-exports.test.ts holds that copy to this one).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type ExportTarget = string | { types?: string; default?: string; import?: string };

export interface PackageJson {
  name: string;
  exports: Record<string, ExportTarget>;
}

/** The bundled entries' folder: `npm run build` bundles every export whose JavaScript is in it (bundle.ts). */
const BUNDLE_DIR = 'dist/bundle/';

/**
 * The source of one export target: './dist/mock/src/index.js' and './dist/bundle/mock/src/index.js' →
 * 'mock/src/index.ts'; others stay as they are.
 */
export function sourceOfTarget(target: string): string {
  const path = target.replace(/^\.\//, '');
  const built = /^dist\/(?:bundle\/)?(.+?)(?:\.d\.ts|\.js)$/.exec(path);
  return built ? `${built[1]}.ts` : path;
}

/** The file an export target runs (its `default`), else its types. */
export function targetOf(entry: ExportTarget): string {
  if (typeof entry === 'string') return entry;
  const t = entry.default ?? entry.import ?? entry.types;
  if (t === undefined) throw new Error(`an export with no default, import or types target: ${JSON.stringify(entry)}`);
  return t;
}

/** Every name the package exports ('site-contracts', 'site-contracts/mock'…) → its source path from the root. */
export function sourceExports(pkg: PackageJson): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, entry] of Object.entries(pkg.exports)) {
    const name = key === '.' ? pkg.name : `${pkg.name}/${key.replace(/^\.\//, '')}`;
    out.set(name, sourceOfTarget(targetOf(entry)));
  }
  return out;
}

/** The exports bundled by `npm run build`, by key ('./mock'): the source and the bundled file (both from the root). */
export function bundledExports(pkg: PackageJson): Map<string, { source: string; target: string }> {
  const out = new Map<string, { source: string; target: string }>();
  for (const [key, entry] of Object.entries(pkg.exports)) {
    const target = targetOf(entry).replace(/^\.\//, '');
    if (target.startsWith(BUNDLE_DIR)) out.set(key, { source: sourceOfTarget(target), target });
  }
  return out;
}

/** The package.json at `root`. */
export function readPackageJson(root: string): PackageJson {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
}
