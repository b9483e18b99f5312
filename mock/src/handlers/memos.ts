// What handlers remember between requests, owned by the mock that serves them (assemble.ts makes one set per
// mock): renderings of stored records, the matching lists of a store state, the documentation documents. Each is a
// pure memo (core/memo.ts): bounded in bytes, switched off with the mock's cache, never a source of an answer's
// content (with it off, every answer is byte for byte the same).
import { Memo, textBytes, VersionedMemo, type MemoSettings } from '../core/memo.ts';
import type { RecordRenderings } from './calendar/render-cache.ts';

export interface HandlerMemos {
  /** Per stored record (frozen, replaced on update): its renderings by namespace, context and API root. */
  renders: Memo<object, RecordRenderings>;
  /** Per store version and query: the matching records in order, before paging. */
  lists: VersionedMemo<string, readonly unknown[]>;
  /** Per namespace and API root: the documentation route's OpenAPI document. */
  docs: Memo<string, unknown>;
}

export function createHandlerMemos(budget: { renders: MemoSettings; lists: MemoSettings; docs: MemoSettings }): HandlerMemos {
  return {
    renders: new Memo(budget.renders, (_record, renderings) => {
      let bytes = 64;
      for (const [variant, kept] of renderings) bytes += textBytes(variant) + kept.bytes;
      return bytes;
    }),
    lists: new VersionedMemo(budget.lists, (key, list) => textBytes(key) + 16 + 8 * list.length),
    // The documents share the contract's schemas; what is their own is the paths object, a fraction of the whole.
    docs: new Memo(budget.docs, (key) => textBytes(key) + 64 * 1024),
  };
}
