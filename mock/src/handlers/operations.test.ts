// The operation table answers exactly the contract's operations: one handler per operationId, none missing, none
// left over. An operation added to the contract without a handler fails here, before any request finds it. And the
// table is the only place an operation is chosen: no code of the mock switches on a path or tests a namespace to
// pick what runs (a source scan, since such a test would type-check and answer the same).
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
    const discovery = new Discovery(contract, { name: 'x', description: 'x', timezone: 'UTC', gmtOffset: () => 0 }, { enabled: false, maxBytes: 0 });
    const table = operationTable({ contract, discovery });
    const ids = contract.operations.map((o) => o.id);
    expect(ids).toHaveLength(204);
    expect(Object.keys(table).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(typeof table[id], id).toBe('function');
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
