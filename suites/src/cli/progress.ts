// Progress while a run is going, told by one line: units done of the total, the share, an estimate of the time
// left, the case counts and the unit being tested. A person at a terminal gets it redrawn in place (log-update,
// which erases what it drew last, however many lines the terminal wrapped it to). A CI log, or output that is not
// a terminal, gets the same line printed whole at most once per interval (10 s unless told), because redraws turn
// into thousands of lines there.
// What the line says is decided by the pure function statusLine; createProgress only keeps the counts and decides
// when to write, by the clock it is given.

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
  /** Cases expected in all, when known (shown when the units are not). */
  total?: number;
  now?: () => number;
  /** In terminal mode, the least time between two redraws. */
  minIntervalMs?: number;
  /** Off a terminal, the least time between two printed lines. */
  plainIntervalMs?: number;
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

const count = new Intl.NumberFormat('en-US');

/** `45s`, `2m10s`, `1h05m`: a duration as a CI log reader says it. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The time left: the time per unit so far times the units left. */
function eta(s: ProgressState & { units: number }): string {
  if (s.unitsDone >= s.units) return 'done';
  return s.unitsDone > 0 ? `ETA ${duration((s.elapsedMs / s.unitsDone) * (s.units - s.unitsDone))}` : 'ETA …';
}

/**
 * Where the run is: `site-contracts: 1,234/9,538 units (12%), ETA 2m10s, 4,321 cases (4,300 passed, 2 failed),
 * now: negative_rejection POST /cal/v1/events`. Passed and failed are always counted, the other statuses when
 * some case has them. Without the units, the cases (of the total, when known) and the time so far.
 */
export function statusLine(s: ProgressState): string {
  const statuses = (['passed', 'failed', 'warned', 'inconclusive', 'errored', 'skipped'] as const)
    .filter((k) => s.counts[k] > 0 || k === 'passed' || k === 'failed')
    .map((k) => `${count.format(s.counts[k])} ${k}`);
  if (s.units === undefined) {
    const of = s.total ? `/${count.format(s.total)} (${Math.floor((100 * s.cases) / s.total)}%)` : '';
    return `site-contracts: ${count.format(s.cases)}${of} cases (${statuses.join(', ')}), ${duration(s.elapsedMs)}`;
  }
  const cases = `${count.format(s.cases)} cases (${statuses.join(', ')})`;
  const share = Math.floor((100 * s.unitsDone) / Math.max(1, s.units));
  return (
    `site-contracts: ${count.format(s.unitsDone)}/${count.format(s.units)} units (${share}%), ${eta({ ...s, units: s.units })}, ${cases}` +
    `${s.current ? `, now: ${s.current}` : ''}`
  );
}

/** The terminal's line: the status line cut to at most `width - 1` characters, so it never wraps. */
export function progressLine(s: ProgressState, width: number): string {
  const text = statusLine(s);
  const max = Math.max(1, width - 1);
  return text.length > max ? text.slice(0, max) : text;
}

export function createProgress(options: ProgressOptions): Progress {
  const { stream } = options;
  const now = options.now ?? Date.now;
  const minInterval = options.minIntervalMs ?? 100;
  const plainInterval = options.plainIntervalMs ?? 10_000;
  const started = now();
  const counts: Record<CaseStatus, number> = { passed: 0, failed: 0, warned: 0, inconclusive: 0, skipped: 0, errored: 0 };
  let cases = 0;
  let unitsDone = 0;
  /** Units running now, in start order: the newest is the one named. */
  const running = new Map<string, string>();
  /** Off a terminal: when a line was last printed, and whether anything happened since. */
  let printedAt = started;
  let changed = false;
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
  const print = (): void => {
    stream.write(statusLine(state()) + '\n');
    printedAt = now();
    changed = false;
  };
  /** After each event: a redraw on a terminal, a printed line elsewhere, each when its interval has passed. */
  const tick = (): void => {
    changed = true;
    if (update) {
      if (now() - drawnAt >= minInterval) draw(update);
    } else if (now() - printedAt >= plainInterval) print();
  };

  return {
    unitStarted(unit) {
      running.set(unit.id, unit.label);
      tick();
    },
    unitDone(unit) {
      running.delete(unit.id);
      unitsDone++;
      tick();
    },
    record(status) {
      cases++;
      counts[status]++;
      tick();
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
      } else if (changed) print();
    },
  };
}
