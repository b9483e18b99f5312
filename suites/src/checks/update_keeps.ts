// update_keeps_fields: an update keeps every field it did not name and changes those it named. For each calendar
// resource the suite makes a record of its own with several fields set (body text, excerpt, cost, address,
// contact fields...), reads it, then updates it once by each method of its item route (PATCH, PUT and, in the
// legacy namespace, POST: "equivalent and take the same body", 000 §4), each time naming one field, and reads it
// back; calendar records are read through both namespaces (legacy and cal/v1 serve the same record, 000 §1).
// Every field of the record before and after is compared: what the update named (and its other names: a legacy
// venue's `venue` is cal/v1's `title`, legacy `description` is cal/v1 `content`, a cost's details) must show the
// new value; anything else must be as it was, clock fields aside (compare.ts). WordPress's update_item() changes
// only what the request names, whichever of the three methods (convention).

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

/** The fields an update changed though it did not name them; `named` lists what it did. */
export function lostFields(before: Record<string, unknown>, after: Record<string, unknown>, named: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (named.has(k) || k === '_links') continue;
    const d = firstDifference(k in before ? before[k] : '(absent)', k in after ? after[k] : '(absent)', k, k);
    if (d) out.push(`${d.path} ${short(d.a)} → ${short(d.b)}`);
  }
  return out;
}

async function keeps(env: UnitEnv, res: CalendarResource, other: CalendarResource | undefined, updates: readonly Operation[], unitId: string): Promise<void> {
  const word = `k${unitId.length}${env.runId.slice(0, 6)}`;
  const made = await makeOwn(env, res, unitId, `keeps ${unitId}`, richFields(res, word));
  if (!made.own) return updates.forEach((u) => emitterFor(env, UPDATE_KEEPS, u, 'convention')(u.method, 'inconclusive', `creating a record of its own to update answered ${describeAnswer(made.exchange.response)}: nothing to compare`, made.exchange));
  const id = made.own.id;
  const reads = [res.read, ...(other ? [other.read] : [])];
  let before = await readAll(env, reads, id);
  for (const [i, upd] of updates.entries()) {
    const variant = upd.method;
    const emitU = emitterFor(env, UPDATE_KEEPS, upd, 'convention');
    const unread = before.find((r) => !r.rec);
    if (unread) {
      const t = transportOutcome(unread.e);
      emitU(variant, t?.outcome ?? 'inconclusive', t?.message ?? `reading the record through ${unread.ns} before the update answered ${describeAnswer(unread.e.response)}: nothing to compare`, unread.e);
      continue;
    }
    const [field, value] = i % 2 === 1 ? secondField(res, word) : [res.nameField, `${env.marker} keeps ${id} renamed by ${upd.method}`];
    const e = await env.send({ method: upd.method, route: fillTemplate(upd.path, { id }), body: { kind: 'json', value: { [field]: value } }, intent: 'write' }, upd);
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
      const lost = lostFields(b.rec!, a.rec, namedKeys(field));
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
    const compared = `compared record ${id} read through ${reads.map((r) => r.namespace).join(' and ')} before and after a ${upd.method} naming only ${field}`;
    emitU(variant, problems.length ? 'fail' : 'pass', problems.length ? `expected the update to change ${field} and keep every other field (WordPress convention: update_item() changes only what the request names; 000 §4: POST, PUT and PATCH on an existing record are equivalent); ${compared}: ${problems.join('; ')}` : `${compared}: ${field} changed, ${Object.keys(after[0]!.rec ?? {}).length} other field(s) kept`, shown);
    before = after;
  }
}

export function planUpdateKeeps(contract: Contract): Unit[] {
  const resources = calendarResources(contract);
  return resources.map((res) => {
    const other = resources.find((r) => r !== res && r.resource === res.resource);
    const updates = contract.operations.filter((o) => o.kind === 'update' && o.path === res.update.path).sort((a, b) => ['PATCH', 'PUT', 'POST'].indexOf(a.method) - ['PATCH', 'PUT', 'POST'].indexOf(b.method));
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
        if (why) return updates.forEach((u) => env.emit({ check: UPDATE_KEEPS, operation: res.update, variant: u.method, severity: 'convention', outcome: 'skip', message: `not run: ${why}; the oracle updates a record of its own` }));
        return keeps(env, res, other && !cannotWrite(env, [other.read]) ? other : undefined, updates, id);
      },
    };
  });
}
