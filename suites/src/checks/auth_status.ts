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
//
// Probes of its own, on the root and a cal/v1 list: the cookie nonce (rest_cookie_check_errors()) and wrong
// application passwords (rest_application_password_check_errors()).

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

/**
 * The codes core's posts controller (cal/v1's) refuses each operation with: its permission callbacks name the
 * operation (create_item_permissions_check(): rest_cannot_create, then the author, sticky and term rows;
 * update_item_permissions_check(): rest_cannot_edit...; delete_item_permissions_check(): rest_cannot_delete; a read:
 * rest_forbidden_context for context=edit, else the server's rest_forbidden for check_read_permission()'s false).
 */
const POSTS_REFUSAL_CODES: Readonly<Record<string, readonly string[]>> = {
  create: ['rest_cannot_create', 'rest_cannot_edit_others', 'rest_cannot_assign_sticky', 'rest_cannot_assign_term', 'rest_cannot_publish'],
  update: ['rest_cannot_edit', 'rest_cannot_edit_others', 'rest_cannot_assign_sticky', 'rest_cannot_assign_term', 'rest_cannot_publish'],
  delete: ['rest_cannot_delete'],
  read: ['rest_forbidden_context', 'rest_forbidden'],
  list: ['rest_forbidden_context', 'rest_forbidden', 'rest_forbidden_who'],
};
const CODES_RULE = "WordPress convention, WP_REST_Posts_Controller's *_permissions_check(); a plugin's own controllers may name their own, so assumed";

/** What is wrong with the code of a cal/v1 record operation's refusal; undefined when core's controller names it. */
function refusalCodeProblem(op: Operation | undefined, e: Exchange): string | undefined {
  const codes = op && op.namespace === 'cal/v1' && op.resource ? POSTS_REFUSAL_CODES[op.kind] : undefined;
  const code = permissionRefusal(e);
  if (!codes || code === undefined || codes.includes(code)) return undefined;
  return `a ${op!.kind} refused for permission answered code ${code}, where core's posts controller names ${codes.join(' or ')}`;
}

/** Judged as each answer arrives; keeps at most the first wrong exchange per operation. */
export class AuthRefusals implements AnswerSweep {
  private readonly sweep = new FirstProblemPerOperation(() => ({ anonymous: 0 }));
  private readonly codes = new FirstProblemPerOperation();

  constructor(private readonly hasCredentials: boolean) {}

  add(op: Operation | undefined, e: Exchange, sent: Outgoing): void {
    // The low user's refusals have their own case (permissions.ts, low-user:…): one cause, one finding.
    if (sent.auth === 'low' || permissionRefusal(e) === undefined) return;
    const slot = this.sweep.add(op, e, () => authStatusProblem(e, this.hasCredentials));
    if (!signedIn(e, this.hasCredentials)) slot.anonymous++;
    if (op && op.namespace === 'cal/v1' && op.resource && POSTS_REFUSAL_CODES[op.kind]) this.codes.add(op, e, () => refusalCodeProblem(op, e));
  }

