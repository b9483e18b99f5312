// The contract read from disk (contracts/openapi.yaml), plus everything contract.ts exports: parsing, dereferencing,
// routing and validators live there, without file access, so that the mock's browser entry can use them.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { threadId } from 'node:worker_threads';
import type Ajv2020Module from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { configureAjv, type AjvInstance, type AjvSetup } from './ajv-setup.ts';
import { loadContractWith, parseContractWith, type Contract, type LoadOptions, type ValidatorCache } from './contract.ts';
import { parseContractCached, projectCacheDir, type CacheIo } from './contract-cache.ts';
import { internalizeKeysOneByte, YAML_KEYS } from './one-byte-keys.ts';
import { PACKAGE_ROOT, packagePath } from './package-root.ts';
import { validatorCache, validatorCacheDir } from './validator-cache.ts';
import type { JsonSchema } from './types.ts';

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
    // A name of its own for every writer: vitest's threads pool runs several files in one process, and two writers
    // of one temporary file could rename the other's half-written text into place.
    const temp = `${path}.${process.pid}-${threadId}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, text);
      renameSync(temp, path);
    } catch (e) {
      rmSync(temp, { force: true });
      throw e;
    }
  },
};

/** This package's own require(): Ajv's standalone code reaches Ajv's runtime helpers through it, and yaml is loaded by it. */
const requireHere = createRequire(import.meta.url);

/**
 * The project's Ajv (ajv-setup.ts), Ajv and ajv-formats required on the first call: a process whose validators all
 * come from the validator cache (a vitest file after the first, or any with the package's build) never loads them.
 * The same modules an import gives (CommonJS; `.default` as in ajv.ts).
 */
function requiredAjv(setup: AjvSetup): AjvInstance {
  const Ajv2020 = (requireHere('ajv/dist/2020.js') as typeof Ajv2020Module).default;
  const addFormats = (requireHere('ajv-formats') as typeof addFormatsModule).default;
  return configureAjv({ Ajv2020, addFormats }, setup);
}

/** The contract of a parsed document (contract.ts), on the project's Ajv made only when a validator is compiled. */
export function loadContract(doc: JsonSchema, options: LoadOptions = {}): Contract {
  return loadContractWith(requiredAjv, doc, options);
}

/**
 * The contract's document from its YAML text. The YAML parser is loaded on the first call (yaml is CommonJS under
 * Node, so a require() is the same module an import gives): a start whose contract comes from the parsed-contract
 * cache never loads it. Its keys are made one-byte first (one-byte-keys.ts): they become the keys of the mock's answers.
 */
export function parseContract(text: string): JsonSchema {
  for (const pattern of YAML_KEYS) internalizeKeysOneByte(text, pattern);
  return parseContractWith((requireHere('yaml') as typeof import('yaml')).parse, text);
}

/**
 * Load the bundled contract from disk (default: contracts/openapi.yaml), its parsed document from the cache when
 * the same text was parsed before (contract-cache.ts) and its request validators from Ajv's standalone code kept by
 * an earlier process (validator-cache.ts), both under the project's node_modules/.cache/site-contracts/; `cache:
 * null` parses the YAML and compiles every validator every time.
 */
export function loadContractFile(path: string = DEFAULT_CONTRACT_PATH, read: (p: string) => string = (p) => readFileSync(p, 'utf8'), cache: CacheIo | null = fileCacheIo): Contract {
  const text = read(path);
  if (!cache) return loadContract(parseContractCached(text, [], undefined, fileCacheIo, parseContract).doc);
  const doc = parseContractCached(text, CONTRACT_CACHE_DIRS, CONTRACT_CACHE_DIRS[1], cache, parseContract).doc;
  return loadContract(doc, { validators: contractValidatorCache(text, CONTRACT_CACHE_DIRS, cache) });
}

/**
 * The validator cache of the contract `text` under `cacheDirs` (read in turn, the last one written), each folder
 * keyed by the text and the package's and Ajv's versions.
 */
export function contractValidatorCache(text: string, cacheDirs: readonly string[], io: CacheIo): ValidatorCache {
  const versions = {
    package: (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version,
    ajv: (requireHere('ajv/package.json') as { version: string }).version,
  };
  return validatorCache({ dirs: cacheDirs.map((dir) => validatorCacheDir(dir, text, versions)), io, requireModule: requireHere });
}
