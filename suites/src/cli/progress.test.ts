import { describe, expect, it } from 'vitest';
import { createProgress, duration, isInteractive, progressLine, statusLine, type ProgressState } from './progress.ts';

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

  it('prints the status line off a terminal at most once per interval, by the clock it is given, and the final state', () => {
    for (const [isTTY, env] of [[true, { CI: 'true' }], [false, {}]] as const) {
      const { chunks, stream } = sink(isTTY);
      let t = 0;
      const p = createProgress({ stream, env, units: 3, plainIntervalMs: 5_000, now: () => t });
      const a = { id: 'a', label: 'negative_rejection POST /cal/v1/events' };
      const b = { id: 'b', label: 'pagination GET /cal/v1/venues' };
      p.unitStarted(a);
      t = 4_999;
      p.record('passed'); // not yet: 4.999 s since the start
      t = 5_000;
      p.record('failed'); // printed
      t = 9_000;
      p.unitDone(a); // 4 s since the last line
      p.unitStarted(b);
      t = 10_000;
      p.record('warned'); // printed
      p.note('site-contracts: stopping\n');
      t = 14_000;
      p.unitDone(b);
      p.finish(); // the final state, whenever it comes
      p.finish(); // and once
      expect(chunks).toEqual([
        'site-contracts: 0/3 units (0%), ETA …, 2 cases (1 passed, 1 failed), now: negative_rejection POST /cal/v1/events\n',
        'site-contracts: 1/3 units (33%), ETA 20s, 3 cases (1 passed, 1 failed, 1 warned), now: pagination GET /cal/v1/venues\n',
        'site-contracts: stopping\n',
        'site-contracts: 2/3 units (66%), ETA 7s, 3 cases (1 passed, 1 failed, 1 warned)\n',
      ]);
    }
  });

  it('prints nothing at the end when nothing happened since the last line', () => {
    const { chunks, stream } = sink(false);
    let t = 0;
    const p = createProgress({ stream, env: {}, units: 1, plainIntervalMs: 1_000, now: () => t });
    p.finish();
    expect(chunks).toEqual([]);
    t = 1_000;
    p.unitStarted({ id: 'u', label: 'route_presence GET /' });
    p.finish();
    expect(chunks).toEqual(['site-contracts: 0/1 units (0%), ETA …, 0 cases (0 passed, 0 failed), now: route_presence GET /\n']);
  });

  it('prints at most one line per 10 s unless told, however many events come', () => {
    const { chunks, stream } = sink(false);
    let t = 0;
    const p = createProgress({ stream, env: {}, units: 10_000, now: () => t });
    // 10,000 units of 3 cases, 10 ms each on the clock (100 s in all): a line per 10 s, the last one the final state.
    for (let i = 0; i < 10_000; i++) {
      const u = { id: String(i), label: `check ${i}` };
      p.unitStarted(u);
      for (let k = 0; k < 3; k++) p.record('passed');
      t += 10;
      p.unitDone(u);
    }
    p.finish();
    expect(chunks).toHaveLength(10);
    expect(chunks[0]).toBe('site-contracts: 1,000/10,000 units (10%), ETA 1m30s, 3,000 cases (3,000 passed, 0 failed)\n');
    expect(chunks.at(-1)).toBe('site-contracts: 10,000/10,000 units (100%), done, 30,000 cases (30,000 passed, 0 failed)\n');
  });
});

