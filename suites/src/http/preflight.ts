// Before anything else: is there a WordPress REST root where the person pointed us, and do the
// credentials work there? An answer that is not a REST root (connection refused, a timeout, an HTML
// page) or credentials the site refuses end the run with exit 2 and a message that says what to
// change, before any request that could write: every check would otherwise fail for the same
// uninteresting reason ("create did not give a record id: 401").

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { CredentialsRefusedError, TargetUnreachableError } from '../errors.ts';
import { liveEndpoint, parseDescriptor, type LiveDescriptor } from '../diff/descriptor.ts';
import type { HttpClient } from './client.ts';
import { jsonBody, type Exchange, type Outgoing } from './types.ts';

/** The root descriptor of a site with many plugins runs to megabytes; more than this is not one. */
const ROOT_MAX_BODY_BYTES = 32 * 1024 * 1024;

interface Reached {
  descriptor: LiveDescriptor;
  exchange: Exchange;
}

function hint(client: HttpClient): string {
  return `check --base-url (${client.target.baseUrl}) and --api-root (${client.target.apiRoot})`;
}

/** A transport failure before the run began, as the message that says what to change. */
function unreachable(client: HttpClient, exchange: Exchange): TargetUnreachableError {
  const url = exchange.request.url;
  const { kind, message } = exchange.error!;
  if (kind === 'timeout') return new TargetUnreachableError(`${url} did not answer within the timeout: ${message}; ${hint(client)}, or raise --timeout-ms`);
  if (kind === 'aborted') return new TargetUnreachableError(`stopped before ${url} answered`);
  return new TargetUnreachableError(`cannot reach ${url} (${message}); ${hint(client)}, and that the site is running`);
}

export async function reachRoot(client: HttpClient): Promise<Reached> {
  // Without credentials first: a wrong application password makes some sites answer 401 even here,
  // and that is a different message than "not a WordPress".
  const exchange = await client.send({ method: 'GET', route: '/', auth: false, maxBodyBytes: ROOT_MAX_BODY_BYTES });
  const url = exchange.request.url;
  const { target } = client;
  if (exchange.error) throw unreachable(client, exchange);
  const r = exchange.response!;
  if (r.bodyCut) throw new TargetUnreachableError(`${url} answered more than ${ROOT_MAX_BODY_BYTES / (1024 * 1024)} MiB: not a WordPress REST root descriptor; ${hint(client)}`);
  const body = jsonBody(r);
  const type = r.headers['content-type'] ?? 'no content type';
  if (r.status !== 200 || body === undefined) {
    const alt = target.apiRoot === '/wp-json' ? " (a site without pretty permalinks needs --api-root rest_route)" : '';
    throw new TargetUnreachableError(`${url} is not a WordPress REST root: it answered ${r.status} with ${type}; ${hint(client)}${alt}`);
  }
  try {
    return { descriptor: parseDescriptor(body), exchange };
  } catch (e) {
    throw new TargetUnreachableError(`${url} answered JSON but not a WordPress REST root (${(e as Error).message}); ${hint(client)}`);
  }
}

/**
 * Error codes with which WordPress (and plugins that guard the REST API) turn credentials down on any
 * route: a wrong application password, an unknown user, application passwords switched off, or the
 * Authorization header never reaching WordPress so that the request counts as anonymous.
 */
const REFUSAL_CODES: Readonly<Record<string, string>> = {
  incorrect_password: 'the application password is wrong',
  invalid_username: 'the site has no user of that name',
  invalid_email: 'the site has no user with that email address',
  application_passwords_disabled: 'application passwords are switched off on the site',
  application_passwords_disabled_for_user: 'application passwords are switched off for this user',
  rest_not_logged_in: 'the site did not log in with them: the request counted as anonymous',
  rest_cannot_access: 'the site refuses the REST API to this request (a plugin guarding it)',
};

export type CredentialCheck =
  /** The site logged in with the credentials (and, when it could tell, lets the user see drafts). */
  | { kind: 'accepted'; evidence: string; note?: string }
  /** Nothing the site serves could tell; the run goes on and says so. */
  | { kind: 'unconfirmed'; why: string };

interface CredentialCheckOptions {
  /** The environment variable the credentials came from, for the message. */
  envVar: string;
  /** --read-only: the run writes nothing, so a user who may not edit is enough. */
  readOnly: boolean;
}

interface Probe {
  name: 'me' | 'drafts';
  out: Outgoing;
}

/** Harmless reads that only succeed for a logged-in user, among the routes the target serves. */
export function credentialProbes(contract: Contract, descriptor: LiveDescriptor): Probe[] {
  const probes: Probe[] = [];
  if (liveEndpoint(descriptor, '/wp/v2/users/me', 'GET')) {
    probes.push({ name: 'me', out: { method: 'GET', route: '/wp/v2/users/me', query: { context: 'edit' } } });
  }
  // A site without wp/v2 (or with its users routes removed) still answers a list of drafts only to a
  // user who may edit them: anonymous is 400 rest_forbidden_status, as WordPress's posts controller does.
  const drafts = contract.operations.find((op) => op.kind === 'list' && op.method === 'GET' && op.namespace.startsWith('cal/') && listsDrafts(op) && liveEndpoint(descriptor, op.path, 'GET'));
  if (drafts) probes.push({ name: 'drafts', out: { method: 'GET', route: drafts.path, query: { status: 'draft', per_page: 1 } } });
  return probes;
}

