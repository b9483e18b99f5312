// Batch (`POST {api_root}/batch/v1`), with requests any WordPress answers the same way:
// batch_limit        25 requests are taken, 26 refused with 400 naming `requests` (001 §4.1, §8).
// batch_item_status  207 Multi-Status with one {body, status, headers} per request, in order; a path with
//                    no route is a per-request 404 rest_no_route (S serve_batch_request_v1).
//                    The target's own index says which routes take items (allow_batch {v1: true}): cal/v1's
//                    record routes do, as core's controllers register them; an item for a route it shows
//                    without allow_batch is a per-request 400 rest_batch_not_allowed; an item's query is read
//                    (DELETE {own}?force=true deletes, where without force WordPress would trash).
// batch_validation   with validation=require-all-validate and one invalid request the answer is
//                    207 {failed: "validation", responses: [null | error, ...]} and nothing runs.
// Items point at routes that do not exist, so nothing can be written by them. Where the target lets
// the suite write (credentials, a batchable calendar route), one more item creates a record of the
// suite's own, to see that it runs in a normal batch and does not in a failed require-all-validate one.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { liveEndpoint } from '../diff/descriptor.ts';
import { allowsBatch } from '../../../contracts/lib/loader.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Finding, Unit, UnitEnv } from './kit/unit.ts';
import { writeBlocker } from './kit/writes.ts';
import { noSuchRoute, UNUSED_ID } from './kit/probes.ts';
import { calendarResources, createOwn, idOf, listRecords, minimalCreateBody, type CalendarResource } from './kit/resources.ts';
import { blamedParams, describeAnswer, transportOutcome, wpError } from './kit/wp.ts';

export const BATCH_LIMIT = 'batch_limit';
export const BATCH_ITEM_STATUS = 'batch_item_status';
export const BATCH_VALIDATION = 'batch_validation';

interface Item {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

function noRoute(env: UnitEnv, i: number, method = 'POST'): Item {
  return { method, path: noSuchRoute(env, i) };
}

/**
 * With the run's credentials when it has them: WordPress lets anyone call batch/v1 and checks each
 * request on its own, but a site may guard the route itself, and no-route items are harmless either way.
 */
async function post(env: UnitEnv, op: Operation, body: Record<string, unknown>, write: boolean): Promise<Exchange> {
  return env.send({ method: 'POST', route: op.path, body: { kind: 'json', value: body }, intent: write ? 'write' : 'probe' }, op);
}

function batchable(env: UnitEnv): CalendarResource | undefined {
  if (writeBlocker(env)) return undefined;
  return calendarResources(env.contract).find((r) => r.namespace === 'cal/v1' && liveEndpoint(env.descriptor, r.create.path, 'POST')?.allowBatch);
}

interface ItemResponse {
  body: unknown;
  status: number;
  headers?: unknown;
}

/** Problems with a 207 body: `responses` is a list of {body, status, headers} (or null), one per request. */
export function batchShapeProblems(body: unknown, count: number, allowNull: boolean): string[] {
  const b = body as { responses?: unknown } | undefined;
  if (!b || typeof b !== 'object' || !Array.isArray(b.responses)) return ['the body has no "responses" list'];
  const problems: string[] = [];
  if (b.responses.length !== count) problems.push(`${b.responses.length} responses for ${count} requests`);
  b.responses.forEach((r: unknown, i: number) => {
    if (r === null && allowNull) return;
    const o = r as { body?: unknown; status?: unknown; headers?: unknown } | null;
    if (!o || typeof o !== 'object' || !('body' in o) || typeof o.status !== 'number' || !('headers' in o)) problems.push(`responses[${i}] is not {body, status, headers}`);
  });
  return problems;
}

function items(body: unknown): (ItemResponse | null)[] {
  return ((body as { responses?: unknown[] } | undefined)?.responses ?? []) as (ItemResponse | null)[];
}

async function batchLimit(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange): void =>
    env.emit({ check: BATCH_LIMIT, operation: op, variant, severity: 'documented', outcome, message, ...(e ? { exchange: e } : {}) });
  if (env.readOnly) {
    emit('25', 'skip', '--read-only: POST is not sent');
    return emit('26', 'skip', '--read-only: POST is not sent');
  }
  const make = (n: number): Item[] => Array.from({ length: n }, (_, i) => noRoute(env, i));
  const e25 = await post(env, op, { requests: make(25) }, false);
  const t25 = transportOutcome(e25);
  if (t25) emit('25', t25.outcome, t25.message, e25);
  else {
    const r = e25.response!;
    const err = wpError(r);
    if (r.status >= 200 && r.status < 300) emit('25', 'pass', `25 requests taken: ${r.status}`, e25);
    else emit('25', 'fail', `expected 25 requests, the documented maximum (001 §4.1, §8), to be taken; got ${describeAnswer(r)}${err ? ` ${err.message}` : ''}`, e25);
  }
  const e26 = await post(env, op, { requests: make(26) }, false);
  const t26 = transportOutcome(e26);
  if (t26) return emit('26', t26.outcome, t26.message, e26);
  const r = e26.response!;
  const err = wpError(r);
  if (r.status === 400 && err?.code === 'rest_invalid_param' && blamedParams(err).includes('requests')) return emit('26', 'pass', '26 requests refused: 400 rest_invalid_param naming requests', e26);
  const expected = 'expected 400 rest_invalid_param naming requests for 26 requests, one over the documented maximum of 25 (001 §4.1, §8)';
  if (r.status === 400) return emit('26', 'fail', `${expected}; got ${describeAnswer(r)}, which does not name requests`, e26);
  emit('26', 'fail', `${expected}; got ${describeAnswer(r)}`, e26);
}

