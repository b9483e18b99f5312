// What handlers remember between requests, owned by the mock that serves them (assemble.ts makes one set per
// mock): renderings of stored records, the matching lists of a store state, the documentation documents. Each is a
// pure memo (base/memo.ts): bounded in bytes, switched off with the mock's cache, never a source of an answer's
// content (with it off, every answer is byte for byte the same). Their types are the handler contract's (context.ts).
import { Memo, textBytes, VersionedMemo, type MemoSettings } from '../base/memo.ts';
import type { HandlerMemos } from './context.ts';

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
