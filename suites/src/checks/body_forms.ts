// body_forms: the forms a request body takes, as WP_REST_Request reads them (WordPress convention,
// class-wp-rest-request.php; checked on WordPress 6.1.9, the CI sites).
// - `invalid_json`: a body sent as application/json that is no JSON (`{`, one character) answers
//   400 rest_invalid_json with data.json_error_code (parse_json_params(), reported by has_valid_params() before any
//   permission callback, so an anonymous probe shows it). The server does this for every route, a plugin's own
//   controller's too: sent to the create of each calendar resource and to batch/v1, anonymously. A site that takes
//   the broken body (or refuses it for permission first) fails; a record it makes goes into the run's ledger.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { jsonBody } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { createdId } from './kit/ledger.ts';
import { calendarResources, resourceFor } from './kit/resources.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome, wpError } from './kit/wp.ts';

export const BODY_FORMS = 'body_forms';

/** JSON_ERROR_SYNTAX: what json_decode() of `{` reports. */
const SYNTAX_ERROR = 4;

async function invalidJson(env: UnitEnv, op: Operation): Promise<void> {
  const route = op.path;
  const e = await env.send({ method: 'POST', route, body: { kind: 'raw', text: '{', contentType: 'application/json' }, intent: 'probe', auth: false }, op);
  const emit = (outcome: Outcome, message: string): void => env.emit({ check: BODY_FORMS, operation: op, variant: 'invalid_json', severity: 'convention', outcome, message, exchange: e });
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message);
  const res = resourceFor(env.contract, op);
  const id = res && op.kind === 'create' ? createdId(e) : undefined;
  if (res && id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: `${BODY_FORMS}:${op.id}` });
  const r = e.response!;
  const err = wpError(r);
  const data = jsonBody(r);
  const code = isPlainObject(data) && isPlainObject(data['data']) ? data['data']['json_error_code'] : undefined;
  if (r.status === 400 && err?.code === 'rest_invalid_json' && code === SYNTAX_ERROR) return emit('pass', `400 rest_invalid_json, json_error_code ${SYNTAX_ERROR}`);
  const got = r.status === 400 && err?.code === 'rest_invalid_json' ? `400 rest_invalid_json with data.json_error_code ${JSON.stringify(code ?? null)}` : describeAnswer(r);
  emit('fail', `expected an anonymous POST ${route} whose application/json body is "{" (no JSON) to answer 400 rest_invalid_json with data.json_error_code ${SYNTAX_ERROR} (WordPress convention, WP_REST_Request::parse_json_params(), before any permission check); got ${got}`);
}

export function planBodyForms(contract: Contract): Unit[] {
  const ops = [...calendarResources(contract).map((r) => r.create), ...contract.operations.filter((o) => o.kind === 'batch' && o.method === 'POST')];
  return ops.map((op) => ({ id: `${BODY_FORMS}:${op.id}`, family: BODY_FORMS, checks: [BODY_FORMS], operations: [op], run: (env) => invalidJson(env, op) }));
}
