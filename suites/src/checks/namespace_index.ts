// namespace_index: a namespace's index reads `namespace` from the request (WordPress convention,
// WP_REST_Server::get_namespace_index(): `$request['namespace']`, whose default is the route's own namespace, so a
// `?namespace=` of the query names another; checked on WordPress 6.1.9, the CI sites). Core registers the index of
// every namespace, a plugin's own controllers' too, so it holds in every namespace of the documents.
// - `GET {ns}?namespace=<another namespace the descriptor lists>` answers that namespace's index, as `GET {other}`;
// - `GET {ns}?namespace=site-contracts-<run>-none` answers 404 rest_invalid_namespace.
// Subjects: the index of each calendar namespace; anonymous. The other namespace is `oembed/1.0` where the
// descriptor lists it (every WordPress has it), else the first it lists beside the subject.
// - `routes`, in every namespace of the contract (add-ons too): the index and the descriptor describe one set of
//   routes, as get_index() and get_namespace_index() both build them with get_data_for_routes(): `GET {ns}` answers
//   namespace `{ns}` and exactly the routes the descriptor gives that namespace; the descriptor lists `{ns}` among
//   its namespaces; each of those routes lies under `/{ns}` and its methods are its endpoints' methods together
//   (get_data_for_route() merges them).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { answerDifference } from './kit/compare.ts';
import { CALENDAR_NAMESPACES } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome, wpError } from './kit/wp.ts';

export const NAMESPACE_INDEX = 'namespace_index';

async function namespaceIndex(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: NAMESPACE_INDEX, operation: op, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const own = op.namespace;
  const others = env.descriptor.namespaces.filter((n) => n !== own);
  const other = others.includes('oembed/1.0') ? 'oembed/1.0' : others[0];
  if (!other) emit('other', 'inconclusive', `the descriptor lists no namespace beside ${own} to name`);
  else {
    const plain = await env.send({ method: 'GET', route: `/${other}`, auth: false }, op);
    const asked = await env.send({ method: 'GET', route: op.path, query: { namespace: other }, auth: false }, op);
    const t = transportOutcome(plain) ?? transportOutcome(asked);
    if (t) emit('other', t.outcome, t.message, transportOutcome(plain) ? plain : asked);
    else if (plain.response!.status !== 200) emit('other', 'inconclusive', `GET /${other} answered ${describeAnswer(plain.response)}: there is no index to compare with`, plain);
    else {
      const diff = answerDifference(plain, asked);
      const b = jsonBody(asked.response);
      const named = isPlainObject(b) ? b['namespace'] : undefined;
      if (diff) emit('other', 'fail', `expected GET ${op.path}?namespace=${other} to answer the index of ${other}, as GET /${other} (WordPress convention, WP_REST_Server::get_namespace_index() reads $request['namespace']); it answered with ${diff} (namespace ${JSON.stringify(named ?? null)})`, asked);
      else emit('other', 'pass', `?namespace=${other} answered the index of ${other}`, asked);
    }
  }
  const none = `site-contracts-${env.runId}-none`;
  const e = await env.send({ method: 'GET', route: op.path, query: { namespace: none }, auth: false }, op);
  const t = transportOutcome(e);
  if (t) return emit('none', t.outcome, t.message, e);
  const err = wpError(e.response);
  if (e.response!.status !== 404 || err?.code !== 'rest_invalid_namespace') {
    return emit('none', 'fail', `expected GET ${op.path}?namespace=${none} (a namespace no site has) to answer 404 rest_invalid_namespace (WordPress convention, WP_REST_Server::get_namespace_index()); it answered ${describeAnswer(e.response)}`, e);
  }
  emit('none', 'pass', `?namespace=${none} answered 404 rest_invalid_namespace`, e);
}