async function itemStatus(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (outcome: Finding['outcome'], message: string, e?: Exchange, severity: Severity = 'convention'): void =>
    env.emit({ check: BATCH_ITEM_STATUS, operation: op, variant: 'normal', severity, outcome, message, ...(e ? { exchange: e } : {}) });
  if (env.readOnly) return emit('skip', '--read-only: POST is not sent');
  const res = batchable(env);
  const list: Item[] = [noRoute(env, 0), noRoute(env, 1, 'DELETE')];
  const label = `${env.marker} batch item`;
  if (res) list.push({ method: 'POST', path: res.create.path, body: minimalCreateBody(res, label, env.now()) });
  const e = await post(env, op, { requests: list }, !!res);
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message, e);
  const r = e.response!;
  const body = jsonBody(r);
  const created = res ? items(body)[2] : undefined;
  const id = idOf(created?.body);
  if (res && id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: `${BATCH_ITEM_STATUS}` });
  if (r.status !== 207) return emit('fail', `expected 207 Multi-Status for a batch (WordPress convention, serve_batch_request_v1()); got ${describeAnswer(r)}`, e);
  const problems = batchShapeProblems(body, list.length, false);
  const [a, b] = items(body);
  for (const [i, it] of [a, b].entries()) {
    if (it && (it.status !== 404 || wpError({ status: 404, headers: {}, body: JSON.stringify(it.body) })?.code !== 'rest_no_route')) {
      problems.push(`responses[${i}] for a path with no route is ${it.status} ${JSON.stringify((it.body as { code?: unknown } | null)?.code ?? null)}, not 404 rest_no_route`);
    }
  }
  if (res && created && created.status !== 201) problems.push(`responses[2], a create, is ${created.status}, not 201`);
  // Each item's headers are its response's get_headers(): a create's Location (the posts controller sets it) included.
  else if (res && created && id !== undefined) {
    const headers = isPlainObject(created.headers) ? created.headers : {};
    const location = Object.entries(headers).find(([k]) => k.toLowerCase() === 'location')?.[1];
    if (typeof location !== 'string' || !location.replace(/\/+$/, '').endsWith(`/${String(id)}`)) problems.push(`responses[2], a create, has headers.Location ${JSON.stringify(location ?? null)}, not the address of the record it made (${String(id)})`);
  }
  if ((body as { failed?: unknown } | undefined)?.failed !== undefined) problems.push('a normal batch carries "failed"');
  if (problems.length) return emit('fail', `expected 207 with one {body, status, headers} per request, a path with no route answered 404 rest_no_route (WordPress convention, serve_batch_request_v1()); got: ${problems.join('; ')}`, e);
  emit('pass', `207 with one response per request${res ? ', the create included' : ' (no batchable calendar route or no credentials: no-route items only)'}`, e);
}

