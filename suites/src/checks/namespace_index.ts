// namespace_index: a namespace's index reads `namespace` from the request (WordPress convention,
// WP_REST_Server::get_namespace_index(): `$request['namespace']`, whose default is the route's own namespace, so a
// `?namespace=` of the query names another; checked on WordPress 6.1.9, the CI sites). Core registers the index of
// every namespace, a plugin's own controllers' too, so it holds in every namespace of the documents.
// - `GET {ns}?namespace=<another namespace the descriptor lists>` answers that namespace's index, as `GET {other}`;
// - `GET {ns}?namespace=site-contracts-<run>-none` answers 404 rest_invalid_namespace.
// Subjects: the index of each calendar namespace; anonymous. The other namespace is `oembed/1.0` where the
// descriptor lists it (every WordPress has it), else the first it lists beside the subject.

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

export function planNamespaceIndex(contract: Contract): Unit[] {
  return contract.operations
    .filter((o) => o.kind === 'index' && o.method === 'GET' && (CALENDAR_NAMESPACES as readonly string[]).includes(o.namespace))
    .map((op) => ({ id: `${NAMESPACE_INDEX}:${op.id}`, family: NAMESPACE_INDEX, checks: [NAMESPACE_INDEX], operations: [op], run: (env) => namespaceIndex(env, op) }));
}
