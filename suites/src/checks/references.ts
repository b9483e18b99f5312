// Fields of a calendar write that name other records: an event's venues, organizers, categories and
// tags, a category's parent, any post's author and featured image. Their schema says "an integer" (or
// a list of them), but a value can be valid by that schema and still name a record the target does not
// have, and WordPress refuses it then from the handler (rest_invalid_author) or from the plugin's own
// check (rest_invalid_param, "Invalid parameter."). Neither says anything about the contract.
//
// So positive_acceptance fills these fields the way a client would: with ids of records it read from
// the target (producer → consumer, as stateful API fuzzers do), keeping the generated value's wire form
// (number, numeric string, list, comma list) and using the generated number only to choose among them.
// Relations no per-parameter schema can state are kept the same way: an event ends no earlier than it
// starts. Everything else in the request stays as generated.

import type { Operation } from '../../../contracts/src/types.ts';
import type { JsonSchema } from '../../../contracts/src/types.ts';
import { jsonBody } from '../http/types.ts';
import type { UnitEnv } from '../runner/unit.ts';
import type { Ledger } from '../runner/ledger.ts';
import { parsePhpQuery } from '../../../contracts/src/arbitraries/index.ts';
import { withBody, withoutBody, type WireRequest, type WireValue } from './generate.ts';
import { CALENDAR_NAMESPACES, idOf, listRecords, type CalendarResource } from './resources.ts';

/** Request fields named after the calendar resource whose ids they hold (000 §2.1–2.5). */
const RESOURCE_OF_FIELD: Readonly<Record<string, string>> = {
  venues: 'venue',
  venue: 'venue',
  organizers: 'organizer',
  organizer: 'organizer',
  categories: 'category',
  cal_events_cat: 'category',
  tags: 'tag',
};

export type ReferenceKind = 'record' | 'author' | 'media';

export interface ReferenceField {
  param: string;
  kind: ReferenceKind;
  /** For `record`: the calendar resource whose ids it takes. */
  resource?: string;
}

function holdsIds(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  if (schema['type'] === 'integer') return true;
  return schema['type'] === 'array' && (schema['items'] as JsonSchema | undefined)?.['type'] === 'integer';
}

/** The body fields of `op` that name other records, with where their ids come from. */
export function referenceFields(op: Operation, res: CalendarResource): ReferenceField[] {
  const out: ReferenceField[] = [];
  for (const p of op.params) {
    if (p.in !== 'body' || p.name === res.nameField || !holdsIds(p.schema)) continue;
    if (p.name === 'author') out.push({ param: p.name, kind: 'author' });
    else if (p.name === 'featured_media') out.push({ param: p.name, kind: 'media' });
    else if (p.name === 'parent' && (res.resource === 'category' || res.resource === 'tag')) out.push({ param: p.name, kind: 'record', resource: res.resource });
    else if (RESOURCE_OF_FIELD[p.name]) out.push({ param: p.name, kind: 'record', resource: RESOURCE_OF_FIELD[p.name]! });
  }
  return out;
}

/** The GET list of `resource`, in `namespace` when it has one, else in the other calendar namespace. */
function listOf(env: UnitEnv, namespace: string, resource: string): Operation | undefined {
  const lists = env.contract.operations.filter((o) => o.kind === 'list' && o.method === 'GET' && o.resource === resource);
  return lists.find((o) => o.namespace === namespace) ?? lists.find((o) => (CALENDAR_NAMESPACES as readonly string[]).includes(o.namespace));
}

const reads = new WeakMap<Ledger, Map<string, Promise<unknown[]>>>();

/**
 * Records of a list, read once per run (the first page, as many as the route allows up to 100). Records
 * the run made itself are left out: they are deleted at the end, and other units may delete them sooner.
 */
function recordsOf(env: UnitEnv, list: Operation): Promise<unknown[]> {
  let byList = reads.get(env.ledger);
  if (!byList) reads.set(env.ledger, (byList = new Map()));
  let pending = byList.get(list.id);
  if (!pending) {
    const perPage = list.params.find((p) => p.in === 'query' && p.name === 'per_page');
    const max = typeof perPage?.schema?.['maximum'] === 'number' ? (perPage.schema['maximum'] as number) : 100;
    pending = env.send({ method: 'GET', route: list.path, ...(perPage ? { query: { per_page: Math.min(100, max) } } : {}) }, list).then((e) => {
      const body = e.response && e.response.status === 200 ? jsonBody(e.response) : undefined;
      return (listRecords(body) ?? []).filter((r) => !JSON.stringify(r).includes(env.marker));
    });
    byList.set(list.id, pending);
  }
  return pending;
}

