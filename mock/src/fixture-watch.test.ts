// --watch's timing rules with a fake fs.watch and fake timers: a burst of changes is one reload once quiet, other
// files are ignored, reloads never overlap (a change during one asks for exactly one more), a watch error stops it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchFixtures, type WatchFn } from './fixture-watch.ts';

function fakeWatch() {
  let listener: ((event: string, filename: string | null) => void) | undefined;
  let onError: ((err: Error) => void) | undefined;
  let closed = false;
  const watch: WatchFn = (_dir, l) => {
    listener = l;
    return { close: () => void (closed = true), on: (_e: 'error', h: (err: Error) => void) => (onError = h) };
  };
  return { watch, change: (name: string | null) => listener!('change', name), fail: (err: Error) => onError!(err), closed: () => closed };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('watchFixtures', () => {
  it('reloads once a burst of changes has been quiet for the debounce time', async () => {
    const w = fakeWatch();
    const reload = vi.fn(async () => {});
    watchFixtures('/f', reload, { watch: w.watch, debounceMs: 200 });
    w.change('calendar.json');
    await vi.advanceTimersByTimeAsync(150);
    w.change('addons.json');
    await vi.advanceTimersByTimeAsync(199);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('ignores files that are not fixtures, but not a change without a file name', async () => {
    const w = fakeWatch();
    const reload = vi.fn(async () => {});
    watchFixtures('/f', reload, { watch: w.watch, debounceMs: 10 });
    for (const name of ['.calendar.json.swp', 'calendar.json~', 'notes.txt', 'schema.json']) w.change(name);
    await vi.advanceTimersByTimeAsync(50);
    expect(reload).not.toHaveBeenCalled();
    w.change(null);
    await vi.advanceTimersByTimeAsync(10);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('never runs two reloads at once: changes during one ask for exactly one more', async () => {
    const w = fakeWatch();
    let running = 0;
    let most = 0;
    const reload = vi.fn(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 1000));
      running--;
    });
    watchFixtures('/f', reload, { watch: w.watch, debounceMs: 10 });
    w.change('users.json');
    await vi.advanceTimersByTimeAsync(10);
    expect(reload).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) {
      w.change('users.json');
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(reload).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(reload).toHaveBeenCalledTimes(2);
    expect(most).toBe(1);
  });

  it('stops on close and on a watch error, saying why', async () => {
    const w = fakeWatch();
    const reload = vi.fn(async () => {});
    const errors: string[] = [];
    const watch = watchFixtures('/f', reload, { watch: w.watch, debounceMs: 10, onWatchError: (e) => errors.push(e.message) });
    w.change('calendar.json');
    w.fail(new Error('ENOENT: the directory is gone'));
    await vi.advanceTimersByTimeAsync(50);
    expect(reload).not.toHaveBeenCalled();
    expect(errors).toEqual(['ENOENT: the directory is gone']);
    watch.close();
    expect(w.closed()).toBe(true);
  });
});
