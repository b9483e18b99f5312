// options              OPTIONS on a route answers 200 with the route's description: its namespace, its methods (every
//                      documented one, and the same list the descriptor gives), its endpoints with their args, and,
//                      on the calendar's record routes, the item `schema` (WordPress convention,
//                      rest_handle_options_request() → get_data_for_route($route, $endpoints, 'help'); sample 51).
//                      A schema is what WP_REST_Controller registers with every route (cal/v1's records are posts);
//                      whether the legacy namespace's controllers register one the documents do not say, so its
//                      absence there only warns (assumed).
// undocumented_method  a method the documents say a route does not have is answered 404 rest_no_route, as WordPress
//                      answers every method a route lacks (S match_request_to_handler(), never 405): "This namespace
//                      offers no POST on {id} routes" (000 §4.2). Sent without credentials, to an id no site has,
//                      with an empty body: a site that wrongly serves it refuses or misses the record, nothing changes.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonBody, type Exchange, type Received } from '../http/types.ts';
import { fillTemplate } from '../http/target.ts';
import type { Severity } from '../report/model.ts';
import type { Outcome } from '../report/policy.ts';
import { liveEndpoint, templateKey } from '../diff/descriptor.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { UNUSED_ID, UNUSED_SLUG } from './kit/probes.ts';
import { calendarResources } from './kit/resources.ts';
import { describeAnswer, isNoRoute, sourceOf, transportOutcome, wpError } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

export const OPTIONS = 'options';
export const UNDOCUMENTED_METHOD = 'undocumented_method';

interface OptionsExpectation {
  namespace: string;
  /** Every method the documents give the route. */
  documented: string[];
  /** The route's methods as the target's descriptor lists them (undefined: it does not list the route). */
  listed?: string[];
  /** Whether a schema is expected, and how sure that is. */
  schema?: Severity;
  /** The record route the posts controller's action links aim at (`/cal/v1/events/{id}`): its schema carries them. */
  actionLinks?: string;
}

/**
 * What is wrong with the schema's action links (WP_REST_Posts_Controller::get_schema_links()): the publish action, whose
 * target schema says which statuses publishing means, aimed at the record route; undefined when it is there.
 */
function actionLinkProblem(schema: unknown, recordRoute: string): string | undefined {
  const links = isPlainObject(schema) && Array.isArray(schema['links']) ? schema['links'] : undefined;
  if (!links) return `the item schema has no links (it is ${JSON.stringify(isPlainObject(schema) ? schema['links'] ?? '(absent)' : '(absent)')})`;
  const publish = links.find((l) => isPlainObject(l) && l['rel'] === 'https://api.w.org/action-publish');
  if (!isPlainObject(publish)) return `schema.links has no rel https://api.w.org/action-publish (rels: ${links.map((l) => (isPlainObject(l) ? String(l['rel']) : '?')).join(', ') || 'none'})`;
  const target = publish['targetSchema'];
  const status = isPlainObject(target) && isPlainObject(target['properties']) ? target['properties']['status'] : undefined;
  const statuses = isPlainObject(status) && Array.isArray(status['enum']) ? status['enum'] : undefined;
  if (JSON.stringify(statuses) !== JSON.stringify(['publish', 'future'])) return `the action-publish link's targetSchema.properties.status.enum is ${JSON.stringify(statuses ?? '(absent)')}, not ["publish","future"]`;
  const href = typeof publish['href'] === 'string' ? publish['href'] : '';
  if (!href.endsWith(recordRoute)) return `the action-publish link's href ${JSON.stringify(href)} does not end with ${recordRoute}`;
  return undefined;
}

