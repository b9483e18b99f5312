// calls: a frontend's recorded calls (`mock --record`, format contracts/lib/calls-format.ts) replayed against a
// target, one unit per call, in the recording's order (`test --calls`). Each call goes out through the run's send,
// so every sweep of the registry judges its answer (status class, envelope, content type, headers) as in any run;
// a 2xx body is held to the contract's shape by response_shape's own shapeFinding(); and this check compares the
// answer with what the mock answered in the recording, where a client would notice: the status, an error's code,
// the headers it reads, and the fields (and their types) its screens read.
//
// Within the suite's safety rules: reads go as recorded, and every call as the identity that made it (anonymous, or
// with --auth-env's credentials, or --low-auth-env's for a contributor's, author's or subscriber's call; where the run
// has no such identity, its message says which it went as). A call on `{id}` of a calendar record uses the run's own
// record mapped from the recorded id: the one a recorded create made (its `id` in the recording), or else one the
// run makes of the same type first (the site's records are never written, and a read of a record the mock had may
// name nothing on the target). A recorded create creates through the run's ledger with the run's marker in its
// name; the records a call's query (`?venue=12`, `include=4,9`), JSON body or form-encoded body names (an event's
// venues and organizers, a category's parent: the reference fields of kit/references.ts) are mapped the same way,
// each to the run's own, by ownFor(), the one mapping. Other writes (settings, forms, batch) are not sent. A call the
// mock refused goes with the ids it named (a record the mock lacked may be what it refused); a write on an id the
// mock did not have goes to an id no site has.

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

/** Why a call is not sent as it names records: a skip, or the exchange that failed to make a stand-in. */
class NotMapped {
  constructor(readonly stop: { skip: string } | { failedSetup: Exchange }) {}
}

/** What one call's mapping of recorded ids shares: the run's map, the unit, and what stood for what. */
interface Mapping {
  env: UnitEnv;
  ids: IdMap;
  unitId: string;
  standsFor: string[];
}

/**
 * The run's own record for the recorded `id` of `res`: the one a recorded create made, or one the run already made to
 * stand for it, else one it makes now (so a call naming the mock's venue 12 is not refused on a target without one).
 * The one mapping of every id a call names (its path's `{id}`, its query, its JSON or form body).
 */
async function ownFor(m: Mapping, res: CalendarResource, id: string | number): Promise<number> {
  const known = m.ids.get(idKey(res.resource, id));
  if (known !== undefined) return known;
  const blocked = writeBlocker(m.env);
  if (blocked) throw new NotMapped({ skip: `it names a record of the recording (${res.resource} ${id}), which the target need not have, and the run would make its own to stand for it; ${blocked}` });
  const made = await createOwn(m.env, res, m.unitId, `stands for ${res.resource} ${id}`);
  if (!made.record) throw new NotMapped({ failedSetup: made.exchange });
  m.ids.set(idKey(res.resource, id), made.record.id);
  m.standsFor.push(`${res.resource} ${id}`);
  return made.record.id;
}

/** A value naming records (`12`, `"12"`, `"12,14"`, `[12, 14]`) with each id mapped, in the same wire form; others as they are. */
async function mapValue(m: Mapping, res: CalendarResource, v: unknown): Promise<unknown> {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v) out.push(await mapValue(m, res, x));
    return out;
  }
  if (typeof v === 'number') return Number.isSafeInteger(v) && v > 0 ? ownFor(m, res, v) : v;
  if (typeof v !== 'string' || !/^\s*[1-9]\d*\s*(,\s*[1-9]\d*\s*)*$/.test(v)) return v;
  const out: string[] = [];
  for (const x of v.split(',')) out.push(Number.isSafeInteger(Number(x)) ? String(await ownFor(m, res, x.trim())) : x);
  return out.join(',');
}

/** The reference fields of `op` in `location` that name calendar records, by parameter name. */
function recordFields(env: UnitEnv, op: Operation, location: 'query' | 'body'): Map<string, CalendarResource> {
  const out = new Map<string, CalendarResource>();
  for (const f of referenceFields(env.contract, op)) {
    if (f.location !== location || f.kind !== 'record') continue;
    const res = resourceFor(env.contract, f.list);
    if (res) out.set(f.param, res);
  }
  return out;
}

/**
 * A query string or form-encoded body with the ids its reference fields name mapped (`venue=12`, `categories[]=3`,
 * `include=4,9`); every other pair, and the encoding of the pairs left alone, as recorded.
 */
async function mapPairs(m: Mapping, op: Operation, text: string, location: 'query' | 'body'): Promise<string> {
  const fields = recordFields(m.env, op, location);
  if (fields.size === 0 || text === '') return text;
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  const pairs: string[] = [];
  for (const pair of text.split('&')) {
    const at = pair.indexOf('=');
    const res = at < 0 ? undefined : fields.get(decode(pair.slice(0, at)).replace(/\[[^\]]*\]$/, ''));
    if (!res) {
      pairs.push(pair);
      continue;
    }
    const value = decode(pair.slice(at + 1));
    const mapped = (await mapValue(m, res, value)) as string;
    pairs.push(mapped === value ? pair : `${pair.slice(0, at)}=${encodeURIComponent(mapped).replace(/%2C/g, ',')}`);
  }
  return pairs.join('&');
}

