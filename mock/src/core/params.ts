// Parameters the way WP_REST_Request reads them: each declared arg is looked up in JSON body, form body, query and
// path, in that order (get_parameter_order()), undeclared ones are ignored, values are coerced as WordPress
// coerces them, checked by the contract's compiled validator, and reported as WordPress reports them. An operation's
// row may add args its controller registers that the documents do not list (the posts controller's `context`): those
// are checked by the WordPress layer's validator, in the validate pass, before the contract's args.
import type { Contract } from '../../../contracts/lib/loader.ts';
import { coerceValue } from '../../../contracts/wordpress/schema/coerce.ts';
import type { JsonSchema, Operation, ParamSpec, TypedRequest } from '../../../contracts/lib/types.ts';
import type { WpErrorResponse } from '../wire/errors.ts';
import { invalidParams, isEnforcedByWordPress, phaseOfFor } from '../wire/invalid-params.ts';
import { wpValidateValue, type WpError } from '../../../contracts/wordpress/schema/index.ts';
import { wordpressSchemaOf } from '../../../contracts/lib/wordpress-args.ts';
import { absint, isPhpArrayLike, phpArrayGet, phpArrayKey, phpToJs, type PhpKey } from '../../../contracts/wordpress/php/index.ts';
import { isJsonMediaType, sanitizeOrder, type ParsedRequest } from '../wire/request.ts';
import { latin1Copy } from '../../../contracts/wordpress/bytes.ts';
import { sanitizeUrl } from '../../../contracts/wordpress/url.ts';

/** What is computed once per operation: its args by name, defaults, and the schemas WordPress reports against. */
interface OpArgs {
  specs: ParamSpec[];
  /** The row's controller args: not the contract's, so checked here rather than by its compiled validator. */
  extra: { name: string; schema: JsonSchema }[];
  /** Arg name → schema, in declaration order (one entry per name). */
  schemasByParam: Record<string, JsonSchema>;
  /** Non-null defaults (WordPress's get_param() treats a null default as absent). */
  defaults: [string, unknown][];
  /** Required args that have a default: has_valid_params() sees the default, so they are never missing. */
  requiredWithDefault: Set<string>;
  names: string[];
  /** phpArrayKey() of each name: how a PHP array (query, form body) holds it. */
  keys: PhpKey[];
  phaseOf: ReturnType<typeof phaseOfFor>;
}

/**
 * The same JSON value with its strings in V8's one-byte form where they fit. The contract's strings come out of the
 * YAML parser as slices of the (two-byte) source text; a default such as comment_status 'open' is stored in every
 * created record, and one two-byte string makes V8 build the whole JSON answer two-byte, which then costs twice as
 * much to escape, measure and write (a 25-item batch answer: ~100 µs more per request). Equal values either way.
 */
function oneByteStrings(v: unknown): unknown {
  // eslint-disable-next-line no-control-regex -- Latin-1 is what fits in one byte
  if (typeof v === 'string') return /^[\x00-\xff]*$/.test(v) ? latin1Copy(v) : v;
  if (Array.isArray(v)) return v.map(oneByteStrings);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, oneByteStrings(x)]));
  return v;
}

