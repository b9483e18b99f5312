// negative_rejection: a request that breaks exactly one documented constraint is refused with 400.
// error_envelope: that 400 is WordPress's error object, naming the parameter
//   (rest_invalid_param with data.params {name: message}, rest_missing_callback_param with data.params [name]).
//
// The requests come from the contract's generators, one constraint at a time. Constraints WordPress
// itself does not refuse on the wire (format uri, path patterns, untyped parameters) are skipped with
// the generator's reason. Writes are sent without credentials: WordPress validates before it checks
// permissions, so a conforming server still answers 400, and a server that skipped validation would
// have to skip its permission check as well before anything changed.

import type { Contract } from '../../../contracts/src/loader.ts';
import type { Operation } from '../../../contracts/src/types.ts';
import { toTyped } from '../../../contracts/src/arbitraries/index.ts';
import { SAFE_METHODS, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import { createdId } from '../runner/ledger.ts';
import { fnv1a } from '../runner/select.ts';
import type { Finding, Unit, UnitEnv } from '../runner/unit.ts';
import { constraints, toOutgoing, violations, withPath, type Constraint, type Violation } from './generate.ts';
import { otherReadingAllows, undeclared } from './marks.ts';
import { resourceFor } from './resources.ts';
import { baseOf, unusedPathValues } from './probes.ts';
import { blamedParams, describeAnswer, isNoRoute, topName, transportOutcome, wpError } from './wp.ts';

export const NEGATIVE_REJECTION = 'negative_rejection';
export const ERROR_ENVELOPE = 'error_envelope';

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

export function judgeRejection(c: Constraint, e: Exchange): { outcome: Finding['outcome']; severity: Severity; message: string } {
  const t = transportOutcome(e);
  if (t) return { ...t, severity: 'documented' };
  const r = e.response!;
  const param = paramOf(c);
  if (r.status === 400) {
    const blamed = blamedParams(wpError(r));
    if (blamed.length > 0 && !blamed.includes(param) && !(c.detail && blamed.includes(c.detail))) {
      return { outcome: 'skip', severity: 'documented', message: `inconclusive: refused for ${blamed.join(', ')} (values the contract allows; see positive_acceptance), which hides whether ${param} is checked` };
    }
    return { outcome: 'pass', severity: 'documented', message: `refused: ${describeAnswer(r)}` };
  }
  if (isNoRoute(r)) return { outcome: 'skip', severity: 'documented', message: 'the route is missing (see route_presence)' };
  if (r.status >= 200 && r.status < 300) {
    return { outcome: 'fail', severity: 'documented', message: `accepted a request that breaks ${c.keyword} of ${c.param}: answered ${r.status} instead of 400` };
  }
  if (r.status === 401 || r.status === 403) {
    return {
      outcome: 'fail',
      severity: 'convention',
      message: `answered ${describeAnswer(r)} for a request that breaks ${c.keyword} of ${param}: WordPress validates parameters before it checks permissions and answers 400`,
    };
  }
  return { outcome: 'fail', severity: 'documented', message: `did not refuse a request that breaks ${c.keyword} of ${param}: answered ${describeAnswer(r)} instead of 400` };
}

/** The 400 is WordPress's envelope and names the parameter. */
export function judgeEnvelope(c: Constraint, e: Exchange): { outcome: Finding['outcome']; message: string } | undefined {
  const r = e.response;
  if (!r || r.status !== 400) return undefined;
  const err = wpError(r);
  const param = paramOf(c);
  if (!err) return { outcome: 'fail', message: 'the 400 is not a WordPress error object {code, message, data}' };
  const status = err.data?.['status'];
  if (status !== 400) return { outcome: 'fail', message: `data.status is ${JSON.stringify(status)}, not 400 (${err.code})` };
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
    if (blamed.length > 0) return { outcome: 'skip', message: `inconclusive: ${err.code} names ${blamed.join(', ')} (values the contract allows), not ${param}` };
    return { outcome: 'fail', message: `${err.code} names no parameter; it should name ${param}` };
  }
  return { outcome: 'pass', message: `${err.code} names ${param}` };
}

