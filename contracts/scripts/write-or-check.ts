// The generated files of contracts/ and suites/ (the bundle, GAPS.md, suites/promises/GAPS.md) are written by one script and checked by the same
// script with --check, so CI and a developer can never disagree about what "fresh" means.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export function writeOrCheck(path: string, text: string, argv: readonly string[], fix: string): void {
  const name = path.slice(Math.max(0, path.search(/(contracts|suites)\//)));
  if (argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      /* a missing file counts as stale */
    }
    if (current !== text) {
      console.error(`${name} is stale: run \`${fix}\` and commit the result.`);
      process.exit(1);
    }
    console.log(`${name} is up to date.`);
    return;
  }
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  console.log(`wrote ${name}`);
}