const RECORD_WRITES = ['create', 'update', 'delete'] as const;

/**
 * The index's allow_batch against WordPress and the contract: cal/v1's create, update and delete endpoints carry
 * {v1: true} (core's posts and terms controllers register them so: convention); a route of another calendar
 * namespace the contract holds unbatchable (x-batchable-namespaces: 001 §4.1 leaves it open) carries none (assumed).
 */
async function allowBatchIndex(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (variant: string, severity: Severity, outcome: Finding['outcome'], message: string): void =>
    env.emit({ check: BATCH_ITEM_STATUS, operation: op, variant, severity, outcome, message });
  const shown = calendarResources(env.contract).flatMap((r) => RECORD_WRITES.map((k) => ({ r, o: r[k], ep: liveEndpoint(env.descriptor, r[k].path, r[k].method) }))).filter((x) => x.ep);
  const core = shown.filter((x) => allowsBatch(env.contract, { namespace: x.o.namespace, operations: [x.o] }));
  const missing = core.filter((x) => !x.ep!.allowBatch).map((x) => `${x.o.method} ${x.o.path}`);
  if (!core.length) emit('allow-batch', 'convention', 'skip', "the target's index shows no create, update or delete endpoint of the namespaces built on core's controllers (cal/v1)");
  else if (missing.length) emit('allow-batch', 'convention', 'fail', `expected allow_batch {v1: true} on cal/v1's create, update and delete endpoints, as core's posts controller registers them (WordPress convention, WP_REST_Server::get_data_for_route()); missing on ${missing.join(', ')}`);
  else emit('allow-batch', 'convention', 'pass', `allow_batch {v1: true} on ${core.length} cal/v1 endpoints`);
  const others = shown.filter((x) => !core.includes(x));
  const opted = others.filter((x) => x.ep!.allowBatch).map((x) => `${x.o.method} ${x.o.path}`);
  if (!others.length) emit('batchable-routes', 'assumed', 'skip', "the target's index shows no calendar route outside cal/v1");
  else if (opted.length) emit('batchable-routes', 'assumed', 'fail', `expected no allow_batch on the legacy namespace's routes, which The Events Calendar registers without it (001 §4.1 does not say which routes take batch items; the contract's x-batchable-namespaces); shown on ${opted.join(', ')}`);
  else emit('batchable-routes', 'assumed', 'pass', `no allow_batch on ${others.length} endpoints outside cal/v1`);
}

/**
 * An item for a route the target's index shows without allow_batch answers 400 rest_batch_not_allowed inside the 207
 * (serve_batch_request_v1()). The item is a DELETE of an id no site has: were it let through, it deletes nothing.
 */
