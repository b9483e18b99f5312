// The lists searched for the run's marker after its records were deleted: to find records no create answer
// told the ledger about (a create the site carried out and answered 500, or one cut short by Ctrl-C), and
// to confirm that a record which no longer reads is gone rather than hidden (trashed, or refused by a site
// that answers 400 or 403 for an id it will not show). Every list of a type the run wrote to is searched, in
// every namespace that serves one. Drafts, private records and the trash are asked for where the route takes
// a post status: an array `status` gets every documented value plus `trash` (and without `trash` when the
// site refuses it), a string `status` one request per value. An event list that takes `start_date` and
// `end_date` is also asked with a window from 1970 to 2100, since a plugin may show only upcoming events by
// default (The Events Calendar: from yesterday to two years ahead), and the suite's events may be dated
// anywhere in that span. Lists are read through the one reader of list answers (lists.ts), wrapped or not.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonBody, type Exchange, type Outgoing } from '../http/types.ts';
import { answeredList } from '../checks/kit/lists.ts';

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
type Query = Record<string, unknown>;

const PER_PAGE = 100;
/** Pages read per list and query: a site that ignores `search` must not turn cleanup into a crawl. */
const MAX_PAGES = 20;
const POST_STATUSES = ['publish', 'pending', 'draft', 'future', 'private', 'trash'];
/** Wider than any date the suite sends (its generators' years are 1970 to 2099). */
const EVERY_DATE: Query = { start_date: '1970-01-01 00:00:00', end_date: '2100-12-31 23:59:59' };

/** The served lists of the given resources (every namespace), or of every calendar resource. */
function listsOf(c: ListContext, resources?: ReadonlySet<string> | string): Listed[] {
  const wanted = typeof resources === 'string' ? new Set([resources]) : resources;
  return c.contract.operations
    .filter((op) => op.kind === 'list' && op.resource && (wanted ? wanted.has(op.resource) : op.namespace.startsWith('cal/')))
    .filter((op) => c.served(op.path, 'GET'))
    .map((op) => ({ op }));
}

/** Whether `status` takes post statuses (publish, draft...), not some other state (a plugin's active/inactive). */
function postStatuses(op: Operation): 'array' | 'string' | undefined {
  const param = op.params.find((p) => p.name === 'status');
  if (!param) return undefined;
  if (param.schema.type === 'array') return ((param.schema.items as { enum?: unknown[] } | undefined)?.enum ?? ['publish']).includes('publish') ? 'array' : undefined;
  const values = param.schema.enum as unknown[] | undefined;
  return values ? (values.includes('publish') ? 'string' : undefined) : op.namespace.startsWith('cal/') ? 'string' : undefined;
}

/** The queries to send, one list request each (and its pages); `fallback` replaces the first when the site refuses `trash`. */
function queriesOf(op: Operation): { queries: (Query | undefined)[]; fallback?: Query } {
  const kind = postStatuses(op);
  let queries: (Query | undefined)[] = [undefined];
  let fallback: Query | undefined;
  if (kind === 'array') {
    const param = op.params.find((p) => p.name === 'status')!;
    const items = (param.schema.items as { enum?: unknown[] } | undefined)?.enum?.filter((v): v is string => typeof v === 'string') ?? POST_STATUSES.slice(0, -1);
    const withTrash = items.includes('trash') ? items : [...items, 'trash'];
    queries = [{ status: withTrash }];
    if (withTrash !== items) fallback = { status: items };
  } else if (kind === 'string') queries = POST_STATUSES.map((s) => ({ status: s }));
  const dated = op.resource === 'event' && op.params.some((p) => p.name === 'start_date') && op.params.some((p) => p.name === 'end_date');
  if (dated) queries = [...queries, ...queries.map((q) => ({ ...q, ...EVERY_DATE }))];
  return { queries, ...(fallback ? { fallback } : {}) };
}

/**
 * Every record a list holds for the marker. `answered`: at least one query came back as a list, so an
 * id missing from `records` is missing from what the list shows. `silent`: a query got no answer.
 */
