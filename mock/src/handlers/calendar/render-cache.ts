// Rendering a record and encoding it as WordPress's JSON is most of the cost of a read. Stored records are frozen
// and replaced (never mutated) on update, so a rendering stays true for its record object until the record is
// replaced: the mock's render memo (handlers/memos.ts) keeps, per record, one rendering per variant (namespace,
// type, context, API root). Renderings that also depend on other records (legacy events embed venues, organizers
// and term counts) are kept with the store version they were made at, and made again once it has moved on.
import type { Memo } from '../../base/memo.ts';
import type { RecordRenderings, Rendered } from '../context.ts';

/**
 * A rendering encoded on first use (a batch item, for one, is only ever encoded inside its envelope). A class, not an
 * object literal with a getter: each such literal made a hidden class and accessor of its own in the old generation,
 * through which young-generation collections kept the rendering and all it reached alive until the next full one.
 */
class EncodedOnce implements Rendered {
  #json: string | undefined;
  constructor(
    readonly obj: Record<string, unknown>,
    private readonly encode: (v: unknown) => string,
  ) {}
  get json(): string {
    this.#json ??= this.encode(this.obj);
    return this.#json;
  }
}

export function renderedOnce(obj: Record<string, unknown>, encode: (v: unknown) => string): Rendered {
  return new EncodedOnce(obj, encode);
}

/**
 * The memo's rendering of `record` in `variant`, if it was made for the same `deps` (a store version for renderings
 * that embed other records, '' otherwise).
 */
export function heldRendering(memo: Memo<object, RecordRenderings>, record: object, variant: string, deps: string): Rendered | undefined {
  const hit = memo.peek(record)?.get(variant);
  return hit && hit.deps === deps ? hit.rendered : undefined;
}

/** `r`, kept as the rendering of `record` in `variant` (when the memo is on). */
export function keepRendering(memo: Memo<object, RecordRenderings>, record: object, variant: string, deps: string, r: Rendered): Rendered {
  if (!memo.settings.enabled) return r;
  // Kept renderings are encoded now: their size is what the memo is bounded by, and a read needs the JSON anyway.
  const renderings: RecordRenderings = new Map(memo.peek(record) ?? []);
  renderings.set(variant, { deps, rendered: r, bytes: 3 * r.json.length + 256 });
  memo.set(record, renderings);
  return r;
}
