// `npm run build`'s last step: the parsed contract written to dist/contract-cache/ under its key (contract-cache.ts),
// so that an installed package starts from JSON on its first run instead of parsing the YAML, and beside it every
// operation's request validator as Ajv's standalone code (validator-cache.ts), so that no test file of a project
// compiles one, the first included.
//
//   tsx contracts/scripts/contract-cache.ts dist/contract-cache
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseContractCached } from '../lib/contract-cache.ts';
import { contractValidatorCache, DEFAULT_CONTRACT_PATH, fileCacheIo, loadContract, parseContract } from '../lib/loader.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: contract-cache.ts DIR');
  process.exit(2);
}
const text = readFileSync(DEFAULT_CONTRACT_PATH, 'utf8');
const out = parseContractCached(text, [], resolve(dir), fileCacheIo, parseContract);
if (!out.wrote) {
  console.error(`contract-cache: could not write a cache of ${DEFAULT_CONTRACT_PATH} to ${dir}`);
  process.exit(1);
}
// `npm run build` removed dist/ first, so each is compiled afresh (an entry already there would be checked, as on any read).
loadContract(out.doc, { validators: contractValidatorCache(text, [resolve(dir)], fileCacheIo) }).compileAll('bounded');
// On stderr: `npm pack --json` runs this (prepack) and its stdout must stay the JSON.
console.error(`contract-cache: ${out.wrote}`);
