// WordPress error bodies and statuses: rest_convert_error_to_response() shapes, the parameter checks of
// WP_REST_Request::has_valid_params() / sanitize_params(), and the fixed errors core endpoints send.

import type { JsonSchema, OperationKind, ParamLocation, ValidationIssue } from '../../../contracts/lib/types.ts';
import { PHP_JSON_ERRORS, numberFormatI18n } from '../../../contracts/wordpress/php/index.ts';
import { wordpressSchemaOf } from '../../../contracts/lib/wordpress-args.ts';
import { toWpSchema, WP_FORMAT_ERRORS, WP_SCHEMA_ERRORS as E, wpValidates, wpValidateValue, type WpError, type WpSchema } from '../../../contracts/wordpress/schema/index.ts';

/** A WordPress error body: `data` holds `status` and anything the error carries. */
export interface WpErrorBody {
  code: string;
  message: string;
  /** Absent only in serve_request()'s own early errors (JSONP), which WordPress sends as `{code, message}`. */
  data?: unknown;
  additional_data?: unknown[];
  additional_errors?: WpErrorBody[];
}

/** An error answer: the HTTP status WordPress sends and the body. */
export interface WpErrorResponse {
  status: number;
  body: WpErrorBody;
}

function statusOf(data: unknown): number | undefined {
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const s = (data as { status?: unknown }).status;
    if (typeof s === 'number') return s;
    if (typeof s === 'string' && /^\d+$/.test(s)) return Number(s);
  }
  return undefined;
}

export interface WpErrorExtra {
  /** Earlier data added under the same code (WordPress prints it as `additional_data`). */
  additionalData?: unknown[];
  /** Further codes of the same WP_Error (printed as `additional_errors`). */
  additionalErrors?: WpErrorBody[];
}

/**
 * A WP_Error as WordPress sends it. The status is the last `status` found across all the error's data (earlier data,
 * the data, then further errors), 500 when there is none - rest_convert_error_to_response().
 */
export function wpError(code: string, message: string, data: unknown = null, extra: WpErrorExtra = {}): WpErrorResponse {
  const body: WpErrorBody = { code, message, data };
  if (extra.additionalData && extra.additionalData.length > 0) body.additional_data = [...extra.additionalData];
  if (extra.additionalErrors && extra.additionalErrors.length > 0) body.additional_errors = [...extra.additionalErrors];
  const all: unknown[] = [...(extra.additionalData ?? []), data];
  for (const e of extra.additionalErrors ?? []) all.push(...(e.additional_data ?? []), e.data);
  let status = 500;
  for (const d of all) status = statusOf(d) ?? status;
  return { status, body };
}

/** rest_authorization_required_code(): 401 for anonymous requests, 403 for a logged-in user. */
export function authorizationRequiredCode(loggedIn: boolean): 401 | 403 {
  return loggedIn ? 403 : 401;
}

// ---------------------------------------------------------------------------------------------------------------
// Fixed errors

/** WP_REST_Server::match_request_to_handler(): unknown route or a method the route lacks - never 405. */
export function noRoute(): WpErrorResponse {
  return wpError('rest_no_route', 'No route was found matching the URL and request method.', { status: 404 });
}

/** WP_REST_Request::has_valid_params(): required args missing, `data.params` a list in args order. */
export function missingParams(names: readonly string[]): WpErrorResponse {
  return wpError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, { status: 400, params: [...names] });
}

/**
 * An unknown id, 404. `code` like `rest_post_invalid_id`; the message defaults to WordPress's wording for that code
 * family ("Invalid post ID.") - pass the resource's own when it differs (terms say "Term does not exist.").
 */
export function invalidId(code: string, message?: string): WpErrorResponse {
  const m = /^rest_(.+)_invalid_id$/.exec(code);
  const noun = (m?.[1] ?? 'item').replace(/_/g, ' ');
  return wpError(code, message ?? `Invalid ${noun} ID.`, { status: 404 });
}

/** The posts controller's page-past-the-end error (other controllers answer an empty page, see pagination.ts). */
export function pageBeyond(code = 'rest_post_invalid_page_number'): WpErrorResponse {
  return wpError(code, 'The page number requested is larger than the number of pages available.', { status: 400 });
}

/**
 * WP_REST_Request::parse_json_params(): the body did not decode. Pass phpJsonDecode()'s failure, or a PHP
 * json_last_error_msg() text (its code is looked up; unknown texts count as "Syntax error", 4).
 */
