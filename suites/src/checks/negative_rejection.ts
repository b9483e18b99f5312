// negative_rejection: a request that breaks exactly one documented constraint is refused with 400.
// error_envelope: that 400 is WordPress's error object, naming the parameter
//   (rest_invalid_param with data.params {name: message}, rest_missing_callback_param with data.params [name]).
//
// Two phases, the edge phase first: for every constraint the values just beside it, fixed and the same on
// every run (per_page 0 and 101, page 0, `asc` for ASC, a date with `T` for its space or no seconds, a batch
// item with method GET, a duplicate in a unique list, each required parameter left out; see
// contracts/lib/arbitraries/edges.ts). A server that is off by one at a bound fails here, where random values
// far from the bound would miss it. Then --runs random violations per parameter.
//
// The requests come from the contract's generators, one constraint at a time. Constraints WordPress
// itself does not refuse on the wire (format uri, path patterns, untyped parameters) are skipped with
// the generator's reason. Writes are sent without credentials: WordPress validates before it checks
// permissions, so a conforming server still answers 400, and a server that skipped validation would
// have to skip its permission check as well before anything changed.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { edgeCases, toTyped, type EdgeCase } from '../../../contracts/lib/arbitraries/index.ts';
import { SAFE_METHODS, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import { createdId } from './kit/ledger.ts';
import { fnv1a } from './kit/hash.ts';
import type { Finding, Unit, UnitEnv } from './kit/unit.ts';
import { constraints, toOutgoing, violations, withBody, withPath, type Constraint, type WireRequest } from './kit/generate.ts';
import { otherReadingAllows, readingCreatesRecords, undeclared } from './kit/marks.ts';
import { resourceFor } from './kit/resources.ts';
import { baseOf, harmlessBatch, unusedPathValues } from './kit/probes.ts';
import { credentialedTwin, withTwin } from './kit/anonymous_refusal.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { ERROR_ENVELOPE } from './error_envelope.ts';
import { collapsing, refusedIdentifier, unknowables } from './kit/identifiers.ts';
import { referenceFields, referenceValues } from './kit/references.ts';
import { negativeTarget, type PathTarget } from './kit/targets.ts';
import { blamedParams, describeAnswer, envelopeProblem, isNoRoute, sourceOf, topName, transportOutcome, wpError } from './kit/wp.ts';

export const NEGATIVE_REJECTION = 'negative_rejection';

/**
 * How many requests each constraint gets: every constraint at least one, and a parameter with fewer
 * constraints than --runs gets the rest spread over them, so each parameter sees about --runs cases.
 */
export function samplesPerConstraint(cs: readonly Constraint[], runs: number): Map<string, number> {
  const byParam = new Map<string, Constraint[]>();
  for (const c of cs) byParam.set(`${c.location}:${c.param}`, [...(byParam.get(`${c.location}:${c.param}`) ?? []), c]);
  const out = new Map<string, number>();
  for (const list of byParam.values()) {
    list.forEach((c, i) => out.set(c.id, Math.max(1, Math.floor(runs / list.length) + (i < runs % list.length ? 1 : 0))));
  }
  return out;
}

function variantOf(c: Constraint, k: number): string {
  return `${c.id.slice(c.operationId.length + 1)}#${k + 1}`;
}

/** The param a violation is about, as WordPress names it: top-level (`requests`, not `requests[3][method]`). */
function paramOf(c: Constraint): string {
  return topName(c.param);
}

/**
 * The verdict on one violation's answer. `what` names the broken value (`per_page=101`) and `source` the section
 * of the documents that makes it invalid, so that a failure says what was expected, why, and what came back.
 */
export function judgeRejection(c: Constraint, e: Exchange, what = `a request that breaks ${c.keyword} of ${c.param}`, source = 'the contract'): { outcome: Finding['outcome']; severity: Severity; message: string } {
  const t = transportOutcome(e);
  if (t) return { ...t, severity: 'documented' };
  const r = e.response!;
  const param = paramOf(c);
  const expected = `expected 400 naming ${param} for ${what} (${c.keyword}, ${source})`;
  if (r.status === 400) {
    const blamed = blamedParams(wpError(r));
    if (blamed.length > 0 && !blamed.includes(param) && !(c.detail && blamed.includes(c.detail))) {
      return { outcome: 'inconclusive', severity: 'documented', message: `refused for ${blamed.join(', ')} (values the contract allows; see positive_acceptance), which hides whether ${param} is checked` };
    }
    return { outcome: 'pass', severity: 'documented', message: `refused ${what}: ${describeAnswer(r)}` };
  }
  if (isNoRoute(r)) return { outcome: 'skip', severity: 'documented', message: 'the route is missing (see route_presence)' };
  if (r.status >= 200 && r.status < 300) return { outcome: 'fail', severity: 'documented', message: `${expected}; got ${r.status}: it was accepted` };
  if (r.status === 401 || r.status === 403) {
    return {
      outcome: 'fail',
      severity: 'convention',
      message: `${expected}; got ${describeAnswer(r)}: WordPress validates parameters before it checks permissions (WP_REST_Server::dispatch) and answers 400`,
    };
  }
  return { outcome: 'fail', severity: 'documented', message: `${expected}; got ${describeAnswer(r)}` };
}

/**
 * The codes rest_validate_value_from_schema() may give a broken keyword, which WordPress puts in data.details[param].code
 * (WP_REST_Request::has_valid_params(), sanitize_params()); undefined where the mapping is not one code. A date the
 * documents give as a pattern (YYYY-MM-DD HH:MM:SS) is declared by core's controllers as format date-time, whose
 * code is rest_invalid_date (seen on the calendar CI site: start_date without seconds): either is WordPress's.
 */
function detailCodes(c: Constraint): readonly string[] | undefined {
  const FORMATS: Readonly<Record<string, string>> = { email: 'rest_invalid_email', 'date-time': 'rest_invalid_date', ip: 'rest_invalid_ip', uuid: 'rest_invalid_uuid', 'hex-color': 'rest_invalid_hex_color' };
  const KEYWORDS: Readonly<Record<string, string>> = {
    minimum: 'rest_out_of_bounds',
    maximum: 'rest_out_of_bounds',
    exclusiveMinimum: 'rest_out_of_bounds',
    exclusiveMaximum: 'rest_out_of_bounds',
    enum: 'rest_not_in_enum',
    pattern: 'rest_invalid_pattern',
    uniqueItems: 'rest_duplicate_items',
    minItems: 'rest_too_few_items',
    maxItems: 'rest_too_many_items',
    minLength: 'rest_too_short',
    maxLength: 'rest_too_long',
    type: 'rest_invalid_type',
    additionalProperties: 'rest_additional_properties_forbidden',
  };
  if (c.keyword === 'format') return c.detail && FORMATS[c.detail] ? [FORMATS[c.detail]!] : undefined;
  if (c.keyword === 'required') return c.schemaPath.length > 0 ? ['rest_property_required'] : undefined;
  if (c.keyword === 'pattern' && /^\^(\[0-9\]|\\d)\{4\}-/.test(String(c.node.pattern ?? ''))) return ['rest_invalid_pattern', 'rest_invalid_date'];
  const code = KEYWORDS[c.keyword];
  return code ? [code] : undefined;
}

/**
 * Codes a WordPress sanitize callback answers in details instead of the schema's: the posts controller's
 * sanitize_post_statuses() refuses any status but the default to a client who may not edit (rest_forbidden_status)
 * before the schema is looked at, when the route gives status no validate_callback of its own.
 */
const SANITIZER_CODES: Readonly<Record<string, readonly string[]>> = { status: ['rest_forbidden_status'] };

/**
 * data.details names the broken keyword's code (WordPress convention, rest_validate_value_from_schema()), judged on
 * the edges of namespaces built on core's controllers and of batch/v1, whose arguments core validates by their schema.
 * A plugin's own validate_callback that answers false gives no details ("Invalid parameter."): not judged there.
 */
function judgeDetails(c: Constraint, e: Exchange): { outcome: Finding['outcome']; message: string } | undefined {
  const wants = detailCodes(c);
  const err = wpError(e.response);
  if (!wants || !err || err.code !== 'rest_invalid_param') return undefined;
  const want = wants.join(' or ');
  const param = paramOf(c);
  const details = err.data?.['details'];
  const detail = details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>)[param] : undefined;
  const code = (detail as { code?: unknown } | undefined)?.code;
  const expected = `expected data.details.${param}.code ${want} for a broken ${c.keyword} (WordPress convention: rest_validate_value_from_schema(), collected by WP_REST_Request::has_valid_params())`;
  if (typeof code !== 'string') return { outcome: 'fail', message: `${expected}; data.details has no entry for ${param}` };
  if (wants.includes(code) || SANITIZER_CODES[param]?.includes(code)) return { outcome: 'pass', message: `rest_invalid_param with details.${param}.code ${code}` };
  return { outcome: 'fail', message: `${expected}; got ${code}` };
}

