// Stage 4, authorize: the permission in the operation's row of the operation table (auth/permissions.ts says what
// each lets through), after validation as in respond_to_request(). It reads `$request['author']`, `['sticky']`,
// `['context']` and `['id']` as WordPress does: the sanitized value of a declared arg, else the raw one.
import type { WpErrorResponse } from '../../wire/errors.ts';
import type { ParsedRequest } from '../../wire/request.ts';
import { rowOf, type DispatchEnv, type Prepared } from '../exchange.ts';
import { checkPermission, PERMISSION_PARAMS } from '../../auth/permissions.ts';

export interface Authorized {
  /** The parameters as the permission callbacks (and the Allow header) read them. */
  asked: Record<string, unknown>;
  denied: WpErrorResponse | null;
}

/**
 * What the permission callbacks read of `$request`: the declared value, else the body's, else the query's, as merging
 * the three would give, but only for the names they read (a merge of a body's 500,000 keys took a second).
 */
function permissionParams(req: ParsedRequest, params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of PERMISSION_PARAMS) {
    for (const source of [params, req.bodyParams, req.query] as const) {
      if (source && Object.prototype.hasOwnProperty.call(source, name)) {
        out[name] = (source as Record<string, unknown>)[name];
        break;
      }
    }
  }
  return out;
}

export function authorize(prep: Extract<Prepared, { kind: 'ready' }>, req: ParsedRequest, env: DispatchEnv): Authorized {
  const { op, pathParams, params, lang } = prep;
  const asked = permissionParams(req, params);
  const row = rowOf(env, op);
  // An operation with no row is answered rest_no_route by run; nothing to let in here.
  const denied = row ? checkPermission(row.permission, { store: env.store, pathParams, lang, user: env.user, authRequired: env.authRequired, params: asked }) : null;
  return { asked, denied };
}
