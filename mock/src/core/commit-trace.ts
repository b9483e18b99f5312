// What one request saw of the store and what it wrote, for a mock with a state file (assemble.ts): a write is
// acknowledged only once the journal has it, and a commit the journal cannot take is undone (store/persist.ts), with
// every commit after it. An answer then must not go out as it was built: a write whose commit was undone is refused
// (WordPress's own 500 for a failed insert, update or delete: saveRefusal()), a batch item likewise while the items
// that were saved keep their answers, and a read that saw an undone state is asked again.
//
// A request's code runs in synchronous steps (one, or one per turn of the event loop for a large batch or body,
// work.ts), and no other request's code runs inside a step: the commits made during a step are this request's own,
// and the version at a step's start is a state it read.
import type { Operation } from '../../../contracts/lib/types.ts';
import { wpError, type WpErrorResponse } from '../wire/errors.ts';
import { isWork, type Work } from '../base/work.ts';

/** What a trace needs of the store. */
interface Versioned {
  readonly version: number;
  onUndo(listener: (from: number, to: number) => void): () => void;
}

export class CommitTrace {
  /** Versions this request's own commits made, in order. */
  readonly own: number[] = [];
  /** Versions its steps started at: states it read. */
  readonly #seen: number[] = [];
  /** Own commits that were undone. */
  readonly #undoneOwn = new Set<number>();
  /** It read a state that was undone. */
  #sawUndone = false;
  readonly #store: Versioned;
  readonly #unsubscribe: () => void;

  constructor(store: Versioned) {
    this.#store = store;
    this.#unsubscribe = store.onUndo((from, to) => this.#undone(from, to));
  }

  #undone(from: number, to: number): void {
    for (const v of this.#seen) if (v > from && v <= to) this.#sawUndone = true;
    for (const v of this.own) if (v > from && v <= to) this.#undoneOwn.add(v);
  }

  /** Runs one synchronous step of the request, noting the state it starts from and the commits it makes. */
  step<T>(f: () => T): T {
    const before = this.#store.version;
    this.#seen.push(before);
    try {
      return f();
    } finally {
      for (let v = before + 1; v <= this.#store.version; v++) this.own.push(v);
    }
  }

  /** The newest version the answer may show: what it must wait for before it goes out. */
  get last(): number {
    return Math.max(this.#seen.at(-1) ?? 0, this.own.at(-1) ?? 0);
  }

  /** Whether a commit of this request in (from, to] was undone (to: the end of its own commits). */
  undoneWithin(from = -Infinity, to = Infinity): boolean {
    for (const v of this.#undoneOwn) if (v > from && v <= to) return true;
    return false;
  }

  /** Something it read or wrote was undone. */
  get touched(): boolean {
    return this.#sawUndone || this.#undoneOwn.size > 0;
  }

  /** It wrote nothing, and read a state that was undone: its answer may show what never happened. */
  get readUndone(): boolean {
    return this.own.length === 0 && this.#sawUndone;
  }

  /** No more undo to hear of: the answer is decided. */
  close(): void {
    this.#unsubscribe();
  }
}

/** `v`, its steps each run through `trace.step()` (a generator declared once: work.ts says why). */
export function traced<T>(trace: CommitTrace, v: () => T | Work<T>): T | Work<T> {
  const first = trace.step(v);
  return isWork(first) ? tracedSteps(trace, first) : first;
}

function* tracedSteps<T>(trace: CommitTrace, work: Work<T>): Work<T> {
  for (;;) {
    const r = trace.step(() => work.next());
    if (r.done) return r.value;
    yield;
  }
}

/** The kinds of records whose refusal WordPress words itself (wp_insert_post(), the posts and terms controllers). */
const NOUN: Readonly<Record<string, 'post' | 'term'>> = { event: 'post', venue: 'post', organizer: 'post', category: 'term', tag: 'term' };

/**
 * The answer to a write that could not be saved, as WordPress gives it when its database refuses one: 500
 * `db_insert_error` "Could not insert post into the database." (wp_insert_post(); the posts controller adds the
 * status), `db_update_error` "Could not update post in the database.", `rest_cannot_delete` "The post cannot be
 * deleted." (posts and terms controllers). For terms the insert's words are wp_insert_term()'s; WordPress has none for
 * a failed term update (wp_update_term() does not check), nor for the add-ons' writes: those are the mock's, in the
 * same shape. Without an operation (the mock's own control routes: a reset), the mock's own code.
 */
export function saveRefusal(op: Pick<Operation, 'kind' | 'resource'> | undefined): WpErrorResponse {
  const status = { status: 500 };
  if (op === undefined) return wpError('mock_state_not_saved', 'The change could not be saved: the state file cannot be written. Nothing was changed.', status);
  const noun = op.resource === undefined ? undefined : NOUN[op.resource];
  if (op.kind === 'create') return wpError('db_insert_error', noun ? `Could not insert ${noun} into the database.` : 'Could not insert the record into the database.', status);
  if (op.kind === 'delete') return wpError('rest_cannot_delete', noun ? `The ${noun} cannot be deleted.` : 'The record cannot be deleted.', status);
  return wpError('db_update_error', noun ? `Could not update ${noun} in the database.` : 'Could not update the database.', status);
}
