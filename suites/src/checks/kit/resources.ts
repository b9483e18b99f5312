// The writable calendar resources, found in the contract by kind and resource rather than listed by
// hand: for each namespace and resource, the operations a lifecycle needs and how the suite makes and
// recognises a record of its own (the marker goes into the field that names the record).

import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { Operation } from '../../../../contracts/lib/types.ts';
import type { UnitEnv } from './unit.ts';
import { createdId } from './ledger.ts';
import { fillTemplate } from '../../http/target.ts';
import type { Exchange } from '../../http/types.ts';
import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';

export const CALENDAR_NAMESPACES = ['cal/v1', 'cal/events/v1'] as const;

export interface CalendarResource {
  namespace: string;
  resource: string;
  /** The body field that names a record: where the marker goes. */
  nameField: string;
  create: Operation;
  read: Operation;
  list: Operation;
  update: Operation;
  delete: Operation;
  readBySlug?: Operation;
}

/** Field that names a record, by namespace and resource (000 §2.1–2.5). */
function nameField(namespace: string, resource: string): string {
  if (namespace === 'cal/events/v1') {
    if (resource === 'venue') return 'venue';
    if (resource === 'organizer') return 'organizer';
    if (resource === 'category' || resource === 'tag') return 'name';
  }
  return 'title';
}

const byId = (o: Operation): boolean => /\/\{id\}$/.test(o.path);

export function calendarResources(contract: Contract): CalendarResource[] {
  const out: CalendarResource[] = [];
  for (const namespace of CALENDAR_NAMESPACES) {
    const ops = contract.operations.filter((o) => o.namespace === namespace && o.resource);
    const resources = [...new Set(ops.filter((o) => o.kind === 'create').map((o) => o.resource!))];
    for (const resource of resources) {
      const of = (pred: (o: Operation) => boolean): Operation | undefined => ops.find((o) => o.resource === resource && pred(o));
      const create = of((o) => o.kind === 'create');
      const read = of((o) => o.kind === 'read' && byId(o));
      const list = of((o) => o.kind === 'list');
      // PATCH where there is one: the method WordPress clients use for partial updates.
      const update = of((o) => o.kind === 'update' && byId(o) && o.method === 'PATCH') ?? of((o) => o.kind === 'update' && byId(o));
      const del = of((o) => o.kind === 'delete' && byId(o));
      const readBySlug = of((o) => o.kind === 'read' && /\{slug\}$/.test(o.path));
      if (!create || !read || !list || !update || !del) continue;
      out.push({ namespace, resource, nameField: nameField(namespace, resource), create, read, list, update, delete: del, ...(readBySlug ? { readBySlug } : {}) });
    }
  }
  return out;
}

export function resourceFor(contract: Contract, op: Operation): CalendarResource | undefined {
  if (!op.resource) return undefined;
  return calendarResources(contract).find((r) => r.namespace === op.namespace && r.resource === op.resource);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS` in UTC, the one form both namespaces take for event dates. */
export function localDateTime(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/**
 * The smallest body that creates a record in every reading of the documents: the name (with the
 * marker), the required dates of a legacy event, and dates in the future for every event so that
 * lists that default to upcoming events show it.
 */
export function minimalCreateBody(res: CalendarResource, label: string, now: Date): Record<string, string> {
  const body: Record<string, string> = { [res.nameField]: label };
  if (res.resource === 'event') {
    const start = new Date(now.getTime() + 30 * 86_400_000);
    start.setUTCHours(10, 0, 0, 0);
    body['start_date'] = localDateTime(start);
    body['end_date'] = localDateTime(new Date(start.getTime() + 2 * 3_600_000));
  }
  if (res.namespace === 'cal/v1') body['status'] = 'publish';
  return body;
}

interface OwnRecord {
  id: number;
  exchange: Exchange;
}

/**
 * Creates a record of the suite's own and puts it in the ledger; undefined (with the exchange) when that failed.
 * The name carries the unit's id: units run side by side, and WordPress refuses a term whose name is taken
 * (400 term_exists), so two units creating "<marker> positive target" would leave whichever came second without a
 * record, and which one that is would change from run to run. A unit creating more than one passes labels that differ.
 */
export async function createOwn(env: UnitEnv, res: CalendarResource, unitId: string, label: string): Promise<{ record?: OwnRecord; exchange: Exchange }> {
  const exchange = await env.send(
    { method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: minimalCreateBody(res, `${env.marker} ${label} ${unitId}`, env.now()) }, intent: 'write' },
    res.create,
  );
  const id = createdId(exchange);
  if (id === undefined) return { exchange };
  env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  return { record: { id, exchange }, exchange };
}

// Records of a list answer, in either form: the one reader the checks and cleanup share (kit/lists.ts).
export { listRecords } from './lists.ts';

export function idOf(rec: unknown): number | undefined {
  const id = (rec as { id?: unknown } | null)?.id;
  if (typeof id === 'number') return id;
  if (typeof id === 'string' && /^\d+$/.test(id)) return Number(id);
  return undefined;
}

/** The text of a record's name, in either shape (`"x"` or `{rendered, raw}`). */
export function nameText(rec: unknown, field: string): string | undefined {
  const v = (rec as Record<string, unknown> | null)?.[field];
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null) {
    const o = v as { raw?: unknown; rendered?: unknown };
    if (typeof o.raw === 'string') return o.raw;
    if (typeof o.rendered === 'string') return o.rendered;
  }
  return undefined;
}

/** The field's `raw` on a record (title.raw, content.raw): what only the edit context shows. */
export function rawOf(rec: unknown, field: string): unknown {
  const v = isPlainObject(rec) ? rec[field] : undefined;
  return isPlainObject(v) ? v['raw'] : undefined;
}
