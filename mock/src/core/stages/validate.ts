// Stage 3, validate: has_valid_params() and sanitize_params() of the matched operation. A body that did not decode
// is reported first; then the args are read in WordPress's order, coerced and checked against the contract
// (core/params.ts). Nothing has changed yet when this fails, and no permission callback has run.
import { invalidJson } from '../../wire/errors.ts';
import type { ParsedRequest } from '../../wire/request.ts';
import { langOf, rowOf, type DispatchEnv, type Prepared, type Routed } from '../exchange.ts';
import { forbiddenStatusErrors } from '../../auth/status-capability.ts';

export function validate(routed: Routed, req: ParsedRequest, env: DispatchEnv): Prepared {
  if (routed.kind === 'error') return { ...routed, lang: langOf(undefined, env) };
  const { route, op, pathParams } = routed;
  if (req.jsonError) return { kind: 'error', error: invalidJson(req.jsonError), route, op, pathParams, lang: langOf(undefined, env) };
  // Only --auth restricts statuses; open mode (and every batch item in it) needs no check, nor a closure for it.
  const row = rowOf(env, op);
  const own = row?.validate;
  const accepts = row?.accepts;
  const read = env.params.read(
    op,
    req,
    pathParams,
    env.authRequired && row ? (raw) => forbiddenStatusErrors(op, row.permission, raw, env) : undefined,
    own ? (raw) => own(raw, { store: env.store, pathParams }) : undefined,
    accepts ? (raw) => accepts(raw, { store: env.store, pathParams }) : undefined,
  );
  if (!read.ok) return { kind: 'error', error: read.error, route, op, pathParams, lang: langOf(undefined, env) };
  // Literals rather than `{ ...base, key }`: V8 adds properties to a spread copy slowly, and this runs per request.
  return { kind: 'ready', route, op, pathParams, params: read.params, lang: langOf(read.params, env) };
}
