// Parameters that name other records: an event's venues, organizers, categories and tags, a category's parent,
// any post's author and featured image, list filters by record (`include`, `event`, `post_parent`...) and the
// `{id}`/`{slug}` of a read. Their schema says "an integer" (or a list of them), but a value can be valid by that
// schema and still name a record the target does not have; WordPress refuses it then from the handler
// (rest_invalid_author, rest_post_invalid_id) or from the plugin's own check (rest_invalid_param, "Invalid
// parameter."). Neither says anything about the contract, and a read that answers 404 shows nothing either.
//
// So positive_acceptance fills these parameters the way a client would: with ids of records it read from the
// target (producer → consumer, as stateful API fuzzers do), keeping the generated value's wire form (number,
// numeric string, list, comma list) and using the generated number only to choose among them. Relations no
// per-parameter schema can state are kept the same way: an event ends no earlier than it starts. Everything else
// in the request stays as generated.

import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { JsonSchema, Operation, ParamLocation } from '../../../../contracts/lib/types.ts';
import { parsePhpQuery } from '../../../../contracts/lib/arbitraries/index.ts';
import { liveEndpoint } from '../../diff/descriptor.ts';
import { jsonBody, SAFE_METHODS } from '../../http/types.ts';
import { createdId } from './ledger.ts';
import type { UnitEnv } from './unit.ts';
import { withBody, withoutBody, withPath, type WireRequest, type WireValue } from './generate.ts';
import { calendarResources, CALENDAR_NAMESPACES, createOwn, idOf, listRecords } from './resources.ts';

/** Request fields named after the calendar resource whose ids they hold (000 §2.1–2.5, §4.1.1, §4.2.1). */
const RESOURCE_OF_FIELD: Readonly<Record<string, string>> = {
  venues: 'venue',
  venue: 'venue',
  organizers: 'organizer',
  organizer: 'organizer',
  categories: 'category',
  cal_events_cat: 'category',
  tags: 'tag',
  // 000 §4.1.2, §4.1.3: "records related to this event", "terms assigned to this post", "events whose parent is this post".
  event: 'event',
  post: 'event',
  post_parent: 'event',
};

/**
 * record: ids of a list's records; slug: their slugs; link: their addresses (what oEmbed's `url` names);
 * author, media: the values records carry in those fields.
 */
type ReferenceKind = 'record' | 'slug' | 'link' | 'author' | 'media';

export interface ReferenceField {
  location: ParamLocation;
  param: string;
  kind: ReferenceKind;
  /** The list whose records the values come from. */
  list: Operation;
  /**
   * Set when the documents do not say that the field names records of `list`: the suite names them because they
   * are the nearest the documents give, and a refusal of one is held as assumed, for this reason, not documented.
   */
  assumed?: string;
}

/**
 * The search-optimisation add-on's fields that name an object of the site (001 §4.7): `objectID` beside an
 * `objectType` (a free string; `post` is updateRedirection's default) and `postId`. The documents call
 * `objectID` "a post ID" only on the analytics routes, name no list of posts, and do not say that the calendar's
 * events are posts; the events are the only records of the documents a post ID could name, so they are what the
 * suite sends, and a refusal of one says nothing the documents support.
 */
function seoObjectField(p: { name: string; schema: JsonSchema }): string | undefined {
  if (p.name === 'postId') return 'postId names a post (001 §4.7), and the documents name no list of posts nor say that the calendar\'s events are posts: the suite named an event of its own (the writes that take it go only to a --disposable-target, and change only records the run made)';
  if (p.name !== 'objectID') return undefined;
  return p.schema['description'] === 'A post ID.'
    ? 'objectID is "a post ID" (001 §4.7), and the documents name no list of posts nor say that the calendar\'s events are posts: the suite named an event of its own (the writes that take it go only to a --disposable-target, and change only records the run made)'
    : 'the documents do not say what objectID names (001 §4.7: beside an objectType that is any string, `post` by default on updateRedirection): the suite named an event of its own (the writes that take it go only to a --disposable-target, and change only records the run made), the nearest thing to a post they give';
}

function holdsIds(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  if (schema['type'] === 'integer') return true;
  return schema['type'] === 'array' && (schema['items'] as JsonSchema | undefined)?.['type'] === 'integer';
}

