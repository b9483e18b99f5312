// Work that may be done in steps: a function with much to do returns a generator that yields where it may pause, and
// its caller runs it through at once (runNow) or lets a server answer other clients between the steps (the mock's
// base/work.ts). Here, in the leaf layer, because the post renderers (content/) are written this way: the_content of
// a post near the 8 MiB body cap is a second of wptexturize() and wpautop(), and every layer may import this one.

/** Steps that end in a T; each `yield` is a point where other work may run. */
export type Work<T> = Generator<void, T, void>;

/** Every step now, in this turn. */
export function runNow<T>(v: T | Work<T>): T {
  if (!isWork(v)) return v;
  for (;;) {
    const r = v.next();
    if (r.done) return r.value;
  }
}

export function isWork<T>(v: T | Work<T>): v is Work<T> {
  return typeof v === 'object' && v !== null && typeof (v as { next?: unknown }).next === 'function' && typeof (v as { throw?: unknown }).throw === 'function';
}

/** Text from this length is rendered in steps (a pause between passes and every STEP_PARTS pieces); shorter in one. */
export const STEP_CHARS = 64 * 1024;
/** Pieces of a split text (elements and the text between them) handled between two pauses. */
export const STEP_PARTS = 2048;
