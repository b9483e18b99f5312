// Progress while a run is going. A person at a terminal gets one line redrawn in place; a CI log
// gets a plain line now and then, because `\r` redraws turn into thousands of lines there.

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
}

export interface Progress {
  record(status: CaseStatus): void;
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
  const draw = (): void => {
    const width = (stream.columns ?? 80) - 1;
    const text = line();
    // \x1b[K clears what a longer previous line left behind.
    stream.write(`\r${text.length > width ? text.slice(0, width) : text}\x1b[K`);
    drawnAt = now();
    dirty = true;
  };

  return {
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
