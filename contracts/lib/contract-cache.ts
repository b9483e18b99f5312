// The parsed contract kept as JSON, keyed by the YAML text it came from: parsing the 14,000-line YAML costs most
// of a cold start (0.5 s of the mock's 2.1-2.6 s on an idle machine, seconds on a loaded one), while JSON.parse of
// the same document takes milliseconds. The YAML stays the one source: a cache file is named by the SHA-256 of the
// text and of the parser's settings, so an edited contract, another yaml version or other options never meet an
// old entry, and a file that does not parse is ignored and written again. Looked for in the package's own
// `dist/contract-cache/` (written by `npm run build`, so an installed package starts warm) and then in the
// project's `node_modules/.cache/site-contracts/` (written on a miss, where the folder can be written).
// contract-cache.test.ts holds the cached document equal to a fresh parse, over generated documents.
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { asciiJson } from './ascii-json.ts';
import type { JsonSchema } from './types.ts';

/** Part of every key: a change in how the YAML is parsed (parseContractWith's options) must change this. */
const CACHE_FORMAT = 'yaml-2/maxAliasCount=-1/v2-ascii';

export interface CacheIo {
  read(path: string): string | undefined;
  /** Writes `text` to `path` whole or not at all (a temporary file renamed); throws where it cannot. */
  write(path: string, text: string): void;
}

export function cacheKey(yamlText: string): string {
  return createHash('sha256').update(CACHE_FORMAT).update('\0').update(yamlText).digest('hex').slice(0, 32);
}

const cacheFileName = (key: string): string => `openapi-${key}.json`;

/** Where a project keeps tools' caches: its node_modules/.cache, seen from this package's root. */
export function projectCacheDir(packageRoot: string): string {
  const parent = dirname(packageRoot);
  // Installed: <project>/node_modules/site-contracts → <project>/node_modules/.cache; a clone: its own node_modules.
  return basename(parent) === 'node_modules' ? join(parent, '.cache', 'site-contracts') : join(packageRoot, 'node_modules', '.cache', 'site-contracts');
}

interface CachedParse {
  doc: JsonSchema;
  /** Where the document came from: a cache file, or the YAML (then written to `wrote`, if it could be). */
  from: 'cache' | 'yaml';
  wrote?: string;
}

/**
 * The value kept as `name` in the first of `dirs` holding one that `accept` takes, or undefined. A torn or foreign
 * file is passed over (its writer writes it again). The one reading of the package's JSON caches: the parsed
 * contract here, the checked fixtures (mock/src/store/checked-fixtures.ts).
 */
export function readCachedJson<T>(dirs: readonly string[], name: string, io: CacheIo, accept: (value: unknown) => value is T): T | undefined {
  for (const dir of dirs) {
    const text = io.read(join(dir, name));
    if (text === undefined) continue;
    try {
      const value = JSON.parse(text) as unknown;
      if (accept(value)) return value;
    } catch {
      // A torn or foreign file.
    }
  }
  return undefined;
}

/**
 * Keeps `value` as `name` in `dir`, as ASCII JSON (ascii-json.ts: a hit then parses to one-byte keys and strings with
 * no pass over the text first); the path written, or undefined where JSON would not give the value back exactly
 * (-0, infinities: the cold path serves it every time) or the folder cannot be written.
 */
export function writeCachedJson(dir: string, name: string, value: unknown, io: CacheIo): string | undefined {
  const json = asciiJson(value);
  if (!isDeepStrictEqual(JSON.parse(json), value)) return undefined;
  const path = join(dir, name);
  try {
    io.write(path, json);
    return path;
  } catch {
    return undefined;
  }
}

/** Any parsed JSON: a contract document is taken as it parses. */
const anyJson = (value: unknown): value is JsonSchema => value !== undefined;

/**
 * The contract document for `yamlText`: from the first of `dirs` holding its cache file, else parsed from the YAML
 * by `parseContract` (the canonical path, loader.ts's) and written to `writeDir` for next time. Failing to write is
 * not an error.
 */
export function parseContractCached(yamlText: string, dirs: readonly string[], writeDir: string | undefined, io: CacheIo, parseContract: (text: string) => JsonSchema): CachedParse {
  const name = cacheFileName(cacheKey(yamlText));
  const cached = readCachedJson(dirs, name, io, anyJson);
  if (cached !== undefined) return { doc: cached, from: 'cache' };
  const doc = parseContract(yamlText);
  // YAML can say -0 or .inf, which JSON cannot: such a document is parsed from the YAML every time.
  const wrote = writeDir === undefined ? undefined : writeCachedJson(writeDir, name, doc, io);
  return wrote === undefined ? { doc, from: 'yaml' } : { doc, from: 'yaml', wrote };
}
