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

describe('progress by units, on a terminal', () => {
  it('shows units done of the total, the share, the time left and the unit being tested', () => {
    const { chunks, stream } = sink(true);
    stream.columns = 200;
    let t = 0;
    const p = createProgress({ stream, env: {}, now: () => t, minIntervalMs: 0, units: 4, every: 1 });
    const a = { id: 'negative_rejection:getCalV1Events', label: 'negative_rejection GET /cal/v1/events' };
    const b = { id: 'pagination:getCalV1Venues', label: 'pagination GET /cal/v1/venues' };
    p.unitStarted(a);
    expect(chunks.at(-1)).toBe('\rsite-contracts: 0/4 units (0%) ETA … | 0 cases, 0 passed, 0 failed | negative_rejection GET /cal/v1/events\x1b[K');
    t = 10_000;
    p.record('passed');
    p.record('failed');
    p.unitDone(a);
    p.unitStarted(b);
    // One unit of four in 10 s: three more take about 30 s.
    expect(chunks.at(-1)).toBe('\rsite-contracts: 1/4 units (25%) ETA 0:30 | 2 cases, 1 passed, 1 failed | pagination GET /cal/v1/venues\x1b[K');
    p.unitDone(b);
    p.finish();
    expect(chunks.at(-2)).toContain('2/4 units (50%) ETA 0:10 | 2 cases'); // two in 10 s: two more in about 10 s
    expect(chunks.at(-1)).toBe('\n');
  });

  it('keeps CI logs to the plain case lines, with no redraws', () => {
    const { chunks, stream } = sink(true);
    const p = createProgress({ stream, env: { CI: 'true' }, every: 2, units: 3, total: 4 });
    p.unitStarted({ id: 'u', label: 'route_presence GET /' });
    for (const s of ['passed', 'passed', 'passed', 'passed'] as const) p.record(s);
    p.unitDone({ id: 'u', label: 'route_presence GET /' });
    p.finish();
    expect(chunks.every((c) => c.endsWith('\n') && !c.includes('\r') && !c.includes('units'))).toBe(true);
    expect(chunks.map((c) => c.split(' - ')[0])).toEqual(['site-contracts: 2/4 (50%) cases', 'site-contracts: 4/4 (100%) cases']);
  });
});