/** The 400 is WordPress's envelope and names the parameter. */
export function judgeEnvelope(c: Constraint, e: Exchange): { outcome: Finding['outcome']; message: string } | undefined {
  const r = e.response;
  if (!r || r.status !== 400) return undefined;
  const err = wpError(r);
  const param = paramOf(c);
  const problem = envelopeProblem(r);
  if (problem || !err) return { outcome: 'fail', message: `${problem ?? 'no envelope'} (WordPress convention, rest_convert_error_to_response())` };
  const topRequired = c.keyword === 'required' && c.schemaPath.length === 0;
  const codes = topRequired ? ['rest_missing_callback_param'] : c.keyword === 'dependentRequired' ? ['rest_missing_callback_param', 'rest_invalid_param'] : ['rest_invalid_param'];
  if (!codes.includes(err.code)) return { outcome: 'fail', message: `code ${err.code}, expected ${codes.join(' or ')} for a broken ${c.keyword}` };
  const blamed = blamedParams(err);
  const params = err.data?.['params'];
  if (err.code === 'rest_missing_callback_param' && !Array.isArray(params)) return { outcome: 'fail', message: 'rest_missing_callback_param with data.params that is not a list of names' };
  if (err.code === 'rest_invalid_param' && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    return { outcome: 'fail', message: 'rest_invalid_param with data.params that is not an object {name: message}' };
  }
  if (!blamed.includes(param) && !(c.keyword === 'dependentRequired' && c.detail && blamed.includes(c.detail))) {
    if (blamed.length > 0) return { outcome: 'inconclusive', message: `${err.code} names ${blamed.join(', ')} (values the contract allows), not ${param}` };
    return { outcome: 'fail', message: `${err.code} names no parameter; it should name ${param}` };
  }
  return { outcome: 'pass', message: `${err.code} names ${param}` };
}

