// Progress while a run is going. A person at a terminal gets one line redrawn in place (log-update, which erases
// what it drew last, however many lines the terminal wrapped it to): units done of the total, the share, an
// estimate of the time left, the unit being tested and the case counts. A CI log, or output that is not a
// terminal, gets a plain line now and then, because redraws turn into thousands of lines there.
// What a line says is decided by the pure functions progressLine and plainLine; createProgress only keeps the
// counts and decides when to write.

import { createLogUpdate } from 'log-update';
import type { CaseStatus } from '../report/model.ts';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

interface ProgressOptions {
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
interface UnitLabel {
  id: string;
  label: string;
}

export interface Progress {
  record(status: CaseStatus): void;
  unitStarted(unit: UnitLabel): void;
  unitDone(unit: UnitLabel): void;
  /** Writes a message (whole lines) above the line being redrawn, where the next redraw leaves it be. */
  note(text: string): void;
  /** Draws the final state and ends the line. */
  finish(): void;
}

/** Where a run is, as the lines tell it. */
export interface ProgressState {
  cases: number;
  counts: Readonly<Record<CaseStatus, number>>;
  elapsedMs: number;
  /** Cases expected in all, when known. */
  total?: number;
  /** Units in the run and done, when the units are known. */
  units?: number;
  unitsDone: number;
  /** The unit being tested (the newest of those running). */
  current?: string;
}

export function isInteractive(stream: ProgressStream, env: ProgressOptions['env']): boolean {
  return stream.isTTY === true && env['CI'] !== 'true' && env['CI'] !== '1';
}

/** The line of a CI log: cases done (of the total, when known) and the counts. */
export function plainLine(s: ProgressState): string {
  const of = s.total ? `/${s.total} (${Math.floor((100 * s.cases) / s.total)}%)` : '';
  const parts = (['passed', 'failed', 'warned', 'inconclusive', 'errored', 'skipped'] as const)
    .filter((k) => s.counts[k] > 0 || k === 'passed' || k === 'failed')
    .map((k) => `${s.counts[k]} ${k}`);
  return `site-contracts: ${s.cases}${of} cases - ${parts.join(', ')} - ${(s.elapsedMs / 1000).toFixed(1)}s`;
}

function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * The terminal's line, at most `width - 1` characters: with the units known, units done of the total, the share,
 * the time left (the time per unit so far times the units left), the counts and the unit being tested; without
 * them, the CI line.
 */
export function progressLine(s: ProgressState, width: number): string {
  let text: string;
  if (s.units === undefined) text = plainLine(s);
  else {
    const eta = s.unitsDone >= s.units ? 'done' : s.unitsDone > 0 ? `ETA ${clock((s.elapsedMs / s.unitsDone) * (s.units - s.unitsDone))}` : 'ETA …';
    const failed = s.counts.failed + s.counts.errored;
    text =
      `site-contracts: ${s.unitsDone}/${s.units} units (${Math.floor((100 * s.unitsDone) / Math.max(1, s.units))}%) ${eta} | ` +
      `${s.cases} cases, ${s.counts.passed} passed, ${failed} failed${s.counts.warned ? `, ${s.counts.warned} warned` : ''}` +
      `${s.current ? ` | ${s.current}` : ''}`;
  }
  const max = Math.max(1, width - 1);
  return text.length > max ? text.slice(0, max) : text;
}

export function createProgress(options: ProgressOptions): Progress {
  const { stream } = options;
  const now = options.now ?? Date.now;
  const every = Math.max(1, options.every ?? 100);
  const minInterval = options.minIntervalMs ?? 100;
  const started = now();
  const counts: Record<CaseStatus, number> = { passed: 0, failed: 0, warned: 0, inconclusive: 0, skipped: 0, errored: 0 };
  let cases = 0;
  let unitsDone = 0;
  /** Units running now, in start order: the newest is the one named. */
  const running = new Map<string, string>();
  let printedAt = 0;
  let drawnAt = -Infinity;

  const state = (): ProgressState => {
    const s: ProgressState = { cases, counts, elapsedMs: now() - started, unitsDone };
    if (options.total !== undefined) s.total = options.total;
    if (options.units !== undefined) s.units = options.units;
    const current = [...running.values()].at(-1);
    if (current !== undefined) s.current = current;
    return s;
  };
  // The cursor stays shown: hiding it would need a hook on the process's exit to show it again, and the run
  // already answers SIGINT and SIGTERM itself.
  // A terminal that tells no size (a pseudo-terminal nobody sized says 0 columns and 0 rows) is taken as 80 by 24:
  // log-update keeps only the last `rows` lines of what it draws, so 0 rows would draw nothing.
  const width = (): number => stream.columns || 80;
  const sized = { write: (chunk: string) => stream.write(chunk), get columns() { return width(); }, get rows() { return stream.rows || 24; } };
  const update = isInteractive(stream, options.env)
    ? // log-update only writes to the stream and reads its `columns` and `rows`, which is all `sized` has.
      createLogUpdate(sized as unknown as NodeJS.WritableStream, { showCursor: true })
    : undefined;
  const draw = (u: NonNullable<typeof update>): void => {
    u(progressLine(state(), width()));
    drawnAt = now();
  };

  return {
    unitStarted(unit) {
      running.set(unit.id, unit.label);
      if (update && now() - drawnAt >= minInterval) draw(update);
    },
    unitDone(unit) {
      running.delete(unit.id);
      unitsDone++;
    },
    record(status) {
      cases++;
      counts[status]++;
      if (update) {
        if (now() - drawnAt >= minInterval) draw(update);
      } else if (cases - printedAt >= every) {
        stream.write(plainLine(state()) + '\n');
        printedAt = cases;
      }
    },
    note(text) {
      if (update) {
        update.clear();
        drawnAt = -Infinity;
      }
      stream.write(text);
    },
    finish() {
      if (update) {
        draw(update);
        // The last line stays, ended, for what the run prints next.
        update.done();
      } else if (printedAt !== cases) {
        stream.write(plainLine(state()) + '\n');
        printedAt = cases;
      }
    },
  };
}
