// One retry without the parameter a refusal names. A request carries several parameters; when the site refuses it
// naming one of them (WordPress's 400 rest_invalid_param / rest_missing_callback_param, `data.params` and
// `data.details`), the others were never looked at. The same request without the named ones, sent once, shows
// whether the site takes the rest. The refusal itself stays: it is judged for the parameter it names.

import type { Operation, ParamLocation } from '../../../../contracts/lib/types.ts';
import { dependentRequiredOf } from '../../../../contracts/lib/arbitraries/requests.ts';
import type { Exchange } from '../../http/types.ts';
import { sentParams, withoutBody, type WireRequest } from './generate.ts';
import { topName, wpError } from './wp.ts';
import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';

const PARAM_CODES = new Set(['rest_invalid_param', 'rest_missing_callback_param']);

/** Every parameter a 400 names, in `data.params` (object or list) and in the keys of `data.details`. */
export function namedByRefusal(e: Exchange): string[] {
  const r = e.response;
  const err = wpError(r);
  if (!r || r.status !== 400 || !err || !PARAM_CODES.has(err.code)) return [];
  const names = new Set<string>();
  const params = err.data?.['params'];
  if (Array.isArray(params)) for (const p of params) if (typeof p === 'string') names.add(topName(p));
  if (isPlainObject(params)) for (const k of Object.keys(params)) names.add(topName(k));
  const details = err.data?.['details'];
  if (isPlainObject(details)) for (const k of Object.keys(details)) names.add(topName(k));
  return [...names];
}

/**
 * The request without the parameters its refusal names, when it was refused naming some other than `keep` and
 * every one of them can go (sent, not in the path, not required); the parameters that need a removed one
 * (dependentRequired) go with it. Undefined when there is nothing to retry.
 */
export function retryWithout(op: Operation, req: WireRequest, e: Exchange, keep: ReadonlySet<string> = new Set()): { req: WireRequest; removed: string[] } | undefined {
  const named = namedByRefusal(e);
  if (named.length === 0 || named.some((n) => keep.has(n))) return undefined;
  const sent = sentParams(req);
  const where = (n: string): ParamLocation | undefined => (sent.body.includes(n) ? 'body' : sent.query.includes(n) ? 'query' : undefined);
  const removable = (n: string): boolean => {
    const loc = where(n);
    return loc !== undefined && !op.params.some((p) => p.name === n && p.in === loc && p.required);
  };
  if (!named.every(removable)) return undefined;
  const gone = new Set(named);
  const deps = dependentRequiredOf(op);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [k, needs] of Object.entries(deps)) {
      if (!gone.has(k) && sent.query.includes(k) && needs.some((n) => gone.has(n))) {
        gone.add(k);
        grew = true;
      }
    }
  }
  if ([...gone].some((n) => keep.has(n))) return undefined;
  const query = Object.fromEntries(Object.entries(req.query).filter(([k]) => !gone.has(k)));
  const out = withoutBody({ ...req, query }, [...gone].filter((n) => sent.body.includes(n)));
  return { req: out, removed: [...gone] };
}
