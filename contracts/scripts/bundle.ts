// npm run contract:bundle           → writes contracts/openapi.yaml
// npm run contract:bundle -- --check → exits 1 when the committed bundle differs from the sources
import { readFileSync, readdirSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { renderBundle } from '../src/bundle-io.ts';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'openapi.yaml');
const text = renderBundle(root, { readFileSync, readdirSync });
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(out, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (current !== text) {
    console.error('contracts/openapi.yaml is stale: run `npm run contract:bundle` and commit the result.');
    process.exit(1);
  }
  console.log('contracts/openapi.yaml is up to date.');
} else {
  writeFileSync(`${out}.tmp`, text);
  renameSync(`${out}.tmp`, out);
  console.log(`wrote ${out}`);
}