function listsDrafts(op: Operation): boolean {
  const status = op.params.find((p) => p.in === 'query' && p.name === 'status');
  const schema = status?.schema as { enum?: unknown[]; items?: { enum?: unknown[] } } | undefined;
  return (schema?.items?.enum ?? schema?.enum ?? []).includes('draft') && op.params.some((p) => p.in === 'query' && p.name === 'per_page');
}

interface Judged {
  verdict: 'accepted' | 'refused' | 'unknown';
  /** `401 rest_not_logged_in ("You are not currently logged in.")` */
  answer: string;
  why?: string;
  /** The code is one only credentials trouble gives. */
  definite?: boolean;
}

function judge(probe: Probe, e: Exchange): Judged {
  const r = e.response!;
  const body = jsonBody(r) as { code?: unknown; message?: unknown; data?: { params?: Record<string, unknown>; details?: Record<string, { code?: unknown; data?: { status?: unknown } }> } } | undefined;
  const code = typeof body?.code === 'string' ? body.code : undefined;
  const message = typeof body?.message === 'string' ? ` (${JSON.stringify(body.message)})` : '';
  const answer = `${r.status}${code ? ` ${code}` : ''}${message}`;
  if (code && REFUSAL_CODES[code] && r.status >= 400) return { verdict: 'refused', answer, why: REFUSAL_CODES[code], definite: true };
  if (r.status >= 200 && r.status < 300) return { verdict: 'accepted', answer };
  if (probe.name === 'drafts' && r.status === 400) {
    const detail = body?.data?.details?.['status'];
    const forbidden = detail?.code === 'rest_forbidden_status' || /forbidden/i.test(String(body?.data?.params?.['status'] ?? ''));
    if (forbidden) {
      // WordPress answers rest_authorization_required_code(): 401 when nobody is logged in, 403 when the user may not.
      const why = detail?.data?.status === 403 ? 'the user is logged in but may not see drafts of calendar records, so it may not edit them' : 'the site treated the request as anonymous';
      return { verdict: 'refused', answer, why };
    }
  }
  if (r.status === 401) return { verdict: 'refused', answer, why: 'the site treated the request as anonymous' };
  if (r.status === 403) return { verdict: 'refused', answer, why: 'the user may not do this' };
  return { verdict: 'unknown', answer };
}

function refused(e: Exchange, j: Judged, o: CredentialCheckOptions): CredentialsRefusedError {
  return new CredentialsRefusedError(
    `credentials refused by the site: ${e.request.method} ${e.request.url} answered ${j.answer}${j.why ? `: ${j.why}` : ''}.\n` +
      `  To fix: check that ${o.envVar} holds user:application-password of a user who may edit calendar records ` +
      `(an application password from Users > Profile > Application Passwords, not the login password); ` +
      `that the web server passes the Authorization header on to WordPress (Apache running PHP as CGI/FastCGI drops it ` +
      `unless told to keep it); and that application passwords are available (WordPress offers them only over HTTPS, ` +
      `or when WP_ENVIRONMENT_TYPE is local). Or run without credentials (no --auth-env, SITE_CONTRACTS_AUTH unset): nothing is written then.`,
  );
}

/**
 * Checks the run's credentials against the site with harmless reads, before the run sends anything
 * that could write. Throws CredentialsRefusedError when the site refuses them.
 */
export async function checkCredentials(client: HttpClient, contract: Contract, descriptor: LiveDescriptor, o: CredentialCheckOptions): Promise<CredentialCheck> {
  let loggedIn: string | undefined;
  let unsure: { e: Exchange; j: Judged } | undefined;
  const unknown: string[] = [];
  for (const probe of credentialProbes(contract, descriptor)) {
    const e = await client.send(probe.out);
    if (e.error?.kind === 'budget') return { kind: 'unconfirmed', why: 'the request budget (--max-requests) ran out before the credentials could be checked' };
    if (e.error) throw unreachable(client, e);
    const j = judge(probe, e);
    const said = `${e.request.method} ${e.request.url} answered ${j.answer}`;
    if (j.verdict === 'refused' && j.definite) throw refused(e, j, o);
    if (probe.name === 'me') {
      if (j.verdict === 'accepted') loggedIn = said;
      // A plugin may guard the users routes even from logged-in users; the drafts read decides then.
      else if (j.verdict === 'refused') unsure = { e, j };
      else unknown.push(said);
      continue;
    }
    if (j.verdict === 'accepted') return { kind: 'accepted', evidence: said };
    if (j.verdict === 'refused') {
      if (loggedIn && o.readOnly) return { kind: 'accepted', evidence: loggedIn, note: `${said}: ${j.why}; enough for --read-only` };
      throw refused(e, j, o);
    }
    unknown.push(said);
  }
  if (loggedIn) return { kind: 'accepted', evidence: loggedIn };
  if (unsure) throw refused(unsure.e, unsure.j, o);
  return {
    kind: 'unconfirmed',
    why: unknown.length > 0 ? `no answer told: ${unknown.join('; ')}` : 'the site serves no read that needs credentials (neither /wp/v2/users/me nor a calendar list of drafts)',
  };
}