/** The GET list of `resource`, in `namespace` when it has one, else in the other calendar namespace. */
function listOf(contract: Contract, namespace: string, resource: string | undefined): Operation | undefined {
  if (!resource) return undefined;
  const lists = contract.operations.filter((o) => o.kind === 'list' && o.method === 'GET' && o.resource === resource);
  return lists.find((o) => o.namespace === namespace) ?? lists.find((o) => (CALENDAR_NAMESPACES as readonly string[]).includes(o.namespace));
}

/** The collection a `{id}` or `{slug}` path names a member of: `/forms/v1/contact-forms/{id}/refill` → its GET list. */
function collectionOf(contract: Contract, op: Operation, param: string): Operation | undefined {
  const at = op.path.indexOf(`/{${param}}`);
  if (at < 0) return undefined;
  const path = op.path.slice(0, at).replace(/\/by-slug$/, '');
  return contract.operations.find((o) => o.method === 'GET' && o.path === path && o.kind === 'list');
}

/** The parameters of `op` that name other records, with the list their values come from. */
export function referenceFields(contract: Contract, op: Operation, nameField?: string): ReferenceField[] {
  const out: ReferenceField[] = [];
  for (const p of op.params) {
    if (p.in === 'path') {
      const list = p.name === 'id' || p.name === 'slug' ? collectionOf(contract, op, p.name) : undefined;
      if (list) out.push({ location: 'path', param: p.name, kind: p.name === 'id' ? 'record' : 'slug', list });
      continue;
    }
    const own = listOf(contract, op.namespace, op.resource) ?? listOf(contract, op.namespace, 'event');
    // oEmbed's `url` names a page to embed (001 §4.2): a page of the site itself is one any site can embed.
    if (op.namespace === 'oembed/1.0' && p.name === 'url' && own) {
      out.push({ location: p.in, param: p.name, kind: 'link', list: own });
      continue;
    }
    if (p.name === nameField || !holdsIds(p.schema)) continue;
    let field: Omit<ReferenceField, 'location' | 'param'> | undefined;
    if (p.name === 'author' && own) field = { kind: 'author', list: own };
    else if (p.name === 'featured_media' && own) field = { kind: 'media', list: own };
    else if (op.namespace.startsWith('seo/') && seoObjectField(p)) {
      const events = listOf(contract, 'cal/v1', 'event');
      if (events) field = { kind: 'record', list: events, assumed: seoObjectField(p)! };
    } else if ((p.name === 'include' || p.name === 'exclude') && op.kind === 'list') field = { kind: 'record', list: op };
    else if (p.name === 'parent' && (op.resource === 'category' || op.resource === 'tag')) {
      const list = listOf(contract, op.namespace, op.resource);
      if (list) field = { kind: 'record', list };
    } else if (RESOURCE_OF_FIELD[p.name]) {
      const list = listOf(contract, op.namespace, RESOURCE_OF_FIELD[p.name]);
      if (list) field = { kind: 'record', list };
    }
    if (field) out.push({ location: p.in, param: p.name, ...field });
  }
  return out;
}

/**
 * Records of a list, read once per run (the first page, as many as the route allows up to 100). Records
 * the run made itself are left out: they are deleted at the end, and other units may delete them sooner.
 * The read counts as the asking unit's operation `by`: whichever unit reads first, the run's case ids stay
 * the same (a shard reads the list again, the whole run once).
 */
function recordsOf(env: UnitEnv, list: Operation, by: Operation): Promise<unknown[]> {
  const perPage = list.params.find((p) => p.in === 'query' && p.name === 'per_page');
  const max = typeof perPage?.schema?.['maximum'] === 'number' ? (perPage.schema['maximum'] as number) : 100;
  return readOnce(env, list.id, list.path, perPage ? Math.min(100, max) : undefined, by);
}

function readOnce(env: UnitEnv, key: string, route: string, perPage: number | undefined, by: Operation): Promise<unknown[]> {
  let pending = env.listReads.get(key);
  if (!pending) {
    pending = env.send({ method: 'GET', route, ...(perPage !== undefined ? { query: { per_page: perPage } } : {}) }, by).then((e) => {
      const body = e.response && e.response.status === 200 ? jsonBody(e.response) : undefined;
      return (listRecords(body) ?? []).filter((r) => !JSON.stringify(r).includes(env.marker));
    });
    env.listReads.set(key, pending);
  }
  return pending;
}