/** Why a constraint may not be held against the server, if there is a reason. */
function doubt(env: UnitEnv, op: Operation, c: Constraint, request: WireRequest): string | undefined {
  const param = paramOf(c);
  const absent = c.keyword === 'required' && c.schemaPath.length === 0;
  let value: unknown;
  if (!absent) {
    try {
      value = toTyped(op, request)[c.location]?.[param];
    } catch {
      value = undefined;
    }
  }
  const spec = op.params.find((p) => p.in === c.location && p.name === param);
  const sanitizedOnly = spec && !spec.enforcedOnWire ? `the contract marks ${param} as not enforced on the wire (x-wire-enforced: false or untyped): WordPress only sanitizes it` : undefined;
  const ext = spec?.gaps.find((g) => g.kind === 'needs-extension');
  const extension = ext ? `the documents tie ${param} to an extension the site may not have (${ext.note} ${ext.source}); a site without it may ignore the parameter` : undefined;
  return sanitizedOnly ?? extension ?? undeclared(env.descriptor, op, param) ?? otherReadingAllows(env.contract, op, c.location, param, value, absent);
}

/**
 * The request as it is safe to send: a write names no record of the site's and goes without credentials (a
 * conforming server refuses it while validating); a create carries the marker in its name, so cleanup finds
 * the record should the server wrongly accept it; batch items point at a route that does not exist.
 */
