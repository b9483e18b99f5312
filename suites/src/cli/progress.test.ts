import { describe, expect, it } from 'vitest';
import { createProgress, isInteractive } from './progress.ts';

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 60, write: (s: string) => void chunks.push(s) } };
}

describe('progress', () => {
  it('decides between terminal and log mode from the stream and CI', () => {
    expect(isInteractive({ isTTY: true, write() {} }, {})).toBe(true);
    expect(isInteractive({ isTTY: true, write() {} }, { CI: 'true' })).toBe(false);
    expect(isInteractive({ write() {} }, {})).toBe(false);
  });

  it('prints a plain line at most every N cases in CI, and the final state', () => {
    const { chunks, stream } = sink(true);
    let t = 0;
    const p = createProgress({ stream, env: { CI: 'true' }, every: 3, total: 7, now: () => (t += 100) });
    for (const s of ['passed', 'failed', 'passed', 'warned', 'passed', 'errored', 'skipped'] as const) p.record(s);
    p.finish();
    expect(chunks.every((c) => c.endsWith('\n') && !c.includes('\r'))).toBe(true);
    expect(chunks.map((c) => c.split(' - ')[0])).toEqual([
      'site-contracts: 3/7 (42%) cases',
      'site-contracts: 6/7 (85%) cases',
      'site-contracts: 7/7 (100%) cases',
    ]);
    expect(chunks[2]).toContain('3 passed, 1 failed, 1 warned, 1 errored, 1 skipped');
  });

  it('redraws one line in place on a terminal, throttled by time, and ends it', () => {
    const { chunks, stream } = sink(true);
    let t = 0;
    const p = createProgress({ stream, env: {}, now: () => t, minIntervalMs: 100 });
    p.record('passed'); // drawn
    t = 50;
    p.record('passed'); // too soon
    t = 200;
    p.record('failed'); // drawn
    p.finish();
    expect(chunks).toHaveLength(4);
    expect(chunks.slice(0, 3).every((c) => c.startsWith('\r') && c.endsWith('\x1b[K'))).toBe(true);
    expect(chunks[2]).toContain('site-contracts: 3 cases - 2 passed, 1 failed');
    expect(chunks[3]).toBe('\n');
    expect(chunks.every((c) => c.replace('\x1b[K', '').length <= 60)).toBe(true);
  });
});
