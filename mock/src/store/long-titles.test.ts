// Two and twenty creates with a title whose slug is exactly 200 characters, in all six post resources and inside a
// batch. Such a run once hung the process for good (a `-N` suffix pushed the slug past the cap, and the slug was
// then cut back to the taken base, again and again). The creates run in a child process, killed when the test ends
// however it ends, so a hang fails this test at vitest's guard instead of stalling the test run or outliving it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Run } from './scenarios/long-titles.ts';
import { MAX_SLUG_LENGTH, withSuffix } from '../../../contracts/wordpress/slug.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SCENARIO = fileURLToPath(new URL('./scenarios/long-titles.ts', import.meta.url));

interface Outcome {
  expectedSlug: string;
  runs: Run[];
  batch: { status: number; ms: number; items: { status: number; id: number; slug: string }[] };
}

function runScenario(): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCENARIO], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    onTestFinished(() => void child.kill('SIGKILL'));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`scenario exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as Outcome);
    });
  });
}

describe('creates whose slug reaches the 200-character cap', () => {
  it('terminate in all six post resources and in a batch, with WordPress\'s -N slugs cut to fit', async () => {
    const out = await runScenario();
    expect(out.expectedSlug).toHaveLength(MAX_SLUG_LENGTH);
    const expected = (count: number) => Array.from({ length: count }, (_, i) => (i === 0 ? out.expectedSlug : withSuffix(out.expectedSlug, i + 1)));
    expect(out.runs).toHaveLength(12);
    for (const run of out.runs) {
      const label = `${run.count} x ${run.path}`;
      expect(run.statuses, label).toEqual(Array(run.count).fill(201));
      expect(run.slugs, label).toEqual(expected(run.count));
      for (const slug of run.slugs) {
        expect(slug.length, label).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
        expect(() => decodeURIComponent(slug), label).not.toThrow();
      }
      expect(new Set(run.ids).size, label).toBe(run.count);
    }
    // IDs keep rising across resets: none is handed out twice.
    const ids = out.runs.flatMap((r) => r.ids);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(out.batch.status).toBe(207);
    expect(out.batch.items.map((i) => i.status)).toEqual(Array(20).fill(201));
    expect(out.batch.items.map((i) => i.slug)).toEqual(expected(20));
    // The suffix cuts the base back by whole characters: "-2" leaves 198 characters, which end inside a Cyrillic
    // letter's escape, so the base keeps 194 and the slug is 196 long.
    expect(withSuffix(out.expectedSlug, 2)).toHaveLength(196);
  });
});
