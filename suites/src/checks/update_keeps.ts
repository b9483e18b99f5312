// update_keeps_fields: an update keeps every field it did not name and changes those it named. For each calendar
// resource the suite makes a record of its own with several fields set (body text, excerpt, cost, address,
// contact fields...), reads it, then updates it once by each method of its item route (PATCH, PUT and, in the
// legacy namespace, POST: "equivalent and take the same body", 000 §4), each time naming one field, and reads it
// back; calendar records are read through both namespaces (legacy and cal/v1 serve the same record, 000 §1).
// Every field of the record before and after is compared: what the update named (and its other names: a legacy
// venue's `venue` is cal/v1's `title`, legacy `description` is cal/v1 `content`, a cost's details) must show the
// new value; anything else must be as it was, clock fields aside (compare.ts), unless it is made of what the update
// named: structured data (The Events Calendar's `json_ld`: an event's name of its title, an offer's price of its cost,
// a venue's address and map link, an organizer's e-mail) changes with its source, so a field whose value before, with
// the named field's old value replaced by its new one, is its value after, is no loss (derivedChange()). The same text
// written with other character references (antispambot() draws them afresh on each read) is no change either.
// WordPress's update_item() changes only what the request names, whichever of the three methods (convention). In the
// legacy namespace one more update goes by the record's slug (PATCH .../by-slug/{slug}, 000 §4.1: documented), renaming it.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { firstDifference } from './kit/compare.ts';
import { cannotWrite, emitterFor, makeOwn, recordText } from './kit/oracle_kit.ts';
import { calendarResources, type CalendarResource } from './kit/resources.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { isDeepStrictEqual } from 'node:util';

export const UPDATE_KEEPS = 'update_keeps_fields';

/** The fields set at creation beside the name, by namespace and resource (000 §2.1-2.5). */
function richFields(res: CalendarResource, word: string): Record<string, unknown> {
  const legacy = res.namespace === 'cal/events/v1';
  const text = { [legacy ? 'description' : 'content']: `<p>Kept text ${word}</p>` };
  switch (res.resource) {
    case 'event':
      return { ...text, excerpt: `Kept excerpt ${word}`, cost: '12', featured: true };
    case 'venue':
      return { ...text, address: `1 Kept Street ${word}`, city: 'Keptown', zip: '01001' };
    case 'organizer':
      return { ...text, email: 'kept@example.org', website: 'https://example.org/kept' };
    default:
      return { description: `Kept description ${word}` };
  }
}

/** The second field an update names, with its new value. */
function secondField(res: CalendarResource, word: string): [string, string] {
  switch (res.resource) {
    case 'event':
      return ['cost', '34'];
    case 'venue':
      return ['city', `Newtown ${word}`];
    case 'organizer':
      return ['email', 'changed@example.org'];
    default:
      return ['description', `Changed description ${word}`];
  }
}

/** Names the same field goes by in a record of either namespace, and fields derived from it. */
const ALIASES: readonly (readonly string[])[] = [
  // generated_slug (context=edit) is the slug WordPress would make of the title: renaming a draft changes it.
  ['title', 'venue', 'organizer', 'name', 'generated_slug'],
  ['content', 'description'],
  ['cost', 'cost_details'],
];

export function namedKeys(field: string): Set<string> {
  return new Set(ALIASES.find((a) => a.includes(field)) ?? [field]);
}

interface Reading {
  ns: string;
  op: Operation;
  e: Exchange;
  rec?: Record<string, unknown>;
}

async function readAll(env: UnitEnv, reads: readonly Operation[], id: number): Promise<Reading[]> {
  const out: Reading[] = [];
  for (const op of reads) {
    const e = await env.send({ method: 'GET', route: fillTemplate(op.path, { id }), query: { context: 'edit' } }, op);
    const b = e.response?.status === 200 ? jsonBody(e.response) : undefined;
    out.push({ ns: op.namespace, op, e, ...(isPlainObject(b) ? { rec: b } : {}) });
  }
  return out;
}

const short = (v: unknown): string => {
  const s = v === '(absent)' ? v : JSON.stringify(v) ?? String(v);
  return s.length > 70 ? `${s.slice(0, 67)}...` : s;
};

/** Where two JSON values differ, every leaf (clock and character references aside), each by its place: `json_ld.address.addressLocality`. */
function leafDifferences(a: unknown, b: unknown, path: string, key: string): { path: string; a: unknown; b: unknown }[] {
  if (isDeepStrictEqual(a, b)) return [];
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((x, i) => leafDifferences(x, b[i], `${path}[${i}]`, key));
  if (isPlainObject(a) && isPlainObject(b)) {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) =>
      k in a && k in b ? leafDifferences(a[k], b[k], `${path}.${k}`, k) : [{ path: `${path}.${k}`, a: k in a ? a[k] : '(absent)', b: k in b ? b[k] : '(absent)' }],
    );
  }
  // The same text written with other character references (antispambot() draws them afresh on every read) is no change.
  if (typeof a === 'string' && typeof b === 'string' && decoded(a) === decoded(b)) return [];
  const d = firstDifference(a, b, path, key);
  return d ? [{ path, a: d.a, b: d.b }] : [];
}

