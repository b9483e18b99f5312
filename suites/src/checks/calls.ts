// calls: a frontend's recorded calls (`mock --record`, format contracts/lib/calls-format.ts) replayed against a
// target, one unit per call, in the recording's order (`test --calls`). Each call goes out through the run's send,
// so every sweep of the registry judges its answer (status class, envelope, content type, headers) as in any run;
// a 2xx body is held to the contract's shape by response_shape's own shapeFinding(); and this check compares the
// answer with what the mock answered in the recording, where a client would notice: the status, an error's code,
// the headers it reads, and the fields (and their types) its screens read.
//
// Within the suite's safety rules: reads go as recorded. A call on `{id}` of a calendar record uses the run's own
// record mapped from the recorded id: the one a recorded create made (its `id` in the recording), or else one the
// run makes of the same type first (the site's records are never written, and a read of a record the mock had may
// name nothing on the target). A recorded create creates through the run's ledger with the run's marker in its
// name; the records a written JSON body names (an event's venues and organizers, a category's parent: the fields of
// kit/references.ts) are mapped the same way, each to the run's own. Other writes (settings, forms, batch) are not
// sent. A write the mock refused for an id it did not have goes
// to an id no site has.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { shapeOf, type RecordedCall, type Shape } from '../../../contracts/lib/calls-format.ts';
import { fillTemplate } from '../http/target.ts';
import type { BodyInput } from '../http/encode.ts';
import { jsonBody, SAFE_METHODS, type Exchange, type Outgoing, type WireMethod } from '../http/types.ts';
import type { Finding, Unit, UnitEnv } from './kit/unit.ts';
import { createdId, routeOf } from './kit/ledger.ts';
import { createOwn, resourceFor, type CalendarResource } from './kit/resources.ts';
import { unusedPathValues } from './kit/probes.ts';
import { referenceFields } from './kit/references.ts';
import { transportOutcome, wpError } from './kit/wp.ts';
import { writeBlocker } from './kit/writes.ts';
import { shapeFinding } from './response_shape.ts';

export const CALLS = 'recorded_calls';

/** The unit of the call on line `line` of the recording; the report's case of that call carries it. */
export const callUnitId = (line: number): string => `${CALLS}:L${line}`;

/** How many differences of one answer a message lists. */
const SHOWN = 5;

/** Where a recorded path leads: the route under the API root, the query as sent, the language root if any. */
function routeOfCall(path: string): { route: string; rawQuery: string; apiRoot?: string } {
  const url = new URL(path, 'http://recorded.invalid');
  const restRoute = url.searchParams.get('rest_route');
  if (restRoute !== null) url.searchParams.delete('rest_route');
  const lang = /^\/([a-z]{2})\/wp-json(\/|$)/.exec(url.pathname)?.[1];
  const route = restRoute ?? url.pathname.replace(/^(\/[a-z]{2})?\/wp-json/, '');
  const rawQuery = restRoute !== null ? url.searchParams.toString() : url.search.replace(/^\?/, '');
  return { route: route.replace(/\/+$/, '') || '/', rawQuery, ...(lang ? { apiRoot: `/${lang}/wp-json` } : {}) };
}

/** The run's own records, by the recorded id they stand for (`event:1042`): ids are shared by both calendar namespaces. */
type IdMap = Map<string, number>;
const idKey = (resource: string, id: string | number): string => `${resource}:${id}`;

/** Fields of the recorded shape the answer lacks or holds as another type (null on either side is not compared). */
function shapeDifferences(recorded: Shape | undefined, live: Shape, at = ''): string[] {
  if (recorded === undefined || recorded === 'null' || live === 'null') return [];
  if (Array.isArray(recorded)) {
    if (!Array.isArray(live)) return [`${at || '(body)'}: a list in the recording, ${typeName(live)} here`];
    return recorded.length && live.length ? shapeDifferences(recorded[0], live[0]!, `${at}[0]`) : [];
  }
  if (typeof recorded === 'object') {
    if (typeof live !== 'object' || Array.isArray(live)) return [`${at || '(body)'}: an object in the recording, ${typeName(live)} here`];
    return Object.entries(recorded).flatMap(([k, v]) => (k in live ? shapeDifferences(v, live[k]!, at ? `${at}.${k}` : k) : [`${at ? `${at}.${k}` : k}: missing`]));
  }
  // A whole number is a number too: a client reading a number reads either.
  if (recorded === live || (recorded === 'number' && live === 'integer')) return [];
  return [`${at || '(body)'}: ${recorded} in the recording, ${typeName(live)} here`];
}

