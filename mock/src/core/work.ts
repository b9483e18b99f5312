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
  return (function* () {
    const t = yield* v;
    const u = f(t);
    return isWork(u) ? yield* u : u;
  })();
}

/**
 * `f` of the value, as andThen, but when `pause` after a turn of the event loop: the stages of a request with a large
 * body are steps of their own, so other clients are answered between them (pipeline.ts).
 */
export function andThenAfterTurn<T, U>(pause: boolean, v: T | Work<T>, f: (t: T) => U | Work<U>): U | Work<U> {
  if (!pause) return andThen(v, f);
  return (function* () {
    const t = isWork(v) ? yield* v : v;
    yield;
    const u = f(t);
    return isWork(u) ? yield* u : u;
  })();
}

// setImmediate runs after the I/O that is waiting, so other requests get in; browsers (MSW) have only timers.
const nextTurn: (f: () => void) => void = typeof globalThis.setImmediate === 'function' ? (f) => void globalThis.setImmediate(f) : (f) => void setTimeout(f, 0);

/** One step per turn of the event loop. */
export function runYielding<T>(v: T | Work<T>): T | Promise<T> {
  if (!isWork(v)) return v;
  return new Promise<T>((resolve, reject) => {
    const step = () => {
      try {
        const r = v.next();
        if (r.done) resolve(r.value);
        else nextTurn(step);
      } catch (e) {
        reject(e);
      }
    };
    step();
  });
}