/** HTML character references decoded: structured data escapes text (esc_html) and hides addresses (antispambot()) afresh on every read. */
function decoded(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#039': "'" };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, ref: string) => {
    if (ref[0] !== '#') return named[ref.toLowerCase()] ?? m;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return Number.isFinite(code) ? String.fromCodePoint(code) : m;
  });
}

/** The forms a value takes inside another field: as it is, lower-cased, in a URL the PHP ways (urlencode, rawurlencode), HTML-escaped. */
const FORMS: readonly ((v: string) => string)[] = [
  (v) => v,
  (v) => v.toLowerCase(),
  (v) => encodeURIComponent(v).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+'),
  (v) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
];

/**
 * Whether a field's change is its source's: the value before, with every occurrence of the source's old value (in
 * one of the forms it takes inside other fields) replaced by its new one, is the value after. Structured data (a
 * JSON-LD `name` of the title, `offers.price` of the cost, a map link of the address) follows what it is made of.
 */
export function derivedChange(before: unknown, after: unknown, change: { from: string; to: string }): boolean {
  if (change.from === '' || change.from === change.to) return false;
  if ((typeof before !== 'string' && typeof before !== 'number') || (typeof after !== 'string' && typeof after !== 'number')) return false;
  const a = decoded(String(before));
  const b = decoded(String(after));
  return FORMS.some((form) => {
    const from = form(change.from);
    return a.includes(from) && a.split(from).join(form(change.to)) === b;
  });
}

/**
 * The fields an update changed though it did not name them; `named` lists what it did. `change` is the named field's
 * value before and after: a field derived from it (its source's old value replaced by the new one) is no loss.
 */
export function lostFields(before: Record<string, unknown>, after: Record<string, unknown>, named: ReadonlySet<string>, change?: { from: string; to: string }): string[] {
  const out: string[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (named.has(k) || k === '_links') continue;
    for (const d of leafDifferences(k in before ? before[k] : '(absent)', k in after ? after[k] : '(absent)', k, k)) {
      if (change && derivedChange(d.a, d.b, change)) continue;
      out.push(`${d.path} ${short(d.a)} → ${short(d.b)}`);
    }
  }
  return out;
}

/** A case per update: its method, and by-slug:PATCH for the update by slug. */
const variantOf = (upd: Operation): string => (/\{slug\}$/.test(upd.path) ? `by-slug:${upd.method}` : upd.method);

