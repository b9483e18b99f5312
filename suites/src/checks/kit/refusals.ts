// What a refusal for permission looks like on the wire: a 401 or 403 in WordPress's envelope whose code says
// permission (rest_forbidden, rest_cannot_create, wpcf7_forbidden...). Codes about logging in (a wrong password given
// to a token route, a bad cookie nonce) answer what was sent, not who sent it; a 403 without the envelope is a WAF's
// or a front's. auth_status judges the status of these refusals; permissions and the low user's probes find them.

import type { Exchange } from '../../http/types.ts';
import { wpError } from './wp.ts';

const PERMISSION_CODE = /forbidden|cannot|not_allowed|unauthori[sz]ed|permission|not_logged_in|authorization_required|access_denied/i;
export const LOGIN_CODE = /password|username|credential|token|jwt|nonce|login/i;

/** The refusal's code when the answer is a refusal for permission; undefined for anything else. */
export function permissionRefusal(e: Exchange): string | undefined {
  const r = e.response;
  if (!r || (r.status !== 401 && r.status !== 403)) return undefined;
  const code = wpError(r)?.code;
  if (!code || !PERMISSION_CODE.test(code) || LOGIN_CODE.test(code)) return undefined;
  return code;
}
