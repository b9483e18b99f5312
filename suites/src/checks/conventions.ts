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
import { SIGNED_IN_BY_HEADERS, type Finding, type Unit, type UnitEnv } from './kit/unit.ts';
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

/** The same root reached through index.php's PATH_INFO (`/wp-json` → `/index.php/wp-json`); undefined for a language's root. */
function indexPhpRoot(apiRoot: string | undefined): string | undefined {
  const m = /^(.*)\/wp-json$/.exec(apiRoot ?? '/wp-json');
  if (!m || /\/[a-z]{2}$/.test(m[1]!)) return undefined;
  return `${m[1]}/index.php/wp-json`;
}

/** A route with the first letter of each segment in capitals: `/cal/v1/events` → `/Cal/V1/Events`. */
function otherCase(route: string): string {
  return route.replace(/\/([a-z])/g, (_m, c: string) => `/${c.toUpperCase()}`);
}

/**
 * One request by another address, compared with the same request by `/wp-json` (status and body, clock aside):
 * `?rest_route=` (rest_api_loaded()), `/index.php/wp-json/...` (the second rewrite rule of rest_api_register_rewrites()),
 * and the route in other letters (match_request_to_handler() matches with `@^route$@i`).
 */
async function restRoute(env: UnitEnv, op: Operation | undefined, route: string, variant: string, forms: readonly ('rest_route' | 'index_php' | 'case')[]): Promise<void> {
  const emit = emitter(env, REST_ROUTE_EQUIVALENCE, op);
  if (env.style === 'rest_route') {
    for (const form of forms) emit(form === 'rest_route' ? variant : `${variant}:${form}`, 'skip', 'the site is reached through ?rest_route= (--api-root rest_route): its pretty permalinks may be off, so there is no /wp-json form to compare');
    return;
  }
  // Each pair of reads is one reading of the list: no write of the run lands between them (steady.ts).
  await env.steady(op ? [op] : [], async () => {
    const pretty = await env.send({ method: 'GET', route, style: 'pretty' }, op);
    for (const form of forms) {
      const v = form === 'rest_route' ? variant : `${variant}:${form}`;
      const indexRoot = indexPhpRoot(env.apiRoot);
      if (form === 'index_php' && !indexRoot) {
        emit(v, 'skip', `the API root ${env.apiRoot} carries a language segment: there is no index.php form of it to compare`);
        continue;
      }
      const other =
        form === 'rest_route'
          ? await env.send({ method: 'GET', route, style: 'rest_route' }, op)
          : form === 'index_php'
            ? await env.send({ method: 'GET', route, style: 'pretty', apiRoot: indexRoot! }, op)
            : await env.send({ method: 'GET', route: otherCase(route), style: 'pretty' }, op);
      const t = transportOutcome(pretty) ?? transportOutcome(other);
      if (t) {
        emit(v, t.outcome, t.message, transportOutcome(pretty) ? pretty : other);
        continue;
      }
      const how = {
        rest_route: [`?rest_route=${route}`, 'rest_api_loaded()'],
        index_php: [`${indexRoot}${route}`, 'rest_api_register_rewrites(): the index.php rule'],
        case: [`${env.apiRoot ?? '/wp-json'}${otherCase(route)}`, 'WP_REST_Server::match_request_to_handler() matches routes case-insensitively'],
      }[form];
      const diff = answerDifference(pretty, other);
      if (diff) {
        emit(v, 'fail', `expected ${how[0]} to answer as /wp-json${route} (WordPress convention, ${how[1]}), fields derived from the clock aside; it answered with ${diff} (pretty form: ${describeAnswer(pretty.response)})`, other);
        continue;
      }
      emit(v, 'pass', `${how[0]} answered ${describeAnswer(other.response)} with the same body as /wp-json${route}`, other);
    }
  });
}

