// A run's own writes must not change a list while a check compares two reads of it (a HEAD and its GET, a page and
// the next, a list with and without a default written out): with several workers, a probe a lax site accepts, or a
// record an oracle makes, would otherwise land between the two reads and fail a conformant site. One read-write lock
// per record type: comparisons of a type's lists share it, the run's writes to that type share it, and the two
// never overlap. A unit never waits for itself (its own writes pass its own comparisons), and a unit inside a
// comparison never waits to write (no unit holds one lock while waiting for another, so no two can wait on each other).
// Waiting writes go before new comparisons of their type, so a stream of comparisons cannot hold a write back for long.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { SAFE_METHODS, type Outgoing } from '../http/types.ts';

/** Every type at once: a batch may write to any route. */
const ALL = '*';

interface Slot {
  /** Units comparing reads of the type now, with how many comparisons each has open. */
  readers: Map<string, number>;
  /** Units writing to the type now, with how many writes each has in flight. */
  writers: Map<string, number>;
  /** Writes waiting for the comparisons of other units to end. */
  waitingWriters: number;
}

export class ListLock {
  private readonly slots = new Map<string, Slot>();
  private wakers: (() => void)[] = [];

  private slot(key: string): Slot {
    let s = this.slots.get(key);
    if (!s) this.slots.set(key, (s = { readers: new Map(), writers: new Map(), waitingWriters: 0 }));
    return s;
  }

  private others(m: Map<string, number>, holder: string): boolean {
    for (const k of m.keys()) if (k !== holder) return true;
    return false;
  }

  /** The slots whose holders a key's holder must not overlap: its own and the batch's (a batch meets any type), or every slot for the batch's. */
  private met(key: string): Slot[] {
    return key === ALL ? [...this.slots.values()] : [this.slot(key), this.slot(ALL)];
  }

  private readingAnything(holder: string): boolean {
    for (const s of this.slots.values()) if (s.readers.has(holder)) return true;
    return false;
  }

  private async until(ready: () => boolean): Promise<void> {
    while (!ready()) await new Promise<void>((resolve) => this.wakers.push(resolve));
  }

  private wake(): void {
    const w = this.wakers;
    this.wakers = [];
    for (const f of w) f();
  }

  private static add(m: Map<string, number>, holder: string, n: number): void {
    const v = (m.get(holder) ?? 0) + n;
    if (v === 0) m.delete(holder);
    else m.set(holder, v);
  }

  /** Runs a comparison of reads of `keys` while no other unit writes to them. */
  async read<T>(keys: readonly string[], holder: string, fn: () => Promise<T>): Promise<T> {
    const own = [...new Set(keys)].map((k) => this.slot(k));
    const ready = (): boolean => this.readingAnything(holder) || [...new Set(keys)].flatMap((k) => this.met(k)).every((s) => !this.others(s.writers, holder) && s.waitingWriters === 0);
    await this.until(ready);
    for (const s of own) ListLock.add(s.readers, holder, 1);
    try {
      return await fn();
    } finally {
      for (const s of own) ListLock.add(s.readers, holder, -1);
      this.wake();
    }
  }

  /** Runs one write to `key` while no other unit compares reads of it. */
  async write<T>(key: string, holder: string, fn: () => Promise<T>): Promise<T> {
    const own = this.slot(key);
    const free = (): boolean => this.readingAnything(holder) || this.met(key).every((s) => !this.others(s.readers, holder));
    if (!free()) {
      own.waitingWriters++;
      try {
        await this.until(free);
      } finally {
        own.waitingWriters--;
      }
    }
    ListLock.add(own.writers, holder, 1);
    try {
      return await fn();
    } finally {
      ListLock.add(own.writers, holder, -1);
      this.wake();
    }
  }
}

/** The method a request is served as: WordPress honours X-HTTP-Method-Override and `?_method=` on a POST. */
function servedMethod(out: Outgoing): string {
  if (out.method !== 'POST') return out.method;
  const header = Object.entries(out.headers ?? {}).find(([k]) => k.toLowerCase() === 'x-http-method-override')?.[1];
  const query = out.query?.['_method'] ?? /(?:^|&)_method=([^&]*)/.exec(out.rawQuery ?? '')?.[1];
  return String(header ?? query ?? out.method).toUpperCase();
}

/** Whether a request may change what the target lists (a write, a probe a lax site may accept); cleanup runs after every check. */
export function changesLists(out: Outgoing): boolean {
  return out.intent !== 'cleanup' && !SAFE_METHODS.has(servedMethod(out));
}

/** The record type an operation's lists and writes are about: its resource, or else its route. */
export function typeOf(op: Operation): string {
  if (op.namespace === 'batch/v1') return ALL;
  return op.resource ?? `${op.namespace}:${op.path}`;
}

/** Which record type a concrete route (`/cal/v1/events/12`) writes to, by the contract's route templates. */
export function routeTypes(contract: Contract): (route: string) => string {
  const templates = contract.operations.map((op) => ({ re: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'), type: typeOf(op) }));
  return (route) => {
    const path = route.split('?')[0]!;
    // A route the contract does not have may be anything (a plugin's own): it meets every comparison.
    return templates.find((t) => t.re.test(path))?.type ?? ALL;
  };
}