  findings(unit: Unit): Finding[] {
    const codes = this.codes.slots().map(({ op, judged, worst }) => ({
      check: AUTH_STATUS,
      ...findingPlace(op, unit),
      variant: `refusal-codes:${unit.id}`,
      severity: 'assumed' as const,
      outcome: worst ? ('fail' as const) : ('pass' as const),
      message: worst
        ? `expected the refusal to name the operation refused (${CODES_RULE}); ${worst.problem} (${worst.e.request.method} ${worst.e.request.url})`
        : `${judged} refusal(s) for permission, each with a code core's posts controller names for a ${op?.kind ?? '?'}`,
      ...(worst ? { exchange: worst.e } : {}),
    }));
    return [...codes, ...this.sweep.slots().map(({ op, judged: refusals, anonymous, worst }) => ({
      check: AUTH_STATUS,
      ...findingPlace(op, unit),
      variant: `refusals:${unit.id}`,
      severity: 'convention' as const,
      outcome: worst ? ('fail' as const) : ('pass' as const),
      message: worst
        ? `expected 401 without credentials and 403 for a signed-in user (WordPress convention, rest_authorization_required_code()); ${worst.problem} (${worst.e.request.method} ${worst.e.request.url})`
        : `${refusals} refusal(s) for permission, ${anonymous} without credentials (401) and ${refusals - anonymous} signed in (403), as WordPress answers`,
      ...(worst ? { exchange: worst.e } : {}),
    }))];
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

/** Login codes WordPress's authentication answers with (wp_authenticate_application_password(), the REST server). */
const LOGIN_CODES = new Set(['incorrect_password', 'invalid_username', 'invalid_email', 'rest_not_logged_in', 'application_passwords_disabled', 'application_passwords_disabled_for_user']);
/** Well formed (24 letters in groups of four), and no site's: WordPress strips the spaces before comparing. */
const WRONG_PASSWORD = 'SCno tAPa sswo rdSC noTA PASS';
const APP_PASSWORD_RULE = 'WordPress convention, rest_application_password_check_errors(): an application password that does not verify logs nobody in';

/**
 * Wrong application passwords, for a user most sites have (admin) and one no site has: the answer is the anonymous
 * client's (WordPress 6.1 on the CI sites), or 401 with a login code (the error rest_application_password_check_errors()
 * returns where it is collected); never the user's. Judged on a read only a signed-in editor is answered (a list of
 * drafts), so "as the user" and "as anonymous" differ. One request each: a login limiter counts failures.
 */
async function wrongAppPassword(env: UnitEnv, list: Operation): Promise<void> {
  const emit = (variant: string, outcome: Outcome, message: string, e?: Exchange): void =>
    env.emit({ check: AUTH_STATUS, operation: list, variant: `app-password:${variant}`, severity: 'convention', outcome, message, ...(e ? { exchange: e } : {}) });
  const query = { status: 'draft', per_page: 1 };
  if (env.headersSignIn) {
    for (const v of ['known-user', 'unknown-user']) emit(v, 'skip', SIGNED_IN_BY_HEADERS);
    return;
  }
  const anon = await env.send({ method: 'GET', route: list.path, query, auth: false }, list);
  const ta = transportOutcome(anon);
  if (ta) {
    for (const v of ['known-user', 'unknown-user']) emit(v, ta.outcome, ta.message, anon);
    return;
  }
  const a = anon.response!;
  if (a.status < 400) {
    for (const v of ['known-user', 'unknown-user']) emit(v, 'inconclusive', `an anonymous GET ${list.path}?status=draft answered ${describeAnswer(a)}: with drafts open to anyone, an answer "as the user" cannot be told from an anonymous one`, anon);
    return;
  }
  const anonCode = wpError(a)?.code;
  for (const [variant, user] of [['known-user', 'admin'], ['unknown-user', `site-contracts-no-such-user-${env.runId}`]] as const) {
    const authorization = `Basic ${Buffer.from(`${user}:${WRONG_PASSWORD}`).toString('base64')}`;
    const e = await env.send({ method: 'GET', route: list.path, query, auth: false, headers: { Authorization: authorization } }, list);
    const t = transportOutcome(e);
    if (t) {
      emit(variant, t.outcome, t.message, e);
      continue;
    }
    const r = e.response!;
    const code = wpError(r)?.code;
    const what = `GET ${list.path}?status=draft with a wrong application password for ${variant === 'known-user' ? 'the user admin' : 'a user no site has'}`;
    if (r.status === a.status && code === anonCode) emit(variant, 'pass', `${what}: answered as anonymous (${describeAnswer(r)})`, e);
    else if (r.status === 401 && code !== undefined && LOGIN_CODES.has(code)) emit(variant, 'pass', `${what}: 401 ${code}`, e);
    else emit(variant, 'fail', `expected ${what} to be answered as an anonymous client is (${describeAnswer(a)}) or 401 with a login code (${[...LOGIN_CODES].slice(0, 3).join(', ')}...) (${APP_PASSWORD_RULE}); got ${describeAnswer(r)}${r.status < 300 ? ', an answer for a signed-in user' : ''}`, e);
  }
}

export function planAuthStatus(contract: Contract): Unit[] {
  const root = contract.operations.find((o) => o.kind === 'root');
  const drafts = contract.operations.find((o) => o.namespace === 'cal/v1' && o.resource === 'event' && o.kind === 'list');
  return [
    ...(root ? [{ id: `${AUTH_STATUS}:cookie-nonce`, family: AUTH_STATUS, checks: [AUTH_STATUS], operations: [root], run: (env: UnitEnv) => cookieNonce(env, root) }] : []),
    ...(drafts ? [{ id: `${AUTH_STATUS}:app-password`, family: AUTH_STATUS, checks: [AUTH_STATUS], operations: [drafts], run: (env: UnitEnv) => wrongAppPassword(env, drafts) }] : []),
  ];
}
