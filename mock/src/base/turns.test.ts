// How stepped work waits for the event loop (work.ts): setImmediate under Node, a message to itself in browsers
// (where setTimeout(0) nested five deep waits at least 4 ms), a timer only where there is neither.
import { MessageChannel as NodeChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { runYielding, type TurnHost } from './work.ts';

function* steps(n: number, log: number[]): Generator<undefined, string, unknown> {
  for (let i = 0; i < n; i++) {
    log.push(i);
    yield;
  }
  return 'done';
}

/** A host whose every way of waiting counts its uses and then waits as Node would. */
function countingHost(has: { immediate: boolean; channel: boolean }) {
  const used = { immediate: 0, posts: 0, timers: 0, closed: 0 };
  class CountingChannel extends NodeChannel {
    constructor() {
      super();
      const post = this.port2.postMessage.bind(this.port2);
      this.port2.postMessage = (m: unknown) => { used.posts++; post(m); };
      const close = this.port1.close.bind(this.port1);
      this.port1.close = () => { used.closed++; close(); };
    }
  }
  const host: TurnHost = {
    setTimeout: (f, ms) => { used.timers++; return setTimeout(f, ms); },
    ...(has.immediate ? { setImmediate: (f: () => void) => { used.immediate++; return setImmediate(f); } } : {}),
    ...(has.channel ? { MessageChannel: CountingChannel as unknown as TurnHost['MessageChannel'] } : {}),
  };
  return { host, used };
}

describe('runYielding waits one turn per step, with what the host has', () => {
  it('under Node: setImmediate, once per step', async () => {
    const { host, used } = countingHost({ immediate: true, channel: true });
    const log: number[] = [];
    await expect(runYielding(steps(40, log), host)).resolves.toBe('done');
    expect(log).toHaveLength(40);
    expect(used).toEqual({ immediate: 40, posts: 0, timers: 0, closed: 0 });
  });

  it('in a browser (no setImmediate): a message per step, never a timer, and the channel closed after', async () => {
    const { host, used } = countingHost({ immediate: false, channel: true });
    const log: number[] = [];
    await expect(runYielding(steps(40, log), host)).resolves.toBe('done');
    expect(log).toHaveLength(40);
    expect(used).toEqual({ immediate: 0, posts: 40, timers: 0, closed: 1 });
  });

  it('steps interleave with other tasks: each waits a turn, so a task queued meanwhile runs between two steps', async () => {
    const { host } = countingHost({ immediate: false, channel: true });
    const log: (number | string)[] = [];
    const done = runYielding(steps(3, log as number[]), host);
    setImmediate(() => log.push('other'));
    await done;
    expect(log.indexOf('other')).toBeGreaterThan(0);
    expect(log.indexOf('other')).toBeLessThan(log.length - 1);
  });

  it('with neither: a timer per step', async () => {
    const { host, used } = countingHost({ immediate: false, channel: false });
    await expect(runYielding(steps(5, []), host)).resolves.toBe('done');
    expect(used.timers).toBe(5);
  });

  it('a step that throws rejects, and the channel is closed', async () => {
    const { host, used } = countingHost({ immediate: false, channel: true });
    function* failing(): Generator<undefined, string, unknown> {
      yield;
      throw new Error('step 2 failed');
    }
    await expect(runYielding(failing(), host)).rejects.toThrow('step 2 failed');
    expect(used.closed).toBe(1);
  });

  it('a value that is not work is returned as it is, with no turn', () => {
    const { host, used } = countingHost({ immediate: false, channel: true });
    expect(runYielding('now', host)).toBe('now');
    expect(used).toEqual({ immediate: 0, posts: 0, timers: 0, closed: 0 });
  });
});
