// Two creates of a title whose slug reaches the 200-character cap used to hang the mock at 100 % CPU for good (a
// memoised twin of uniqueSlug() in the create path), in all six post resources and inside a batch. The creates
// run in a child process (a spinning loop cannot be interrupted in-process); a case that has not finished within
// the time limit fails, and the remaining cases go on in a fresh child.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SLUG_CAP_CASES, type SlugCapResult } from './slug-cap.cases.ts';

const CHILD = fileURLToPath(new URL('./slug-cap.child.ts', import.meta.url));
/** From the child's start (loading the contract: about 2 s here) to the end of its first case. */
const START_LIMIT_MS = 30_000;
/** Three creates and three reads take milliseconds; a case still running after this is stuck. */
const CASE_LIMIT_MS = 5_000;

type Outcome = { name: string; result?: SlugCapResult; hung?: boolean };

/** Runs the cases in one child; stops at the first case that outlives its limit. */
function runChild(names: string[]): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(names)], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Outcome[] = [];
    let buffered = '';
    let stderr = '';
    let timer: NodeJS.Timeout;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const next = names[out.length];
        if (next !== undefined) out.push({ name: next, hung: true });
        child.kill('SIGKILL');
      }, ms);
    };
    arm(START_LIMIT_MS);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line === 'ready') arm(CASE_LIMIT_MS);
        const m = /^done (\S+) (.*)$/.exec(line);
        if (m) {
          out.push({ name: m[1]!, result: JSON.parse(m[2]!) as SlugCapResult });
          arm(CASE_LIMIT_MS);
        }
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' || code === 0) resolve(out);
      else reject(new Error(`child exited with ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

async function runAll(): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let left = SLUG_CAP_CASES.map((c) => c.name);
  while (left.length > 0) {
    const got = await runChild(left);
    outcomes.push(...got);
    left = left.slice(Math.max(got.length, 1));
  }
  return outcomes;
}

describe('creates at the 200-character slug cap', () => {
  it('finish in all six post resources and in a batch, with distinct slugs within the cap', async () => {
    const outcomes = await runAll();
    expect(outcomes.filter((o) => o.hung).map((o) => o.name)).toEqual([]);
    for (const o of outcomes) {
      const { statuses, slugs } = o.result!;
      expect(statuses.every((s) => s === 201 || s === 207), `${o.name}: ${statuses.join(',')}`).toBe(true);
      expect(slugs, o.name).toHaveLength(3);
      expect(new Set(slugs).size, `${o.name}: ${slugs.join(' ')}`).toBe(3);
      expect(slugs[0]!.length, o.name).toBe(200);
      expect(slugs.every((s) => s.length <= 200), o.name).toBe(true);
      expect(slugs[1], o.name).toMatch(/-2$/);
      expect(slugs[2], o.name).toMatch(/-3$/);
    }
  }, 120_000);
});
