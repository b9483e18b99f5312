// The launcher watch with a process view made up for the test and fake timers: the mock stops when its parent changes,
// or when its parent is a shell whose own parent (npm) changes, and not for anything else.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startedByNpm, watchLauncher, type ProcessView } from './launcher-watch.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

type Tree = Record<number, { name: string; parent: number }>;

/** npm (100) → sh (200) → the mock, unless told otherwise; `tree` is changed by the test as processes end. */
function view(tree: Tree, parent = { pid: 200 }): ProcessView {
  return { parent: () => parent.pid, stat: (pid) => tree[pid] };
}

describe('watchLauncher', () => {
  it.each([
    ['the shell ending (npm passed SIGTERM to it): the mock is given to init', 'npm run mock', (tree: Tree, parent: { pid: number }) => void (parent.pid = 1)],
    ['npm ending alone (SIGHUP, SIGKILL): the shell lives on, given to init', 'npm exec site-', (tree: Tree) => void (tree[200] = { name: 'dash', parent: 1 })],
  ])('npm → sh → mock, %s: the mock stops, once', (_, npmName, end) => {
    const parent = { pid: 200 };
    const tree: Tree = { 100: { name: npmName, parent: 1 }, 200: { name: 'sh', parent: 100 } };
    const gone = vi.fn();
    watchLauncher(gone, { view: view(tree, parent) });
    vi.advanceTimersByTime(1000);
    expect(gone).not.toHaveBeenCalled();
    end(tree, parent);
    vi.advanceTimersByTime(250);
    expect(gone).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('a parent that is no shell (a test runner, a process manager): only the parent is watched', () => {
    const tree: Record<number, { name: string; parent: number }> = { 100: { name: 'bash', parent: 1 }, 200: { name: 'node', parent: 100 } };
    const gone = vi.fn();
    watchLauncher(gone, { view: view(tree) });
    tree[200] = { name: 'node', parent: 1 };
    vi.advanceTimersByTime(2000);
    expect(gone).not.toHaveBeenCalled();
  });

  it('where the system says nothing of processes (no /proc), the parent alone is watched', () => {
    const parent = { pid: 200 };
    const gone = vi.fn();
    watchLauncher(gone, { view: { parent: () => parent.pid, stat: () => undefined } });
    vi.advanceTimersByTime(2000);
    expect(gone).not.toHaveBeenCalled();
    parent.pid = 1;
    vi.advanceTimersByTime(250);
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('stops watching when told', () => {
    const parent = { pid: 200 };
    const gone = vi.fn();
    const stop = watchLauncher(gone, { view: { parent: () => parent.pid, stat: () => undefined } });
    stop();
    parent.pid = 1;
    vi.advanceTimersByTime(1000);
    expect(gone).not.toHaveBeenCalled();
  });
});

describe('startedByNpm', () => {
  it('npm run and npx set npm_lifecycle_event and npm_execpath; a plain start sets neither', () => {
    expect(startedByNpm({ npm_lifecycle_event: 'mock', npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: 'npx', npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' })).toBe(true);
    expect(startedByNpm({ PATH: '/usr/bin' })).toBe(false);
  });
});
