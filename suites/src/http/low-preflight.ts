// --low-auth-env's user, checked before the run like --auth-env's: credentials the site does not take leave a request
// anonymous on WordPress (an unknown user) or refuse it with a code only credentials trouble gives. Either way the
// low user's refusals would be 401, and auth_status would blame the site for answering a signed-in user 401. So the
// same harmless reads decide first whether the site logs that user in: /wp/v2/users/me (200 when logged in), or a
// calendar list of drafts, which WordPress refuses inside a 400 with 401 for nobody and 403 for a user who may not.

import type { Contract } from '../../../contracts/lib/loader.ts';
import { CredentialsRefusedError } from '../errors.ts';
import type { LiveDescriptor } from '../diff/descriptor.ts';
import type { HttpClient } from './client.ts';
import { credentialProbes, type CredentialCheck } from './preflight.ts';
import { jsonBody, type Exchange } from './types.ts';

const CREDENTIAL_CODES = /^(incorrect_password|invalid_username|invalid_email|application_passwords_disabled(_for_user)?|rest_not_logged_in)$/;

function answer(e: Exchange): string {
  const b = jsonBody(e.response) as { code?: unknown } | undefined;
  return `${e.response!.status}${typeof b?.code === 'string' ? ` ${b.code}` : ''}`;
}

/** The status inside a drafts list's refusal (400 rest_invalid_param, data.details.status.data.status). */
function innerStatus(e: Exchange): unknown {
  const b = jsonBody(e.response) as { data?: { details?: Record<string, { data?: { status?: unknown } }> } } | undefined;
  return b?.data?.details?.['status']?.data?.status;
}

export async function checkLowCredentials(client: HttpClient, contract: Contract, descriptor: LiveDescriptor, envVar: string): Promise<CredentialCheck> {
  const refused = (e: Exchange, why: string): CredentialsRefusedError =>
    new CredentialsRefusedError(
      `credentials from --low-auth-env ${envVar} not taken by the site: ${e.request.method} ${e.request.url} answered ${answer(e)}: ${why}. ` +
        `Their refusals would then be an anonymous client's (401), not a signed-in user's (403). Check that ${envVar} holds user:application-password ` +
        `of an existing user with fewer rights (a subscriber or author), or leave --low-auth-env out: that half of auth_status is then skipped.`,
    );
  const unknown: string[] = [];
  for (const probe of credentialProbes(contract, descriptor)) {
    const e = await client.send({ ...probe.out, auth: 'low' });
    if (!e.response) return { kind: 'unconfirmed', why: `${e.request.method} ${e.request.url}: ${e.error?.message ?? 'no answer'}` };
    const said = `${e.request.method} ${e.request.url} answered ${answer(e)}`;
    const code = (jsonBody(e.response) as { code?: unknown } | undefined)?.code;
    if (e.response.status >= 400 && typeof code === 'string' && CREDENTIAL_CODES.test(code)) throw refused(e, 'a code only credentials trouble gives');
    if (e.response.status >= 200 && e.response.status < 300) return { kind: 'accepted', evidence: said };
    if (probe.name === 'me' && e.response.status === 401) throw refused(e, 'the site treated the request as anonymous');
    if (probe.name === 'drafts' && e.response.status === 400) {
      if (innerStatus(e) === 403) return { kind: 'accepted', evidence: `${said} with 403 inside: logged in, and may not see drafts` };
      if (innerStatus(e) === 401) throw refused(e, 'with 401 inside: the site treated the request as anonymous');
    }
    unknown.push(said);
  }
  return { kind: 'unconfirmed', why: unknown.length > 0 ? `no answer told: ${unknown.join('; ')}` : 'the site serves no read that needs credentials' };
}