function harmless(env: UnitEnv, op: Operation, c: Constraint, req: WireRequest, target: PathTarget): WireRequest {
  let out = req;
  const res = resourceFor(env.contract, op);
  if (res && op.kind === 'create' && !(c.location === 'body' && paramOf(c) === res.nameField)) {
    out = withBody(out, { [res.nameField]: `${env.marker} negative` });
  }
  if (op.kind === 'batch') out = harmlessBatch(env, out);
  // --disposable-target: what the write changes is a record of the run's own (the one the case breaks stays broken).
  for (const f of target.fields ?? []) {
    if (c.location === f.location && paramOf(c) === f.param) continue;
    out = f.location === 'query' ? { ...out, query: { ...out.query, [f.param]: f.value } } : withBody(out, { [f.param]: f.value });
  }
  if (c.location === 'path') return out;
  return SAFE_METHODS.has(op.method) && target.kind === 'none' ? out : withPath(op, out, target.values);
}

async function sendViolation(env: UnitEnv, op: Operation, c: Constraint, req: WireRequest, variant: string, what: string, details = false): Promise<void> {
  const write = !SAFE_METHODS.has(op.method);
  const res = resourceFor(env.contract, op);
  const out = { ...toOutgoing(req, write ? 'probe' : undefined), ...(write ? { auth: false as const } : {}) };
  const e = await env.send(out, op);
  const id = res && op.kind === 'create' ? createdId(e) : undefined;
  if (res && id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: `${NEGATIVE_REJECTION}:${op.id}` });
  // A 401/403 before validating hides whether the value is refused at all: the same request with credentials shows it.
  const twin = await credentialedTwin(env, op, out, e, `${NEGATIVE_REJECTION}:${op.id}`);
  const { exchange, ...verdict } = withTwin(judgeRejection(c, e, what, sourceOf(op)), e, twin, `expected 400 naming ${paramOf(c)} for ${what} (${c.keyword}, ${sourceOf(op)})`);
  const why = verdict.outcome === 'fail' ? doubt(env, op, c, req) : undefined;
  const base = { operation: op, variant, exchange };
  env.emit({ ...base, check: NEGATIVE_REJECTION, outcome: verdict.outcome, severity: why ? 'assumed' : verdict.severity, message: why ? `${verdict.message}; held as assumed because ${why}` : verdict.message });
  const env400 = judgeEnvelope(c, e);
  if (env400) env.emit({ ...base, check: ERROR_ENVELOPE, severity: 'convention', outcome: env400.outcome, message: env400.message });
  const detail = details && env400?.outcome === 'pass' ? judgeDetails(c, e) : undefined;
  if (detail) env.emit({ ...base, variant: `${variant}:details`, check: ERROR_ENVELOPE, severity: 'convention', outcome: detail.outcome, message: detail.message });
}

/** Why a constraint's violations are not sent, if they are not. */
function notSent(env: UnitEnv, op: Operation, c: Constraint): string | undefined {
  if (op.kind === 'batch' && c.keyword === 'maxItems' && c.schemaPath.length === 0) return 'the batch size limit (25 taken, 26 refused) is checked by batch_limit';
  if (c.wire.kind !== 'wire') return `not refused on the wire by WordPress: ${c.wire.reason}`;
  if (!SAFE_METHODS.has(op.method) && env.readOnly) return `--read-only: ${op.method} is not sent`;
  const creates = SAFE_METHODS.has(op.method) ? undefined : readingCreatesRecords(op, c.location, paramOf(c));
  if (creates) return `not sent on a write: under another reading of the documents (${creates}) such a value names a record for the site to create, which the run could not find to remove`;
  return undefined;
}

