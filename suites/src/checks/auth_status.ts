// auth_status: a request refused for permission answers 401 when nobody is signed in and 403 when the signed-in user
// may not (rest_authorization_required_code(): `is_user_logged_in() ? 403 : 401`; every core permission callback and
// the server's own rest_forbidden use it). Judged on every refusal of the run, whichever check sent it (one case per
// unit and operation that got one, like error_envelope's sweep), so a plugin answering 403 to every anonymous request
// is caught wherever it happened. Convention: the documents show no status codes (000 §7).
//
// A refusal is a 401 or 403 in WordPress's envelope whose code says permission (rest_forbidden, rest_cannot_create,
// wpcf7_forbidden...). Codes about logging in (a wrong password given to a token route, a bad cookie nonce) are
// answers to what was sent, not to who sent it, and are not judged; nor is a 403 without the envelope, which a WAF or
// front answers (error_envelope reports the body).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Exchange, Outgoing } from '../http/types.ts';
import type { Outcome } from '../report/policy.ts';
import { SIGNED_IN_BY_HEADERS, type AnswerSweep, type Finding, type Unit, type UnitEnv } from './kit/unit.ts';
import { findingPlace, FirstProblemPerOperation } from './kit/per-operation.ts';
import { permissionRefusal } from './kit/refusals.ts';
import { describeAnswer, transportOutcome, wpError } from './kit/wp.ts';

export const AUTH_STATUS = 'auth_status';

/** Whether the request went with the run's WordPress credentials (a run with them refuses -H Authorization). */
function signedIn(e: Exchange, hasCredentials: boolean): boolean {
  return hasCredentials && Object.keys(e.request.headers).some((h) => h.toLowerCase() === 'authorization');
}

/** What is wrong with a permission refusal's status for who asked; undefined when it is WordPress's. */
function authStatusProblem(e: Exchange, hasCredentials: boolean): string | undefined {
  if (permissionRefusal(e) === undefined) return undefined;
  const status = e.response!.status;
  const inside = signedIn(e, hasCredentials);
  const want = inside ? 403 : 401;
  if (status === want) return undefined;
  return inside
    ? `a signed-in user refused for permission got ${describeAnswer(e.response)}, expected 403 (WordPress convention, rest_authorization_required_code(): 401 only when nobody is signed in)`
    : `a request without credentials refused for permission got ${describeAnswer(e.response)}, expected 401 (WordPress convention, rest_authorization_required_code(): 403 only for a signed-in user who may not)`;
}

/** Judged as each answer arrives; keeps at most the first wrong exchange per operation. */
export class AuthRefusals implements AnswerSweep {
  private readonly sweep = new FirstProblemPerOperation(() => ({ anonymous: 0 }));

  constructor(private readonly hasCredentials: boolean) {}

  add(op: Operation | undefined, e: Exchange, sent: Outgoing): void {
    // The low user's refusals have their own case (permissions.ts, low-user:…): one cause, one finding.
    if (sent.auth === 'low' || permissionRefusal(e) === undefined) return;
    const slot = this.sweep.add(op, e, () => authStatusProblem(e, this.hasCredentials));
    if (!signedIn(e, this.hasCredentials)) slot.anonymous++;
  }

  findings(unit: Unit): Finding[] {
    return this.sweep.slots().map(({ op, judged: refusals, anonymous, worst }) => ({
      check: AUTH_STATUS,
      ...findingPlace(op, unit),
      variant: `refusals:${unit.id}`,
      severity: 'convention' as const,
      outcome: worst ? ('fail' as const) : ('pass' as const),
      message: worst
        ? `expected 401 without credentials and 403 for a signed-in user (WordPress convention, rest_authorization_required_code()); ${worst.problem} (${worst.e.request.method} ${worst.e.request.url})`
        : `${refusals} refusal(s) for permission, ${anonymous} without credentials (401) and ${refusals - anonymous} signed in (403), as WordPress answers`,
      ...(worst ? { exchange: worst.e } : {}),
    }));
  }
}

/** A REST nonce no site issued: WordPress checks any it is sent (wp_verify_nonce() of 'wp_rest'). */
const BOGUS_NONCE = 'site-contracts-bogus';
const NONCE_RULE = "WordPress convention, rest_cookie_check_errors() through WP_REST_Server::check_authentication()";

/**
 * The cookie nonce, judged on the root (every WordPress has it; the rule runs before any route is matched):
 * - anonymous: a request carrying X-WP-Nonce that no application password logged in is held to the nonce, and one
 *   that does not verify is 403 rest_cookie_invalid_nonce ("Cookie check failed");
 * - no-route: so is a request for a route that does not exist (authentication comes before routing, not 404);
 * - signed-in: with the run's application password the nonce is not read (200), as a client that sends both gets.
 */
async function cookieNonce(env: UnitEnv, root: Operation): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: AUTH_STATUS, operation: root, variant: `cookie-nonce:${variant}`, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const headers = { 'X-WP-Nonce': BOGUS_NONCE };
  const refused = (variant: string, e: Exchange, what: string): void => {
    const t = transportOutcome(e);
    if (t) return emit(variant, t.outcome, t.message, e);
    const r = e.response!;
    const err = wpError(r);
    if (r.status === 403 && err?.code === 'rest_cookie_invalid_nonce' && err.data?.['status'] === 403) return emit(variant, 'pass', `${what} with X-WP-Nonce: ${BOGUS_NONCE} was refused 403 rest_cookie_invalid_nonce`, e);
    emit(variant, 'fail', `expected ${what} with X-WP-Nonce: ${BOGUS_NONCE} (a nonce no site issued) to be refused 403 {code: "rest_cookie_invalid_nonce", data: {status: 403}} before anything else (${NONCE_RULE}); got ${describeAnswer(r)}`, e);
  };
  if (env.headersSignIn) {
    // An application password in -H logs in, and WordPress then reads no nonce: a 200 would say nothing of the rule.
    for (const v of ['anonymous', 'no-route']) emit(v, 'skip', SIGNED_IN_BY_HEADERS);
  } else {
    refused('anonymous', await env.send({ method: 'GET', route: root.path, headers, auth: false }, root), 'an anonymous GET of the REST root');
    refused('no-route', await env.send({ method: 'GET', route: `/site-contracts-${env.runId}/no-such-route`, headers, auth: false }, root), 'an anonymous GET of a route no site has');
  }
  if (!env.hasCredentials) return emit('signed-in', 'skip', 'no credentials (--auth-env): an application password that makes the nonce unread cannot be sent');
  const e = await env.send({ method: 'GET', route: root.path, headers }, root);
  const t = transportOutcome(e);
  if (t) return emit('signed-in', t.outcome, t.message, e);
  const r = e.response!;
  if (r.status === 200) return emit('signed-in', 'pass', `with the run's application password, X-WP-Nonce: ${BOGUS_NONCE} was not read (200)`, e);
  emit('signed-in', 'fail', `expected a GET of the REST root with the run's application password and X-WP-Nonce: ${BOGUS_NONCE} to answer 200: a request an application password logged in is not held to a cookie nonce (${NONCE_RULE}, rest_application_password_collect_status()); got ${describeAnswer(r)}`, e);
}

export function planAuthStatus(contract: Contract): Unit[] {
  const root = contract.operations.find((o) => o.kind === 'root');
  return root ? [{ id: `${AUTH_STATUS}:cookie-nonce`, family: AUTH_STATUS, checks: [AUTH_STATUS], operations: [root], run: (env: UnitEnv) => cookieNonce(env, root) }] : [];
}
