// Where the package's files are (contracts/openapi.yaml, fixtures/, package.json), found the same way whether the
// code runs from the TypeScript sources of a checkout (contracts/lib/…) or from the build of an installed package
// (dist/contracts/lib/…): the nearest directory above the module that holds a package.json. A relative URL such as
// '../openapi.yaml' would hold for one of the two layouts only.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest directory at or above `moduleUrl`'s directory holding a package.json. */
export function packageRootOf(moduleUrl: string | URL, exists: (path: string) => boolean = existsSync): string {
  const start = dirname(fileURLToPath(moduleUrl));
  for (let dir = start; ; dir = dirname(dir)) {
    if (exists(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}: the site-contracts package is incomplete`);
  }
}

/** This package's root directory (the checkout, or node_modules/site-contracts). */
export const PACKAGE_ROOT = packageRootOf(import.meta.url);

/** A file or directory of the package, by its path from the root ('contracts/openapi.yaml'). */
export function packagePath(relative: string): string {
  return join(PACKAGE_ROOT, relative);
}

/**
 * Whether `moduleUrl` is the script node was started with (`script`, process.argv[1]), through any symlink: a CLI
 * module runs itself then, and only exports when another module (the package's bin) imports it.
 */
export function isEntryModule(moduleUrl: string, script: string | undefined): boolean {
  if (!script) return false;
  try {
    return realpathSync(script) === fileURLToPath(moduleUrl);
  } catch {
    return false;
  }
}
