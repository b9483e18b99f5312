// `--watch`: reload the fixture files when they change. An editor's save is often several events (a temporary file,
// a rename, a write), and a generator rewrites three files one after another, so changes are debounced: the reload
// runs once the directory has been quiet for `debounceMs`. Reloads never overlap: a change during one asks for one
// more after it. What a reload does (build a new mock, keep the old one on failure) is the caller's.
import { watch as nodeWatch } from 'node:fs';
import { FIXTURE_FILES } from '../../contracts/model/records.ts';

/** The part of fs.watch() this needs; tests pass a fake. */
export type WatchFn = (dir: string, listener: (event: string, filename: string | null) => void) => { close(): void; on(event: 'error', listener: (err: Error) => void): unknown };

interface FixtureWatchOptions {
  /** Quiet time before a reload (default 200 ms). */
  debounceMs?: number;
  watch?: WatchFn;
  /** The watch itself failed (the directory was removed): no more reloads. */
  onWatchError?: (err: Error) => void;
}

interface FixtureWatch {
  close(): void;
}

const WATCHED: ReadonlySet<string> = new Set(Object.values(FIXTURE_FILES));

/**
 * Calls `reload` after the fixture files in `dir` change (calendar.json, addons.json, users.json; other files, such
 * as an editor's swap files, are ignored), debounced and one at a time. `reload` reports its own failures; it must
 * not reject.
 */
export function watchFixtures(dir: string, reload: () => Promise<void>, options: FixtureWatchOptions = {}): FixtureWatch {
  const debounceMs = options.debounceMs ?? 200;
  const watchFn: WatchFn = options.watch ?? ((d, listener) => nodeWatch(d, { persistent: true }, (event, name) => listener(event, name === null ? null : String(name))));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let again = false;
  let closed = false;

  const run = async (): Promise<void> => {
    timer = undefined;
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await reload();
    } finally {
      running = false;
      if (again && !closed) {
        again = false;
        void run();
      }
    }
  };

  const watcher = watchFn(dir, (_event, filename) => {
    // Some platforms give no file name: then any change may be ours.
    if (closed || (filename !== null && !WATCHED.has(filename))) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void run(), debounceMs);
  });
  watcher.on('error', (err) => {
    if (timer !== undefined) clearTimeout(timer);
    closed = true;
    options.onWatchError?.(err);
  });

  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
    },
  };
}
