// Stage 4, authorize: the operation's permission callback (core/permissions.ts), after validation as in
// respond_to_request(). It reads `$request['author']` and `$request['sticky']` as WordPress does: the sanitized value
// of a declared arg, else the raw one.
import type { WpErrorResponse } from '../../wire/errors.ts';
import type { ParsedRequest } from '../../wire/request.ts';
import { assignOwn } from '../../store/table.ts';
import type { DispatchEnv, Prepared } from '../exchange.ts';
import { checkPermission } from '../permissions.ts';

export interface Authorized {
  /** The parameters as the permission callbacks (and the Allow header) read them. */
  asked: Record<string, unknown>;
  denied: WpErrorResponse | null;
}

export function authorize(prep: Extract<Prepared, { kind: 'ready' }>, req: ParsedRequest, env: DispatchEnv): Authorized {
  const { op, pathParams, params, lang } = prep;
  const asked = env.authRequired ? assignOwn(assignOwn({}, req.query, req.bodyParams), params) : params;
  const denied = checkPermission({ op, store: env.store, pathParams, lang, user: env.user, authRequired: env.authRequired, params: asked });
  return { asked, denied };
}
