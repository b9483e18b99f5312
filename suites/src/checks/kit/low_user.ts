// auth_status, signed-in half: a request refused for permission answers 403 when someone is signed in who may not
// (rest_authorization_required_code(): `is_user_logged_in() ? 403 : 401`), never 401, and in WordPress's error
// envelope. Seeing it needs a user with fewer rights than the run's: --low-auth-env names one (a subscriber or an
// author). That user is asked, on each calendar resource, to create a record (with the run's marker, so cleanup
// finds it should the site take it), to change the run's own record and to delete it.
//
// Which user may do what is not shown (000 §5: "the permission needed for each write: not shown"; 001 §5 the same),
// and the documents mark no operation as an administrator's: nothing here expects a refusal. What is judged is how
// a refusal is answered; a user let through everything shows nothing (inconclusive, with what came back), and a run
// without --low-auth-env says the half is not judged (skipped, with the reason).

import type { Exchange } from '../../http/types.ts';
import type { Outcome } from '../../report/policy.ts';
import { createdId } from './ledger.ts';
import type { UnitEnv } from './unit.ts';
import { fillTemplate } from '../../http/target.ts';
import { LOGIN_CODE, permissionRefusal } from './refusals.ts';
import { minimalCreateBody, type CalendarResource } from './resources.ts';
import { describeAnswer, transportOutcome, wpError } from './wp.ts';

interface LowUserVerdict {
  outcome: Outcome;
  message: string;
  exchange?: Exchange;
}

const RULE = "WordPress convention, rest_authorization_required_code(): 401 only when nobody is signed in, 403 for a signed-in user who may not";

/** What the low user's tries show about the status of a signed-in refusal. `envVar` names the user in messages. */
export function lowUserVerdict(tries: readonly Exchange[], envVar: string): LowUserVerdict {
  const t = tries.map((e) => ({ e, t: transportOutcome(e) })).find((x) => x.t !== undefined);
  if (t) return { ...t.t!, exchange: t.e };
  const what = (e: Exchange): string => `${e.request.method} ${describeAnswer(e.response)}`;
  const refusals = tries.filter((e) => e.response?.status === 401 || e.response?.status === 403);
  for (const e of refusals) {
    const r = e.response!;
    const err = wpError(r);
    if (r.status === 401 && err && LOGIN_CODE.test(err.code) && permissionRefusal(e) === undefined) {
      return { outcome: 'inconclusive', message: `the site did not take the credentials from ${envVar} (${what(e)}: ${err.message}), so nothing was asked as a signed-in user; ${envVar} must hold user:application-password of an existing user`, exchange: e };
    }
    if (r.status === 401) return { outcome: 'fail', message: `expected 403 for a signed-in user refused for permission (${RULE}); the user from ${envVar} got ${describeAnswer(r)} to ${e.request.method} ${e.request.url}`, exchange: e };
    if (!err) return { outcome: 'fail', message: `expected a refusal of a signed-in user in WordPress's error envelope ({code, message, data: {status: 403}}); the user from ${envVar} got 403 without it (${describeAnswer(r)}) to ${e.request.method} ${e.request.url}`, exchange: e };
  }
  if (refusals.length === 0) {
    return {
      outcome: 'inconclusive',
      message: `the user from ${envVar} was refused none of the writes (${tries.map(what).join(', ')}), so no signed-in refusal's status could be seen; which user may do what is not shown (000 §5): a subscriber's credentials show it`,
      exchange: tries[0],
    };
  }
  return { outcome: 'pass', message: `the user from ${envVar} was refused ${refusals.length} of ${tries.length} write(s), each 403 in the envelope (${tries.map(what).join(', ')}), as WordPress answers a signed-in user who may not`, exchange: refusals[0] };
}

/** The low user's create, update and delete on `res`; `id` is the run's own record. What the site took goes to the ledger. */
export async function lowUserTries(env: UnitEnv, res: CalendarResource, id: number, unitId: string): Promise<Exchange[]> {
  const label = `${env.marker} low-user ${unitId}`;
  const create = await env.send({ method: 'POST', route: fillTemplate(res.create.path, {}), body: { kind: 'json', value: minimalCreateBody(res, label, env.now()) }, intent: 'write', auth: 'low' }, res.create);
  const madeId = createdId(create);
  if (madeId !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id: madeId, itemPath: res.read.path, createdBy: unitId });
  const update = await env.send({ method: res.update.method, route: fillTemplate(res.update.path, { id }), body: { kind: 'json', value: { [res.nameField]: `${label} update` } }, intent: 'write', auth: 'low' }, res.update);
  const del = await env.send({ method: 'DELETE', route: fillTemplate(res.delete.path, { id }), intent: 'write', auth: 'low' }, res.delete);
  return [create, update, del];
}

/** Why the signed-in half is not judged in a run without --low-auth-env. */
export const NO_LOW_USER = 'no --low-auth-env: a signed-in refusal (403, not 401) needs the credentials of a user with fewer rights (a subscriber or author); the anonymous half (401) is judged';
