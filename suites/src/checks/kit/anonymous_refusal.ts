// A documented fact seen through an anonymous refusal. Negative writes go without credentials, so a site that checks
// permission before validating answers 401 to a value the documents refuse (WordPress validates first: a convention
// finding). That 401 hides whether the site refuses the value at all: an administrator may get it stored (an SEO
// redirection of type 999). So the same request is sent once more with the run's credentials where the suite may:
// a calendar write (a create carries the marker and goes into the ledger; an update or delete names no record), an
// action the documents describe as a read (describedAsReading()), or any write on a --disposable-target. Accepted there, the finding is the documented one; refused, the convention one
// stands.

import type { Operation } from '../../../../contracts/lib/types.ts';
import type { Exchange, Outgoing } from '../../http/types.ts';
import type { Severity } from '../../report/model.ts';
import type { Outcome } from '../../report/policy.ts';
import { createdId } from './ledger.ts';
import type { UnitEnv } from './unit.ts';
import { describedAsReading } from './reading.ts';
import { resourceFor } from './resources.ts';
import { describeAnswer } from './wp.ts';

/** Why the credentialed twin of an anonymous request may not be sent; undefined when it may. */
function twinBlocker(env: UnitEnv, op: Operation): string | undefined {
  if (env.readOnly || !env.hasCredentials) return 'the run has no credentials to send it with';
  if (resourceFor(env.contract, op) || env.disposable || describedAsReading(env.contract, op)) return undefined;
  return 'with credentials it would be a write the suite cannot undo (--disposable-target sends it)';
}

/** The same request with the run's credentials, when the anonymous one was refused for who sent it and the suite may. */
export async function credentialedTwin(env: UnitEnv, op: Operation, out: Outgoing, anonymous: Exchange, createdBy: string): Promise<Exchange | undefined> {
  const status = anonymous.response?.status;
  if (out.auth !== false || (status !== 401 && status !== 403) || twinBlocker(env, op)) return undefined;
  const { auth: _anonymous, ...rest } = out;
  const e = await env.send({ ...rest, intent: 'write' }, op);
  const res = resourceFor(env.contract, op);
  const id = res && op.kind === 'create' ? createdId(e) : undefined;
  if (res && id !== undefined) env.ledger.add({ namespace: res.namespace, resource: res.resource, id, itemPath: res.read.path, createdBy });
  return e;
}

/** The verdict once the credentialed twin is known: accepted, the documented finding replaces the convention one. */
export function withTwin(verdict: { outcome: Outcome; severity: Severity; message: string }, anonymous: Exchange, twin: Exchange | undefined, expected: string): { outcome: Outcome; severity: Severity; message: string; exchange: Exchange } {
  const r = twin?.response;
  if (!twin || !r) return { ...verdict, exchange: anonymous };
  if (r.status >= 200 && r.status < 300) {
    return {
      outcome: 'fail',
      severity: 'documented',
      message: `${expected}; with credentials the same request was accepted (${r.status}); without them it got ${describeAnswer(anonymous.response)}, a refusal for who asked, not for the value`,
      exchange: twin,
    };
  }
  return { ...verdict, message: `${verdict.message}; with credentials the same request got ${describeAnswer(r)}`, exchange: anonymous };
}
