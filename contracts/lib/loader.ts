// The contract read from disk (contracts/openapi.yaml), plus everything contract.ts exports: parsing, dereferencing,
// routing and validators live there, without file access, so that the mock's browser entry can use them.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadContract, type Contract } from './contract.ts';
import { parseContractCached, projectCacheDir, type CacheIo } from './contract-cache.ts';
import { PACKAGE_ROOT, packagePath } from './package-root.ts';

export * from './contract.ts';

export const DEFAULT_CONTRACT_PATH = packagePath('contracts/openapi.yaml');

/** The package's own cache, written by `npm run build`, then the project's node_modules/.cache. */
const CONTRACT_CACHE_DIRS = [packagePath('dist/contract-cache'), projectCacheDir(PACKAGE_ROOT)];

/** The parsed-contract cache on disk: a file that is not there reads as undefined; a write is a rename. */
export const fileCacheIo: CacheIo = {
  read(path) {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
  write(path, text) {
    mkdirSync(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, text);
    renameSync(temp, path);
  },
};

/**
 * Load the bundled contract from disk (default: contracts/openapi.yaml), its parsed document from the cache when
 * the same text was parsed before (contract-cache.ts); `cache: null` parses the YAML every time.
 */
export function loadContractFile(path: string = DEFAULT_CONTRACT_PATH, read: (p: string) => string = (p) => readFileSync(p, 'utf8'), cache: CacheIo | null = fileCacheIo): Contract {
  const text = read(path);
  const dirs = cache ? CONTRACT_CACHE_DIRS : [];
  return loadContract(parseContractCached(text, dirs, cache ? CONTRACT_CACHE_DIRS[1] : undefined, cache ?? fileCacheIo).doc);
}
