// Parameters the way WP_REST_Request reads them: each declared arg is looked up in JSON body, form body, query and
// path, in that order (get_parameter_order()), undeclared ones are ignored, values are coerced as WordPress
// coerces them, checked by the contract's compiled validator, and reported as WordPress reports them.
import type { Contract } from '../../../contracts/src/loader.ts';
import { coerceValue } from '../../../contracts/src/coerce.ts';
import type { JsonSchema, Operation, ParamSpec, TypedRequest } from '../../../contracts/src/types.ts';
import { invalidParams, isEnforcedByWordPress, phaseOfFor, type WpErrorResponse } from '../wire/errors.ts';
import { getParam, sanitizeOrder, type ParsedRequest } from '../wire/request.ts';

/** What is computed once per operation: its args by name, defaults, and the schemas WordPress reports against. */
interface OpArgs {
  specs: ParamSpec[];
  /** Arg name → schema, in declaration order (one entry per name). */
  schemasByParam: Record<string, JsonSchema>;
  /** Non-null defaults (WordPress's get_param() treats a null default as absent). */
  defaults: [string, unknown][];
  /** Required args that have a default: has_valid_params() sees the default, so they are never missing. */
  requiredWithDefault: Set<string>;
  names: string[];
  phaseOf: ReturnType<typeof phaseOfFor>;
}

const cache = new WeakMap<Operation, OpArgs>();

function argsOf(op: Operation): OpArgs {
  const hit = cache.get(op);
  if (hit) return hit;
  const schemasByParam: Record<string, JsonSchema> = {};
  const defaults: [string, unknown][] = [];
  const requiredWithDefault = new Set<string>();
  for (const p of op.params) {
    if (p.name in schemasByParam) continue;
    schemasByParam[p.name] = p.schema;
    if (p.schema.default !== undefined && p.schema.default !== null) {
      defaults.push([p.name, p.schema.default]);
      if (p.required) requiredWithDefault.add(p.name);
    }
  }
  const out: OpArgs = { specs: op.params, schemasByParam, defaults, requiredWithDefault, names: Object.keys(schemasByParam), phaseOf: phaseOfFor(op.kind) };
  cache.set(op, out);
  return out;
}

export type ParamsResult = { ok: true; params: Record<string, unknown> } | { ok: false; error: WpErrorResponse };

/**
 * Reads, coerces and validates the args of `op`. On success `params` holds every declared arg that was sent
 * (coerced) or has a default; on failure the error is WordPress's (rest_missing_callback_param or rest_invalid_param).
 * Issues WordPress itself would not reject (format uri, untyped args) do not fail the request.
 */
export function readParams(contract: Contract, op: Operation, req: ParsedRequest, pathParams: Record<string, string>): ParamsResult {
  const args = argsOf(op);
  const raw: Record<string, unknown> = {};
  for (const name of args.names) {
    const v = getParam(req, name, pathParams);
    if (v !== undefined) raw[name] = v;
  }
  const typed: TypedRequest = { path: {}, query: {} };
  if (op.bodySchema) typed.body = {};
  const params: Record<string, unknown> = {};
  for (const spec of args.specs) {
    let v = raw[spec.name];
    if (v === undefined && args.requiredWithDefault.has(spec.name)) v = spec.schema.default;
    if (v === undefined) continue;
    const c = coerceValue(spec.schema, v);
    const bucket = spec.in === 'body' ? typed.body! : typed[spec.in];
    bucket[spec.name] = c;
    params[spec.name] ??= c;
  }
  const result = contract.validate(op, typed);
  if (!result.valid) {
    // What WordPress cannot check (format uri, `not`...) is the contract's concern, not a 400 on the wire.
    const issues = result.issues.filter(isEnforcedByWordPress);
    const error = invalidParams(issues, args.schemasByParam, { values: raw, requestOrder: sanitizeOrder(req, pathParams), phaseOf: args.phaseOf });
    if (error) return { ok: false, error };
  }
  for (const [name, value] of args.defaults) {
    if (!(name in params)) params[name] = structuredClone(value);
  }
  return { ok: true, params };
}