/** Why a constraint may not be held against the server, if there is a reason. */
function doubt(env: UnitEnv, op: Operation, c: Constraint, v: Violation): string | undefined {
  const param = paramOf(c);
  const absent = c.keyword === 'required' && c.schemaPath.length === 0;
  let value: unknown;
  if (!absent) {
    try {
      value = toTyped(op, v.request)[c.location]?.[param];
    } catch {
      value = undefined;
    }
  }
  const spec = op.params.find((p) => p.in === c.location && p.name === param);
  const sanitizedOnly = spec && !spec.enforcedOnWire ? `the contract marks ${param} as not enforced on the wire (x-wire-enforced: false or untyped): WordPress only sanitizes it` : undefined;
  return sanitizedOnly ?? undeclared(env.descriptor, op, param) ?? otherReadingAllows(env.contract, op, c.location, param, value, absent);
}

async function negativeCases(env: UnitEnv, op: Operation): Promise<void> {
  const cs = constraints(env.contract, op).filter((c) => c.wire.kind !== 'not-applicable');
  const counts = samplesPerConstraint(cs, env.runs);
  const write = !SAFE_METHODS.has(op.method);
  const res = resourceFor(env.contract, op);
  for (const c of cs) {
    const n = counts.get(c.id) ?? 1;
    const base = { operation: op, severity: 'documented' as Severity };
    if (op.kind === 'batch' && c.keyword === 'maxItems' && c.schemaPath.length === 0) {
      env.emit({ ...base, check: NEGATIVE_REJECTION, variant: variantOf(c, 0), outcome: 'skip', message: 'the batch size limit is checked by batch_limit' });
      continue;
    }
    if (c.wire.kind !== 'wire') {
      for (let k = 0; k < n; k++) env.emit({ ...base, check: NEGATIVE_REJECTION, variant: variantOf(c, k), outcome: 'skip', message: `not refused on the wire by WordPress: ${c.wire.reason}` });
      continue;
    }
    if (write && env.readOnly) {
      for (let k = 0; k < n; k++) env.emit({ ...base, check: NEGATIVE_REJECTION, variant: variantOf(c, k), outcome: 'skip', message: `--read-only: ${op.method} is not sent` });
      continue;
    }
    const vs = violations(env.contract, op, c, (env.seed ^ fnv1a(c.id)) >>> 0, n);
    for (const [k, v0] of vs.entries()) {
      let req = baseOf(env, op, c, v0.request);
      if (write) req = withPath(op, req, unusedPathValues(op));
      const e = await env.send({ ...toOutgoing(req, write ? 'probe' : undefined), ...(write ? { auth: false } : {}) }, op);
      const id = res && op.kind === 'create' ? createdId(e) : undefined;
      if (res && id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: `${NEGATIVE_REJECTION}:${op.id}` });
      const verdict = judgeRejection(c, e);
      const why = verdict.outcome === 'fail' ? doubt(env, op, c, v0) : undefined;
      env.emit({
        ...base,
        check: NEGATIVE_REJECTION,
        variant: variantOf(c, k),
        outcome: verdict.outcome,
        severity: why ? 'assumed' : verdict.severity,
        message: why ? `${verdict.message}; held as assumed because ${why}` : verdict.message,
        exchange: e,
      });
      const env400 = judgeEnvelope(c, e);
      if (env400) env.emit({ ...base, check: ERROR_ENVELOPE, variant: variantOf(c, k), severity: 'convention', outcome: env400.outcome, message: env400.message, exchange: e });
    }
  }
}

export function planNegativeRejection(contract: Contract): Unit[] {
  return contract.operations.map((op) => ({
    id: `${NEGATIVE_REJECTION}:${op.id}`,
    family: NEGATIVE_REJECTION,
    checks: [NEGATIVE_REJECTION, ERROR_ENVELOPE],
    operations: [op],
    run: (env) => negativeCases(env, op),
  }));
}