async function notAllowed(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (outcome: Finding['outcome'], message: string, e?: Exchange): void =>
    env.emit({ check: BATCH_ITEM_STATUS, operation: op, variant: 'not-allowed', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  if (env.readOnly) return emit('skip', '--read-only: POST is not sent');
  const target = calendarResources(env.contract).map((r) => r.delete).find((d) => {
    const ep = liveEndpoint(env.descriptor, d.path, 'DELETE');
    return ep && !ep.allowBatch;
  });
  if (!target) return emit('skip', "the target's index shows no calendar DELETE endpoint without allow_batch (every one it shows takes batch items, or it shows none)");
  const path = target.path.replace(/\{[^}]+\}/g, String(UNUSED_ID));
  const e = await post(env, op, { requests: [{ method: 'DELETE', path }] }, false);
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message, e);
  const r = e.response!;
  const [item] = items(jsonBody(r));
  const code = (item?.body as { code?: unknown } | null | undefined)?.code;
  const expected = `expected 207 with responses[0] 400 rest_batch_not_allowed for DELETE ${path}, a route the target's index shows without allow_batch (WordPress convention, serve_batch_request_v1())`;
  if (r.status !== 207) return emit('fail', `${expected}; got ${describeAnswer(r)}`, e);
  if (!item || item.status !== 400 || code !== 'rest_batch_not_allowed') return emit('fail', `${expected}; got responses[0] ${item ? `${item.status} ${JSON.stringify(code ?? null)}` : 'missing'}`, e);
  emit('pass', `DELETE ${target.path} inside a batch: 400 rest_batch_not_allowed`, e);
}

/**
 * An item's path carries its query (serve_batch_request_v1() parses it into the item's query params): DELETE of an
 * own record with ?force=true answers 200 {deleted: true, previous: {id}}, where without force WordPress trashes it.
 */
