// The one page slicer (issue 19): a window of a sorted list, as WP_Query's LIMIT offset, count takes it. A page of a
// paged list (the mock's pageOf()) is the window at (page - 1) * per_page; the add-on lists that take limit/offset
// ask for one directly, and the suite's limit/offset oracle computes the window it expects with the same function.

/** `limit` items from `offset` (from 0) of a sorted list. Values below 0 count as 0; fractions are cut. */
export function windowOf<T>(all: readonly T[], offset: number, limit: number): T[] {
  const from = Math.max(0, Math.trunc(offset) || 0);
  return all.slice(from, from + Math.max(0, Math.trunc(limit) || 0));
}
