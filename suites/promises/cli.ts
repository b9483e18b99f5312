// npm run promises                 → prints the catalogue's coverage, and what is wrong with it (exit 1 if anything)
// npm run promises -- --write      → also writes suites/promises/GAPS.md
// npm run promises -- --check      → exit 1 when GAPS.md is stale too
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isEntryModule } from '../../contracts/lib/package-root.ts';
import { writeOrCheck } from '../../contracts/scripts/write-or-check.ts';
import { CHECKS } from '../src/checks/registry.ts';
import { parseCatalogueFile, parseInventory, parseProofs, type Inventory, type LoadedRow, type ProvingTest } from './catalogue.ts';
import { catalogueProblems, coverageOf, renderCoverage, renderGaps, renderPromisesByCheck, testTitlesOf } from './coverage.ts';

const HERE = new URL('.', import.meta.url).pathname;
const ROOT = join(HERE, '../..');

export interface Catalogue {
  rows: LoadedRow[];
  inventory: Inventory;
  proofs: Map<string, ProvingTest>;
  /** Each source's title, for the printout and GAPS.md. */
  titles: Map<string, string>;
}

/** The committed catalogue and inventory, read from the repository. */
export function readCatalogue(): Catalogue {
  const dir = join(HERE, 'catalogue');
  const rows: LoadedRow[] = [];
  const titles = new Map<string, string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort()) {
    const text = readFileSync(join(dir, name), 'utf8');
    const loaded = parseCatalogueFile(`suites/promises/catalogue/${name}`, text);
    rows.push(...loaded);
    const title = /^title:\s*(.+)$/m.exec(text)?.[1]?.replace(/^['"]|['"]$/g, '');
    if (loaded[0] && title) titles.set(loaded[0].source, title);
  }
  return { rows, inventory: parseInventory(readFileSync(join(HERE, 'inventory.json'), 'utf8')), proofs: parseProofs(readFileSync(join(HERE, 'proofs.yaml'), 'utf8')), titles };
}

/** A test file's titles, or undefined when the repository has no such file. */
export function repositoryTestTitles(file: string): string[] | undefined {
  try {
    return testTitlesOf(readFileSync(join(ROOT, file), 'utf8'));
  } catch {
    return undefined;
  }
}

export const GAPS_PATH = join(HERE, 'GAPS.md');
export const PROMISES_BY_CHECK_PATH = join(ROOT, 'suites/src/checks/kit/promises.generated.ts');
/** The checks' names, as the catalogue refers to them. */
// A replay of a frontend's recording (test --calls) judges what one app met, not a promise the catalogue holds.
export const CHECK_NAMES: readonly string[] = CHECKS.filter((c) => !c.fromRecording).map((c) => c.name);

if (isEntryModule(import.meta.url, process.argv[1])) {
  const c = readCatalogue();
  const problems = catalogueProblems({ rows: c.rows, inventory: c.inventory, proofs: c.proofs, checks: CHECK_NAMES, testTitles: repositoryTestTitles });
  process.stdout.write(renderCoverage(coverageOf(c.rows), c.titles));
  for (const p of problems) process.stderr.write(`  ${p}\n`);
  if (problems.length) process.stderr.write(`promises: ${problems.length} problem(s) in the catalogue (suites/README.md, "The catalogue of promises", says how to add a row)\n`);
  const argv = process.argv.slice(2);
  if (argv.includes('--write') || argv.includes('--check')) {
    writeOrCheck(GAPS_PATH, renderGaps(c.rows, c.titles), argv, 'npm run promises -- --write');
    writeOrCheck(PROMISES_BY_CHECK_PATH, renderPromisesByCheck(c.rows, CHECK_NAMES), argv, 'npm run promises -- --write');
  }
  if (problems.length) process.exitCode = 1;
}