const typeName = (s: Shape): string => (Array.isArray(s) ? 'a list' : typeof s === 'object' ? 'an object' : s);
const mediaType = (v: string | undefined): string => (v ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * What a client of the recording would notice in this answer: each difference from what the mock answered, in two
 * kinds. The status, an error's code and the headers are WordPress's conventions, which the mock keeps; the fields
 * of a payload are the mock's reading of documents that show almost none (assumed, as response_shape's records).
 */
function differences(call: RecordedCall, e: Exchange): { wire: string[]; fields: string[] } {
  const r = e.response!;
  const out: string[] = [];
  const code = wpError(r)?.code;
  if (r.status !== call.status) out.push(`status ${r.status}${code && call.code === undefined ? ` ${code}` : ''} where the mock answered ${call.status}${code === 'rest_no_route' ? ' (the site does not serve this route)' : ''}`);
  if (call.code !== undefined && code !== call.code) out.push(`code ${code ?? '(none)'} where the mock answered ${call.code}`);
  for (const [name, value] of Object.entries(call.headers)) {
    const live = r.headers[name.toLowerCase()];
    if (live === undefined) out.push(`no ${name} header`);
    else if (name === 'Content-Type' && mediaType(live) !== mediaType(value)) out.push(`Content-Type ${mediaType(live)} where the mock answered ${mediaType(value)}`);
  }
  // The fields are compared only when both answered alike (a refusal has another shape than a record), and only for
  // a success: an error's code is compared above, its envelope is error_envelope's.
  const compared = call.shape !== undefined && r.status === call.status && r.status < 400;
  const body = compared ? jsonBody(r) : undefined;
  if (compared && body === undefined) out.push('the body is not JSON');
  // A record's links to other records (venue, organizer, terms) and what is embedded of them follow its data, not the
  // interface: the first record of a list on the target, or a record of the run's own, need not have them.
  const fields = body === undefined ? [] : shapeDifferences(call.shape, shapeOf(body)).filter((d) => !/^(\[0\]\.)?(_links\.(?!self\b|collection\b)|_embedded\b)/.test(d));
  return { wire: out, fields };
}

/** The request body as recorded; the marker goes into a created record's name. */
function bodyOf(call: RecordedCall, nameField: string | undefined, marker: string): BodyInput | undefined {
  if (call.body === undefined) return undefined;
  const type = mediaType(call.contentType);
  if (type === 'application/json') {
    let value: unknown;
    try {
      value = JSON.parse(call.body) as unknown;
    } catch {
      return { kind: 'raw', text: call.body, contentType: call.contentType ?? 'application/json' };
    }
    if (nameField && value && typeof value === 'object' && !Array.isArray(value)) {
      const v = value as Record<string, unknown>;
      const name = typeof v[nameField] === 'string' ? v[nameField] : typeof (v[nameField] as { raw?: unknown } | undefined)?.raw === 'string' ? (v[nameField] as { raw: string }).raw : '';
      value = { ...v, [nameField]: `${marker} ${name}`.trim() };
    }
    return { kind: 'json', value };
  }
  if (type === 'application/x-www-form-urlencoded' && nameField) {
    const form = new URLSearchParams(call.body);
    form.set(nameField, `${marker} ${form.get(nameField) ?? ''}`.trim());
    return { kind: 'raw', text: form.toString(), contentType: call.contentType! };
  }
  return { kind: 'raw', text: call.body, contentType: call.contentType ?? 'application/octet-stream' };
}

/**
 * A write's JSON body with the records it names mapped to the run's own: a record the recording made (or one the run
 * already made to stand for it), else a record the run makes now to stand for it, so that a create naming the mock's
 * venue 12 is not refused on a target without one. Values that are no integer (a name, a legacy venue object) go
 * as recorded.
 */
