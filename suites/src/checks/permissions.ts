// What an anonymous client may do to a calendar resource, asked without risk: the suite makes a record of its own,
// then sends without credentials a create (with the run's marker, so cleanup finds it should the site take it), an
// update of its record and a delete of it. Which routes need credentials is not shown (000 §5), so nothing here
// says whether they should be refused; what is judged is how:
// - auth_status: the refusals are 401 (the run's sweep judges every refusal, these included, auth_status.ts);
// - allow_header: the Allow of the anonymous reads of the collection and of the record leaves out each method the
//   anonymous client was just refused and lists each it was let through, and lists nothing the signed-in reads
//   leave out; the signed-in collection lists POST, which the suite's own create just used.
// Needs credentials (the record, and removing what an anonymous write may have made) and no --read-only.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { fillTemplate } from '../http/target.ts';
import type { Exchange } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { createdId } from './kit/ledger.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { ALLOW_HEADER, allowOf } from './allow_header.ts';
import { AUTH_STATUS } from './auth_status.ts';
import { permissionRefusal } from './kit/refusals.ts';
import { writeBlocker } from './kit/writes.ts';
import { calendarResources, createOwn, minimalCreateBody, type CalendarResource } from './kit/resources.ts';
import { describeAnswer, transportOutcome } from './kit/wp.ts';
import { lowUserTries, lowUserVerdict, NO_LOW_USER } from './kit/low_user.ts';

const accepted = (e: Exchange): boolean => !!e.response && e.response.status >= 200 && e.response.status < 300;

/** Whether the answer refused the request for who sent it: a permission refusal, or a bare 401/403. */
function refused(e: Exchange): boolean {
  return permissionRefusal(e) !== undefined || e.response?.status === 401 || e.response?.status === 403;
}

interface Tried {
  method: string;
  e: Exchange;
}

/** What is wrong with an Allow given what the same user was just refused or let do; undefined when nothing is. */
function allowAgainstTries(allow: readonly string[], tried: readonly Tried[]): string | undefined {
  for (const { method, e } of tried) {
    if (refused(e) && allow.includes(method)) return `Allow: ${allow.join(', ')} lists ${method}, which the same user was just refused (${method} answered ${describeAnswer(e.response)})`;
    if (accepted(e) && !allow.includes(method)) return `Allow: ${allow.join(', ')} leaves out ${method}, which the same user was just let through (${method} answered ${e.response!.status})`;
  }
  return undefined;
}