async function overrideRead(env: UnitEnv, op: Operation, how: 'header' | 'query' | 'query-lower'): Promise<void> {
  const emit = emitter(env, METHOD_OVERRIDE, op);
  if (env.readOnly) return emit(how, 'skip', '--read-only: the override travels on a POST, which is not sent');
  // WP_REST_Request::set_method() upper-cases what it is given: `_method=get` is GET.
  const req: Outgoing =
    how === 'header'
      ? { method: 'POST', route: op.path, headers: { 'X-HTTP-Method-Override': 'GET' }, intent: 'probe', auth: false }
      : { method: 'POST', route: op.path, query: { _method: how === 'query' ? 'GET' : 'get' }, intent: 'probe', auth: false };
  // Compared anonymously on both sides: the plain GET goes out with credentials if the run has them.
  const [plain, over, plainAnon] = await env.steady([op], async () => {
    const p = await env.send({ method: 'GET', route: op.path }, op);
    const o = await env.send(req, op);
    return [p, o, env.hasCredentials ? await env.send({ method: 'GET', route: op.path, auth: false }, op) : p] as const;
  });
  for (const e of [plain, over]) {
    const t = transportOutcome(e);
    if (t) return emit(how, t.outcome, t.message, e);
  }
  const diff = answerDifference(plainAnon, over);
  const name = { header: 'X-HTTP-Method-Override: GET', query: '?_method=GET', 'query-lower': '?_method=get' }[how];
  const where = how === 'query-lower' ? 'WP_REST_Request::set_method() upper-cases the method' : 'WP_REST_Server::serve_request()';
  if (diff) return emit(how, 'fail', `expected POST with ${name} to be served as GET (WordPress convention, ${where}), fields derived from the clock aside; it answered with ${diff} (${describeAnswer(over.response)})`, over);
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
  // serve_request()'s whole list (rest_allowed_cors_headers): a browser's preflight for a nonce-signed or uploading
  // request asks for X-WP-Nonce, Content-Disposition or Content-MD5, and fails without them. A plugin may add more.
  lacks('Access-Control-Allow-Headers', ['Authorization', 'X-WP-Nonce', 'Content-Disposition', 'Content-MD5', 'Content-Type']);
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
  // Without an Origin an anonymous GET still says Vary: Origin, so a cache keeps the CORS and the plain answers apart.
  // Only an anonymous one: rest_send_cors_headers() leaves Vary out for a signed-in user's GET.
  const plain = env.headersSignIn ? undefined : await env.send({ method: 'GET', route: op.path, auth: false }, op);
  const tp = plain && transportOutcome(plain);
  if (!plain) emit('vary', 'skip', SIGNED_IN_BY_HEADERS);
  else if (tp) emit('vary', tp.outcome, tp.message, plain);
  else if (!headerList(header(plain.response, 'vary')).includes('origin')) emit('vary', 'fail', `expected an anonymous GET without Origin to be answered Vary: Origin (WordPress convention, rest_send_cors_headers()); Vary is ${JSON.stringify(header(plain.response, 'vary') ?? null)}`, plain);
  else emit('vary', 'pass', 'Vary names Origin without an Origin too', plain);
  if (op.kind !== 'root') return;
  // A page opened from file:// or data: sends Origin: null, which WordPress echoes as the literal null.
  const nul = await env.send({ method: 'GET', route: op.path, headers: { Origin: 'null' }, auth: false }, op);
  const tn = transportOutcome(nul);
  if (tn) return emit('null', tn.outcome, tn.message, nul);
  const problems: string[] = [];
  if (header(nul.response, 'access-control-allow-origin') !== 'null') problems.push(`Access-Control-Allow-Origin is ${JSON.stringify(header(nul.response, 'access-control-allow-origin') ?? null)}, not "null"`);
  if ((header(nul.response, 'access-control-allow-credentials') ?? '').toLowerCase() !== 'true') problems.push(`Access-Control-Allow-Credentials is ${JSON.stringify(header(nul.response, 'access-control-allow-credentials') ?? null)}, not true`);
  if (problems.length) return emit('null', 'fail', `expected Origin: null to be echoed as null with credentials allowed (WordPress convention, rest_send_cors_headers()); got ${problems.join('; ')}`, nul);
  emit('null', 'pass', 'Origin: null answered Access-Control-Allow-Origin: null, credentials allowed', nul);
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
  if (root) {
    units.push({ id: `${METHOD_OVERRIDE}:${root.id}`, family: METHOD_OVERRIDE, checks: [METHOD_OVERRIDE], operations: [root], run: async (env) => { await overrideRead(env, root, 'header'); await overrideRead(env, root, 'query'); await overrideRead(env, root, 'query-lower'); } });
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
  // The root has no letters to change; every route is also reached through index.php.
  await restRoute(env, op, op.path, 'same-answer', op.kind === 'root' ? ['rest_route', 'index_php'] : ['rest_route', 'index_php', 'case']);
  if (op.kind === 'root') await restRoute(env, op, `/site-contracts-${env.runId}/no-such-route`, 'no_route', ['rest_route']);
}
