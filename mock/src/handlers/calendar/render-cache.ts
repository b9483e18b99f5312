// Rendering a record and encoding it as WordPress's JSON is most of the cost of a read. Stored records are frozen
// and replaced (never mutated) on update, so a rendering can be kept on the record object itself until the record
// is replaced: a WeakMap keyed by the record, one entry per variant (namespace, context, API root). Renderings that
// also depend on other records (legacy events embed venues, organizers and term counts) add the store's version
// to their variant, so any write makes them stale.
//
// List results are memoised the same way, per store and version.
import type { Store } from '../../store/store.ts';

export interface Rendered {
  obj: Record<string, unknown>;
  /** The object as serve_request() would encode it. */
  json: string;
}

const renders = new WeakMap<object, Map<string, Rendered>>();

export function rendered(record: object, variant: string, make: () => Record<string, unknown>, encode: (v: unknown) => string): Rendered {
  let byVariant = renders.get(record);
  if (!byVariant) {
    byVariant = new Map();
    renders.set(record, byVariant);
  }
  let hit = byVariant.get(variant);
  if (!hit) {
    const obj = make();
    // Encoded on first use: a batch item, for one, is only ever encoded inside its envelope.
    let json: string | undefined;
    hit = {
      obj,
      get json() {
        json ??= encode(obj);
        return json;
      },
    };
    // A record is rendered under a handful of variants at most (two API roots, two contexts); bound it anyway.
    if (byVariant.size > 16) byVariant.clear();
    byVariant.set(variant, hit);
  }
  return hit;
}

/** A rendering that is not kept (see `rendered`), encoded on first use. */
export function renderedOnce(obj: Record<string, unknown>, encode: (v: unknown) => string): Rendered {
  let json: string | undefined;
  return {
    obj,
    get json() {
      json ??= encode(obj);
      return json;
    },
  };
}

const storeIds = new WeakMap<Store, number>();
let nextStoreId = 1;

/** A token that changes whenever the store changes (and differs between stores). */
export function storeVersion(store: Store): string {
  let id = storeIds.get(store);
  if (id === undefined) {
    id = nextStoreId++;
    storeIds.set(store, id);
  }
  return `${id}.${store.version}`;
}

const lists = new WeakMap<Store, { version: number; entries: Map<string, unknown> }>();

/** Memoises `compute` per store state and key (at most 256 keys per state). */
export function memoList<T>(store: Store, key: string, compute: () => T): T {
  let m = lists.get(store);
  if (!m || m.version !== store.version) {
    m = { version: store.version, entries: new Map() };
    lists.set(store, m);
  }
  if (m.entries.has(key)) return m.entries.get(key) as T;
  const v = compute();
  if (m.entries.size >= 256) m.entries.clear();
  m.entries.set(key, v);
  return v;
}
