// `npm run build`'s last step: the parsed contract written to dist/contract-cache/ under its key (contract-cache.ts),
// so that an installed package starts from JSON on its first run instead of parsing the YAML.
//
//   tsx contracts/scripts/contract-cache.ts dist/contract-cache
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseContractCached } from '../lib/contract-cache.ts';
import { DEFAULT_CONTRACT_PATH, fileCacheIo } from '../lib/loader.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: contract-cache.ts DIR');
  process.exit(2);
}
const out = parseContractCached(readFileSync(DEFAULT_CONTRACT_PATH, 'utf8'), [], resolve(dir), fileCacheIo);
if (!out.wrote) {
  console.error(`contract-cache: could not write a cache of ${DEFAULT_CONTRACT_PATH} to ${dir}`);
  process.exit(1);
}
// On stderr: `npm pack --json` runs this (prepack) and its stdout must stay the JSON.
console.error(`contract-cache: ${out.wrote}`);