function argsOf(op: Operation, controllerArgs: Readonly<Record<string, JsonSchema>> = {}): OpArgs {
  const schemasByParam: Record<string, JsonSchema> = {};
  const defaults: [string, unknown][] = [];
  const requiredWithDefault = new Set<string>();
  // get_collection_params() and get_item()'s args put `context` first: the validate pass reports it first.
  const extra = Object.entries(controllerArgs).map(([name, schema]) => ({ name, schema }));
  for (const { name, schema } of extra) {
    schemasByParam[name] = schema;
    if (schema.default !== undefined && schema.default !== null) defaults.push([name, oneByteStrings(schema.default)]);
  }
  for (const p of op.params) {
    if (p.name in schemasByParam) continue;
    schemasByParam[p.name] = p.schema;
    // The contract marks the body defaults of updates as describing a create (x-defaults-apply: create): as
    // WordPress, an update leaves out what it is not sent (a PATCH of a draft's title must not publish it).
    const createOnlyDefault = op.bodyDefaults === 'create' && p.in === 'body';
    if (p.schema.default !== undefined && p.schema.default !== null && !createOnlyDefault) {
      defaults.push([p.name, oneByteStrings(p.schema.default)]);
      if (p.required) requiredWithDefault.add(p.name);
    }
  }
  const names = Object.keys(schemasByParam);
  return { specs: op.params, extra, schemasByParam, defaults, requiredWithDefault, names, keys: names.map(phpArrayKey), phaseOf: phaseOfFor(op.kind) };
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The request's value of each declared arg: the first non-null one in get_parameter_order()'s order (JSON body, form
 * body for body methods, query), else the path's - the answers of WP_REST_Request::get_param(), looked up per arg
 * without folding every source into a map first.
 */
function rawValues(req: ParsedRequest, pathParams: Record<string, string>, args: OpArgs): Record<string, unknown> {
  const json = req.contentType && isJsonMediaType(req.contentType.value) && isPhpArrayLike(req.jsonParams) ? req.jsonParams : undefined;
  const post = req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH' || req.method === 'DELETE' ? req.postParams : undefined;
  const query = req.phpQuery;
  const raw: Record<string, unknown> = {};
  const { names, keys } = args;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const key = keys[i]!;
    let v = json === undefined ? undefined : phpArrayGet(json, key);
    if (v === undefined || v === null) v = post === undefined ? undefined : phpArrayGet(post, key);
    if (v === undefined || v === null) v = phpArrayGet(query, key);
    if (v === undefined || v === null) v = hasOwn.call(pathParams, name) ? pathParams[name] : undefined;
    if (v !== undefined && v !== null) raw[name] = phpToJs(v);
  }
  return raw;
}

/** Defaults are JSON values; lists and objects are copied so no request can change another's default. */
function copyDefault(v: unknown): unknown {
  if (Array.isArray(v)) return [...v];
  if (v !== null && typeof v === 'object') return JSON.parse(JSON.stringify(v)) as unknown;
  return v;
}

type ParamsResult = { ok: true; params: Record<string, unknown> } | { ok: false; error: WpErrorResponse };

/**
 * Reads, coerces and validates the args of `op`. On success `params` holds every declared arg that was sent
 * (coerced) or has a default; on failure the error is WordPress's (rest_missing_callback_param or rest_invalid_param).
 * Issues WordPress itself would not reject (format uri, untyped args) do not fail the request.
 */
