// npm run contract:gaps           → writes contracts/GAPS.md from the bundle's marks
// npm run contract:gaps -- --check → exits 1 when the committed GAPS.md is stale
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { parseContract } from '../src/loader.ts';
import { renderGaps } from '../src/gaps.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'GAPS.md');
const text = renderGaps(parseContract(readFileSync(join(root, 'openapi.yaml'), 'utf8')));
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(out, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (current !== text) {
    console.error('contracts/GAPS.md is stale: run `npm run contract:gaps` and commit the result.');
    process.exit(1);
  }
  console.log('contracts/GAPS.md is up to date.');
} else {
  writeFileSync(`${out}.tmp`, text);
  renameSync(`${out}.tmp`, out);
  console.log(`wrote ${out}`);
}