/** What is wrong with an OPTIONS answer, each with what was expected and what came; and the severity of the worst. */
function optionsProblems(r: Received, want: OptionsExpectation): { problems: string[]; severity: Severity } {
  const problems: string[] = [];
  let severity: Severity = 'convention';
  const b = jsonBody(r);
  if (r.status !== 200) problems.push(`status ${r.status} (${describeAnswer(r)}), not 200`);
  if (!isPlainObject(b)) return { problems: [...problems, `the body is not the route's description (a JSON object): ${JSON.stringify(r.body.slice(0, 60))}`], severity };
  if (b['namespace'] !== want.namespace) problems.push(`namespace ${JSON.stringify(b['namespace'] ?? '(absent)')}, not ${JSON.stringify(want.namespace)}`);
  const methods = Array.isArray(b['methods']) ? b['methods'].filter((m): m is string => typeof m === 'string').map((m) => m.toUpperCase()) : undefined;
  if (!methods) problems.push('there is no methods list');
  else {
    const missing = want.documented.filter((m) => !methods.includes(m));
    if (missing.length) {
      problems.push(`methods [${methods.join(', ')}] lack the documented ${missing.join(', ')}`);
      severity = 'documented';
    }
    if (want.listed && [...new Set(methods)].sort().join() !== [...new Set(want.listed)].sort().join()) problems.push(`methods [${methods.join(', ')}] where the descriptor lists [${want.listed.join(', ')}]`);
  }
  const endpoints = Array.isArray(b['endpoints']) ? b['endpoints'] : undefined;
  if (!endpoints || endpoints.length === 0) problems.push('there are no endpoints');
  else {
    // A route without arguments prints its args as an empty PHP array: `[]` (get_data_for_route(); core's own routes do).
    const argsMap = (v: unknown): boolean => isPlainObject(v) || (Array.isArray(v) && v.length === 0);
    const bad = endpoints.findIndex((e) => !isPlainObject(e) || !Array.isArray(e['methods']) || !argsMap(e['args']));
    if (bad >= 0) problems.push(`endpoints[${bad}] is not {methods, args}: ${JSON.stringify(endpoints[bad]).slice(0, 60)}`);
  }
  if (want.schema && !isPlainObject(b['schema'])) {
    problems.push(`there is no item schema (schema is ${JSON.stringify(b['schema'] ?? '(absent)')})`);
    if (problems.length === 1) severity = want.schema;
  } else if (want.actionLinks) {
    const p = actionLinkProblem(b['schema'], want.actionLinks);
    if (p) problems.push(p);
  }
  return { problems, severity };
}

/** The routes OPTIONS is sent to: the root, the calendar's record routes (list and by id), and each namespace's first list. */
function optionsSubjects(contract: Contract): { op: Operation; schema?: Severity; actionLinks?: string }[] {
  const out = new Map<string, { op: Operation; schema?: Severity; actionLinks?: string }>();
  const root = contract.operations.find((o) => o.kind === 'root');
  if (root) out.set(root.path, { op: root });
  for (const r of calendarResources(contract)) {
    const schema: Severity = r.namespace === 'cal/v1' ? 'convention' : 'assumed';
    // cal/v1's records are core's posts controller's (000 §2.5), whose item schema carries the action links.
    for (const op of [r.list, r.read]) out.set(op.path, { op, schema, ...(r.namespace === 'cal/v1' ? { actionLinks: r.read.path } : {}) });
  }
  for (const o of contract.operations) if (o.kind === 'list' && o.method === 'GET' && !out.has(o.path)) out.set(o.path, { op: o });
  return [...out.values()];
}

async function options(env: UnitEnv, op: Operation, schema: Severity | undefined, actionLinks: string | undefined): Promise<void> {
  const listed = env.descriptor.byKey.get(templateKey(op.path))?.methods;
  // A route the target does not have has no description to read (route_presence and descriptor_routes say so).
  if (!listed && env.descriptor.byKey.size > 0) return env.emit({ check: OPTIONS, operation: op, variant: 'route', severity: 'convention', outcome: 'skip', message: `the target's descriptor does not list ${op.path} (see route_presence and descriptor_routes)` });
  const e = await env.send({ method: 'OPTIONS', route: fillTemplate(op.path, { id: UNUSED_ID, slug: UNUSED_SLUG }), auth: false }, op);
  const emit = (outcome: Outcome, severity: Severity, message: string): void => env.emit({ check: OPTIONS, operation: op, variant: 'route', severity, outcome, message, exchange: e });
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, 'convention', t.message);
  const documented = [...new Set(env.contract.operations.filter((o) => o.path === op.path).map((o) => o.method))];
  const { problems, severity } = optionsProblems(e.response!, { namespace: op.namespace, documented, ...(listed ? { listed } : {}), ...(schema ? { schema } : {}), ...(actionLinks ? { actionLinks } : {}) });
  const what = `${schema ? ' and item schema' : ''}${actionLinks ? ' with the posts controller\'s action links (get_schema_links())' : ''}`;
  if (problems.length) return emit('fail', severity, `expected OPTIONS ${op.path} to answer 200 with the route's namespace, methods (documented: ${documented.join(', ')}; ${sourceOf(op)}), endpoints${what} (WordPress convention, rest_handle_options_request()); got ${problems.join('; ')}`);
  emit('pass', 'convention', `200 with namespace ${op.namespace || '(root)'}, methods [${documented.join(', ')}], endpoints${what}`);
}

