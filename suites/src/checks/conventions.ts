// WordPress core conventions every WordPress REST server shows, whatever plugins it runs (severity
// convention: they fail the run unless --conventions warn):
// rest_route_equivalence  `/?rest_route=/<route>` answers as `/wp-json/<route>` (A rest_api_loaded L428); a route in
//                         other letter case answers as the route (S match_request_to_handler: the `i` flag); a
//                         namespace index asked `?namespace=<other>` answers as the other's (S get_namespace_index);
//                         `?_pretty` is the same JSON with line breaks, and the compact form escapes `/` and every
//                         character beyond ASCII as wp_json_encode() does (S serve_request, get_json_encode_options).
// method_override         `X-HTTP-Method-Override` and `?_method=` change the method (S serve_request L388).
// cors                    with an Origin, the answer echoes it and allows credentials; preflights are answered
//                         (A rest_send_cors_headers L766).
// error_envelope          (routing) an unknown route, or a known one with a method it lacks, is
//                         404 rest_no_route in the error envelope, never 405 (S match_request_to_handler L1219).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Exchange, Outgoing } from '../http/types.ts';
import { answerDifference } from './kit/compare.ts';
import type { Finding, Unit, UnitEnv } from './kit/unit.ts';
import { ERROR_ENVELOPE } from './error_envelope.ts';
import { goneOrTrashed } from './lifecycle.ts';
import { writeBlocker } from './kit/writes.ts';
import { calendarResources, createOwn } from './kit/resources.ts';
import { describeAnswer, header, transportOutcome, wpError } from './kit/wp.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';
import { jsonBody } from '../http/types.ts';

export const REST_ROUTE_EQUIVALENCE = 'rest_route_equivalence';
export const METHOD_OVERRIDE = 'method_override';
export const CORS = 'cors';