async function permissions(env: UnitEnv, res: CalendarResource): Promise<void> {
  const unitId = `permissions:${res.namespace}/${res.resource}`;
  const emitAllow = (op: Operation, variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: ALLOW_HEADER, operation: op, variant, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const emitAuth = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: AUTH_STATUS, operation: res.create, variant: `anonymous:${res.namespace}/${res.resource}`, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const emitLow = (outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: AUTH_STATUS, operation: res.update, variant: `low-user:${res.namespace}/${res.resource}`, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}), ...(env.lowAuthEnv ? { authEnv: env.lowAuthEnv } : {}) });
  const variants = ['anonymous:collection', 'anonymous:item', 'signed-in:collection'];
  const blocked = writeBlocker(env);
  if (blocked) {
    emitAuth('skip', blocked);
    emitLow('skip', env.lowAuthEnv ? blocked : NO_LOW_USER);
    return variants.forEach((v) => emitAllow(v.endsWith('item') ? res.read : res.list, v, 'skip', blocked));
  }
  const { record, exchange } = await createOwn(env, res, unitId, 'permissions');
  if (!record) {
    const t = transportOutcome(exchange);
    const why = t?.message ?? `could not create a record of its own (${describeAnswer(exchange.response)})`;
    emitAuth(t?.outcome ?? 'inconclusive', why, exchange);
    emitLow(env.lowAuthEnv ? (t?.outcome ?? 'inconclusive') : 'skip', env.lowAuthEnv ? why : NO_LOW_USER, exchange);
    return variants.forEach((v) => emitAllow(v.endsWith('item') ? res.read : res.list, v, t?.outcome ?? 'inconclusive', why, exchange));
  }
  const item = fillTemplate(res.read.path, { id: record.id });
  const collection = fillTemplate(res.list.path, {});
  const reads = {
    'anonymous:collection': await env.send({ method: 'GET', route: collection, auth: false }, res.list),
    'anonymous:item': await env.send({ method: 'GET', route: item, auth: false }, res.read),
    'signed-in:collection': await env.send({ method: 'GET', route: collection }, res.list),
  };
  const label = `${env.marker} anonymous ${unitId}`;
  const create = await env.send({ method: 'POST', route: collection, body: { kind: 'json', value: minimalCreateBody(res, label, env.now()) }, intent: 'write', auth: false }, res.create);
  const madeId = createdId(create);
  if (madeId !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id: madeId, itemPath: res.read.path, createdBy: unitId });
  const update = await env.send({ method: res.update.method, route: fillTemplate(res.update.path, { id: record.id }), body: { kind: 'json', value: { [res.nameField]: `${label} update` } }, intent: 'write', auth: false }, res.update);
  const del = await env.send({ method: 'DELETE', route: fillTemplate(res.delete.path, { id: record.id }), intent: 'write', auth: false }, res.delete);

  const anonymousTries = [create, update, del];
  const t = anonymousTries.map(transportOutcome).find((x) => x !== undefined);
  if (t) emitAuth(t.outcome, t.message);
  else if (!anonymousTries.some((e) => permissionRefusal(e) !== undefined)) {
    emitAuth('inconclusive', `no anonymous write was refused for permission (${anonymousTries.map((e) => `${e.request.method} ${describeAnswer(e.response)}`).join(', ')}), so no refusal's status could be seen; which routes need credentials is not shown (000 §5)`, create);
  }
  // Refusals are judged by the run's sweep (auth_status.ts), which sees these exchanges too.
  if (!env.lowAuthEnv) emitLow('skip', NO_LOW_USER);
  else {
    const v = lowUserVerdict(await lowUserTries(env, res, record.id, unitId), env.lowAuthEnv);
    emitLow(v.outcome, v.message, v.exchange);
  }

  const tries: Record<string, Tried[]> = {
    'anonymous:collection': [{ method: 'POST', e: create }],
    'anonymous:item': [
      { method: res.update.method, e: update },
      { method: 'DELETE', e: del },
    ],
    'signed-in:collection': [{ method: 'POST', e: exchange }],
  };
  const signedInAllow = allowOf(reads['signed-in:collection']);
  for (const [variant, read] of Object.entries(reads)) {
    const op = variant.endsWith('item') ? res.read : res.list;
    const tr = transportOutcome(read);
    if (tr) {
      emitAllow(op, variant, tr.outcome, tr.message, read);
      continue;
    }
    const allow = allowOf(read);
    if (!accepted(read) || allow === undefined) {
      // A read that was refused, or an answer without Allow (allow_header's sweep reports a 2xx without one).
      emitAllow(op, variant, 'inconclusive', `GET answered ${describeAnswer(read.response)}${allow === undefined ? ' without Allow' : ''}, so what it allows cannot be compared with what was tried`, read);
      continue;
    }
    const problem =
      allowAgainstTries(allow, tries[variant]!) ??
      (variant === 'anonymous:collection' && signedInAllow && allow.some((m) => !signedInAllow.includes(m))
        ? `anonymous Allow: ${allow.join(', ')} lists ${allow.filter((m) => !signedInAllow.includes(m)).join(', ')}, which the signed-in answer (Allow: ${signedInAllow.join(', ')}) leaves out`
        : undefined);
    if (problem) emitAllow(op, variant, 'fail', `expected Allow to list only the methods this user may use (WordPress convention, rest_send_allow_header()); ${problem}`, read);
    else emitAllow(op, variant, 'pass', `Allow: ${allow.join(', ')}, as the tries showed (${tries[variant]!.map(({ method, e }) => `${method} ${e.response?.status ?? e.error?.kind}`).join(', ')})`, read);
  }
}

export function planPermissions(contract: Contract): Unit[] {
  return calendarResources(contract).map((res) => ({
    id: `permissions:${res.namespace}/${res.resource}`,
    family: AUTH_STATUS,
    checks: [AUTH_STATUS, ALLOW_HEADER],
    operations: [res.create, res.list, res.read, res.update, res.delete],
    writes: true,
    run: (env: UnitEnv) => permissions(env, res),
  }));
}
