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
 * The contract document for `yamlText`: from the first of `dirs` holding its cache file, else parsed from the YAML
 * by `parseContract` (the canonical path, loader.ts's) and written to `writeDir` for next time. Failing to write is
 * not an error.
 */
export function parseContractCached(yamlText: string, dirs: readonly string[], writeDir: string | undefined, io: CacheIo, parseContract: (text: string) => JsonSchema): CachedParse {
  const name = cacheFileName(cacheKey(yamlText));
  for (const dir of dirs) {
    const text = io.read(join(dir, name));
    if (text === undefined) continue;
    try {
      return { doc: JSON.parse(text) as JsonSchema, from: 'cache' };
    } catch {
      // A torn or foreign file: parse the YAML and write it again below.
    }
  }
  const doc = parseContract(yamlText);
  if (writeDir === undefined) return { doc, from: 'yaml' };
  const path = join(writeDir, name);
  // ASCII (ascii-json.ts): a hit then parses to one-byte keys and strings with no pass over the text first.
  const json = asciiJson(doc);
  // Only a document JSON gives back exactly is kept (YAML can say -0 or .inf, which JSON cannot): on a miss, once.
  if (!isDeepStrictEqual(JSON.parse(json), doc)) return { doc, from: 'yaml' };
  try {
    io.write(path, json);
    return { doc, from: 'yaml', wrote: path };
  } catch {
    return { doc, from: 'yaml' };
  }
}