async function mapBodyIds(env: UnitEnv, op: Operation, body: BodyInput, ids: IdMap, unitId: string): Promise<{ body: BodyInput; standsFor: string[]; failedSetup?: Exchange }> {
  const standsFor: string[] = [];
  if (body.kind !== 'json' || !body.value || typeof body.value !== 'object' || Array.isArray(body.value)) return { body, standsFor };
  const value: Record<string, unknown> = { ...(body.value as Record<string, unknown>) };
  for (const f of referenceFields(env.contract, op)) {
    if (f.location !== 'body' || f.kind !== 'record' || !(f.param in value)) continue;
    const res = resourceFor(env.contract, f.list);
    if (!res) continue;
    const mapOne = async (v: unknown): Promise<unknown> => {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^[1-9]\d*$/.test(v) ? Number(v) : undefined;
      if (n === undefined || !Number.isSafeInteger(n)) return v;
      let own = ids.get(idKey(res.resource, n));
      if (own === undefined) {
        const made = await createOwn(env, res, unitId, `stands for ${res.resource} ${n}`);
        if (!made.record) throw made.exchange;
        own = made.record.id;
        ids.set(idKey(res.resource, n), own);
        standsFor.push(`${res.resource} ${n}`);
      }
      return typeof v === 'string' ? String(own) : own;
    };
    const sent = value[f.param];
    try {
      if (Array.isArray(sent)) {
        const mapped: unknown[] = [];
        for (const v of sent) mapped.push(await mapOne(v));
        value[f.param] = mapped;
      } else value[f.param] = await mapOne(sent);
    } catch (failed) {
      return { body, standsFor, failedSetup: failed as Exchange };
    }
  }
  return { body: { kind: 'json', value }, standsFor };
}

interface Prepared {
  out?: Outgoing;
  /** Why the call is not sent (a skip). */
  skip?: string;
  /** The exchange that made the run's own record the call needed, when it failed. */
  failedSetup?: Exchange;
  /** A record the run made stands for one of the site's the call named (`event 109`). */
  standsFor?: string;
}

/** The request the call becomes on the target, within the safety rules; or why it is not sent. */
async function prepare(env: UnitEnv, call: RecordedCall, op: Operation | undefined, ids: IdMap, unitId: string): Promise<Prepared> {
  const { route, rawQuery, apiRoot } = routeOfCall(call.path);
  const method = call.method as WireMethod;
  const write = !SAFE_METHODS.has(method);
  const res: CalendarResource | undefined = op ? resourceFor(env.contract, op) : undefined;
  const base: Outgoing = {
    method,
    route,
    ...(rawQuery ? { rawQuery } : {}),
    ...(apiRoot ? { apiRoot } : {}),
    // A call the mock refused for permission was sent without credentials (or with too few): sent anonymously.
    ...(call.status === 401 || call.status === 403 ? { auth: false } : {}),
  };
  if (!write) {
    if (!op?.params.some((p) => p.in === 'path' && p.name === 'id') || !res) return { out: base };
  } else {
    const blocked = writeBlocker(env);
    if (blocked) return { skip: `a recorded write; ${blocked}` };
    if (call.bodyBytes !== undefined && call.body === undefined) return { skip: `the recording kept only the size of its body (${call.bodyBytes} bytes), not the body` };
    if (!op || !res || op.kind === 'batch') return { skip: 'a write on what the run does not make (only the run\'s own calendar records are written)' };
  }
  let body = bodyOf(call, op!.kind === 'create' ? res!.nameField : undefined, env.marker);
  const named: string[] = [];
  // A write the mock refused is sent as recorded: a venue it did not have may be what it refused.
  if (body && write && call.status < 400) {
    const mapped = await mapBodyIds(env, op!, body, ids, unitId);
    if (mapped.failedSetup) return { failedSetup: mapped.failedSetup };
    body = mapped.body;
    named.push(...mapped.standsFor);
  }
  const sent: Outgoing = { ...base, ...(body ? { body } : {}), ...(write ? { intent: 'write' as const } : {}) };
  const also = named.length ? { standsFor: named.join(', ') } : {};
  if (op!.kind === 'create') return { out: sent, ...also };
  // On `{id}`: the run's own record mapped from the recorded id.
  const recordedId = route.match(op!.regex)?.groups?.['id'];
  if (recordedId === undefined) return write ? { skip: 'a write on what the run does not make' } : { out: base };
  let own = ids.get(idKey(res!.resource, recordedId));
  if (own === undefined) {
    // The mock had no such record: the call is judged as it comes, on an id no site has for a write.
    if (call.status >= 400) return write ? { out: { ...sent, route: fillTemplate(op!.path, unusedPathValues(op!)) } } : { out: base };
    const blocked = writeBlocker(env);
    if (blocked) return { skip: `it names a record of the recording (${res!.resource} ${recordedId}), which the target need not have, and the run would make its own to stand for it; ${blocked}` };
    const made = await createOwn(env, res!, unitId, `stands for ${res!.resource} ${recordedId}`);
    if (!made.record) return { failedSetup: made.exchange };
    own = made.record.id;
    ids.set(idKey(res!.resource, recordedId), own);
    const out = { ...sent, route: fillTemplate(op!.path, { ...route.match(op!.regex)?.groups, id: String(own) }) };
    return { out, standsFor: [`${res!.resource} ${recordedId}`, ...named].join(', ') };
  }
  return { out: { ...sent, route: fillTemplate(op!.path, { ...route.match(op!.regex)?.groups, id: String(own) }) }, ...also };
}

