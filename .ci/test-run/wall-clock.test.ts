// Tests bound their work, not their time (issue 28): a test that sets a wall-clock limit of its own below the run's
// (vitest.config.ts's testTimeout, a guard against a hang) fails on the 2-core machine under load although it passes
// alone. Every test file of the repository is read for the forms a limit takes in vitest: a number after the test's
// function (`it('…', fn, 180_000)`) and a `timeout` option.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', 'reports', '.git']);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return /\.test\.(ts|mts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** The limits a test file sets, as `line: ms`. */
function limitsIn(text: string): { line: number; ms: number }[] {
  const out: { line: number; ms: number }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/^\s*\}\s*,\s*([\d_]+)\s*\)|\btimeout\s*:\s*([\d_]+)/g)) out.push({ line: i + 1, ms: Number((m[1] ?? m[2])!.replace(/_/g, '')) });
  });
  return out;
}

describe('wall-clock limits of tests', () => {
  const global = config.test?.testTimeout;

  it('reads the forms a limit takes', () => {
    expect(limitsIn("  it('x', () => {\n  }, 180_000);\n")).toEqual([{ line: 2, ms: 180000 }]);
    expect(limitsIn("describe('x', { timeout: 60000 }, () => {});")).toEqual([{ line: 1, ms: 60000 }]);
    expect(limitsIn('const client = createClient({ timeoutMs: 100 });')).toEqual([]);
  });

  it('no test sets one below the run\'s own', () => {
    expect(global).toBeGreaterThanOrEqual(300_000);
    // This file's own examples above are not limits.
    const self = fileURLToPath(import.meta.url);
    const below = testFiles(ROOT).filter((f) => f !== self).flatMap((f) => limitsIn(readFileSync(f, 'utf8')).filter((l) => l.ms < global!).map((l) => `${relative(ROOT, f)}:${l.line} ${l.ms} ms`));
    expect(below).toEqual([]);
  });
});
