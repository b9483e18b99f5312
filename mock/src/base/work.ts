// Work that may be done in steps: a handler with much to do (a batch of 25 large items, a post near the 8 MiB body
// cap) returns a generator that yields between its steps instead of its answer. A server drives it one step per turn
// of the event loop, so other clients are answered between the steps; a caller that wants the answer at once
// (handleNow, tests) runs it through. The type and runNow are the WordPress layer's (contracts/wordpress/steps.ts),
// whose renderers work in steps too; the drivers that wait for the event loop are the mock's, here.

import { isWork, runNow, type Work } from '../../../contracts/wordpress/steps.ts';

export { isWork, runNow, type Work };

/** `f` of the value, at once when there is one, after the steps otherwise. (Not `then`: a module exporting `then` is a thenable, and `await import()` would call it.) */
export function andThen<T, U>(v: T | Work<T>, f: (t: T) => U | Work<U>): U | Work<U> {
  if (!isWork(v)) return f(v);
  return thenSteps(v, f);
}

// The steps are generator functions declared once, at the top of a module, and never a generator function made per
// call (`(function* () {...})()`): V8 gives every generator function it makes a hidden class of its own in the old
// generation, which points back at the function, so until the next full collection every young-generation
// collection kept alive all that function's closure reached (a whole batch's renderings) and promoted it.
// `.ci/layers/per-call-classes.test.ts` refuses such a function anywhere in the mock or the contract layer's code.

function* thenSteps<T, U>(v: Work<T>, f: (t: T) => U | Work<U>): Work<U> {
  const t = yield* v;
  const u = f(t);
  return isWork(u) ? yield* u : u;
}

/**
 * `f` of the value, as andThen, but when `pause` after a turn of the event loop: the stages of a request with a large
 * body are steps of their own, so other clients are answered between them (pipeline.ts).
 */
export function andThenAfterTurn<T, U>(pause: boolean, v: T | Work<T>, f: (t: T) => U | Work<U>): U | Work<U> {
  if (!pause) return andThen(v, f);
  return afterTurnSteps(v, f);
}

function* afterTurnSteps<T, U>(v: T | Work<T>, f: (t: T) => U | Work<U>): Work<U> {
  const t = isWork(v) ? yield* v : v;
  yield;
  const u = f(t);
  return isWork(u) ? yield* u : u;
}

/** Runs a function at the next turn of the event loop; `close` lets the page or process go once the work is done. */
interface Turns {
  next(f: () => void): void;
  close(): void;
}

/** What a turn can be waited with, from the host (globalThis), passed in so that the choice can be tested. */
export interface TurnHost {
  setImmediate?: (f: () => void) => unknown;
  MessageChannel?: new () => { port1: { onmessage: ((e: unknown) => void) | null; close(): void }; port2: { postMessage(m: unknown): void; close(): void } };
  setTimeout: (f: () => void, ms: number) => unknown;
}

/**
 * Node's setImmediate runs after the I/O that is waiting, so other requests get in. Browsers (MSW) have none; there a
 * message to oneself is a task of its own, as React's scheduler uses: setTimeout(0) would do, but browsers hold a
 * timer nested five deep for at least 4 ms (HTML's timer rules), so a post of 200 steps would idle for 0.8 s.
 */
function turnsOf(host: TurnHost): Turns {
  const immediate = host.setImmediate;
  if (typeof immediate === 'function') return { next: (f) => void immediate(f), close: () => undefined };
  const Channel = host.MessageChannel;
  if (typeof Channel === 'function') {
    // One channel per piece of work, so there is no shared queue: the work waits for one turn at a time.
    const channel = new Channel();
    let waiting: (() => void) | undefined;
    channel.port1.onmessage = () => {
      const f = waiting;
      waiting = undefined;
      f?.();
    };
    return {
      next: (f) => {
        waiting = f;
        channel.port2.postMessage(null);
      },
      close: () => {
        channel.port1.onmessage = null;
        channel.port1.close();
        channel.port2.close();
      },
    };
  }
  return { next: (f) => void host.setTimeout(f, 0), close: () => undefined };
}

/** One step per turn of the event loop. */
export function runYielding<T>(v: T | Work<T>, host: TurnHost = globalThis as unknown as TurnHost): T | Promise<T> {
  if (!isWork(v)) return v;
  const turns = turnsOf(host);
  return new Promise<T>((resolve, reject) => {
    const step = () => {
      try {
        const r = v.next();
        if (!r.done) return turns.next(step);
        turns.close();
        resolve(r.value);
      } catch (e) {
        turns.close();
        reject(e);
      }
    };
    step();
  });
}