async function replay(env: UnitEnv, call: RecordedCall, ids: IdMap, unitId: string): Promise<void> {
  const { route } = routeOfCall(call.path);
  const op = routeOf(env.contract, call.method, route);
  const place = op ? { operation: op } : { namespace: route.split('/').slice(1, 3).join('/'), method: call.method, route };
  const base = { check: CALLS, ...place, variant: unitId, severity: 'convention' as const };
  const p = await prepare(env, call, op, ids, unitId);
  if (p.skip) return env.emit({ ...base, outcome: 'skip', message: `not sent: ${p.skip}` });
  if (p.failedSetup) return env.emit({ ...base, outcome: 'inconclusive', message: `the run could not make the record of its own the call needs: ${p.failedSetup.response ? `${p.failedSetup.response.status}` : (p.failedSetup.error?.message ?? 'no answer')}`, exchange: p.failedSetup });
  const e = await env.send(p.out!, op);
  const t = transportOutcome(e);
  if (t) return env.emit({ ...base, ...t, exchange: e });
  if (op?.kind === 'create') {
    const id = createdId(e);
    const res = resourceFor(env.contract, op)!;
    if (id !== undefined) {
      env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
      if (call.id !== undefined) ids.set(idKey(res.resource, call.id), id);
    }
  }
  if (op) {
    const shape = shapeFinding(env.contract, op, e, unitId);
    if (shape && shape.outcome !== 'skip') env.emit(shape);
  }
  const { wire, fields } = differences(call, e);
  const diff = [...wire, ...fields];
  const outside = `${op ? '' : ' (a route the contract does not have)'}${p.standsFor ? ` (a record of the run's own stood for ${p.standsFor} of the recording)` : ''}`;
  env.emit({
    ...base,
    severity: wire.length || !diff.length ? 'convention' : 'assumed',
    outcome: diff.length ? 'fail' : 'pass',
    message: diff.length
      ? `answered otherwise than the mock did in the recording${outside}: ${diff.slice(0, SHOWN).join('; ')}${diff.length > SHOWN ? `; ${diff.length - SHOWN} more` : ''}`
      : `answered ${e.response!.status} as the mock did in the recording, with the headers and fields the client read${outside}`,
    exchange: e,
  } satisfies Finding);
}

/** One unit per recorded call, in the recording's order; they share the run's map of recorded ids to its own records. */
export function planCalls(contract: Contract, calls: readonly RecordedCall[]): Unit[] {
  const ids: IdMap = new Map();
  return calls.map((call) => {
    const op = routeOf(contract, call.method, routeOfCall(call.path).route);
    const id = callUnitId(call.line);
    const unit: Unit = { id, family: CALLS, checks: [CALLS], operations: op ? [op] : [], writes: true, run: (env) => replay(env, call, ids, id) };
    return op ? unit : { ...unit, namespaces: [''] };
  });
}