/** OPTIONS on a path no route matches answers 200 with an empty body `[]` and no Allow (rest_handle_options_request()). */
async function optionsNoRoute(env: UnitEnv, root: Operation): Promise<void> {
  const route = `/site-contracts-${env.runId}/no-such-route`;
  const e = await env.send({ method: 'OPTIONS', route, auth: false }, root);
  const emit = (outcome: Outcome, message: string): void => env.emit({ check: OPTIONS, operation: root, variant: 'no_route', severity: 'convention', outcome, message, exchange: e });
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message);
  const r = e.response!;
  const problems: string[] = [];
  if (r.status !== 200) problems.push(`status ${r.status} (${describeAnswer(r)}), not 200`);
  const b = jsonBody(r);
  if (!Array.isArray(b) || b.length !== 0) problems.push(`the body is ${JSON.stringify(r.body.slice(0, 60))}, not []`);
  if (r.headers['allow'] !== undefined) problems.push(`Allow ${JSON.stringify(r.headers['allow'])} is sent for a route that does not exist`);
  if (problems.length) return emit('fail', `expected OPTIONS ${route} (no such route) to answer 200 [] without Allow (WordPress convention, rest_handle_options_request() answers before routing, with the empty data of no route); got ${problems.join('; ')}`);
  emit('pass', 'OPTIONS on a path without a route answered 200 [] without Allow');
}

/** Routes whose documents deny a method, and the method: cal/v1's `{id}` routes have no POST (000 §4.2). */
export function undocumentedMethods(contract: Contract): { op: Operation; method: 'POST' }[] {
  const out: { op: Operation; method: 'POST' }[] = [];
  const seen = new Set<string>();
  for (const o of contract.operations) {
    if (o.namespace !== 'cal/v1' || !/\{id\}$/.test(o.path) || seen.has(o.path)) continue;
    seen.add(o.path);
    if (!contract.operations.some((x) => x.path === o.path && x.method === 'POST')) out.push({ op: o, method: 'POST' });
  }
  return out;
}

async function undocumented(env: UnitEnv, op: Operation, method: 'POST'): Promise<void> {
  const base = { check: UNDOCUMENTED_METHOD, operation: op, method, variant: method, severity: 'documented' as const };
  if (env.readOnly) return env.emit({ ...base, outcome: 'skip', message: `--read-only: ${method} is not sent` });
  const route = fillTemplate(op.path, { id: UNUSED_ID });
  const e: Exchange = await env.send({ method, route, body: { kind: 'json', value: {} }, intent: 'probe', auth: false }, op);
  const t = transportOutcome(e);
  if (t) return env.emit({ ...base, ...t, exchange: e });
  const r = e.response!;
  if (isNoRoute(r) && wpError(r)?.data?.['status'] === 404) return env.emit({ ...base, outcome: 'pass', message: `${method} ${op.path} answered 404 rest_no_route`, exchange: e });
  // The descriptor may already say so: a route that lists the method serves it.
  const listed = liveEndpoint(env.descriptor, op.path, method) ? `; the target's descriptor lists ${method} there too` : '';
  env.emit({ ...base, outcome: 'fail', message: `expected 404 rest_no_route for ${method} ${op.path} ("This namespace offers no POST on {id} routes", 000 §4.2; WordPress answers a method a route lacks 404 rest_no_route, never 405); got ${describeAnswer(r)}${listed}`, exchange: e });
}

export function planOptions(contract: Contract): Unit[] {
  const units: Unit[] = optionsSubjects(contract).map(({ op, schema, actionLinks }) => ({ id: `${OPTIONS}:${op.path}`, family: OPTIONS, checks: [OPTIONS], operations: [op], run: (env) => options(env, op, schema, actionLinks) }));
  const root = contract.operations.find((o) => o.kind === 'root');
  if (root) units.push({ id: `${OPTIONS}:no_route`, family: OPTIONS, checks: [OPTIONS], operations: [root], run: (env) => optionsNoRoute(env, root) });
  for (const { op, method } of undocumentedMethods(contract)) {
    units.push({ id: `${UNDOCUMENTED_METHOD}:${method} ${op.path}`, family: UNDOCUMENTED_METHOD, checks: [UNDOCUMENTED_METHOD], operations: [op], run: (env) => undocumented(env, op, method) });
  }
  return units;
}
