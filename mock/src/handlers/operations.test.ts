// The operation table answers exactly the contract's operations: one row per operationId, none missing, none left
// over. An operation added to the contract without a handler fails here, before any request finds it. And the
// table is the only place an operation is chosen: no code of the mock switches on a path, tests a namespace or
// names an operation's path to pick what runs or who may call it (source scans, since such code would type-check and
// answer the same). Its rows' permissions are held in operations.permissions.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedContract } from '../testing/harness.ts';
import { Discovery } from './discovery.ts';
import { operationTable } from './operations.ts';

describe('operation table', () => {
  it("its keys are exactly the contract's 204 operationIds, each with a handler", () => {
    const contract = sharedContract();
    const discovery = new Discovery(contract, { name: 'x', description: 'x', theme: 'x', timezone: 'UTC', gmtOffset: () => 0 }, { enabled: false, maxBytes: 0 });
    const table = operationTable({ contract, discovery });
    const ids = contract.operations.map((o) => o.id);
    expect(ids).toHaveLength(204);
    expect(Object.keys(table).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(typeof table[id]?.handler, id).toBe('function');
  });
});

/** A path switch (`case '/…'`) or a namespace test (`namespace === '…'`, either side, `!==` too). */
const RECHOOSING = [/\bcase\s*['"`]\//, /\bnamespace\s*[!=]==?\s*['"`]/, /['"`]\s*[!=]==?\s*[\w.?]*\bnamespace\b/];

/** Lines of `source` that choose an operation again after the route stage named it. */
export function rechoosingLines(source: string): string[] {
  return source.split('\n').filter((line) => RECHOOSING.some((re) => re.test(line)));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('no operation is chosen twice', () => {
  it('the scan finds a path switch and a namespace test, and passes code that has neither', () => {
    expect(rechoosingLines("  switch (path) {\n    case '/saveModule': {")).toEqual(["    case '/saveModule': {"]);
    expect(rechoosingLines('    case "/an/postsRows":')).toHaveLength(1);
    expect(rechoosingLines("  return ctx.op.namespace === 'cal/events/v1' ? 'legacy' : 'cal';")).toHaveLength(1);
    expect(rechoosingLines("  if (op.namespace !== 'seo/v1') return;")).toHaveLength(1);
    expect(rechoosingLines("  if ('i18n/v1' === route.namespace) return;")).toHaveLength(1);
    expect(rechoosingLines("  switch (err.code) {\n    case 'not_found':\n  const ns = 'cal/v1';\n  // the namespace is bound where the table is built")).toEqual([]);
  });

  it('mock/src has no path switch and no namespace test outside its tests', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const files = sources(root);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => rechoosingLines(readFileSync(f, 'utf8')).map((line) => `${relative(root, f)}: ${line.trim()}`));
    expect(found).toEqual([]);
  });
});

/** String literals naming an operation's route, or the start of one (`'/cal/importer/v1/import/'`). */
function pathLiterals(source: string, paths: readonly string[]): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/['"`](\/[\w\-./{}]+)['"`]/g)) {
    const literal = m[1]!;
    const segments = literal.split('/').filter(Boolean).length;
    if (paths.includes(literal) || (segments >= 2 && literal.endsWith('/') && paths.some((p) => p.startsWith(literal)))) found.push(literal);
  }
  return found;
}

describe("no module names an operation's path (issue 27: 35 such strings chose permissions)", () => {
  const paths = ['/lms/v1/token', '/seo/v1/saveModule', '/cal/importer/v1/import/{import_id}/batch', '/oembed/1.0/embed'];

  it('the scan finds the lines that chose by path before, and passes links and the API root', () => {
    expect(pathLiterals("  '/seo/v1/saveModule', '/seo/v1/updateMode',", paths)).toEqual(['/seo/v1/saveModule']);
    expect(pathLiterals("    op.path.startsWith('/lms/v1/token') ||", paths)).toEqual(['/lms/v1/token']);
    expect(pathLiterals("    op.path.startsWith('/cal/importer/v1/import/')", paths)).toEqual(['/cal/importer/v1/import/']);
    expect(pathLiterals("  if (req.method !== 'GET' || req.route !== '/oembed/1.0/embed') return;", paths)).toEqual(['/oembed/1.0/embed']);
    expect(pathLiterals("  const root = '/wp-json/'; const up = `${apiRoot}seo/v1/saveModule`; const c = '/__mock/';", paths)).toEqual([]);
  });

  it("mock/src names no operation's path outside its tests", () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const contractPaths = sharedContract().operations.map((o) => o.path);
    // Test helpers (testing/) and the scenarios tests run (store/scenarios/) send requests: they name routes to call them.
    const product = sources(root).filter((f) => !/^(testing|store\/scenarios)\//.test(relative(root, f)));
    const found = product.flatMap((f) => pathLiterals(readFileSync(f, 'utf8'), contractPaths).map((literal) => `${relative(root, f)}: ${literal}`));
    expect(found).toEqual([]);
  });
});
