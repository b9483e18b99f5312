// Every record the suite creates goes into the ledger the moment its id is known, and the ledger is
// emptied at the end of the run whatever happened (failure, timeout, Ctrl-C): cleanup.ts deletes every
// entry, each on its own. Nothing takes a record off the ledger during the run: a check that saw its
// record "gone" saw only that it no longer reads, which a trashed record on many sites does too.

import { jsonBody, type Exchange } from '../../http/types.ts';

export interface Created {
  namespace: string;
  resource: string;
  id: number;
  /** Template of the record's own route in the namespace that created it: `/cal/v1/events/{id}`. */
  itemPath: string;
  /** Unit that created it, for the report. */
  createdBy: string;
}

export class Ledger {
  private readonly entries: Created[] = [];

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
