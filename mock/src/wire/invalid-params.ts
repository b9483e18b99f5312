// The 400 WordPress answers for parameters that fail their checks: WP_REST_Request::has_valid_params() (missing
// args, then the args with a validate_callback) and sanitize_params() (the others), each failure worded by the
// WordPress layer's validator port and message table.
import type { JsonSchema, OperationKind, ParamLocation, ValidationIssue } from '../../../contracts/lib/types.ts';
import { wordpressSchemaOf } from '../../../contracts/lib/wordpress-args.ts';
import { toWpSchema, WP_FORMAT_ERRORS, WP_SCHEMA_ERRORS as E, wpValidates, wpValidateValue, type WpError, type WpSchema } from '../../../contracts/wordpress/schema/index.ts';
import { missingParams, wpError, type WpErrorResponse } from './errors.ts';

import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
/** Which of WordPress's two checks looks at an arg. */
type WpPhase = 'validate' | 'sanitize';

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

interface InvalidParamsOptions {
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
  /**
   * Args checked outside the contract's validator (a controller's own args, such as the posts controller's
   * `context`) that failed: reported in the validate pass beside the contract's failures, in declaration order.
   */
  validated?: Readonly<Record<string, WpError>>;
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
  return isPlainObject(v);
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
function issueToWpError(issue: ValidationIssue, argSchema?: WpSchema): WpError | null {
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
  const validated = opts.validated ?? {};
  if (issues.length === 0 && Object.keys(forced).length === 0 && Object.keys(validated).length === 0) return null;
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
  for (const issue of issues) {
    const list = grouped.get(issue.param);
    if (list) list.push(issue);
    else grouped.set(issue.param, [issue]);
  }

  const phaseOf = opts.phaseOf ?? defaultWpPhase;
  const failures: Record<WpPhase, ParamFailure[]> = { validate: [], sanitize: [] };
  for (const [param, error] of Object.entries(forced)) failures.sanitize.push({ param, error });
  for (const [param, error] of Object.entries(validated)) failures.validate.push({ param, error });
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
  const details: Record<string, WpError> = {};
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