function positiveInt(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

export interface ReferenceValues {
  /** Ids to choose from, per field; an empty list means the target has none to name. */
  ids: Map<string, number[]>;
  /** Where the ids came from, per field, for the case message. */
  source: Map<string, string>;
}

/** Ids of records the target has, for each reference field of `op`. */
export async function referenceValues(env: UnitEnv, res: CalendarResource, fields: readonly ReferenceField[]): Promise<ReferenceValues> {
  const ids = new Map<string, number[]>();
  const source = new Map<string, string>();
  for (const f of fields) {
    if (f.kind === 'record') {
      const list = listOf(env, res.namespace, f.resource!);
      const found = list ? (await recordsOf(env, list)).map(idOf).filter((n): n is number => n !== undefined) : [];
      ids.set(f.param, [...new Set(found)]);
      source.set(f.param, `ids of ${f.resource} records listed by GET ${list?.path ?? '(no list route)'}`);
    } else {
      // Users and media have no routes in the contract: the ids come from the records of the resource itself.
      const recs = await recordsOf(env, res.list);
      const key = f.kind === 'author' ? 'author' : 'featured_media';
      const found = [...new Set(recs.map((r) => positiveInt((r as Record<string, unknown> | null)?.[key])).filter((n): n is number => n !== undefined))];
      // 0 means "no featured image" to WordPress (handle_featured_media()), so it always names something valid.
      ids.set(f.param, f.kind === 'media' ? [0, ...found] : found);
      source.set(f.param, `${f.kind === 'author' ? 'author' : 'featured_media'} values of records listed by GET ${res.list.path}${f.kind === 'media' ? ', or 0 (none)' : ''}`);
    }
  }
  return { ids, source };
}

function bodyValue(req: WireRequest, name: string): WireValue | undefined {
  if (!req.body) return undefined;
  return 'json' in req.body ? req.body.json[name] : (parsePhpQuery(req.body.form) as Record<string, WireValue>)[name];
}

/** The generated value with every id in it replaced by one of `ids`, in the same wire form; undefined when there is none to use. */
export function rewriteIds(value: WireValue, ids: readonly number[]): WireValue | undefined {
  const pick = (v: WireValue): number | undefined => {
    if (ids.length === 0) return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.0+)?$/.test(v.trim()) ? Number(v) : 0;
    return ids[Math.abs(Math.trunc(n)) % ids.length];
  };
  const same = (v: WireValue, id: number): WireValue => (typeof v === 'string' ? String(id) : id);
  if (Array.isArray(value)) {
    const seen = new Set<number>();
    const out: WireValue[] = [];
    for (const v of value) {
      const id = pick(v);
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      out.push(same(v, id));
    }
    return out;
  }
  if (typeof value === 'string' && value.includes(',')) {
    const list = rewriteIds(value.split(','), ids) as WireValue[];
    return list.join(',');
  }
  const id = pick(value);
  return id === undefined ? undefined : same(value, id);
}

export interface Filled {
  req: WireRequest;
  /** Per field: how its value was chosen (for the case message). */
  notes: Map<string, string>;
}

/** The request with its reference fields naming records the target has. */
export function withReferences(req: WireRequest, fields: readonly ReferenceField[], values: ReferenceValues): Filled {
  const notes = new Map<string, string>();
  let out = req;
  for (const f of fields) {
    const generated = bodyValue(out, f.param);
    if (generated === undefined || generated === null) continue;
    const ids = values.ids.get(f.param) ?? [];
    const value = rewriteIds(generated, ids);
    if (value === undefined) {
      out = withoutBody(out, [f.param]);
      notes.set(f.param, `left out: the target has none to name (${values.source.get(f.param)})`);
    } else {
      out = withBody(out, { [f.param]: value });
      notes.set(f.param, `its ids name records the target has (${values.source.get(f.param)})`);
    }
  }
  return { req: out, notes };
}

const WALL_CLOCK = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d/;

/** An event's end no earlier than its start, for each pair the request carries as date-times; the rest is left alone. */
export function orderedEventDates(req: WireRequest): { req: WireRequest; swapped: string[] } {
  const swapped: string[] = [];
  let out = req;
  for (const [start, end] of [['start_date', 'end_date'], ['start_date_utc', 'end_date_utc']] as const) {
    const a = bodyValue(out, start);
    const b = bodyValue(out, end);
    if (typeof a !== 'string' || typeof b !== 'string' || !WALL_CLOCK.test(a) || !WALL_CLOCK.test(b)) continue;
    if (b.replace('T', ' ') >= a.replace('T', ' ')) continue;
    out = withBody(out, { [start]: b, [end]: a });
    swapped.push(start, end);
  }
  return { req: out, swapped };
}