export function invalidJson(error: string | { code: number; message: string }): WpErrorResponse {
  let code = 4;
  let message = 'Syntax error';
  if (typeof error === 'string') {
    message = error;
    const found = Object.entries(PHP_JSON_ERRORS).find(([, m]) => m === error);
    code = found ? Number(found[0]) : 4;
  } else {
    code = error.code;
    message = error.message;
  }
  return wpError('rest_invalid_json', 'Invalid JSON body passed.', { status: 400, json_error_code: code, json_error_message: message });
}

/** DELETE without force on an item already in the trash (posts controller), 410. */
export function alreadyTrashed(message = 'The post has already been deleted.'): WpErrorResponse {
  return wpError('rest_already_trashed', message, { status: 410 });
}

/** DELETE without force where the type has no trash, 501 (`rest_trash_not_supported`). */
export function trashNotSupported(message = "The post does not support trashing. Set 'force=true' to delete."): WpErrorResponse {
  return wpError('rest_trash_not_supported', message, { status: 501 });
}

/** A permission failure with its own code and message: 401 when logged out, 403 when logged in. */
export function notAllowed(code: string, message: string, loggedIn: boolean): WpErrorResponse {
  return wpError(code, message, { status: authorizationRequiredCode(loggedIn) });
}

/** WP_REST_Server::respond_to_request(): a permission_callback that returned false. */
export function forbidden(loggedIn: boolean): WpErrorResponse {
  return notAllowed('rest_forbidden', 'Sorry, you are not allowed to do that.', loggedIn);
}

/** `rest_cannot_create`: "Sorry, you are not allowed to create posts as this user." */
export function cannotCreate(loggedIn: boolean, plural = 'posts'): WpErrorResponse {
  return notAllowed('rest_cannot_create', `Sorry, you are not allowed to create ${plural} as this user.`, loggedIn);
}

/** `rest_cannot_edit`: "Sorry, you are not allowed to edit this post." */
export function cannotEdit(loggedIn: boolean, singular = 'post'): WpErrorResponse {
  return notAllowed('rest_cannot_edit', `Sorry, you are not allowed to edit this ${singular}.`, loggedIn);
}

/** `rest_cannot_delete`: "Sorry, you are not allowed to delete this post." */
export function cannotDelete(loggedIn: boolean, singular = 'post'): WpErrorResponse {
  return notAllowed('rest_cannot_delete', `Sorry, you are not allowed to delete this ${singular}.`, loggedIn);
}

/** `rest_forbidden_context` (context=edit without the right): "...edit posts in this post type." */
export function forbiddenContext(loggedIn: boolean, plural = 'posts', scope = 'post type'): WpErrorResponse {
  return notAllowed('rest_forbidden_context', `Sorry, you are not allowed to edit ${plural} in this ${scope}.`, loggedIn);
}

/** `/wp/v2/users/me` and similar without a user: always 401. */
export function notLoggedIn(): WpErrorResponse {
  return wpError('rest_not_logged_in', 'You are not currently logged in.', { status: 401 });
}