async function keeps(env: UnitEnv, res: CalendarResource, other: CalendarResource | undefined, updates: readonly Operation[], unitId: string): Promise<void> {
  const word = `k${unitId.length}${env.runId.slice(0, 6)}`;
  const made = await makeOwn(env, res, unitId, `keeps ${unitId}`, richFields(res, word));
  if (!made.own) return updates.forEach((u) => emitterFor(env, UPDATE_KEEPS, u, /\{slug\}$/.test(u.path) ? 'documented' : 'convention')(variantOf(u), 'inconclusive', `creating a record of its own to update answered ${describeAnswer(made.exchange.response)}: nothing to compare`, made.exchange));
  const id = made.own.id;
  // What each field was last sent as: a field derived from the one an update names changes with it (lostFields()).
  const sent: Record<string, string> = { [res.nameField]: `${env.marker} keeps ${unitId}`, ...Object.fromEntries(Object.entries(richFields(res, word)).map(([k, v]) => [k, String(v)])) };
  const reads = [res.read, ...(other ? [other.read] : [])];
  let before = await readAll(env, reads, id);
  for (const [i, upd] of updates.entries()) {
    const variant = variantOf(upd);
    const emitU = emitterFor(env, UPDATE_KEEPS, upd, /\{slug\}$/.test(upd.path) ? 'documented' : 'convention');
    const unread = before.find((r) => !r.rec);
    if (unread) {
      const t = transportOutcome(unread.e);
      emitU(variant, t?.outcome ?? 'inconclusive', t?.message ?? `reading the record through ${unread.ns} before the update answered ${describeAnswer(unread.e.response)}: nothing to compare`, unread.e);
      continue;
    }
    // By slug (the legacy namespace, 000 §4.1): the record's own slug addresses it; venues and organizers repeat it in
    // the body, where it is "marked required" (the same slug: no change).
    const bySlug = /\{slug\}$/.test(upd.path);
    const slug = before[0]!.rec!['slug'];
    if (bySlug && (typeof slug !== 'string' || slug === '')) {
      emitU(variant, 'inconclusive', `the record read through ${before[0]!.ns} shows no slug to address it by: ${short(slug ?? '(absent)')}`, before[0]!.e);
      continue;
    }
    const [field, value] = i % 2 === 1 && !bySlug ? secondField(res, word) : [res.nameField, `${env.marker} keeps ${id} renamed by ${bySlug ? 'slug' : upd.method}`];
    const body = { [field]: value, ...(bySlug && res.resource !== 'event' ? { slug } : {}) };
    const route = bySlug ? fillTemplate(upd.path, { slug: slug as string }) : fillTemplate(upd.path, { id });
    const e = await env.send({ method: upd.method, route, body: { kind: 'json', value: body }, intent: 'write' }, upd);
    const t = transportOutcome(e);
    if (t) {
      emitU(variant, t.outcome, t.message, e);
      continue;
    }
    if (!e.response || e.response.status < 200 || e.response.status >= 300) {
      emitU(variant, 'inconclusive', `the ${upd.method} naming ${field} answered ${describeAnswer(e.response)}: nothing was updated to compare (see lifecycle, positive_acceptance)`, e);
      continue;
    }
    const after = await readAll(env, reads, id);
    const problems: string[] = [];
    let shown: Exchange = e;
    for (const [k, a] of after.entries()) {
      const b = before[k]!;
      if (!a.rec) {
        problems.push(`reading it back through ${a.ns} answered ${describeAnswer(a.e.response)}`);
        shown = a.e;
        continue;
      }
      const lost = lostFields(b.rec!, a.rec, namedKeys(field), sent[field] !== undefined ? { from: sent[field]!, to: value } : undefined);
      if (lost.length) {
        problems.push(`through ${a.ns}, fields it did not name changed: ${lost.join('; ')}`);
        shown = a.e;
      }
      const named = [...namedKeys(field)].filter((f) => f in a.rec!);
      if (!named.some((f) => recordText(a.rec![f]).includes(value.toLowerCase()))) {
        problems.push(`through ${a.ns}, ${named.join('/') || field} does not show the new value ${short(value)}: ${named.map((f) => `${f} ${short(a.rec![f])}`).join(', ') || `${field} is absent`}`);
        shown = a.e;
      }
    }
    sent[field] = value;
    const compared = `compared record ${id} read through ${reads.map((r) => r.namespace).join(' and ')} before and after a ${upd.method}${bySlug ? ` by slug (${String(slug)})` : ''} naming only ${field}`;
    emitU(variant, problems.length ? 'fail' : 'pass', problems.length ? `expected the update to change ${field} and keep every other field (WordPress convention: update_item() changes only what the request names; 000 §4: POST, PUT and PATCH on an existing record are equivalent${bySlug ? '; 000 §4.1: a legacy record is updated by its slug too' : ''}); ${compared}: ${problems.join('; ')}` : `${compared}: ${field} changed, ${Object.keys(after[0]!.rec ?? {}).length} other field(s) kept`, shown);
    before = after;
  }
}

export function planUpdateKeeps(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  return resources.map((res) => {
    const other = resources.find((r) => r !== res && r.resource === res.resource);
    const byId = contract.operations.filter((o) => o.kind === 'update' && o.path === res.update.path).sort((a, b) => ['PATCH', 'PUT', 'POST'].indexOf(a.method) - ['PATCH', 'PUT', 'POST'].indexOf(b.method));
    // One update by slug where the namespace has the route (PATCH: its three methods are equivalent, 000 §4).
    const bySlug = contract.operations.find((o) => o.kind === 'update' && o.method === 'PATCH' && o.namespace === res.namespace && o.resource === res.resource && /\/by-slug\/\{slug\}$/.test(o.path));
    const updates = [...byId, ...(bySlug ? [bySlug] : [])];
    const id = `${UPDATE_KEEPS}:${res.namespace}/${res.resource}`;
    const ops = [res.create, res.read, ...updates, ...(other ? [other.read] : [])];
    return {
      id,
      family: UPDATE_KEEPS,
      checks: [UPDATE_KEEPS],
      operations: ops,
      writes: true,
      run: async (env: UnitEnv) => {
        const why = cannotWrite(env, [res.create, res.read]);
        if (why) return updates.forEach((u) => env.emit({ check: UPDATE_KEEPS, operation: res.update, variant: variantOf(u), severity: /\{slug\}$/.test(u.path) ? 'documented' : 'convention', outcome: 'skip', message: `not run: ${why}; the oracle updates a record of its own` }));
        return keeps(env, res, other && !cannotWrite(env, [other.read]) ? other : undefined, updates, id);
      },
    };
  });
}
