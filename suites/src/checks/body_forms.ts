// body_forms: the forms a request body takes, as WP_REST_Request reads them (WordPress convention,
// class-wp-rest-request.php; checked on WordPress 6.1.9, the CI sites).
// - `invalid_json`: a body sent as application/json that is no JSON (`{`, one character) answers
//   400 rest_invalid_json with data.json_error_code (parse_json_params(), reported by has_valid_params() before any
//   permission callback, so an anonymous probe shows it). The server does this for every route, a plugin's own
//   controller's too: sent to the create of each calendar resource and to batch/v1, anonymously. A site that takes
//   the broken body (or refuses it for permission first) fails; a record it makes goes into the run's ledger.
// - with credentials, on cal/v1's venues (core's posts controller; a venue where the site has one), records of its own:
//   `json-charset`: a JSON body sent as `application/json; charset=UTF-8` is read (is_json_content_type() takes
//   parameters after the type), and the same bytes as `text/plain` are not (400 empty_content, or a record with none
//   of the body's fields); `precedence`: POST ...?status=draft with {"status": "publish"} in the JSON body creates it
//   published (get_parameter_order(): JSON before GET); `form-body`: PATCH with an
//   application/x-www-form-urlencoded title renames it (parse_body_params()).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { jsonBody } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { createdId } from './kit/ledger.ts';
import { calendarResources, idOf, minimalCreateBody, nameText, resourceFor, type CalendarResource } from './kit/resources.ts';
import { cannotWrite } from './kit/oracle_kit.ts';
import { fillTemplate } from '../http/target.ts';
import type { Exchange } from '../http/types.ts';
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

const REQUEST_RULE = 'WordPress convention, WP_REST_Request';