function emitter(env: UnitEnv, check: string, op: Operation | undefined, namespace = '') {
  return (variant: string, outcome: Finding['outcome'], message: string, e?: Exchange): void =>
    env.emit({ check, ...(op ? { operation: op } : { namespace }), variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
}

async function restRoute(env: UnitEnv, op: Operation | undefined, route: string, variant: string): Promise<void> {
  const emit = emitter(env, REST_ROUTE_EQUIVALENCE, op);
  if (env.style === 'rest_route') {
    return emit(variant, 'skip', 'the site is reached through ?rest_route= (--api-root rest_route): its pretty permalinks may be off, so there is no /wp-json form to compare');
  }
  // Read twice at most: a record the run (or another client) writes between the two reads is no difference of the forms'.
  const v = await sameAnswer(env, op, { method: 'GET', route, style: 'pretty' }, { method: 'GET', route, style: 'rest_route' });
  if (v.outcome) return emit(variant, v.outcome, v.message, v.e);
  if (v.diff) return emit(variant, 'fail', `expected ?rest_route=${route} to answer as /wp-json${route} (WordPress convention, rest_api_loaded()), fields derived from the clock aside; it answered with ${v.diff} (${v.message})`, v.e);
  emit(variant, 'pass', `both forms answered ${v.message} with the same body`, v.e);
}

/** Reads `a` and `b` and compares them; once more on a difference, since a record the run writes meanwhile is no difference of theirs. */
async function sameAnswer(env: UnitEnv, op: Operation | undefined, a: Outgoing, b: Outgoing): Promise<{ outcome?: Finding['outcome']; message: string; e: Exchange; diff?: string }> {
  let last: { outcome?: Finding['outcome']; message: string; e: Exchange; diff?: string } | undefined;
  for (let attempt = 0; attempt < 2 && (last === undefined || last.diff !== undefined); attempt++) {
    const first = await env.send(a, op);
    const second = await env.send(b, op);
    for (const e of [first, second]) {
      const t = transportOutcome(e);
      if (t) return { ...t, e };
    }
    const diff = answerDifference(first, second);
    last = { message: describeAnswer(second.response), e: second, ...(diff ? { diff } : {}) };
  }
  return last!;
}

/** The route with its letters in upper case: WordPress matches a route's pattern with the `i` flag (match_request_to_handler()). */
async function routeCase(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitter(env, REST_ROUTE_EQUIVALENCE, op);
  const upper = op.path.toUpperCase();
  const v = await sameAnswer(env, op, { method: 'GET', route: op.path, auth: false }, { method: 'GET', route: upper, auth: false });
  if (v.outcome) return emit('route-case', v.outcome, v.message, v.e);
  if (v.diff) return emit('route-case', 'fail', `expected GET ${upper} to answer as GET ${op.path} (WordPress convention: WP_REST_Server::match_request_to_handler() matches a route's pattern ignoring case), fields derived from the clock aside; it answered with ${v.diff} (${v.message})`, v.e);
  emit('route-case', 'pass', `GET ${upper} answered ${v.message}, as GET ${op.path} does`, v.e);
}

/**
 * A namespace index reads its namespace from $request['namespace'], where the query wins over the route's own default
 * (WP_REST_Server::get_namespace_index(), get_parameter_order(): GET before URL): /<a>?namespace=<b> answers as /<b>,
 * and a namespace the server does not have is 404 rest_invalid_namespace.
 */
async function namespaceParam(env: UnitEnv, a: Operation, b: Operation): Promise<void> {
  const emit = emitter(env, REST_ROUTE_EQUIVALENCE, a);
  const v = await sameAnswer(env, a, { method: 'GET', route: b.path, auth: false }, { method: 'GET', route: a.path, query: { namespace: b.namespace }, auth: false });
  if (v.outcome) emit('namespace-param', v.outcome, v.message, v.e);
  else if (v.diff) emit('namespace-param', 'fail', `expected GET ${a.path}?namespace=${b.namespace} to answer as GET ${b.path} (WordPress convention: WP_REST_Server::get_namespace_index() reads the namespace parameter, the query before the route); it answered with ${v.diff} (${v.message})`, v.e);
  else emit('namespace-param', 'pass', `GET ${a.path}?namespace=${b.namespace} answered ${b.namespace}'s index, as GET ${b.path} does`, v.e);
  const unknown = `site-contracts-${env.runId}`;
  const e = await env.send({ method: 'GET', route: a.path, query: { namespace: unknown }, auth: false }, a);
  const t = transportOutcome(e);
  if (t) return emit('namespace-unknown', t.outcome, t.message, e);
  const err = wpError(e.response);
  if (e.response!.status === 404 && err?.code === 'rest_invalid_namespace') return emit('namespace-unknown', 'pass', `?namespace=${unknown} answered ${describeAnswer(e.response)}`, e);
  emit('namespace-unknown', 'fail', `expected GET ${a.path}?namespace=${unknown} (a namespace no site has) to answer 404 {code: "rest_invalid_namespace"} (WordPress convention: WP_REST_Server::get_namespace_index()); got ${describeAnswer(e.response)}`, e);
}

/** Every string of a parsed answer (keys too) that PHP's json_encode() escapes: a `/` or a character beyond ASCII. */
function escapedStrings(v: unknown, out: string[] = []): string[] {
  const escaped = (x: string): boolean => /[/\u0080-\uffff]/.test(x);
  if (typeof v === 'string') {
    if (escaped(v)) out.push(v);
  } else if (Array.isArray(v)) for (const x of v) escapedStrings(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (escaped(k)) out.push(k);
      escapedStrings(x, out);
    }
  }
  return out;
}

/**
 * The JSON text as WordPress writes it: compact, with `/` as `\/` and every character beyond ASCII as `\uXXXX`
 * (wp_json_encode() with the server's options, 0 unless _pretty), each string of the answer found in the raw body in
 * the form contracts/wordpress/php's wpJsonEncode() gives it; and `?_pretty=1` the same value with line breaks.
 */
async function jsonText(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitter(env, REST_ROUTE_EQUIVALENCE, op);
  const v = await sameAnswer(env, op, { method: 'GET', route: op.path, auth: false }, { method: 'GET', route: op.path, query: { _pretty: 1 }, auth: false });
  if (v.outcome) return emit('pretty', v.outcome, v.message, v.e);
  const pretty = v.e.response!;
  if (v.diff) emit('pretty', 'fail', `expected GET ${op.path}?_pretty=1 to answer the same JSON as without it (WordPress convention: WP_REST_Server::get_json_encode_options() only adds JSON_PRETTY_PRINT); it answered with ${v.diff}`, v.e);
  else if (jsonBody(pretty) !== undefined && !pretty.body.includes('\n')) emit('pretty', 'fail', `expected GET ${op.path}?_pretty=1 to be printed over several lines (WordPress convention: JSON_PRETTY_PRINT, WP_REST_Server::get_json_encode_options()); its ${pretty.body.length} characters hold no line break`, v.e);
  else emit('pretty', 'pass', `?_pretty=1 answered the same JSON over several lines`, v.e);
  const plain = await env.send({ method: 'GET', route: op.path, auth: false }, op);
  const t = transportOutcome(plain);
  if (t) return emit('json-escapes', t.outcome, t.message, plain);
  const r = plain.response!;
  const body = jsonBody(r);
  if (body === undefined || r.bodyCut) return emit('json-escapes', 'skip', `GET ${op.path} answered ${describeAnswer(r)}${r.bodyCut ? ', longer than the client reads' : ', not JSON'}: no JSON text to read`, plain);
  const strings = escapedStrings(body);
  if (strings.length === 0) return emit('json-escapes', 'inconclusive', `GET ${op.path} answered no string holding / or a character beyond ASCII: nothing shows how they are written`, plain);
  const off = strings.find((x) => !r.body.includes(wpJsonEncode(x)));
  if (off !== undefined) return emit('json-escapes', 'fail', `expected the JSON text of GET ${op.path} to write ${JSON.stringify(off).slice(0, 80)} as ${wpJsonEncode(off).slice(0, 80)} (WordPress convention: wp_json_encode() escapes / and every character beyond ASCII); the body does not hold it in that form`, plain);
  emit('json-escapes', 'pass', `${strings.length} strings holding / or a character beyond ASCII, each written as wp_json_encode() writes it`, plain);
}

async function overrideRead(env: UnitEnv, op: Operation, how: 'header' | 'query'): Promise<void> {
  const emit = emitter(env, METHOD_OVERRIDE, op);
  if (env.readOnly) return emit(how, 'skip', '--read-only: the override travels on a POST, which is not sent');
  const plain = await env.send({ method: 'GET', route: op.path }, op);
  const req: Outgoing =
    how === 'header'
      ? { method: 'POST', route: op.path, headers: { 'X-HTTP-Method-Override': 'GET' }, intent: 'probe', auth: false }
      : { method: 'POST', route: op.path, query: { _method: 'GET' }, intent: 'probe', auth: false };
  const over = await env.send(req, op);
  for (const e of [plain, over]) {
    const t = transportOutcome(e);
    if (t) return emit(how, t.outcome, t.message, e);
  }
  // Compared anonymously on both sides: the plain GET went out with credentials if the run has them.
  const plainAnon = env.hasCredentials ? await env.send({ method: 'GET', route: op.path, auth: false }, op) : plain;
  const diff = answerDifference(plainAnon, over);
  const name = how === 'header' ? 'X-HTTP-Method-Override: GET' : '?_method=GET';
  if (diff) return emit(how, 'fail', `expected POST with ${name} to be served as GET (WordPress convention, WP_REST_Server::serve_request()), fields derived from the clock aside; it answered with ${diff} (${describeAnswer(over.response)})`, over);
  emit(how, 'pass', `POST with ${name} is served as GET`, over);
}

async function overrideDelete(env: UnitEnv): Promise<void> {
  const res = calendarResources(env.contract).find((r) => r.namespace === 'cal/v1' && r.resource === 'event') ?? calendarResources(env.contract)[0];
  const emit = emitter(env, METHOD_OVERRIDE, res?.delete);
  const why = writeBlocker(env) ?? (res ? undefined : 'the contract has no writable calendar resource');
  if (why || !res) return emit('delete', 'skip', why ?? '');
  if (!env.descriptor.byKey.size || !liveServes(env, res.create)) return emit('delete', 'skip', `the target does not list ${res.create.path}`);
  const { record, exchange } = await createOwn(env, res, `${METHOD_OVERRIDE}:delete`, 'method override');
  if (!record) return emit('delete', 'skip', `could not create a record to delete: ${describeAnswer(exchange.response)}`, exchange);
  const route = res.delete.path.replace('{id}', String(record.id));
  const force = res.delete.params.some((p) => p.name === 'force') ? { force: true } : undefined;
  const e = await env.send({ method: 'POST', route, headers: { 'X-HTTP-Method-Override': 'DELETE' }, ...(force ? { query: force } : {}), intent: 'write' }, res.delete);
  const t = transportOutcome(e);
  if (t) return emit('delete', t.outcome, t.message, e);
  const after = await env.send({ method: 'GET', route: res.read.path.replace('{id}', String(record.id)) }, res.read);
  const r = e.response!;
  const gone = after.response !== undefined && goneOrTrashed(after, true).pass;
  if (r.status >= 200 && r.status < 300 && gone) {
    return emit('delete', 'pass', `POST with X-HTTP-Method-Override: DELETE deleted record ${record.id}`, e);
  }
  emit('delete', 'fail', `expected POST with X-HTTP-Method-Override: DELETE to delete record ${record.id} (WordPress convention, WP_REST_Server::serve_request()); it answered ${describeAnswer(r)}, and the record ${gone ? 'is gone' : 'is still there'}`, e);
}

function liveServes(env: UnitEnv, op: Operation): boolean {
  return [...env.descriptor.byKey.values()].some((r) => r.template.toLowerCase() === op.path.toLowerCase() && r.methods.includes(op.method));
}

const ORIGIN = 'https://site-contracts.example';

/** A header holding a comma-separated list of names (Access-Control-Expose-Headers...), each lower-cased, exactly. */
function headerList(value: string | undefined): string[] {
  return (value ?? '').split(',').map((x) => x.trim().toLowerCase()).filter((x) => x !== '');
}

export function corsProblems(r: Exchange['response']): string[] {
  const problems: string[] = [];
  const h = (n: string): string => header(r, n) ?? '';
  const raw = (n: string): string => JSON.stringify(header(r, n) ?? null);
  if (h('access-control-allow-origin') !== ORIGIN) problems.push(`Access-Control-Allow-Origin is ${raw('access-control-allow-origin')}, not the request's Origin`);
  // Each list is read item by item: X-WP-TotalPages does not name X-WP-Total.
  const lacks = (name: string, wanted: readonly string[]): void => {
    const have = headerList(header(r, name));
    const missing = wanted.filter((x) => !have.includes(x.toLowerCase()));
    if (missing.length) problems.push(`${name} is ${raw(name)}: it does not name ${missing.join(', ')}`);
  };
  lacks('Access-Control-Allow-Methods', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  if (h('access-control-allow-credentials').toLowerCase() !== 'true') problems.push(`Access-Control-Allow-Credentials is ${raw('access-control-allow-credentials')}, not true`);
  if (!headerList(header(r, 'vary')).includes('origin')) problems.push(`Vary is ${raw('vary')}: it does not name Origin`);
  lacks('Access-Control-Expose-Headers', ['X-WP-Total', 'X-WP-TotalPages', 'Link']);
  lacks('Access-Control-Allow-Headers', ['Authorization', 'Content-Type']);
  return problems;
}

async function cors(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitter(env, CORS, op);
  const simple = await env.send({ method: 'GET', route: op.path, headers: { Origin: ORIGIN }, auth: false }, op);
  const preflight = await env.send(
    { method: 'OPTIONS', route: op.path, headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' }, auth: false },
    op,
  );
  for (const [variant, e] of [['simple', simple], ['preflight', preflight]] as const) {
    const t = transportOutcome(e);
    if (t) {
      emit(variant, t.outcome, t.message, e);
      continue;
    }
    const problems = corsProblems(e.response);
    if (variant === 'preflight' && e.response!.status !== 200) problems.unshift(`the preflight answered ${describeAnswer(e.response)}, not 200`);
    emit(variant, problems.length ? 'fail' : 'pass', problems.length ? `expected an Origin to be answered as WordPress does (WordPress convention, rest_send_cors_headers()); got: ${problems.join('; ')}` : 'CORS headers as WordPress sends them', e);
  }
}

async function routing(env: UnitEnv, root: Operation | undefined): Promise<void> {
  const emit = emitter(env, ERROR_ENVELOPE, root);
  const check = (variant: string, e: Exchange, what: string): void => {
    const t = transportOutcome(e);
    if (t) return emit(variant, t.outcome, t.message, e);
    const r = e.response!;
    const err = wpError(r);
    if (r.status === 404 && err?.code === 'rest_no_route' && err.data?.['status'] === 404) return emit(variant, 'pass', `${what}: 404 rest_no_route`, e);
    emit(variant, 'fail', `expected 404 {code: "rest_no_route", data: {status: 404}} for ${what}, never 405 (WordPress convention, WP_REST_Server::match_request_to_handler()); got ${describeAnswer(r)}${err ? ` with data.status ${JSON.stringify(err.data?.['status'] ?? null)}` : ''}`, e);
  };
  check('no_route', await env.send({ method: 'GET', route: `/site-contracts-${env.runId}/no-such-route` }, root), 'an unknown route');
  if (env.readOnly) return emit('wrong_method', 'skip', '--read-only: DELETE is not sent');
  check('wrong_method', await env.send({ method: 'DELETE', route: '/', intent: 'probe', auth: false }, root), 'DELETE on the REST root, which serves only GET');
}

export function planConventions(contract: Contract): Unit[] {
  const root = contract.operations.find((o) => o.kind === 'root');
  const indexes = contract.operations.filter((o) => o.kind === 'index' && o.method === 'GET');
  const firstList = new Map<string, Operation>();
  for (const o of contract.operations) if (o.kind === 'list' && o.method === 'GET' && !firstList.has(o.namespace)) firstList.set(o.namespace, o);
  const units: Unit[] = [];
  for (const op of [...(root ? [root] : []), ...indexes, ...firstList.values()]) {
    units.push({ id: `${REST_ROUTE_EQUIVALENCE}:${op.id}`, family: REST_ROUTE_EQUIVALENCE, checks: [REST_ROUTE_EQUIVALENCE], operations: [op], run: (env) => restRouteUnit(env, op) });
  }
  // One pair of namespace indexes is enough: get_namespace_index() is one function whatever the namespace.
  const [a, b] = [indexes.find((o) => o.namespace === 'cal/events/v1'), indexes.find((o) => o.namespace === 'cal/v1')].every(Boolean)
    ? [indexes.find((o) => o.namespace === 'cal/events/v1')!, indexes.find((o) => o.namespace === 'cal/v1')!]
    : [indexes[0], indexes[1]];
  if (a && b) units.push({ id: `${REST_ROUTE_EQUIVALENCE}:namespace-param`, family: REST_ROUTE_EQUIVALENCE, checks: [REST_ROUTE_EQUIVALENCE], operations: [a, b], run: (env) => namespaceParam(env, a, b) });
  if (root) {
    units.push({ id: `${METHOD_OVERRIDE}:${root.id}`, family: METHOD_OVERRIDE, checks: [METHOD_OVERRIDE], operations: [root], run: async (env) => { await overrideRead(env, root, 'header'); await overrideRead(env, root, 'query'); } });
    units.push({ id: `${ERROR_ENVELOPE}:routing`, family: ERROR_ENVELOPE, checks: [ERROR_ENVELOPE], operations: [root], run: (env) => routing(env, root) });
  }
  const deleteRes = calendarResources(contract).find((r) => r.namespace === 'cal/v1' && r.resource === 'event');
  if (deleteRes) {
    units.push({ id: `${METHOD_OVERRIDE}:delete`, family: METHOD_OVERRIDE, checks: [METHOD_OVERRIDE], operations: [deleteRes.create, deleteRes.delete, deleteRes.read], writes: true, run: overrideDelete });
  }
  for (const op of [...(root ? [root] : []), ...firstList.values()]) {
    units.push({ id: `${CORS}:${op.id}`, family: CORS, checks: [CORS], operations: [op], run: (env) => cors(env, op) });
  }
  return units;
}

async function restRouteUnit(env: UnitEnv, op: Operation): Promise<void> {
  await restRoute(env, op, op.path, 'same-answer');
  if (op.kind === 'root') await restRoute(env, op, `/site-contracts-${env.runId}/no-such-route`, 'no_route');
  if (op.kind === 'list') {
    await routeCase(env, op);
    await jsonText(env, op);
  }
}