function edgeVariant(edge: EdgeCase): string {
  return `edge:${edge.id.slice(edge.operationId.length + 1)}`;
}

/**
 * The duplicate of a unique query list written the other ways WordPress reads a list: comma-separated (wp_parse_list(),
 * as wp_parse_slug_list() splits a status list) and, for integers, with a leading zero (`5,05`: two strings that are
 * the same integer once sanitized, which rest_sanitize_value_from_schema() checks for duplicates again).
 */
function listForms(edge: EdgeCase): { tag: string; label: string; req: WireRequest }[] {
  const c = edge.constraint;
  const sent = edge.request.query[edge.param ?? ''];
  if (!c || c.keyword !== 'uniqueItems' || c.schemaPath.length > 0 || edge.location !== 'query' || !Array.isArray(sent) || sent.length !== 2) return [];
  const item = sent[0];
  if (typeof item !== 'string' && typeof item !== 'number') return [];
  const withValue = (v: string): WireRequest => ({ ...edge.request, query: { ...edge.request.query, [c.param]: v } });
  const out = [{ tag: 'comma list', label: `${c.param}=${item},${item}`, req: withValue(`${item},${item}`) }];
  const integer = (c.node.items as { type?: unknown } | undefined)?.type === 'integer';
  if (integer && /^\d+$/.test(String(item))) out.push({ tag: 'leading zero', label: `${c.param}=${item},0${item}`, req: withValue(`${item},0${item}`) });
  return out;
}

/** The first refused bound of each of two query parameters, sent in one request: both must be named (has_valid_params()). */
function twoAtOnce(edges: readonly EdgeCase[]): { edges: [EdgeCase, EdgeCase]; req: WireRequest } | undefined {
  const firsts = new Map<string, EdgeCase>();
  for (const e of edges) if (e.family === 'bound' && e.location === 'query' && e.param && e.constraint?.wire.kind === 'wire' && !firsts.has(e.param)) firsts.set(e.param, e);
  const [a, b] = [...firsts.values()];
  if (!a || !b) return undefined;
  return { edges: [a, b], req: { ...a.request, query: { ...a.request.query, [b.param!]: b.request.query[b.param!]! } } };
}

/** Both parameters of a request that breaks two named in data.params (WordPress convention: has_valid_params() checks them all). */
async function twoInvalid(env: UnitEnv, op: Operation, edges: readonly EdgeCase[], target: () => Promise<PathTarget>): Promise<void> {
  // Reads only: a write that breaks two values is no safer than one that breaks one, and teaches nothing more.
  const pair = SAFE_METHODS.has(op.method) ? twoAtOnce(edges) : undefined;
  if (!pair) return;
  const [a, b] = pair.edges;
  const names = [paramOf(a.constraint!), paramOf(b.constraint!)];
  const variant = `edge:two invalid: ${names.join(', ')}`;
  if (notSent(env, op, a.constraint!) ?? notSent(env, op, b.constraint!)) return;
  const req = harmless(env, op, a.constraint!, pair.req, await target());
  const e = await env.send(toOutgoing(req), op);
  const emit = (outcome: Finding['outcome'], message: string): void => env.emit({ check: NEGATIVE_REJECTION, operation: op, variant, severity: 'convention', outcome, message, exchange: e });
  const t = transportOutcome(e);
  if (t) return emit(t.outcome, t.message);
  const r = e.response!;
  const blamed = blamedParams(wpError(r));
  const what = `${a.label} and ${b.label} in one request`;
  if (r.status !== 400) return emit('inconclusive', `${what} answered ${describeAnswer(r)}; each value alone is judged by its own edge`);
  const missing = names.filter((n) => !blamed.includes(n));
  if (missing.length === 0) return emit('pass', `refused ${what}, naming both: ${describeAnswer(r)}`);
  emit('fail', `expected 400 rest_invalid_param naming both ${names.join(' and ')} for ${what} (WordPress convention: WP_REST_Request::has_valid_params() checks every argument and names each invalid one in data.params); got ${describeAnswer(r)} naming ${blamed.join(', ') || 'nothing'}`);
}