function readParams(
  contract: Contract,
  args: OpArgs,
  op: Operation,
  req: ParsedRequest,
  pathParams: Record<string, string>,
  /** Sanitize callbacks that refuse a value on their own terms (see InvalidParamsOptions.forced). */
  forcedErrors?: (raw: Readonly<Record<string, unknown>>) => Record<string, WpError> | undefined,
  /** Validate callbacks of the controller's own (OperationRow.validate), reported with the validate pass's errors. */
  validatedErrors?: (raw: Readonly<Record<string, unknown>>) => Record<string, WpError> | undefined,
  /** Args a validate_callback of the controller's own takes whatever the schema says (OperationRow.accepts). */
  acceptedBy?: (raw: Readonly<Record<string, unknown>>) => readonly string[],
): ParamsResult {
  const raw = rawValues(req, pathParams, args);
  const typed: TypedRequest = { path: {}, query: {} };
  if (op.bodySchema) typed.body = {};
  const params: Record<string, unknown> = {};
  for (const spec of args.specs) {
    let v = raw[spec.name];
    if (v === undefined && args.requiredWithDefault.has(spec.name)) v = spec.schema.default;
    if (v === undefined) continue;
    // An integer arg WordPress only sanitizes (sanitize_callback absint, no validate_callback; the contract marks it
    // x-wire-enforced: false): any value is taken and made a whole number, `maxwidth=abc` is 0, not a 400.
    if (!spec.enforcedOnWire && spec.schema.type === 'integer') v = absint(v);
    const c = coerceValue(spec.schema, v);
    const bucket = spec.in === 'body' ? typed.body! : typed[spec.in];
    bucket[spec.name] = c;
    params[spec.name] ??= c;
  }
  let controllerErrors: Record<string, WpError> | undefined;
  for (const { name, schema } of args.extra) {
    if (!hasOwn.call(raw, name)) continue;
    const error = wpValidateValue(raw[name], wordpressSchemaOf(schema), name);
    if (error) (controllerErrors ??= {})[name] = error;
    else params[name] = coerceValue(schema, raw[name]);
  }
  const own = validatedErrors?.(raw);
  if (own) controllerErrors = { ...controllerErrors, ...own };
  // Bounded: a request's values are the client's, and the full validation's work grows with how many of them fail
  // (a million bad array items, a million issues). One issue per failing param is all a 400 reports.
  const result = contract.validateBounded(op, typed);
  const forced = forcedErrors?.(raw);
  if (!result.valid || forced || controllerErrors) {
    // What WordPress cannot check (format uri, `not`...) is the contract's concern, not a 400 on the wire. A param
    // whose first issue is such a check may still break one WordPress makes: its own validator decides then.
    const wordpressRejects = (param: string) => {
      const schema = args.schemasByParam[param];
      return schema !== undefined && Object.prototype.hasOwnProperty.call(raw, param) && wpValidateValue(raw[param], wordpressSchemaOf(schema), param) !== null;
    };
    const accepted = acceptedBy?.(raw) ?? [];
    const issues = result.valid ? [] : result.issues.filter((i) => !accepted.includes(i.param) && (isEnforcedByWordPress(i) || wordpressRejects(i.param)));
    const error = invalidParams(issues, args.schemasByParam, {
      values: raw, requestOrder: sanitizeOrder(req, pathParams), phaseOf: args.phaseOf, ...(forced ? { forced } : {}), ...(controllerErrors ? { validated: controllerErrors } : {}),
    });
    if (error) return { ok: false, error };
  }
  // rest_sanitize_request_arg() after validation: a `uri` argument is stored as sanitize_url() makes it (format uri is
  // never refused: `example.org/a b<c>` becomes `http://example.org/a%20bc`, `javascript:x` becomes '').
  for (const spec of args.specs) {
    const v = params[spec.name];
    if (spec.schema.format === 'uri' && typeof v === 'string') params[spec.name] = sanitizeUrl(v);
  }
  for (const [name, value] of args.defaults) {
    if (!(name in params)) params[name] = copyDefault(value);
  }
  return { ok: true, params };
}

/**
 * The contract's operations read once into what readParams() needs of each (the args' names, PHP keys, defaults,
 * passes), as the route table is: fixed for the life of the mock, one entry per operation.
 */
export class ParamReader {
  private readonly args: ReadonlyMap<Operation, OpArgs>;

  /** `controllerArgs`: the args an operation's row adds to the contract's (OperationRow.args). */
  constructor(
    private readonly contract: Contract,
    controllerArgs: (op: Operation) => Readonly<Record<string, JsonSchema>> | undefined = () => undefined,
  ) {
    this.args = new Map(contract.operations.map((op) => [op, argsOf(op, controllerArgs(op))]));
  }

  read(op: Operation, req: ParsedRequest, pathParams: Record<string, string>, forcedErrors?: Parameters<typeof readParams>[5], validatedErrors?: Parameters<typeof readParams>[6], acceptedBy?: Parameters<typeof readParams>[7]): ParamsResult {
    return readParams(this.contract, this.args.get(op) ?? argsOf(op), op, req, pathParams, forcedErrors, validatedErrors, acceptedBy);
  }
}