/** WP_REST_Server::serve_request(): `_jsonp` with characters outside `[\w.]` - body without `data`. */
export function jsonpCallbackInvalid(): WpErrorResponse {
  return { status: 400, body: { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' } };
}

/** A PHP fatal error during a REST request (WP_Fatal_Error_Handler through _json_wp_die_handler). */
export function criticalError(): WpErrorResponse {
  // _json_wp_die_handler() always prints additional_errors, empty or not.
  return {
    status: 500,
    body: {
      code: 'internal_server_error',
      message:
        '<p>There has been a critical error on this website.</p><p><a href="https://wordpress.org/support/article/faq-troubleshooting/">Learn more about troubleshooting WordPress.</a></p>',
      data: { status: 500 },
      additional_errors: [],
    },
  };
}

/** Default body limit for payloadTooLarge(): PHP's post_max_size in Debian's php.ini for Apache (8M). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * An over-large body. WordPress has no limit of its own. On the reference stack a body over PHP's post_max_size (8M)
 * is not refused: PHP logs a warning and hands WordPress an empty body, so the request runs as if nothing was sent
 * (a create then fails on a missing field, or succeeds empty), and only a body over Apache's LimitRequestBody (1 GiB)
 * gets a 413, as an Apache HTML page. Neither is useful to copy, so the mock refuses early with 413 and a body shaped
 * like every other WordPress error; the code is ours (no WordPress code exists for this).
 */
export function payloadTooLarge(limitBytes: number = DEFAULT_MAX_BODY_BYTES): WpErrorResponse {
  return wpError('rest_payload_too_large', `The request body is larger than the ${numberFormatI18n(limitBytes)} bytes allowed.`, {
    status: 413,
    max_body_bytes: limitBytes,
  });
}

const REASON: Record<number, [string, string]> = {
  400: ['rest_invalid_params', 'Invalid parameters.'],
  401: ['rest_not_logged_in', 'You are not currently logged in.'],
  403: ['rest_forbidden', 'Sorry, you are not allowed to do that.'],
  404: ['rest_no_route', 'No route was found matching the URL and request method.'],
  405: ['rest_method_not_allowed', 'Method not allowed.'],
  406: ['rest_not_acceptable', 'Not acceptable.'],
  408: ['rest_request_timeout', 'Request timeout.'],
  409: ['rest_conflict', 'Conflict.'],
  410: ['rest_already_trashed', 'The post has already been deleted.'],
  411: ['rest_length_required', 'Length required.'],
  412: ['rest_precondition_failed', 'Precondition failed.'],
  413: ['rest_payload_too_large', 'The request body is too large.'],
  415: ['rest_unsupported_media_type', 'Unsupported media type.'],
  422: ['rest_unprocessable_entity', 'Unprocessable entity.'],
  429: ['rest_too_many_requests', 'Too many requests.'],
  501: ['rest_not_implemented', 'Not implemented.'],
  502: ['rest_bad_gateway', 'Bad gateway.'],
  503: ['rest_service_unavailable', 'Service unavailable.'],
  504: ['rest_gateway_timeout', 'Gateway timeout.'],
};

/**
 * A WordPress-shaped error for a forced status (`Prefer: code=NNN`). Where WordPress core has a general error for the
 * status, its code and wording are used (400 route-level validation, 401 not logged in, 403 rest_forbidden,
 * 404 rest_no_route, 410 already trashed, 500 the fatal-error handler's body); other statuses get `rest_<reason>`.
 * Returns null below 400: a forced success is the mock's example, not an error.
 */
export function prefer(status: number): WpErrorResponse | null {
  if (!Number.isInteger(status) || status < 400 || status > 599) return null;
  if (status === 500) return criticalError();
  const [code, message] = REASON[status] ?? [status < 500 ? 'rest_client_error' : 'rest_server_error', `HTTP ${status}.`];
  return wpError(code, message, { status });
}

/**
 * A `Prefer: code=` or `latency=` the mock cannot honour (`code=999`, `latency=abc`), refused in the shape of
 * WordPress's rest_invalid_param, with the header where WordPress names the parameter: a test that meant to see a
 * 503 must not silently get a 200.
 */
export function invalidPrefer(reason: string): WpErrorResponse {
  return wpError('mock_invalid_prefer', `Invalid Prefer header: ${reason}.`, {
    status: 400,
    params: { Prefer: reason },
    details: { Prefer: { code: 'mock_invalid_prefer', message: reason, data: null } },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Invalid parameters

/** Which of WordPress's two checks looks at an arg. */
export type WpPhase = 'validate' | 'sanitize';

/**
 * WordPress validates args in two passes (WP_REST_Server::dispatch()): has_valid_params() runs the args that have a
 * validate_callback, and only when all pass does sanitize_params() run the default rest_parse_request_arg() on the
 * others. Each pass reports every failure it finds, but a failure in the first stops the second - so
 * `per_page=abc&order=sideways` names only per_page (sample 18).
 * Core gives a validate_callback to every arg derived from an item schema (create/update bodies) and to the
 * collection args context, page, per_page and search; other query args and path args are left to the sanitize pass.
 * A schema may say so explicitly with `x-wp-validate-callback: true|false`.
 */
export function defaultWpPhase(param: string, location: ParamLocation, schema?: JsonSchema): WpPhase {
  const explicit = schema?.['x-wp-validate-callback'];
  if (typeof explicit === 'boolean') return explicit ? 'validate' : 'sanitize';
  if (location === 'body') return 'validate';
  return ['context', 'page', 'per_page', 'search'].includes(param) ? 'validate' : 'sanitize';
}

/**
 * The pass of each arg for one kind of operation, as core registers them: create/update args come from the item
 * schema (validate pass) except the path id; the batch route's args have no validate_callback (sanitize pass);
 * elsewhere defaultWpPhase(). Use as InvalidParamsOptions.phaseOf.
 */
export function phaseOfFor(kind: OperationKind): (param: string, location: ParamLocation, schema?: JsonSchema) => WpPhase {
  return (param, location, schema) => {
    const explicit = schema?.['x-wp-validate-callback'];
    if (typeof explicit === 'boolean') return explicit ? 'validate' : 'sanitize';
    if (location === 'path') return 'sanitize';
    if (kind === 'create' || kind === 'update') return 'validate';
    if (kind === 'batch') return 'sanitize';
    return defaultWpPhase(param, location);
  };
}

export interface InvalidParamsOptions {
  /**
   * Raw values as WordPress would see them, by top-level param (strings and phpParseStr() arrays from the query,
   * decoded JSON from the body). With them the message comes from WordPress's own validator (wpvalidate.ts),
   * including its coercions; without them it is phrased from the contract's issue.
   */
  values?: Record<string, unknown>;
  /** Override the pass an arg belongs to; default defaultWpPhase(). */
  phaseOf?: (param: string, location: ParamLocation, schema?: JsonSchema) => WpPhase;
  /**
   * The order sanitize_params() meets params in: JSON body keys, form body keys, query keys, path params
   * (see request.ts sanitizeOrder()). The validate pass always follows the args' declaration order, which is the
   * key order of `schemasByParam`.
   */
  requestOrder?: readonly string[];
  /**
   * The args registered as required. With `values`, a required arg whose value is null counts as missing, as
   * has_valid_params() tests `null === $param` (a JSON `"name": null` is "Missing parameter(s): name").
   */
  required?: readonly string[];
  /**
   * Args whose own sanitize_callback refuses the value before any schema check (sanitize_post_statuses() refusing a
   * status the user may not list: rest_forbidden_status, sample 14). Their error replaces the schema's, in the
   * sanitize pass, so it is reported only when the validate pass found nothing, beside the pass's other failures.
   */
  forced?: Readonly<Record<string, WpError>>;
}

function segmentsOf(issue: ValidationIssue): string[] {
  const parts = issue.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts[0] === issue.location) parts.shift();
  return parts;
}

/** The WordPress name of the value an issue is about: `param[a][0]`. */
function wpNameOf(issue: ValidationIssue): string {
  const parts = segmentsOf(issue);
  if (parts.length === 0 || parts[0] !== issue.param) return issue.wpParam || issue.param;
  return parts[0] + parts.slice(1).map((p) => `[${p}]`).join('');
}

function isTopLevelMissing(issue: ValidationIssue): boolean {
  if (issue.keyword !== 'required') return false;
  const parts = segmentsOf(issue);
  const missing = issue.params.missingProperty;
  if (parts.length === 0) return true;
  return parts.length === 1 && parts[0] === issue.param && (missing === undefined || missing === issue.param);
}

function isObj(v: unknown): v is WpSchema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The WordPress schema of the value at `segments` below an arg (null when a combinator makes it ambiguous). */
function schemaAt(arg: WpSchema, segments: readonly string[]): WpSchema | null {
  let s: WpSchema | null = arg;
  for (const seg of segments) {
    if (!s) return null;
    const props: unknown = s.properties;
    if (isObj(props) && isObj(props[seg])) s = props[seg] as WpSchema;
    else if (/^\d+$/.test(seg) && isObj(s.items)) s = s.items;
    else if (isObj(s.patternProperties)) {
      const hit: [string, unknown] | undefined = Object.entries(s.patternProperties).find(([p]) => {
        try {
          return new RegExp(p, 'u').test(seg);
        } catch {
          return false;
        }
      });
      s = hit && isObj(hit[1]) ? hit[1] : isObj(s.additionalProperties) ? s.additionalProperties : null;
    } else if (isObj(s.additionalProperties)) s = s.additionalProperties;
    else if (isObj(s.items)) s = s.items;
    else return null;
  }
  return s;
}

const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);
const POST_ORDER = ['multipleOf', 'bounds', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties'];

/** Where WordPress's walk meets an issue; the smallest tuple is what it reports. */
function walkKey(issue: ValidationIssue, numericAtPath: boolean): number[] {
  const parts = segmentsOf(issue).slice(1);
  const key: number[] = [];
  for (const p of parts) key.push(1, /^\d+$/.test(p) ? Number(p) : 0);
  const k = issue.keyword;
  if (k === 'anyOf' || k === 'oneOf') key.push(0, 0);
  else if (k === 'type' && !(numericAtPath && issue.params.type === 'integer')) key.push(0, 1);
  else if (k === 'required') key.push(0, 2);
  else if (k === 'additionalProperties') key.push(1, Number.MAX_SAFE_INTEGER);
  else if (k === 'type') key.push(2, 1.5); // an integer check on a numeric value runs after the bounds
  else if (BOUNDS.has(k)) key.push(2, k === 'multipleOf' ? 0 : 1);
  else if (POST_ORDER.includes(k)) key.push(2, POST_ORDER.indexOf(k));
  else if (k === 'enum' || k === 'const') key.push(3, 0);
  else if (k === 'format') key.push(4, 0);
  else key.push(5, 0);
  return key;
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The issue WordPress would stumble on first among one param's issues. */
function firstIssue(issues: readonly ValidationIssue[]): ValidationIssue {
  const numericPaths = new Set(issues.filter((i) => BOUNDS.has(i.keyword)).map((i) => i.instancePath));
  const ranked = issues.map((issue, idx) => ({ issue, idx, key: walkKey(issue, numericPaths.has(issue.instancePath)) }));
  ranked.sort((a, b) => compareKeys(a.key, b.key) || a.idx - b.idx);
  return ranked[0]!.issue;
}

/**
 * The error WordPress would give for a contract issue, phrased from the issue and the arg's WordPress schema with
 * the layer's message table (the validator port's own wording); null when WordPress has no such check.
 */
export function issueToWpError(issue: ValidationIssue, argSchema?: WpSchema): WpError | null {
  const custom = issue.params.wpError;
  if (isObj(custom) && typeof custom.code === 'string' && typeof custom.message === 'string') {
    return { code: custom.code, message: custom.message, data: custom.data ?? null };
  }
  if (!wpValidates(issue.keyword, issue.params.format)) return null;
  const name = wpNameOf(issue);
  const here = argSchema ? schemaAt(argSchema, segmentsOf(issue).slice(1)) : null;
  const p = issue.params;
  switch (issue.keyword) {
    case 'type':
      return E.type(name, here?.type ?? p.type);
    case 'enum':
    case 'const':
      return E.enum(name, Array.isArray(here?.enum) ? (here!.enum as unknown[]) : Array.isArray(p.allowedValues) ? p.allowedValues : 'allowedValue' in p ? [p.allowedValue] : []);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return E.bounds(name, here ?? toWpSchema({ [issue.keyword]: p.limit }));
    case 'multipleOf':
      return E.multipleOf(name, here?.multipleOf ?? p.multipleOf);
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
      return E[issue.keyword](name, here?.[issue.keyword] ?? p.limit);
    case 'pattern':
      return E.pattern(name, here?.pattern ?? p.pattern);
    case 'uniqueItems':
      return E.uniqueItems(name);
    case 'required':
      return E.required(name, p.missingProperty);
    case 'additionalProperties':
      return E.additionalProperties(p.additionalProperty);
    case 'format':
      return WP_FORMAT_ERRORS[String(toWpSchema({ format: p.format }).format)]?.(name) ?? null;
    case 'oneOf':
      if (Array.isArray(p.passingSchemas)) {
        const branches = Array.isArray(here?.oneOf) ? (here!.oneOf as WpSchema[]) : [];
        const positions = (p.passingSchemas as unknown[]).map(Number);
        const titles = positions.map((i) => branches[i]?.title).filter((t) => t !== undefined);
        return E.oneOfMany(name, titles.length === positions.length ? titles : null, positions);
      }
    // falls through: no branch matched
    case 'anyOf': {
      const branches = Array.isArray(here?.[issue.keyword]) ? (here![issue.keyword] as WpSchema[]) : [];
      const titles = branches.map((b) => b.title).filter((t) => t !== undefined);
      return E.noBranch(name, branches.length > 0 && titles.length === branches.length ? titles : null);
    }
    default:
      return null;
  }
}

/**
 * Whether WordPress itself would reject what an issue describes: the validator port says whether it checks the
 * keyword (it ignores e.g. `format: uri` and `not`); an error a handler supplies is always WordPress's.
 */
export function isEnforcedByWordPress(issue: ValidationIssue): boolean {
  const custom = issue.params.wpError;
  return (isObj(custom) && typeof custom.code === 'string') || wpValidates(issue.keyword, issue.params.format);
}

interface ParamFailure {
  param: string;
  /** null: WordPress's "Invalid parameter." from a validate_callback returning false, with no details entry */
  error: WpError | null;
}

/**
 * The 400 WordPress answers for a request whose params fail the contract, or null when WordPress would accept it.
 * Missing required args win (rest_missing_callback_param, all of them); then the validate pass, then the sanitize
 * pass (see defaultWpPhase()); the message lists the failing params, `data.params` maps each to its message and
 * `data.details` to the error WordPress built (rest_invalid_param). Issues WordPress has no check for are reported
 * as a validate_callback failure would be: "Invalid parameter." without a details entry.
 */
export function invalidParams(
  issues: readonly ValidationIssue[],
  schemasByParam: Readonly<Record<string, JsonSchema>>,
  opts: InvalidParamsOptions = {},
): WpErrorResponse | null {
  const forced = opts.forced ?? {};
  if (issues.length === 0 && Object.keys(forced).length === 0) return null;
  const declared = Object.keys(schemasByParam);
  const byDeclaration = (a: string, b: string) => {
    const ia = declared.indexOf(a);
    const ib = declared.indexOf(b);
    return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
  };

  const missing = [...new Set(issues.filter(isTopLevelMissing).map((i) => (typeof i.params.missingProperty === 'string' ? i.params.missingProperty : i.param)))];
  const values = opts.values;
  for (const name of opts.required ?? []) {
    if (values && Object.prototype.hasOwnProperty.call(values, name) && values[name] === null && !missing.includes(name)) missing.push(name);
  }
  if (missing.length > 0) return missingParams(missing.sort(byDeclaration));

  const grouped = new Map<string, ValidationIssue[]>();
  for (const issue of issues) grouped.set(issue.param, [...(grouped.get(issue.param) ?? []), issue]);

  const phaseOf = opts.phaseOf ?? defaultWpPhase;
  const failures: Record<WpPhase, ParamFailure[]> = { validate: [], sanitize: [] };
  for (const [param, error] of Object.entries(forced)) failures.sanitize.push({ param, error });
  for (const [param, list] of grouped) {
    if (Object.prototype.hasOwnProperty.call(forced, param)) continue;
    const schema = schemasByParam[param];
    const phase = phaseOf(param, list[0]!.location, schema);
    const wpArg = schema ? wordpressSchemaOf(schema) : undefined;
    let error: WpError | null | undefined;
    if (values && Object.prototype.hasOwnProperty.call(values, param) && wpArg) {
      const value = values[param];
      // has_valid_params() skips null values; the item-schema sanitizer then lets them through.
      if (value === null && phase === 'validate') continue;
      error = wpValidateValue(value, wpArg, param) ?? undefined;
    }
    if (error === undefined) error = issueToWpError(firstIssue(list), wpArg);
    failures[phase].push({ param, error });
  }

  let reported = failures.validate.sort((a, b) => byDeclaration(a.param, b.param));
  if (reported.length === 0) {
    const order = opts.requestOrder ?? declared;
    const pos = (p: string) => {
      const i = order.indexOf(p);
      return i < 0 ? Infinity : i;
    };
    reported = failures.sanitize.sort((a, b) => pos(a.param) - pos(b.param) || byDeclaration(a.param, b.param));
  }
  if (reported.length === 0) return null;

  const params: Record<string, string> = {};
  const details: Record<string, { code: string; message: string; data: unknown }> = {};
  for (const f of reported) {
    params[f.param] = f.error ? f.error.message : 'Invalid parameter.';
    if (f.error) details[f.param] = { code: f.error.code, message: f.error.message, data: f.error.data };
  }
  return wpError('rest_invalid_param', `Invalid parameter(s): ${reported.map((f) => f.param).join(', ')}`, {
    status: 400,
    params,
    // An empty PHP array prints as [], as WordPress does when every failure came from a bare `false`.
    details: Object.keys(details).length === 0 ? [] : details,
  });
}
