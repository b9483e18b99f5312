// What changed in a settings object, so the journal records a save by what it changed rather than the whole value:
// a settings object that grows by a megabyte a save would otherwise be written whole every time (30 such saves wrote
// 722 MB). Values are the store's frozen JSON data; an unchanged part of a new value is the old one's very object
// (shareUnchanged() makes it so when the value is stored), so a diff costs the size of what changed.
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

/** Nested change of an object: `s` keys set to a value, `d` keys removed, `p` keys whose object changed in part. */
export interface Patch {
  s?: Record<string, unknown>;
  d?: string[];
  p?: Record<string, Patch>;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * `next` with every part equal to the same part of `old` replaced by old's (already frozen) object: a save that
 * changes one key shares the rest, in memory and for diff().
 */
export function shareUnchanged<T>(old: unknown, next: T): T {
  if (deepEqual(old, next)) return old as T;
  if (!isPlainObject(old) || !isPlainObject(next)) return next;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(next)) out[k] = Object.prototype.hasOwnProperty.call(old, k) ? shareUnchanged(old[k], next[k]) : next[k];
  return out as T;
}

/** The patch from `old` to `next`, both plain objects; undefined when they are the same object. Identity decides. */
export function diff(old: Readonly<Record<string, unknown>>, next: Readonly<Record<string, unknown>>): Patch | undefined {
  if (old === next) return undefined;
  const patch: Patch = {};
  for (const k of Object.keys(next)) {
    const a = Object.prototype.hasOwnProperty.call(old, k) ? old[k] : undefined;
    const b = next[k];
    if (a === b && Object.prototype.hasOwnProperty.call(old, k)) continue;
    if (isPlainObject(a) && isPlainObject(b)) {
      const inner = diff(a, b);
      if (inner) (patch.p ??= {})[k] = inner;
    } else (patch.s ??= {})[k] = b;
  }
  for (const k of Object.keys(old)) if (!Object.prototype.hasOwnProperty.call(next, k)) (patch.d ??= []).push(k);
  return patch;
}

/** `old` with `patch` applied (a new object; `old` is not changed). Key order: old's kept keys, then new ones. */
export function applyPatch(old: unknown, patch: Patch): Record<string, unknown> {
  const base = isPlainObject(old) ? old : {};
  const out: Record<string, unknown> = { ...base };
  for (const k of patch.d ?? []) delete out[k];
  for (const [k, v] of Object.entries(patch.s ?? {})) out[k] = v;
  for (const [k, inner] of Object.entries(patch.p ?? {})) out[k] = applyPatch(base[k], inner);
  return out;
}

/** Whether a journal value is a patch as written by encodeEntry. */
export function isPatch(v: unknown): v is Patch {
  if (!isPlainObject(v)) return false;
  return Object.keys(v).every((k) => (k === 's' && isPlainObject(v.s)) || (k === 'd' && Array.isArray(v.d) && v.d.every((x) => typeof x === 'string')) || (k === 'p' && isPlainObject(v.p) && Object.values(v.p).every(isPatch)));
}