/** A write's body with the records it names mapped to the run's own (JSON: the fields of kit/references.ts; a form the same). */
async function mapBodyIds(m: Mapping, op: Operation, body: BodyInput): Promise<BodyInput> {
  if (body.kind === 'raw' && mediaType(body.contentType) === 'application/x-www-form-urlencoded') return { ...body, text: await mapPairs(m, op, body.text, 'body') };
  if (body.kind !== 'json' || !body.value || typeof body.value !== 'object' || Array.isArray(body.value)) return body;
  const value: Record<string, unknown> = { ...(body.value as Record<string, unknown>) };
  for (const [param, res] of recordFields(m.env, op, 'body')) if (param in value) value[param] = await mapValue(m, res, value[param]);
  return { kind: 'json', value };
}

/** Roles below the run's --auth-env user's: their calls go with --low-auth-env's credentials when the run has them. */
const LOW_ROLES: ReadonlySet<string> = new Set(['contributor', 'author', 'subscriber']);

/**
 * Who a call goes as: the identity the recording names (anonymous, or authenticated and with which role), or, when the
 * run cannot be that identity, the nearest it has and a note saying so. A version 1 recording names none: a call the
 * mock refused for permission goes anonymously, the others with the run's credentials, as before.
 */
function identityFor(env: UnitEnv, call: RecordedCall): { auth?: false | 'low'; note?: string } {
  if (call.auth === undefined) {
    const refused = call.status === 401 || call.status === 403;
    return { ...(refused ? { auth: false as const } : {}), note: `the recording (version 1) does not say who made the call: sent ${refused ? 'anonymously, as the mock refused it' : "with the run's credentials"}` };
  }
  if (call.auth === 'anonymous') return { auth: false };
  const whose = call.role ? `a signed-in ${call.role}'s` : 'a signed-in user\'s';
  if (!env.hasCredentials) return { auth: false, note: `sent anonymously: the recording's call was ${whose}, and the run has no credentials (--auth-env)` };
  if (call.role && LOW_ROLES.has(call.role)) {
    return env.lowAuthEnv ? { auth: 'low' } : { note: `sent with --auth-env's user: the recording's call was ${whose}, and no --low-auth-env was given` };
  }
  return call.role && call.role !== 'administrator' ? { note: `sent with --auth-env's user: the recording's call was ${whose}` } : {};
}

interface Prepared {
  out?: Outgoing;
  /** Another identity than the recording's call had, said in the case's message. */
  identity?: string;
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
  if (write) {
    const blocked = writeBlocker(env);
    if (blocked) return { skip: `a recorded write; ${blocked}` };
    if (call.bodyBytes !== undefined && call.body === undefined) return { skip: `the recording kept only the size of its body (${call.bodyBytes} bytes), not the body` };
    if (!op || !res || op.kind === 'batch') return { skip: 'a write on what the run does not make (only the run\'s own calendar records are written)' };
  }
  const m: Mapping = { env, ids, unitId, standsFor: [] };
  const who = identityFor(env, call);
  // A call the mock refused is sent as recorded: a record it did not have may be what it refused.
  const mapIds = op !== undefined && call.status < 400;
  try {
    const query = mapIds ? await mapPairs(m, op, rawQuery, 'query') : rawQuery;
    const base: Outgoing = {
      method,
      route,
      ...(query ? { rawQuery: query } : {}),
      ...(apiRoot ? { apiRoot } : {}),
      ...(who.auth !== undefined ? { auth: who.auth } : {}),
    };
    const done = (out: Outgoing): Prepared => ({ out, ...(m.standsFor.length ? { standsFor: m.standsFor.join(', ') } : {}), ...(who.note ? { identity: who.note } : {}) });
    if (!write && (!op?.params.some((p) => p.in === 'path' && p.name === 'id') || !res)) return done(base);
    let body = bodyOf(call, op!.kind === 'create' ? res!.nameField : undefined, env.marker);
    if (body && write && mapIds) body = await mapBodyIds(m, op!, body);
    const sent: Outgoing = { ...base, ...(body ? { body } : {}), ...(write ? { intent: 'write' as const } : {}) };
    if (op!.kind === 'create') return done(sent);
    // On `{id}`: the run's own record mapped from the recorded id.
    const groups = route.match(op!.regex)?.groups;
    const recordedId = groups?.['id'];
    if (recordedId === undefined) return write ? { skip: 'a write on what the run does not make' } : done(base);
    // The mock had no such record: the call is judged as it comes, on an id no site has for a write.
    if (!ids.has(idKey(res!.resource, recordedId)) && call.status >= 400) return done(write ? { ...sent, route: fillTemplate(op!.path, unusedPathValues(op!)) } : base);
    const own = await ownFor(m, res!, recordedId);
    return done({ ...sent, route: fillTemplate(op!.path, { ...groups, id: String(own) }) });
  } catch (e) {
    if (e instanceof NotMapped) return e.stop;
    throw e;
  }
}

async function replay(env: UnitEnv, call: RecordedCall, ids: IdMap, unitId: string): Promise<void> {
  const { route } = routeOfCall(call.path);
  const op = routeOf(env.contract, call.method, route);
  const place = op ? { operation: op } : { namespace: route.split('/').slice(1, 3).join('/'), method: call.method, route };
  const p = await prepare(env, call, op, ids, unitId);
  // A call sent as --low-auth-env's user: its curl line names that variable.
  const base = { check: CALLS, ...place, variant: unitId, severity: 'convention' as const, ...(p.out?.auth === 'low' && env.lowAuthEnv ? { authEnv: env.lowAuthEnv } : {}) };
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
  const outside = `${op ? '' : ' (a route the contract does not have)'}${p.standsFor ? ` (a record of the run's own stood for ${p.standsFor} of the recording)` : ''}${p.identity ? ` (${p.identity})` : ''}`;
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
