// Progress while a run is going. A person at a terminal gets one line redrawn in place: units done of the total,
// the share, an estimate of the time left, the unit being tested and the case counts. A CI log gets a plain line
// now and then, because `\r` redraws turn into thousands of lines there. One line and `\r` + erase-to-end is
// all the redraw needs, so it is written here rather than pulled in (log-update does the same with more).

import type { CaseStatus } from '../report/model.ts';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  stream: ProgressStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Cases expected in all, when known. */
  total?: number;
  /** In plain-line mode, at most one line per this many cases. */
  every?: number;
  now?: () => number;
  /** In terminal mode, the least time between two redraws. */
  minIntervalMs?: number;
  /** Units in the run, when known: the terminal line then counts units, with the share and the time left. */
  units?: number;
}

/** What the terminal line names as being tested: a unit's family and its operation. */
export interface UnitLabel {
  id: string;
  label: string;
}

export interface Progress {
  record(status: CaseStatus): void;
  unitStarted(unit: UnitLabel): void;
  unitDone(unit: UnitLabel): void;
  /** Draws the final state and ends the line. */
  finish(): void;
}

export function isInteractive(stream: ProgressStream, env: ProgressOptions['env']): boolean {
  return stream.isTTY === true && env['CI'] !== 'true' && env['CI'] !== '1';
}

export function createProgress(options: ProgressOptions): Progress {
  const { stream } = options;
  const now = options.now ?? Date.now;
  const every = Math.max(1, options.every ?? 100);
  const minInterval = options.minIntervalMs ?? 100;
  const interactive = isInteractive(stream, options.env);
  const started = now();
  const counts: Record<CaseStatus, number> = { passed: 0, failed: 0, warned: 0, inconclusive: 0, skipped: 0, errored: 0 };
  let done = 0;
  let unitsDone = 0;
  /** Units running now, in start order: the newest is the one named. */
  const running = new Map<string, string>();
  let printedAt = 0;
  let drawnAt = -Infinity;
  let dirty = false;

  const line = (): string => {
    const of = options.total ? `/${options.total} (${Math.floor((100 * done) / options.total)}%)` : '';
    const parts = (['passed', 'failed', 'warned', 'inconclusive', 'errored', 'skipped'] as const)
      .filter((s) => counts[s] > 0 || s === 'passed' || s === 'failed')
      .map((s) => `${counts[s]} ${s}`);
    return `site-contracts: ${done}${of} cases - ${parts.join(', ')} - ${((now() - started) / 1000).toFixed(1)}s`;
  };
  const clock = (ms: number): string => {
    const s = Math.max(0, Math.round(ms / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  };
  /** The terminal's line when the units are known: where the run is, how long it has left, what it is doing. */
  const unitLine = (total: number): string => {
    const elapsed = now() - started;
    const eta = unitsDone > 0 && unitsDone < total ? `ETA ${clock((elapsed / unitsDone) * (total - unitsDone))}` : unitsDone >= total ? 'done' : 'ETA …';
    const current = [...running.values()].at(-1);
    const failed = counts.failed + counts.errored;
    return (
      `site-contracts: ${unitsDone}/${total} units (${Math.floor((100 * unitsDone) / Math.max(1, total))}%) ${eta} | ` +
      `${done} cases, ${counts.passed} passed, ${failed} failed${counts.warned ? `, ${counts.warned} warned` : ''}` +
      `${current ? ` | ${current}` : ''}`
    );
  };
  const draw = (): void => {
    const width = (stream.columns ?? 80) - 1;
    const text = options.units !== undefined ? unitLine(options.units) : line();
    // \x1b[K clears what a longer previous line left behind.
    stream.write(`\r${text.length > width ? text.slice(0, width) : text}\x1b[K`);
    drawnAt = now();
    dirty = true;
  };

  return {
    unitStarted(unit) {
      running.set(unit.id, unit.label);
      if (interactive && now() - drawnAt >= minInterval) draw();
    },
    unitDone(unit) {
      running.delete(unit.id);
      unitsDone++;
    },
    record(status) {
      done++;
      counts[status]++;
      if (interactive) {
        if (now() - drawnAt >= minInterval) draw();
      } else if (done - printedAt >= every) {
        stream.write(line() + '\n');
        printedAt = done;
      }
    },
    finish() {
      if (interactive) {
        draw();
        if (dirty) stream.write('\n');
      } else if (printedAt !== done) {
        stream.write(line() + '\n');
        printedAt = done;
      }
    },
  };
}