/** The edge phase: every value just beside a constraint, the same on every run. */
async function edgeRejections(env: UnitEnv, op: Operation, target: () => Promise<PathTarget>): Promise<void> {
  const details = builtOnCoreControllers(env.contract, op) || op.namespace === 'batch/v1';
  const edges = edgeCases(env.contract, op, (d) => d.expect === 'refuse');
  for (const edge of edges) {
    if (edge.expect !== 'refuse' || !edge.constraint) continue;
    const c = edge.constraint;
    const why = notSent(env, op, c);
    if (why) {
      env.emit({ check: NEGATIVE_REJECTION, operation: op, variant: edgeVariant(edge), severity: 'documented', outcome: 'skip', message: why });
      continue;
    }
    const t = await target();
    await sendViolation(env, op, c, harmless(env, op, c, edge.request, t), edgeVariant(edge), edge.label, details);
    for (const form of listForms(edge)) await sendViolation(env, op, c, harmless(env, op, c, form.req, t), `${edgeVariant(edge)}, ${form.tag}`, form.label);
  }
  await twoInvalid(env, op, edges, target);
}

async function negativeCases(env0: UnitEnv, op: Operation): Promise<void> {
  // The record the path names, made or found once, when the first case that is sent needs it.
  let pending: Promise<PathTarget> | undefined;
  const target = (): Promise<PathTarget> => (pending ??= negativeTarget(env0, op, `${NEGATIVE_REJECTION}:${op.id}`));
  const refs = referenceFields(env0.contract, op).filter((f) => f.location === 'path');
  const ids = unknowables(op, refs, refs.length ? await referenceValues(env0, refs, op) : undefined, !SAFE_METHODS.has(op.method));
  // Only the cases the site refused for the identifier itself: another refusal is judged as it comes.
  const byIdentifier = (f: Finding): boolean => refusedIdentifier(ids, f.exchange);
  const negative = collapsing(env0, op, NEGATIVE_REJECTION, ids, () => true, byIdentifier);
  const envelope = collapsing(negative.env, op, ERROR_ENVELOPE, ids, () => true, byIdentifier);
  const env = envelope.env;
  await edgeRejections(env, op, target);
  const cs = constraints(env.contract, op).filter((c) => c.wire.kind !== 'not-applicable');
  const counts = samplesPerConstraint(cs, env.runs);
  for (const c of cs) {
    const n = counts.get(c.id) ?? 1;
    const why = notSent(env, op, c);
    if (why) {
      for (let k = 0; k < (c.keyword === 'maxItems' && op.kind === 'batch' ? 1 : n); k++) env.emit({ check: NEGATIVE_REJECTION, operation: op, variant: variantOf(c, k), severity: 'documented', outcome: 'skip', message: why });
      continue;
    }
    const vs = violations(env.contract, op, c, (env.seed ^ fnv1a(c.id)) >>> 0, n);
    for (const [k, v] of vs.entries()) {
      const req = harmless(env, op, c, baseOf(env, op, c, v.request), await target());
      await sendViolation(env, op, c, req, variantOf(c, k), `a request that breaks ${c.keyword} of ${c.param}`);
    }
  }
  envelope.done();
  negative.done();
}

export function planNegativeRejection(contract: Contract): Unit[] {
  return contract.operations.map((op) => ({
    id: `${NEGATIVE_REJECTION}:${op.id}`,
    family: NEGATIVE_REJECTION,
    checks: [NEGATIVE_REJECTION, ERROR_ENVELOPE],
    operations: [op],
    // Updates and deletes of calendar records make the record their cases name (targets.ts).
    ...(resourceFor(contract, op) && (op.kind === 'update' || op.kind === 'delete') ? { writes: true } : {}),
    run: (env) => negativeCases(env, op),
  }));
}
