// path_pattern: WordPress routes by the path's pattern (register_rest_route()'s `(?P<id>[\d]+)`, matched by
// WP_REST_Server::match_request_to_handler() with preg_match, no /u), so a path parameter off its documented
// pattern names no route at all: 404 rest_no_route, whatever the method. A site that answers such a path with the
// record (`/events/12a` read as 12, intval()'s way) or with its own error routes more loosely than the documents
// say. Two values per parameter with a pattern that can be broken inside one segment: an id with a trailing letter
// (`1a`), a word-character id with a non-ASCII letter (`sampleé`: \w in PHP's PCRE without /u is ASCII).
//
// And the plain edge of an id the documents allow: `0` on `{id}` routes whose id is digits only. No record has id 0
// (get_post(0) finds none), so it is an unknown id, judged as unknown_id judges one: 404.
//
// Writes are sent as probes without credentials and with an empty body: on a site that routes as the documents
// say nothing matches, and one that matches loosely still has to pass its permission check first.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { edgeCases } from '../../../contracts/lib/arbitraries/index.ts';
import { fillTemplate } from '../http/target.ts';
import { SAFE_METHODS, type Exchange, type Outgoing } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import type { Severity } from '../report/model.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { judgeUnknownId, UNKNOWN_ID, unknownIdOperations } from './unknown_id.ts';
import { builtOnCoreControllers } from './kit/core_answers.ts';
import { describeAnswer, isNoRoute, transportOutcome } from './kit/wp.ts';

export const PATH_PATTERN = 'path_pattern';

interface OffPattern {
  param: string;
  tag: 'trailing-letter' | 'non-ascii';
  value: string;
}

/** Values one step off each path parameter's pattern, still one segment; none for patterns a segment cannot break (`[^/]+`). */
function offPatternValues(op: Operation): OffPattern[] {
  const out: OffPattern[] = [];
  for (const p of op.params.filter((x) => x.in === 'path')) {
    if (typeof p.schema.pattern !== 'string') continue;
    const re = new RegExp(p.schema.pattern, 'u');
    if (re.test('1') && !re.test('1a')) out.push({ param: p.name, tag: 'trailing-letter', value: '1a' });
    else if (re.test('sample') && !re.test('sampleé')) out.push({ param: p.name, tag: 'non-ascii', value: 'sampleé' });
  }
  return out;
}

function pathValues(contract: Contract, op: Operation): Record<string, string> {
  return edgeCases(contract, op, (d) => d.family === 'minimal')[0]?.request.pathParams ?? {};
}

function probe(op: Operation, route: string): Outgoing {
  if (SAFE_METHODS.has(op.method)) return { method: op.method, route };
  return { method: op.method, route, intent: 'probe', auth: false, ...(op.method === 'DELETE' ? {} : { body: { kind: 'json', value: {} } }) };
}

function judgeOffPattern(op: Operation, off: OffPattern, e: Exchange): { outcome: Outcome; message: string } {
  const t = transportOutcome(e);
  if (t) return t;
  const r = e.response!;
  if (isNoRoute(r)) return { outcome: 'pass', message: `answered 404 rest_no_route: {${off.param}}=${off.value} matches no route` };
  return {
    outcome: 'fail',
    message: `expected 404 rest_no_route for {${off.param}}=${JSON.stringify(off.value)}, off the documented pattern ${String(op.params.find((p) => p.in === 'path' && p.name === off.param)?.schema.pattern)} (WordPress routes by the pattern: WP_REST_Server::match_request_to_handler()); got ${describeAnswer(r)}${r.status >= 200 && r.status < 300 ? ': the path was served as if it were on the pattern' : ''}`,
  };
}

async function offPattern(env: UnitEnv, op: Operation): Promise<void> {
  const base = pathValues(env.contract, op);
  for (const off of offPatternValues(op)) {
    const variant = `off-pattern:${off.param}:${off.tag}`;
    const emit = (outcome: Outcome, message: string, e?: Exchange): void => env.emit({ check: PATH_PATTERN, operation: op, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
    if (!SAFE_METHODS.has(op.method) && env.readOnly) {
      emit('skip', `--read-only: ${op.method} is not sent`);
      continue;
    }
    const e = await env.send(probe(op, fillTemplate(op.path, { ...base, [off.param]: off.value })), op);
    const v = judgeOffPattern(op, off, e);
    emit(v.outcome, v.message, e);
  }
}

/** `{id}` routes whose id is digits only, among those unknown_id may send. */
function zeroIdOperations(contract: Contract): Operation[] {
  return unknownIdOperations(contract).filter((op) => op.params.some((p) => p.in === 'path' && p.name === 'id' && p.schema.pattern === '^[0-9]+$'));
}

async function zeroId(env: UnitEnv, op: Operation): Promise<void> {
  const emit = (outcome: Outcome, message: string, e?: Exchange, severity: Severity = 'convention'): void =>
    env.emit({ check: UNKNOWN_ID, operation: op, variant: 'id-0', severity, outcome, message, ...(e ? { exchange: e } : {}) });
  const safe = SAFE_METHODS.has(op.method);
  if (!safe && env.readOnly) return emit('skip', `--read-only: ${op.method} is not sent`);
  if (!safe && !env.hasCredentials) return emit('skip', `no credentials: an anonymous ${op.method} may be refused for permission before the record is looked up`);
  const route = fillTemplate(op.path, { ...pathValues(env.contract, op), id: '0' });
  const e = await env.send({ method: op.method, route, ...(safe ? {} : { intent: 'probe' as const, ...(op.method === 'DELETE' ? {} : { body: { kind: 'json' as const, value: {} } }) }) }, op);
  const v = judgeUnknownId(op, e, builtOnCoreControllers(env.contract, op));
  emit(v.outcome, `id 0: ${v.message}`, e, v.severity);
}

export function planPathPattern(contract: Contract): Unit[] {
  const off = contract.operations
    .filter((op) => offPatternValues(op).length > 0)
    .map((op): Unit => ({ id: `${PATH_PATTERN}:${op.id}`, family: PATH_PATTERN, checks: [PATH_PATTERN], operations: [op], run: (env) => offPattern(env, op) }));
  const zero = zeroIdOperations(contract).map((op): Unit => ({ id: `${UNKNOWN_ID}:${op.id}:0`, family: UNKNOWN_ID, checks: [UNKNOWN_ID], operations: [op], run: (env) => zeroId(env, op) }));
  return [...off, ...zero];
}