async function batchPath(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (outcome: Finding['outcome'], message: string, e?: Exchange): void =>
    env.emit({ check: BATCH_ITEM_STATUS, operation: op, variant: 'path-query', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const blocked = writeBlocker(env);
  if (blocked) return emit('skip', blocked);
  const batchables = calendarResources(env.contract).filter((r) => r.namespace === 'cal/v1' && liveEndpoint(env.descriptor, r.delete.path, 'DELETE')?.allowBatch);
  const res = batchables.find((r) => r.resource === 'venue') ?? batchables[0];
  if (!res) return emit('skip', "the target's index shows no cal/v1 DELETE endpoint with allow_batch");
  const own = await createOwn(env, res, `${BATCH_ITEM_STATUS}:path-query`, 'batch force');
  if (!own.record) return emit('inconclusive', `could not create a record of the suite's own to delete: ${describeAnswer(own.exchange.response)}`, own.exchange);
  const id = own.record.id;
  const path = `${res.delete.path.replace(/\{[^}]+\}/g, String(id))}?force=true`;
  const e = await post(env, op, { requests: [{ method: 'DELETE', path }] }, true);
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message, e);
  const r = e.response!;
  const [item] = items(jsonBody(r));
  const body = item?.body as { deleted?: unknown; previous?: unknown; status?: unknown } | null | undefined;
  const expected = `expected 207 with responses[0] 200 {deleted: true, previous: {id: ${id}}} for DELETE ${path}: the item's query is read, so force=true deletes (WordPress convention, serve_batch_request_v1())`;
  if (r.status !== 207) return emit('fail', `${expected}; got ${describeAnswer(r)}`, e);
  if (!item) return emit('fail', `${expected}; got no responses[0]`, e);
  if (item.status === 200 && body?.deleted === true && idOf(body.previous) === id) return emit('pass', `DELETE ${res.delete.path}?force=true inside a batch: 200 deleted`, e);
  if (item.status === 200 && body?.status === 'trash') return emit('fail', `${expected}; got the record trashed (200 status trash): force in the item's query was not read`, e);
  emit('fail', `${expected}; got responses[0] ${item.status} ${JSON.stringify(body).slice(0, 160)}`, e);
}

async function requireAllValidate(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (outcome: Finding['outcome'], message: string, e?: Exchange): void =>
    env.emit({ check: BATCH_VALIDATION, operation: op, variant: 'require-all-validate', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  if (env.readOnly) return emit('skip', '--read-only: POST is not sent');
  const res = batchable(env);
  const label = `${env.marker} batch must not run`;
  // With a valid first request the check can see that nothing ran; without, only the answer's form.
  const list: Item[] = res
    ? [
        { method: 'POST', path: res.create.path, body: minimalCreateBody(res, label, env.now()) },
        { method: 'POST', path: res.create.path, body: { ...minimalCreateBody(res, `${label} invalid`, env.now()), status: 'site-contracts-invalid' } },
      ]
    : [noRoute(env, 0), noRoute(env, 1)];
  const e = await post(env, op, { validation: 'require-all-validate', requests: list }, !!res);
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message, e);
  const r = e.response!;
  const body = jsonBody(r) as { failed?: unknown } | undefined;
  const problems: string[] = [];
  if (r.status !== 207) problems.push(`answered ${describeAnswer(r)}, not 207`);
  if (body?.failed !== 'validation') problems.push(`"failed" is ${JSON.stringify(body?.failed ?? null)}, not "validation"`);
  problems.push(...batchShapeProblems(body, list.length, true));
  const [first, second] = items(body);
  if (res) {
    if (first !== null && first !== undefined) problems.push(`responses[0], the valid request, is ${JSON.stringify(first).slice(0, 80)}, not null`);
    if (!second || second.status !== 400) problems.push(`responses[1], the invalid request, is not a 400 error`);
    const id = idOf(first?.body);
    if (id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: BATCH_VALIDATION });
    // Whatever the answer said, look for the record itself.
    const list = await env.send({ method: 'GET', route: res.list.path, query: { search: label, per_page: 100 } }, res.list);
    for (const rec of listRecords(jsonBody(list.response)) ?? []) {
      const rid = idOf(rec);
      if (rid === undefined || !JSON.stringify(rec).includes(label)) continue;
      env.ledger.add({ namespace: res.namespace, resource: res.resource, id: rid, itemPath: res.read.path, createdBy: BATCH_VALIDATION });
      problems.push(`the valid request ran although another failed validation: record ${rid} exists`);
    }
  } else {
    for (const [i, it] of [first, second].entries()) if (!it || typeof it.status !== 'number' || it.status < 400) problems.push(`responses[${i}] for a path with no route is not an error`);
  }
  if (problems.length) return emit('fail', `expected 207 {failed: "validation"} with nothing run when one request of a require-all-validate batch is invalid (WordPress convention, serve_batch_request_v1()); got: ${problems.join('; ')}`, e);
  emit('pass', `207 {failed: "validation"}${res ? ' and the valid request did not run' : ' (no batchable calendar route or no credentials: form of the answer only)'}`, e);
}

export function planBatch(contract: Contract): Unit[] {
  const op = contract.operations.find((o) => o.kind === 'batch');
  if (!op) return [];
  return [
    { id: `${BATCH_LIMIT}:${op.id}`, family: BATCH_LIMIT, checks: [BATCH_LIMIT], operations: [op], run: (env) => batchLimit(env, op) },
    { id: `${BATCH_ITEM_STATUS}:${op.id}`, family: BATCH_ITEM_STATUS, checks: [BATCH_ITEM_STATUS], operations: [op], writes: true, run: (env) => itemStatus(env, op) },
    { id: `${BATCH_ITEM_STATUS}:${op.id}:allow-batch`, family: BATCH_ITEM_STATUS, checks: [BATCH_ITEM_STATUS], operations: [op], run: (env) => allowBatchIndex(env, op) },
    { id: `${BATCH_ITEM_STATUS}:${op.id}:not-allowed`, family: BATCH_ITEM_STATUS, checks: [BATCH_ITEM_STATUS], operations: [op], writes: true, run: (env) => notAllowed(env, op) },
    { id: `${BATCH_ITEM_STATUS}:${op.id}:path-query`, family: BATCH_ITEM_STATUS, checks: [BATCH_ITEM_STATUS], operations: [op], writes: true, run: (env) => batchPath(env, op) },
    { id: `${BATCH_VALIDATION}:${op.id}`, family: BATCH_VALIDATION, checks: [BATCH_VALIDATION], operations: [op], writes: true, run: (env) => requireAllValidate(env, op) },
  ];
}