async function findByMarker(c: ListContext, send: Send, list: Listed): Promise<{ answered: boolean; records: FoundRecord[]; silent?: string }> {
  const base: Query = { search: c.marker, per_page: PER_PAGE };
  if (list.op.params.some((p) => p.name === 'hide_empty')) base['hide_empty'] = false;
  const { queries, fallback } = queriesOf(list.op);
  const records = new Map<number, FoundRecord>();
  let answered = false;
  let refusesTrash = false;
  for (const query of queries) {
    // A site whose status enum has no `trash` refuses the whole query: once it did, ask without it.
    let q = refusesTrash ? { ...query, ...fallback } : query;
    let pageSize: number | undefined;
    for (let page = 1; page <= MAX_PAGES; page++) {
      let e = await send({ method: 'GET', route: list.op.path, query: { ...base, ...q, ...(page > 1 ? { page } : {}) }, intent: 'cleanup' });
      if (page === 1 && fallback && !refusesTrash && e.response?.status === 400) {
        refusesTrash = true;
        q = { ...q, ...fallback };
        e = await send({ method: 'GET', route: list.op.path, query: { ...base, ...q }, intent: 'cleanup' });
      }
      if (e.error) return { answered, records: [...records.values()], silent: e.error.message };
      const got = answeredList(e.response) ?? (page === 1 && saysEmpty(e) ? { records: [] } : undefined);
      if (!got) break;
      answered = true;
      let fresh = 0;
      for (const rec of got.records) {
        const r = rec as { id?: unknown; status?: unknown } | null;
        const id = typeof r?.id === 'number' ? r.id : typeof r?.id === 'string' && /^\d+$/.test(r.id) ? Number(r.id) : undefined;
        if (id === undefined) continue;
        if (!records.has(id)) fresh++;
        records.set(id, { id, ...(typeof r?.status === 'string' ? { status: r.status } : {}), carriesMarker: JSON.stringify(rec).includes(c.marker) });
      }
      // The last page: the one the site counts as last; without a count, a page shorter than the first, an empty one,
      // or one that brings nothing new (a site that ignores `page`). Not "shorter than per_page": a site may serve
      // fewer a page than asked (The Events Calendar reads per_page above 50 as 50), and its second page was never read.
      pageSize ??= got.records.length;
      if (got.totalPages !== undefined ? page >= got.totalPages : got.records.length === 0 || fresh === 0 || got.records.length < pageSize) break;
    }
  }
  return { answered, records: [...records.values()] };
}

/**
 * A list that answers "nothing matches" with an error: The Events Calendar's legacy event list before 4.6 answered
 * an empty first page 404 `event-archive-page-not-found`. Any 404 in WordPress's envelope but `rest_no_route` (no
 * such route) is the list's own handler saying so.
 */
function saysEmpty(e: Exchange): boolean {
  const body = e.response?.status === 404 ? (jsonBody(e.response) as { code?: unknown } | undefined) : undefined;
  return typeof body?.code === 'string' && body.code !== 'rest_no_route';
}

/** What the lists of some resources hold for the marker, read once: by resource, each record with where it was seen. */
export interface Listing {
  /** Resources with at least one list that answered. */
  answered: Set<string>;
  /** By resource, then id: the first list that showed the record, and what it showed. */
  seen: Map<string, Map<number, FoundRecord & { list: Operation }>>;
  /** A list that got no answer; the rest was not read. */
  silent?: string;
}

export async function readLists(c: ListContext, send: Send, resources: ReadonlySet<string>): Promise<Listing> {
  const out: Listing = { answered: new Set(), seen: new Map() };
  for (const list of listsOf(c, resources)) {
    const resource = list.op.resource!;
    const found = await findByMarker(c, send, list);
    if (found.answered) out.answered.add(resource);
    const byId = out.seen.get(resource) ?? new Map<number, FoundRecord & { list: Operation }>();
    out.seen.set(resource, byId);
    for (const rec of found.records) if (!byId.has(rec.id)) byId.set(rec.id, { ...rec, list: list.op });
    if (found.silent) return { ...out, silent: found.silent };
  }
  return out;
}

/** A record that no longer reads: gone when every list of its type that answered lacks it; undefined when none answered. */
export function verdictOf(listing: Listing, resource: string, id: number): { gone: true } | { gone: false; seen: string } | undefined {
  const rec = listing.seen.get(resource)?.get(id);
  if (rec) return { gone: false, seen: `GET ${rec.list.path} searched for the marker still lists it${rec.status ? ` (status "${rec.status}")` : ''}` };
  return listing.answered.has(resource) ? { gone: true } : undefined;
}