/** The three body forms on records of the suite's own (see the head of this file). */
async function ownBodies(env: UnitEnv, res: CalendarResource): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: BODY_FORMS, operation: variant === 'form-body' ? res.update : res.create, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const variants = ['json-charset', 'precedence', 'form-body'];
  const why = cannotWrite(env, [res.create, res.update]);
  if (why) return variants.forEach((v) => emit(v, 'skip', `not run: ${why}; the case writes a record of its own`));
  // A record made from the text/plain bytes carries none of them, the marker neither: cleanup removes it by its id.
  const keep = (e: Exchange, by: string, unmarked = false): number | undefined => {
    const id = createdId(e);
    if (id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: `${BODY_FORMS}:${by}`, ...(unmarked ? { unmarked: true as const } : {}) });
    return id;
  };
  // Which success a create answers (201, or 200 on some sites) is create_status's to judge; here, what was read.
  const created = (e: Exchange): boolean => e.response !== undefined && e.response.status >= 200 && e.response.status < 300;
  const create = fillTemplate(res.create.path, {});

  // json-charset: the same bytes, read as JSON with a charset, not read as text/plain.
  const label = `${env.marker} body forms json`;
  const text = JSON.stringify(minimalCreateBody(res, label, env.now()));
  const ej = await env.send({ method: 'POST', route: create, body: { kind: 'raw', text, contentType: 'application/json; charset=UTF-8' }, intent: 'write' }, res.create);
  // Where the body went unread, the record has no marker either: removed by its id.
  const idJ = keep(ej, 'json-charset', !nameText(jsonBody(ej.response), res.nameField)?.includes(label));
  const tj = transportOutcome(ej);
  let own: number | undefined;
  if (tj) emit('json-charset', tj.outcome, tj.message, ej);
  else if (!created(ej) || idJ === undefined || !nameText(jsonBody(ej.response), res.nameField)?.includes(label)) {
    emit('json-charset', 'fail', `expected POST ${create} with a JSON body sent as "application/json; charset=UTF-8" to create the record with the fields sent (${res.nameField} "${label}") (${REQUEST_RULE}::is_json_content_type(): the type is read before any ";"); got ${describeAnswer(ej.response)}`, ej);
  } else {
    own = idJ;
    const textLabel = `${env.marker} body forms text`;
    const et = await env.send({ method: 'POST', route: create, body: { kind: 'raw', text: JSON.stringify(minimalCreateBody(res, textLabel, env.now())), contentType: 'text/plain' }, intent: 'write' }, res.create);
    const idT = keep(et, 'json-charset', true);
    const tt = transportOutcome(et);
    const r = et.response;
    if (tt) emit('json-charset', tt.outcome, tt.message, et);
    else if (r!.status === 400 && wpError(r)?.code === 'empty_content') emit('json-charset', 'pass', `read as JSON with a charset ; the same bytes as text/plain: 400 empty_content`, et);
    else if (created(et) && idT !== undefined && !JSON.stringify(jsonBody(r)).includes(textLabel)) emit('json-charset', 'pass', `read as JSON with a charset; the same bytes as text/plain made a record without them`, et);
    else emit('json-charset', 'fail', `expected the JSON bytes sent as text/plain to be unread (400 empty_content, or a record with none of the body's fields: ${REQUEST_RULE}::get_json_params() reads JSON types only); got ${describeAnswer(r)}${created(et) ? ` whose ${res.nameField} is the body's` : ''}`, et);
  }

  // precedence: the JSON body before the query.
  const ep = await env.send({ method: 'POST', route: create, query: { status: 'draft' }, body: { kind: 'json', value: { ...minimalCreateBody(res, `${env.marker} body forms precedence`, env.now()), status: 'publish' } }, intent: 'write' }, res.create);
  keep(ep, 'precedence');
  const tp = transportOutcome(ep);
  const status = (jsonBody(ep.response) as { status?: unknown } | undefined)?.status;
  if (tp) emit('precedence', tp.outcome, tp.message, ep);
  else if (created(ep) && status === 'publish') emit('precedence', 'pass', 'status=draft in the query and "publish" in the JSON body: created publish (the body wins)', ep);
  else emit('precedence', 'fail', `expected POST ${create}?status=draft with {"status": "publish"} in its JSON body to create a published record (${REQUEST_RULE}::get_parameter_order(): the JSON body is read before the query); got ${describeAnswer(ep.response)}${status !== undefined ? ` with status ${JSON.stringify(status)}` : ''}`, ep);

  // form-body: an update as application/x-www-form-urlencoded.
  if (own === undefined) return emit('form-body', 'inconclusive', 'no record of its own to update (the JSON create above was not taken)');
  const renamed = `${env.marker} body forms form ${own}`;
  const route = fillTemplate(res.update.path, { id: own });
  const ef = await env.send({ method: res.update.method, route, body: { kind: 'form', value: { [res.nameField]: renamed } }, intent: 'write' }, res.update);
  const tf = transportOutcome(ef);
  if (tf) return emit('form-body', tf.outcome, tf.message, ef);
  const after = await env.send({ method: 'GET', route: fillTemplate(res.read.path, { id: own }), query: { context: 'edit' } }, res.read);
  const read = nameText(jsonBody(after.response), res.nameField);
  if (ef.response!.status === 200 && idOf(jsonBody(ef.response)) === own && read?.includes(renamed)) return emit('form-body', 'pass', `${res.update.method} with an application/x-www-form-urlencoded ${res.nameField}: renamed`, ef);
  emit('form-body', 'fail', `expected ${res.update.method} ${route} with the form body ${res.nameField}=<new> (application/x-www-form-urlencoded) to rename the record, as a JSON body does (${REQUEST_RULE}::parse_body_params()); got ${describeAnswer(ef.response)}, read back ${JSON.stringify(read ?? null)}`, ef.response!.status === 200 ? after : ef);
}

export function planBodyForms(contract: Contract): Unit[] {
  const ops = [...calendarResources(contract).map((r) => r.create), ...contract.operations.filter((o) => o.kind === 'batch' && o.method === 'POST')];
  const cal = calendarResources(contract).filter((r) => r.namespace === 'cal/v1');
  const own = cal.find((r) => r.resource === 'venue') ?? cal[0];
  return [
    ...ops.map((op) => ({ id: `${BODY_FORMS}:${op.id}`, family: BODY_FORMS, checks: [BODY_FORMS], operations: [op], run: (env: UnitEnv) => invalidJson(env, op) })),
    ...(own ? [{ id: `${BODY_FORMS}:own:${own.namespace}/${own.resource}`, family: BODY_FORMS, checks: [BODY_FORMS], operations: [own.create, own.update, own.read], writes: true, run: (env: UnitEnv) => ownBodies(env, own) }] : []),
  ];
}
