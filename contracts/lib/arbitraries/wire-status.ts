// Would WordPress itself refuse a request that breaks this constraint? Which keywords and formats its validator
// refuses values for is the WordPress layer's answer (wpValidates(), proven against the validator port); what is
// decided here is the rest: route matching in WP_REST_Server (path parameters), WP_REST_Request::has_valid_params
// (the `required` check, made after defaults are filled in) and the contract's own marks. Each answer that is not a
// plain "yes" carries its reason, for the coverage report.
import { wpValidates } from '../../wordpress/schema/checked.ts';
import type { JsonSchema, ParamLocation } from '../types.ts';
import type { WireStatus } from './model.ts';

export interface StatusInput {
  location: ParamLocation;
  keyword: string;
  detail?: string;
  /** The constraint sits on the parameter itself (top-level `required`), not inside its value. */
  topLevel: boolean;
  node: JsonSchema;
  paramSchema: JsonSchema;
  /** `x-wire-enforced: false` on the parameter (or its schema), with the contract's `x-wire-note` when given. */
  wireEnforced: boolean;
  wireNote?: string;
}

function isStringType(node: JsonSchema): boolean {
  return node.type === 'string' || (Array.isArray(node.type) && node.type.length === 1 && node.type[0] === 'string');
}

export function wireStatus(c: StatusInput): WireStatus {
  if (c.location === 'path') {
    if (c.keyword === 'required') {
      return { kind: 'not-applicable', reason: 'path parameter: it is part of the route, so a URL without it is another route or none (404 rest_no_route), never a missing-parameter 400' };
    }
    if (c.keyword === 'type') return { kind: 'not-applicable', reason: 'path parameter: a URL segment is always a string' };
    return { kind: 'contract-only', reason: 'path parameter: WordPress routes by this pattern, so a value off it reaches no handler (404 rest_no_route) instead of a 400' };
  }
  if (c.keyword === 'dependentRequired') {
    return {
      kind: 'contract-only',
      reason: "dependentRequired is not a keyword of WordPress's REST schema (rest_get_allowed_schema_keywords); only the route's callback could refuse a lone value, and the documents do not show that it does",
    };
  }
  if (c.keyword === 'required' && c.topLevel) {
    const d: unknown = c.paramSchema.default;
    if (d !== undefined && d !== null) {
      return {
        kind: 'contract-only',
        reason: `WordPress fills a missing parameter from its default (${JSON.stringify(d)}) before the required check (WP_REST_Server::match_request_to_handler, WP_REST_Request::has_valid_params reads get_param()), so it never reports it missing`,
      };
    }
    return { kind: 'wire' };
  }
  if (c.keyword === 'format') {
    const f = c.detail ?? '';
    if (f === 'double') {
      return { kind: 'not-applicable', reason: 'format double: every value that passes `type: number` is a finite number, which is all `double` asks; no request breaks the format without breaking the type first' };
    }
    if (f === 'uri') return { kind: 'contract-only', reason: c.wireNote ?? 'format uri: rest_validate_value_from_schema() has no uri check; rest_sanitize_value_from_schema() only passes the value through esc_url_raw()' };
    if (!wpValidates('format', f)) return { kind: 'contract-only', reason: `format ${f}: not a format WordPress knows; rest_validate_value_from_schema() ignores it` };
  }
  if (!c.wireEnforced && c.keyword !== 'type' && c.keyword !== 'required') {
    return { kind: 'contract-only', reason: c.wireNote ?? 'marked x-wire-enforced: false in the contract (WordPress only sanitizes this value)' };
  }
  if (c.keyword === 'type') {
    if (c.node.type === 'null') return { kind: 'not-applicable', reason: 'type null: nothing but an absent value can be null on the wire' };
    if (c.location === 'query' && isStringType(c.node)) {
      return { kind: 'wire', note: "only through PHP's bracket syntax (`name[]=x` makes an array); a plain `name=value` is always a string" };
    }
    return { kind: 'wire' };
  }
  if (wpValidates(c.keyword, c.detail)) return { kind: 'wire' };
  return { kind: 'contract-only', reason: `${c.keyword}: not a keyword of WordPress's REST schema (rest_get_allowed_schema_keywords), so WordPress does not check it` };
}
