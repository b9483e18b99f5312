// Steps of a check that works on records of its own and judges a few expectations per variant (slugs, passwords):
// a create that goes into the run's ledger, a request by id, a word of the run no site holds, and a verdict that is
// inconclusive (with the answer) when a step it needs did not succeed, failed with every broken expectation, or passed
// saying what held.

import type { Operation } from '../../../../contracts/lib/types.ts';
import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';
import { fillTemplate } from '../../http/target.ts';
import { jsonBody, type Exchange, type WireMethod } from '../../http/types.ts';
import type { Severity } from '../../report/model.ts';
import type { Outcome } from '../../report/policy.ts';
import { createdId } from './ledger.ts';
import { fnv1a } from './hash.ts';
import { emitterFor } from './oracle_kit.ts';
import { minimalCreateBody, type CalendarResource } from './resources.ts';
import type { UnitEnv } from './unit.ts';
import { describeAnswer, transportOutcome } from './wp.ts';

export interface Sent {
  e: Exchange;
  status?: number;
  body?: Record<string, unknown>;
  id?: number;
}

/** The answer's status and JSON object, and the id of what a create made (put into the run's ledger). */
function received(e: Exchange): Sent {
  const b = e.response ? jsonBody(e.response) : undefined;
  return { e, ...(e.response ? { status: e.response.status } : {}), ...(isPlainObject(b) ? { body: b } : {}) };
}

export async function create(env: UnitEnv, res: CalendarResource, unitId: string, fields: Record<string, unknown>, name?: string): Promise<Sent> {
  const body = { ...minimalCreateBody(res, name ?? `${env.marker} ${unitId}`, env.now()), ...fields };
  const e = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: body }, intent: 'write' }, res.create);
  const id = createdId(e);
  if (id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy: unitId });
  return { ...received(e), ...(id !== undefined ? { id } : {}) };
}

export async function send(env: UnitEnv, op: Operation, method: WireMethod, id: number, extra: { query?: Record<string, unknown>; body?: Record<string, unknown>; auth?: false } = {}): Promise<Sent> {
  return received(await env.send({
    method, route: fillTemplate(op.path, { id }), ...(extra.query ? { query: extra.query } : {}), ...(extra.body ? { body: { kind: 'json', value: extra.body } } : {}),
    ...(extra.auth === false ? { auth: false } : {}), ...(method === 'GET' ? {} : { intent: 'write' }),
  }, op));
}

/** A word of the run and unit no site holds, lower case (a slug): `sc<hash>`. */
export function word(env: UnitEnv, unitId: string, n: number): string {
  return `sc${fnv1a(`${env.runId}:${unitId}:${n}`).toString(36)}`;
}

/** One variant's judgement: the steps' problems, or why it could not be judged. */
export class Verdict {
  problems: string[] = [];
  unjudged?: { outcome: Outcome; message: string; e: Exchange };
  shown?: Exchange;
  readonly did: string[] = [];
  /** A step that must have succeeded (with a JSON object, unless `bodyless`) for the comparison to mean anything; false (and the verdict unjudged) if not. */
  needs(s: Sent, what: string, bodyless = false): s is Sent & { body: Record<string, unknown> } {
    if (this.unjudged) return false;
    const t = transportOutcome(s.e);
    if (t) this.unjudged = { outcome: t.outcome, message: t.message, e: s.e };
    else if ((!s.body && !bodyless) || s.status === undefined || s.status < 200 || s.status >= 300) this.unjudged = { outcome: 'inconclusive', message: `${what} answered ${describeAnswer(s.e.response)}: nothing to compare`, e: s.e };
    return !this.unjudged;
  }
  expect(ok: boolean, s: Sent, problem: string, done: string): void {
    if (this.unjudged) return;
    if (ok) this.did.push(done);
    else {
      this.problems.push(problem);
      this.shown = s.e;
    }
  }
}

export function emit(env: UnitEnv, check: string, op: Operation, variant: string, severity: Severity, v: Verdict, rule: string): void {
  const say = emitterFor(env, check, op, severity);
  if (v.unjudged && v.problems.length === 0) return say(variant, v.unjudged.outcome, v.unjudged.message, v.unjudged.e);
  if (v.problems.length) return say(variant, 'fail', `expected ${rule}: ${v.problems.join('; ')}`, v.shown);
  say(variant, 'pass', `${v.did.join('; ')}`, v.shown);
}
