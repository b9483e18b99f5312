// Every record the suite creates goes into the ledger the moment its id is known, and the ledger is
// emptied at the end of the run whatever happened (failure, timeout, Ctrl-C): cleanup.ts deletes every
// entry, each on its own. Nothing takes a record off the ledger during the run: a check that saw its
// record "gone" saw only that it no longer reads, which a trashed record on many sites does too.

import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { Operation } from '../../../../contracts/lib/types.ts';
import { jsonBody, SAFE_METHODS, type Exchange, type Outgoing, type WireMethod } from '../../http/types.ts';

export interface Created {
  namespace: string;
  resource: string;
  id: number;
  /** Template of the record's own route in the namespace that created it: `/cal/v1/events/{id}`. */
  itemPath: string;
  /** Unit that created it, for the report. */
  createdBy: string;
  /**
   * Made by a create that could not carry the marker (an add-on's create whose fields the documents do not show):
   * its id came from the run's own create answer, so cleanup removes it by that id without looking for the marker.
   */
  unmarked?: true;
}

export class Ledger {
  private readonly entries: Created[] = [];
  /** Resources the run sent a write to, whatever came back: their lists are swept for the marker at the end. */
  private readonly types = new Set<string>();

  add(record: Created): void {
    if (!this.has(record.namespace, record.resource, record.id)) this.entries.push(record);
  }

  has(namespace: string, resource: string, id: number): boolean {
    return this.entries.some((e) => e.namespace === namespace && e.resource === resource && e.id === id);
  }

  /** Deletes run in reverse order of creation: events before the venues they point at. */
  live(): Created[] {
    return [...this.entries].reverse();
  }

  get size(): number {
    return this.entries.length;
  }

  wroteTo(resource: string): void {
    this.types.add(resource);
  }

  /** The resources written to, in the order first written. */
  written(): string[] {
    return [...this.types];
  }
}

/**
 * The resources a request with a write method may have created records of: its operation's, and for a batch each
 * item's (the item's path and method routed as the site would). A site may carry out a create and still answer 500
 * without an id, or the answer may never arrive, so this is known before the answer is.
 */
export function writtenResources(contract: Contract, out: Outgoing, op: Operation | undefined): string[] {
  if (SAFE_METHODS.has(out.method)) return [];
  const routed = op ?? routeOf(contract, out.method, out.route);
  if (routed?.kind !== 'batch') return routed?.resource ? [routed.resource] : [];
  const requests = out.body?.kind === 'json' ? (out.body.value as { requests?: unknown } | null)?.requests : undefined;
  if (!Array.isArray(requests)) return [];
  const found = new Set<string>();
  for (const item of requests) {
    const { method, path } = (item ?? {}) as { method?: unknown; path?: unknown };
    if (typeof path !== 'string') continue;
    const m = (typeof method === 'string' ? method.toUpperCase() : 'POST') as WireMethod;
    const r = routeOf(contract, m, path.split('?')[0]!)?.resource;
    if (r) found.add(r);
  }
  return [...found];
}

/** The operation a concrete route and method reach, as the site would route them. */
export function routeOf(contract: Contract, method: string, route: string): Operation | undefined {
  return contract.operations.find((o) => o.method === method && o.regex.test(route));
}

/** Ids come from create responses: `{id: 12}` (WordPress and the legacy calendar API alike). */
export function createdId(e: Exchange): number | undefined {
  const r = e.response;
  if (!r || r.status < 200 || r.status >= 300) return undefined;
  const body = jsonBody(r) as { id?: unknown } | undefined;
  const id = body?.id;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return id;
  if (typeof id === 'string' && /^[1-9][0-9]*$/.test(id)) return Number(id);
  return undefined;
}