/**
 * WordPress's own posts: outside the documents, but on every WordPress site, and what oEmbed embeds first. Read only
 * when the target's descriptor lists the route and the documents' lists gave no address to embed (a site without
 * the calendar, or with no event yet), so that oEmbed's checks get a page the site really has.
 */
const CORE_POSTS = '/wp/v2/posts';

// cal/v1 records call their address `link` (as WordPress's posts do), legacy ones `url`.
function addressesOf(recs: readonly unknown[]): string[] {
  const address = (r: unknown): unknown => (r as { link?: unknown } | null)?.link ?? (r as { url?: unknown } | null)?.url;
  return [...new Set(recs.map(address).filter((s): s is string => typeof s === 'string' && /^https?:\/\//.test(s)))];
}

function positiveInt(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

export const refKey = (f: { location: ParamLocation; param: string }): string => `${f.location}.${f.param}`;

export interface ReferenceValues {
  /** Values to choose from, per field (`location.param`); an empty list means the target has none to name. */
  ids: Map<string, (number | string)[]>;
  /** Where the values came from, per field, for the case message. */
  source: Map<string, string>;
}

/**
 * With --disposable-target, a write outside the calendar changes the record its path's `{id}` or its `objectID`
 * names: it names one the run made for the purpose (in the ledger, removed at the end), never one the site had.
 * A calendar record is made as every check makes one; an add-on's with its create route, its name field (not shown
 * by the documents) carrying the marker. None: the field keeps its generated value, and the run does not send the
 * write (runner/disposable.ts refuses what names a record the run did not make).
 */
export function changesWhatItNames(env: UnitEnv, f: ReferenceField, by: Operation): boolean {
  return env.disposable === true && f.kind === 'record' && !SAFE_METHODS.has(by.method) && !(CALENDAR_NAMESPACES as readonly string[]).includes(by.namespace) && (f.location === 'path' || f.assumed !== undefined);
}

async function ownRecordOf(env: UnitEnv, list: Operation, by: Operation): Promise<number | undefined> {
  const res = calendarResources(env.contract).find((r) => r.namespace === list.namespace && r.resource === list.resource);
  if (res) return (await createOwn(env, res, `disposable:${by.id}`, 'own record')).record?.id;
  const create = env.contract.operations.find((o) => o.kind === 'create' && o.method === 'POST' && o.path === list.path);
  const item = env.contract.operations.find((o) => o.method === 'GET' && o.path === `${list.path}/{id}`);
  if (!create || !item || !list.resource || !liveEndpoint(env.descriptor, create.path, 'POST')) return undefined;
  const e = await env.send({ method: 'POST', route: create.path, body: { kind: 'json', value: { title: `${env.marker} own ${list.resource} ${by.id}` } }, intent: 'write' }, create);
  const id = createdId(e);
  if (id !== undefined) env.ledger.add({ namespace: list.namespace, resource: list.resource, id, itemPath: item.path, createdBy: `disposable:${by.id}` });
  return id;
}

/** Values of records the target has, for each reference field. */
export async function referenceValues(env: UnitEnv, fields: readonly ReferenceField[], by: Operation): Promise<ReferenceValues> {
  const ids = new Map<string, (number | string)[]>();
  const source = new Map<string, string>();
  for (const f of fields) {
    const key = refKey(f);
    if (changesWhatItNames(env, f, by)) {
      const own = await ownRecordOf(env, f.list, by);
      ids.set(key, own === undefined ? [] : [own]);
      source.set(key, own === undefined ? `the run could not make a record of its own to change (--disposable-target changes no other)` : `a record the run made to change (--disposable-target changes no other)`);
      continue;
    }
    const recs = await recordsOf(env, f.list, by);
    if (f.kind === 'record') {
      ids.set(key, [...new Set(recs.map(idOf).filter((n): n is number => n !== undefined))]);
      source.set(key, `ids of records listed by GET ${f.list.path}`);
    } else if (f.kind === 'link') {
      const links = addressesOf(recs);
      if (links.length === 0 && liveEndpoint(env.descriptor, CORE_POSTS, 'GET')) {
        ids.set(key, addressesOf(await readOnce(env, CORE_POSTS, CORE_POSTS, 10, by)));
        source.set(key, `addresses of posts listed by GET ${CORE_POSTS} (WordPress core's, outside the documents: GET ${f.list.path} listed none)`);
      } else {
        ids.set(key, links);
        source.set(key, `addresses of records listed by GET ${f.list.path}`);
      }
    } else if (f.kind === 'slug') {
      ids.set(key, [...new Set(recs.map((r) => (r as { slug?: unknown } | null)?.slug).filter((s): s is string => typeof s === 'string' && s !== '' && !s.includes('/')))]);
      source.set(key, `slugs of records listed by GET ${f.list.path}`);
    } else {
      const name = f.kind === 'author' ? 'author' : 'featured_media';
      const found = [...new Set(recs.map((r) => positiveInt((r as Record<string, unknown> | null)?.[name])).filter((n): n is number => n !== undefined))];
      // 0 means "no featured image" to WordPress (handle_featured_media()), so it always names something valid.
      ids.set(key, f.kind === 'media' ? [0, ...found] : found);
      source.set(key, `${name} values of records listed by GET ${f.list.path}${f.kind === 'media' ? ', or 0 (none)' : ''}`);
    }
  }
  return { ids, source };
}

function valueIn(req: WireRequest, location: ParamLocation, name: string): WireValue | undefined {
  if (location === 'path') return req.pathParams[name];
  if (location === 'query') return req.query[name];
  if (!req.body) return undefined;
  return 'json' in req.body ? req.body.json[name] : (parsePhpQuery(req.body.form) as Record<string, WireValue>)[name];
}

/** The generated value with every id in it replaced by one of `ids`, in the same wire form; undefined when there is none to use. */
export function rewriteIds(value: WireValue, ids: readonly (number | string)[]): WireValue | undefined {
  const pick = (v: WireValue): number | string | undefined => {
    if (ids.length === 0) return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.0+)?$/.test(v.trim()) ? Number(v) : 0;
    return ids[Math.abs(Math.trunc(n)) % ids.length];
  };
  const same = (v: WireValue, id: number | string): WireValue => (typeof v === 'string' || typeof id === 'string' ? String(id) : id);
  if (Array.isArray(value)) {
    const seen = new Set<number | string>();
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

interface Filled {
  req: WireRequest;
  /** Per field (`location.param`): how its value was chosen (for the case message). */
  notes: Map<string, string>;
  /** Fields whose values name records the target has. */
  named: Set<string>;
}

/** The request with its reference fields naming records the target has (left out where it has none). */
export function withReferences(op: Operation, req: WireRequest, fields: readonly ReferenceField[], values: ReferenceValues): Filled {
  const notes = new Map<string, string>();
  const named = new Set<string>();
  let out = req;
  for (const f of fields) {
    const key = refKey(f);
    const generated = valueIn(out, f.location, f.param);
    if (generated === undefined || generated === null) continue;
    const value = rewriteIds(generated, values.ids.get(key) ?? []);
    if (value === undefined) {
      // A path cannot go without its id, nor a request without a required parameter: they keep the generated
      // value, and whatever comes back shows nothing (inconclusive, unless the value is refused).
      const required = f.location === 'path' || op.params.some((p) => p.in === f.location && p.name === f.param && p.required);
      if (required) notes.set(key, `kept as generated: the target lists no record to name (${values.source.get(key)})`);
      else {
        out = f.location === 'query' ? { ...out, query: Object.fromEntries(Object.entries(out.query).filter(([k]) => k !== f.param)) } : withoutBody(out, [f.param]);
        notes.set(key, `left out: the target has none to name (${values.source.get(key)})`);
      }
      continue;
    }
    // 0 is "no featured image" to WordPress, not a record the target showed: a refusal of it is not held against the site.
    const none = f.kind === 'media' && (value === 0 || value === '0');
    if (!none) named.add(key);
    notes.set(key, none ? `0, "no featured image" (${values.source.get(key)})` : `its values name records the target has (${values.source.get(key)})`);
    if (f.location === 'path') out = withPath(op, out, { [f.param]: String(value) });
    else if (f.location === 'query') out = { ...out, query: { ...out.query, [f.param]: value } };
    else out = withBody(out, { [f.param]: value });
  }
  return { req: out, notes, named };
}

const WALL_CLOCK = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d/;

function bodyValue(req: WireRequest, name: string): WireValue | undefined {
  return valueIn(req, 'body', name);
}

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