describe('the status line', () => {
  const state = (s: Partial<ProgressState>): ProgressState => ({ cases: 0, counts: zero, elapsedMs: 0, unitsDone: 0, ...s });

  it('says units done of the total, the share, the time left, the counts and the unit being tested', () => {
    expect(statusLine(state({ units: 4, current: 'negative_rejection GET /cal/v1/events' }))).toBe(
      'site-contracts: 0/4 units (0%), ETA …, 0 cases (0 passed, 0 failed), now: negative_rejection GET /cal/v1/events',
    );
    // One unit of four in 10 s: three more take about 30 s.
    const mid = state({ units: 4, unitsDone: 1, elapsedMs: 10_000, cases: 3, counts: { ...zero, passed: 1, failed: 1, errored: 1 }, current: 'pagination GET /cal/v1/venues' });
    expect(statusLine(mid)).toBe('site-contracts: 1/4 units (25%), ETA 30s, 3 cases (1 passed, 1 failed, 1 errored), now: pagination GET /cal/v1/venues');
    expect(statusLine({ ...mid, unitsDone: 1271, units: 1271, counts: { ...zero, warned: 2 } })).toMatch(/^site-contracts: 1,271\/1,271 units \(100%\), done, 3 cases \(0 passed, 0 failed, 2 warned\), now:/);
    // 1,234 of 9,538 units in 31 s: 8,304 more at about 25 ms each.
    const big = state({ units: 9538, unitsDone: 1234, elapsedMs: 31_000, cases: 4321, counts: { ...zero, passed: 4300, failed: 2, skipped: 19 }, current: 'negative_rejection POST /cal/v1/events' });
    expect(statusLine(big)).toBe('site-contracts: 1,234/9,538 units (12%), ETA 3m29s, 4,321 cases (4,300 passed, 2 failed, 19 skipped), now: negative_rejection POST /cal/v1/events');
  });

  it('says durations as a log reader reads them', () => {
    expect([0, 499, 500, 45_000, 59_499, 59_500, 130_000, 3_599_000, 3_600_000, 3_900_000].map(duration)).toEqual(['0s', '0s', '1s', '45s', '59s', '1m00s', '2m10s', '59m59s', '1h00m', '1h05m']);
  });

  it('without the units, counts the cases (of the total, when known) and the time so far', () => {
    const s = state({ cases: 3, total: 7, counts: { ...zero, passed: 3 }, elapsedMs: 1200 });
    expect(statusLine(s)).toBe('site-contracts: 3/7 (42%) cases (3 passed, 0 failed), 1s');
    const { total: _, ...untold } = s;
    expect(statusLine(untold)).toBe('site-contracts: 3 cases (3 passed, 0 failed), 1s');
  });

  it('fits the terminal as one line: the status line cut to the width', () => {
    const long = state({ units: 4, current: `negative_rejection GET ${'/x'.repeat(100)}` });
    expect(progressLine(long, 60)).toHaveLength(59);
    expect(progressLine(long, 60)).toBe(statusLine(long).slice(0, 59));
    expect(progressLine(state({ units: 4 }), 200)).toBe(statusLine(state({ units: 4 })));
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
    expect(chunks[0]).toBe('site-contracts: 0/4 units (0%), ETA …, 0 cases (0 passed, 0 failed), now: negative_rejection GET /cal/v1/events'.slice(0, 59) + '\n');
    // Each redraw erases the line drawn before (and the empty line under it) and draws the new one.
    expect(chunks.slice(1).map(erasedAbove)).toEqual([1, 1]);
    expect(text(chunks[1]!)).toBe('site-contracts: 0/4 units (0%), ETA …, 2 cases (1 passed, 1 failed), now: negative_rejection GET /cal/v1/events'.slice(0, 59) + '\n');
    expect(text(chunks[2]!)).toBe('site-contracts: 1/4 units (25%), ETA 30s, 2 cases (1 passed, 1 failed)'.slice(0, 59) + '\n');
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
    expect(shown[3]).toMatch(/^site-contracts: 0\/2 units \(0%\), ETA …, 2 cases \(2 passed/);
  });

  it('draws on a terminal that tells no size (0 columns, 0 rows) as on one of 80 by 24', () => {
    const chunks: string[] = [];
    const p = createProgress({ stream: { isTTY: true, columns: 0, rows: 0, write: (s: string) => void chunks.push(s) }, env: {}, units: 2, minIntervalMs: 0 });
    p.unitStarted({ id: 'u', label: `route_presence GET ${'/x'.repeat(50)}` });
    p.finish();
    expect(chunks.map(text)).toEqual([`site-contracts: 0/2 units (0%), ETA …, 0 cases (0 passed, 0 failed), now: route_presence GET ${'/x'.repeat(50)}`.slice(0, 79) + '\n']);
  });

  it('keeps CI logs to whole status lines, with no redraws', () => {
    const { chunks, stream } = sink(true);
    let t = 0;
    const p = createProgress({ stream, env: { CI: 'true' }, units: 3, now: () => (t += 4_000) });
    p.unitStarted({ id: 'u', label: 'route_presence GET /' });
    for (const s of ['passed', 'passed', 'passed', 'passed'] as const) p.record(s);
    p.unitDone({ id: 'u', label: 'route_presence GET /' });
    p.finish();
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => /^site-contracts: \d\/3 units .*\n$/.test(c) && !c.includes('\r') && !c.includes('\x1b'))).toBe(true);
  });
});
