// The calendar lists searched for the run's marker: to find records no create answer told the ledger
// about, and to confirm that a record which no longer reads is gone rather than hidden (trashed, or
// refused by a site that answers 400 or 403 for an id it will not show). Drafts and the trash are
// asked for where the route takes them: an array `status` gets every documented value plus `trash`
// (and without `trash` when the site refuses it), a string `status` one request per value.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonBody, type Exchange, type Outgoing } from '../http/types.ts';

interface ListContext {
  contract: Contract;
  marker: string;
  served(template: string, method: string): boolean;
}

interface Listed {
  op: Operation;
}

interface FoundRecord {
  id: number;
  status?: string;
  carriesMarker: boolean;
}

type Send = (o: Outgoing) => Promise<Exchange>;

const PER_PAGE = 100;
/** Pages read per list and status: a site that ignores `search` must not turn cleanup into a crawl. */
const MAX_PAGES = 20;
const POST_STATUSES = ['publish', 'pending', 'draft', 'future', 'private', 'trash'];

/** The served calendar lists, of one resource or of all. */
export function listsOf(c: ListContext, resource?: string): Listed[] {
  return c.contract.operations
    .filter((op) => op.kind === 'list' && op.namespace.startsWith('cal/') && op.resource && (resource === undefined || op.resource === resource))
    .filter((op) => c.served(op.path, 'GET'))
    .map((op) => ({ op }));
}

/** The status values to ask for, one query each; `undefined` for a list without `status`. */
function statusQueries(op: Operation): { queries: (Record<string, unknown> | undefined)[]; fallback?: Record<string, unknown> } {
  const param = op.params.find((p) => p.name === 'status');
  if (!param) return { queries: [undefined] };
  if (param.schema.type === 'array') {
    const items = (param.schema.items as { enum?: unknown[] } | undefined)?.enum?.filter((v): v is string => typeof v === 'string') ?? POST_STATUSES.slice(0, -1);
    const withTrash = items.includes('trash') ? items : [...items, 'trash'];
    return { queries: [{ status: withTrash }], ...(withTrash !== items ? { fallback: { status: items } } : {}) };
  }
  return { queries: POST_STATUSES.map((s) => ({ status: s })) };
}

/**
 * Every record a list holds for the marker. `answered`: at least one query came back as a list, so an
 * id missing from `records` is missing from what the list shows. `silent`: a query got no answer.
 */
export async function findByMarker(c: ListContext, send: Send, list: Listed): Promise<{ answered: boolean; records: FoundRecord[]; silent?: string }> {
  const base: Record<string, unknown> = { search: c.marker, per_page: PER_PAGE };
  if (list.op.params.some((p) => p.name === 'hide_empty')) base['hide_empty'] = false;
  const { queries, fallback } = statusQueries(list.op);
  const records = new Map<number, FoundRecord>();
  let answered = false;
  for (const status of queries) {
    let q = status;
    for (let page = 1; page <= MAX_PAGES; page++) {
      let e = await send({ method: 'GET', route: list.op.path, query: { ...base, ...q, ...(page > 1 ? { page } : {}) }, intent: 'cleanup' });
      // A site whose status enum has no `trash` refuses the whole query: ask again without it.
      if (page === 1 && fallback && q !== fallback && e.response?.status === 400) {
        q = fallback;
        e = await send({ method: 'GET', route: list.op.path, query: { ...base, ...q }, intent: 'cleanup' });
      }
      if (e.error) return { answered, records: [...records.values()], silent: e.error.message };
      const body = jsonBody(e.response);
      if (e.response!.status < 200 || e.response!.status >= 300 || !Array.isArray(body)) break;
      answered = true;
      for (const rec of body as unknown[]) {
        const r = rec as { id?: unknown; status?: unknown } | null;
        const id = typeof r?.id === 'number' ? r.id : typeof r?.id === 'string' && /^\d+$/.test(r.id) ? Number(r.id) : undefined;
        if (id === undefined) continue;
        records.set(id, { id, ...(typeof r?.status === 'string' ? { status: r.status } : {}), carriesMarker: JSON.stringify(rec).includes(c.marker) });
      }
      if (body.length < PER_PAGE) break;
    }
  }
  return { answered, records: [...records.values()] };
}

/**
 * For each id: gone when every list of its type that answered (both calendar namespaces) lacks it;
 * present, with where it was seen, when one holds it. No entry when no list answered.
 */
export async function confirmGone(c: ListContext, send: Send, resource: string, ids: readonly number[]): Promise<Map<number, { gone: true } | { gone: false; seen: string }>> {
  const out = new Map<number, { gone: true } | { gone: false; seen: string }>();
  for (const list of listsOf(c, resource)) {
    const found = await findByMarker(c, send, list);
    if (!found.answered) continue;
    for (const id of ids) {
      const rec = found.records.find((r) => r.id === id);
      const now = out.get(id);
      if (rec) {
        if (!now || now.gone) out.set(id, { gone: false, seen: `GET ${list.op.path} searched for the marker still lists it${rec.status ? ` (status "${rec.status}")` : ''}` });
      } else if (!now) out.set(id, { gone: true });
    }
  }
  return out;
}
