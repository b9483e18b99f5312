// Local $ref resolution for the bundle. A $ref with siblings (OpenAPI 3.1 allows `description`, `default`…
// next to it) becomes the referenced object with the siblings laid over it, which is what 2020-12 means for
// the annotation keywords we use there.
import type { JsonSchema } from './types.ts';

class RefError extends Error {}

function pointerGet(doc: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new RefError(`only local $refs are supported, got ${ref}`);
  let cur: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(key in (cur as object))) throw new RefError(`unresolved $ref ${ref}`);
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** A fully dereferenced deep copy of `doc`; shared targets stay shared (resolved once, cached by ref). */
export function dereference(doc: JsonSchema): JsonSchema {
  const cache = new Map<string, unknown>();
  const resolving = new Set<string>();
  // for...in and indexed loops rather than Object.entries()/map(): no array of pairs per object. The contract is
  // dereferenced at every load (each vitest file's createMock()), where this walk was the largest single cost.
  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) {
      const out: unknown[] = new Array<unknown>(node.length);
      for (let i = 0; i < node.length; i++) out[i] = walk(node[i]);
      return out;
    }
    const obj = node as Record<string, unknown>;
    if (typeof obj.$ref === 'string') {
      const r = obj.$ref;
      let target = cache.get(r);
      if (target === undefined) {
        if (resolving.has(r)) throw new RefError(`circular $ref ${r}`);
        resolving.add(r);
        target = walk(pointerGet(doc, r));
        resolving.delete(r);
        cache.set(r, target);
      }
      let merged: Record<string, unknown> | undefined;
      for (const k in obj) {
        if (k === '$ref' || !Object.hasOwn(obj, k)) continue;
        merged ??= { ...(target as Record<string, unknown>) };
        merged[k] = walk(obj[k]);
      }
      return merged ?? target;
    }
    const out: Record<string, unknown> = {};
    for (const k in obj) if (Object.hasOwn(obj, k)) out[k] = walk(obj[k]);
    return out;
  };
  return walk(doc) as JsonSchema;
}
