// What a store write is refused with, for the tests that hold the store's refusals to the record model's verdicts.
import { expect } from 'vitest';
import { StoreError, type Store } from '../store/store.ts';

/** A StoreError's parts (its code a plain string, so a test can write one out). */
export type Refusal = Pick<StoreError, 'message'> & { code: string; field: string | undefined };

/** The refusal a write gets, and that it changed nothing (records, version, sequences). */
export function refusal(s: Store, write: (s: Store) => unknown): Refusal {
  const before = s.snapshot();
  const version = s.version;
  try {
    write(s);
  } catch (e) {
    if (!(e instanceof StoreError)) throw e;
    expect(s.version).toBe(version);
    expect(s.snapshot()).toEqual(before);
    return { code: e.code, message: e.message, field: e.field };
  }
  throw new Error('expected the write to be refused');
}