type RouteEntry = { namespace?: unknown; methods?: unknown; endpoints?: unknown };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** What is wrong with a route's entry of namespace `ns` (descriptor or index alike), as get_data_for_route() builds it. */
function entryProblems(where: string, key: string, entry: RouteEntry, ns: string): string[] {
  const problems: string[] = [];
  if (entry.namespace !== ns) problems.push(`${where}'s ${key} has namespace ${JSON.stringify(entry.namespace ?? null)}, not "${ns}"`);
  if (key !== `/${ns}` && !key.startsWith(`/${ns}/`)) problems.push(`${where}'s ${key} does not lie under /${ns}`);
  const endpoints = Array.isArray(entry.endpoints) ? entry.endpoints : [];
  const union = [...new Set(endpoints.flatMap((e) => (isPlainObject(e) ? strings(e['methods']) : [])))].sort();
  const methods = [...new Set(strings(entry.methods))].sort();
  if (union.join() !== methods.join()) problems.push(`${where}'s ${key} lists methods [${methods.join(', ')}] where its endpoints serve [${union.join(', ')}]`);
  return problems;
}

/** `routes`: GET {ns} (anonymous) against the descriptor's routes of {ns}, and those routes against the descriptor's namespaces. */
async function indexRoutes(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: NAMESPACE_INDEX, operation: op, variant: 'routes', severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const ns = op.namespace;
  const raw = isPlainObject(env.descriptor.raw['routes']) ? (env.descriptor.raw['routes'] as Record<string, unknown>) : {};
  const described = Object.entries(raw).filter(([, r]) => isPlainObject(r) && r['namespace'] === ns) as [string, RouteEntry][];
  const listed = env.descriptor.namespaces.includes(ns);
  if (!listed && described.length === 0) return emit('inconclusive', `the descriptor neither lists ${ns} nor has a route of it: the site does not have this namespace`);
  const e = await env.send({ method: 'GET', route: op.path, auth: false }, op);
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message, e);
  const b = jsonBody(e.response);
  if (e.response!.status !== 200 || !isPlainObject(b)) return emit('inconclusive', `GET ${op.path} answered ${describeAnswer(e.response)}: there is no index to compare with the descriptor`, e);
  const problems: string[] = [];
  if (!listed) problems.push(`the descriptor's namespaces leave out ${ns}, which ${described.length} of its routes name`);
  for (const [key, entry] of described) problems.push(...entryProblems('the descriptor', key, entry, ns));
  if (b['namespace'] !== ns) problems.push(`the index says namespace ${JSON.stringify(b['namespace'] ?? null)}, not "${ns}"`);
  const routes = isPlainObject(b['routes']) ? (b['routes'] as Record<string, unknown>) : {};
  const mine = new Set(described.map(([k]) => k));
  const extra = Object.keys(routes).filter((k) => !mine.has(k));
  const missing = [...mine].filter((k) => !(k in routes));
  if (extra.length) problems.push(`the index lists ${extra.slice(0, 3).join(', ')}${extra.length > 3 ? ` and ${extra.length - 3} more` : ''}, which the descriptor does not give ${ns}`);
  if (missing.length) problems.push(`the index leaves out ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''}, which the descriptor gives ${ns}`);
  for (const [key, entry] of Object.entries(routes)) if (mine.has(key) && isPlainObject(entry)) problems.push(...entryProblems('the index', key, entry, ns));
  if (problems.length) {
    return emit('fail', `expected GET ${op.path} and the descriptor to describe the same routes of ${ns}, each under /${ns} with its endpoints' methods, and the descriptor to list ${ns} (WordPress convention, WP_REST_Server::get_namespace_index(), get_index() and get_data_for_route()); got: ${problems.slice(0, 4).join('; ')}`, e);
  }
  emit('pass', `GET ${op.path} lists the descriptor's ${described.length} route(s) of ${ns}, each coherent`, e);
}

export function planNamespaceIndex(contract: Contract): Unit[] {
  const calendar = (op: Operation): boolean => (CALENDAR_NAMESPACES as readonly string[]).includes(op.namespace);
  return contract.operations
    .filter((o) => o.kind === 'index' && o.method === 'GET')
    .map((op) => ({
      id: `${NAMESPACE_INDEX}:${op.id}`,
      family: NAMESPACE_INDEX,
      checks: [NAMESPACE_INDEX],
      operations: [op],
      run: async (env) => {
        await indexRoutes(env, op);
        // The namespace parameter is the server's, the same in every namespace: asked of the calendar's indexes.
        if (calendar(op)) await namespaceIndex(env, op);
      },
    }));
}
