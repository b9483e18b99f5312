import { describe, expect, it } from 'vitest';
import { createProgress, isInteractive, plainLine, progressLine, type ProgressState } from './progress.ts';

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 60, write: (s: string) => void chunks.push(s) } };
}

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
/** What a terminal shows of a chunk: the text without the escapes log-update moves and erases with. */
const text = (chunk: string): string => chunk.replace(ANSI, '');
/** How many lines a chunk moves up to erase before it writes. */
const erasedAbove = (chunk: string): number => (chunk.match(/\x1b\[1A/g) ?? []).length;

const zero = { passed: 0, failed: 0, warned: 0, inconclusive: 0, skipped: 0, errored: 0 };

describe('progress', () => {
  it('decides between terminal and log mode from the stream and CI', () => {
    expect(isInteractive({ isTTY: true, write() {} }, {})).toBe(true);
    expect(isInteractive({ isTTY: true, write() {} }, { CI: 'true' })).toBe(false);
    expect(isInteractive({ isTTY: true, write() {} }, { CI: '1' })).toBe(false);
    expect(isInteractive({ write() {} }, {})).toBe(false);
  });

  it('prints a plain line at most every N cases in CI, and the final state', () => {
    const { chunks, stream } = sink(true);
    let t = 0;
    const p = createProgress({ stream, env: { CI: 'true' }, every: 3, total: 7, now: () => (t += 100) });
    for (const s of ['passed', 'failed', 'passed', 'warned', 'passed', 'errored', 'skipped'] as const) p.record(s);
    p.finish();
    expect(chunks.every((c) => c.endsWith('\n') && !c.includes('\r') && !c.includes('\x1b'))).toBe(true);
    expect(chunks.map((c) => c.split(' - ')[0])).toEqual([
      'site-contracts: 3/7 (42%) cases',
      'site-contracts: 6/7 (85%) cases',
      'site-contracts: 7/7 (100%) cases',
    ]);
    expect(chunks[2]).toContain('3 passed, 1 failed, 1 warned, 1 errored, 1 skipped');
  });

  it('writes what it always wrote where the output is no terminal, units known or not, byte for byte', () => {
    for (const units of [undefined, 3]) {
      const { chunks, stream } = sink(false);
      let t = 1_000;
      const p = createProgress({ stream, env: {}, every: 2, now: () => t, ...(units ? { units } : {}) });
      p.unitStarted({ id: 'u', label: 'route_presence GET /' });
      t = 2_500;
      for (const s of ['passed', 'failed', 'skipped'] as const) p.record(s);
      p.note('site-contracts: stopping\n');
      t = 4_000;
      p.unitDone({ id: 'u', label: 'route_presence GET /' });
      p.finish();
      expect(chunks).toEqual([
        'site-contracts: 2 cases - 1 passed, 1 failed - 1.5s\n',
        'site-contracts: stopping\n',
        'site-contracts: 3 cases - 1 passed, 1 failed, 1 skipped - 3.0s\n',
      ]);
    }
  });
});

describe('the progress line', () => {
  const state = (s: Partial<ProgressState>): ProgressState => ({ cases: 0, counts: zero, elapsedMs: 0, unitsDone: 0, ...s });

  it('says units done of the total, the share, the time left, the counts and the operation being tested', () => {
    expect(progressLine(state({ units: 4, current: 'negative_rejection GET /cal/v1/events' }), 200)).toBe(
      'site-contracts: 0/4 units (0%) ETA … | 0 cases, 0 passed, 0 failed | negative_rejection GET /cal/v1/events',
    );
    // One unit of four in 10 s: three more take about 30 s.
    const mid = state({ units: 4, unitsDone: 1, elapsedMs: 10_000, cases: 3, counts: { ...zero, passed: 1, failed: 1, errored: 1 }, current: 'pagination GET /cal/v1/venues' });
    expect(progressLine(mid, 200)).toBe('site-contracts: 1/4 units (25%) ETA 0:30 | 3 cases, 1 passed, 2 failed | pagination GET /cal/v1/venues');
    expect(progressLine({ ...mid, unitsDone: 1271, units: 1271, counts: { ...zero, warned: 2 } }, 200)).toMatch(/^site-contracts: 1271\/1271 units \(100%\) done \| 3 cases, 0 passed, 0 failed, 2 warned \|/);
    // 100 of 1271 units in 95 s: 1171 more at 0.95 s each.
    expect(progressLine(state({ units: 1271, unitsDone: 100, elapsedMs: 95_000 }), 200)).toContain('100/1271 units (7%) ETA 18:32 |');
  });

  it('fits the terminal, one line, and is the CI line when the units are not known', () => {
    const long = state({ units: 4, current: `negative_rejection GET ${'/x'.repeat(100)}` });
    expect(progressLine(long, 60)).toHaveLength(59);
    expect(progressLine(long, 60)).toBe(progressLine(long, 200).slice(0, 59));
    const s = state({ cases: 3, total: 7, counts: { ...zero, passed: 3 }, elapsedMs: 1200 });
    expect(progressLine(s, 200)).toBe(plainLine(s));
    expect(plainLine(s)).toBe('site-contracts: 3/7 (42%) cases - 3 passed, 0 failed - 1.2s');
  });
});

describe('progress on a terminal (log-update)', () => {
  it('redraws its one line in place, throttled by time, and leaves the last one ended', () => {
    const { chunks, stream } = sink(true);
    let t = 0;
    const p = createProgress({ stream, env: {}, now: () => t, minIntervalMs: 100, units: 4 });
    const a = { id: 'negative_rejection:getCalV1Events', label: 'negative_rejection GET /cal/v1/events' };
    p.unitStarted(a); // drawn
    t = 50;
    p.record('passed'); // too soon
    t = 10_000;
    p.record('failed'); // drawn
    p.unitDone(a);
    p.finish();
    expect(chunks).toHaveLength(3);
    expect(chunks[0]).toBe('site-contracts: 0/4 units (0%) ETA … | 0 cases, 0 passed, 0 failed | negative_rejection GET /cal/v1/events\n'.slice(0, 59) + '\n');
    // Each redraw erases the line drawn before (and the empty line under it) and draws the new one.
    expect(chunks.slice(1).map(erasedAbove)).toEqual([1, 1]);
    expect(text(chunks[1]!)).toBe('site-contracts: 0/4 units (0%) ETA … | 2 cases, 1 passed, 1 failed | negative_rejection GET /cal/v1/events'.slice(0, 59) + '\n');
    expect(text(chunks[2]!)).toBe('site-contracts: 1/4 units (25%) ETA 0:30 | 2 cases, 1 passed, 1 failed'.slice(0, 59) + '\n');
    expect(chunks.every((c) => !c.includes('\r') && text(c).split('\n').every((l) => l.length <= 59))).toBe(true);
  });

  it('writes a message above the line, where the next redraw does not erase it', () => {
    const { chunks, stream } = sink(true);
    let t = 0;
    const p = createProgress({ stream, env: {}, now: () => (t += 1000), minIntervalMs: 0, units: 2 });
    p.record('passed');
    p.note('site-contracts: stopping (Ctrl-C)\n');
    p.record('passed');
    p.finish();
    const shown = chunks.map(text);
    expect(shown[2]).toBe('site-contracts: stopping (Ctrl-C)\n');
    // The clear before it erased the line; the redraw after it erases nothing.
    expect(erasedAbove(chunks[1]!)).toBe(1);
    expect(text(chunks[1]!)).toBe('');
    expect(erasedAbove(chunks[3]!)).toBe(0);
    expect(shown[3]).toMatch(/^site-contracts: 0\/2 units \(0%\) ETA … \| 2 cases, 2 passed/);
  });

  it('draws on a terminal that tells no size (0 columns, 0 rows) as on one of 80 by 24', () => {
    const chunks: string[] = [];
    const p = createProgress({ stream: { isTTY: true, columns: 0, rows: 0, write: (s: string) => void chunks.push(s) }, env: {}, units: 2, minIntervalMs: 0 });
    p.unitStarted({ id: 'u', label: `route_presence GET ${'/x'.repeat(50)}` });
    p.finish();
    expect(chunks.map(text)).toEqual([`site-contracts: 0/2 units (0%) ETA … | 0 cases, 0 passed, 0 failed | route_presence GET ${'/x'.repeat(50)}`.slice(0, 79) + '\n']);
  });

  it('keeps CI logs to the plain case lines, with no redraws', () => {
    const { chunks, stream } = sink(true);
    const p = createProgress({ stream, env: { CI: 'true' }, every: 2, units: 3, total: 4 });
    p.unitStarted({ id: 'u', label: 'route_presence GET /' });
    for (const s of ['passed', 'passed', 'passed', 'passed'] as const) p.record(s);
    p.unitDone({ id: 'u', label: 'route_presence GET /' });
    p.finish();
    expect(chunks.every((c) => c.endsWith('\n') && !c.includes('\r') && !c.includes('\x1b') && !c.includes('units'))).toBe(true);
    expect(chunks.map((c) => c.split(' - ')[0])).toEqual(['site-contracts: 2/4 (50%) cases', 'site-contracts: 4/4 (100%) cases']);
  });
});
