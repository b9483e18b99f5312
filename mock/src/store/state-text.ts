// The state file's text: the store's snapshot plus when it was saved and the last journal transaction it includes.
// Written in pieces (one record at a time), so a large state is serialised without holding the event loop: the
// pieces joined are exactly JSON.stringify of the whole.

import type { StoreData } from '../../../contracts/model/records.ts';
import type { DeepReadonly } from './table.ts';

/** JSON of `value`, lists split into one piece per item (the records), objects into one piece per key. */
function* pieces(value: unknown): Generator<string> {
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      // Inside a list JSON.stringify writes undefined (and functions) as null.
      const item = JSON.stringify(value[i]) ?? 'null';
      yield i === 0 ? item : `,${item}`;
    }
    yield ']';
    return;
  }
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    yield '{';
    let first = true;
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      yield `${first ? '' : ','}${JSON.stringify(k)}:`;
      first = false;
      yield* pieces(v);
    }
    yield '}';
    return;
  }
  yield JSON.stringify(value) ?? 'null';
}

/** The state file's text in pieces: `{"version":1,"txn":…,"savedAt":…,"sequences":…,"calendar":…}` and a newline. */
export function* stateTextPieces(data: DeepReadonly<StoreData>, options: { txn?: number; savedAt?: Date } = {}): Generator<string> {
  const { version, ...rest } = data;
  yield* pieces({ version, ...(options.txn !== undefined ? { txn: options.txn } : {}), ...(options.savedAt ? { savedAt: options.savedAt.toISOString() } : {}), ...rest });
  yield '\n';
}

/** The whole state file text at once (tests, small states). */
export function serializeState(data: DeepReadonly<StoreData>, savedAt?: Date, txn?: number): string {
  return [...stateTextPieces(data, { ...(savedAt ? { savedAt } : {}), ...(txn !== undefined ? { txn } : {}) })].join('');
}
