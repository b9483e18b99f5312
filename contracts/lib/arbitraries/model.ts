// Shapes the generators produce and consume. A request is generated in its wire form — what a client really sends,
// strings in query strings and form bodies, JSON in JSON bodies — because that is where WordPress's coercion
// decides what is valid; the typed form the contract validates is derived from it (see wire.ts, toTyped).
import type { HttpMethod, JsonSchema, ParamLocation } from '../types.ts';

/** How a value travels: in the query string, in a form-encoded body, or in a JSON body. */
export type Encoding = 'query' | 'form' | 'json';
export type BodyEncoding = 'json' | 'form';

/**
 * A value as sent. Query strings and form bodies hold strings, nested in PHP bracket arrays
 * (`a[]=1&a[]=2`, `requests[0][method]=POST`); a JSON body holds any JSON value.
 */
export type WireValue = string | number | boolean | null | WireValue[] | { [key: string]: WireValue };

export type WireBody = { json: Record<string, WireValue> } | { form: string };

/** A complete request under the API root, ready to send. */
export interface WireRequest {
  operationId: string;
  method: HttpMethod;
  /** Concrete path under the API root, path parameters filled in and URL-encoded: `/cal/v1/events/5`. */
  path: string;
  /** Path parameters as values (before URL encoding), the way WordPress hands them to the route. */
  pathParams: Record<string, string>;
  /** Query parameters; arrays and objects are sent in PHP bracket form, strings as they are. */
  query: Record<string, WireValue>;
  body?: WireBody;
  headers: Record<string, string>;
}

/**
 * Whether breaking a constraint is something WordPress itself answers with 400:
 * - wire: yes, the generated request is rejected by rest_validate_value_from_schema / the required check.
 * - contract-only: the contract rejects the request but WordPress does not (it only sanitizes, or fills a default,
 *   or answers 404 because the route does not match); the generator still exists, for the mock and the suites.
 * - not-applicable: no request can break it; there is no generator, only the reason.
 */
export type WireStatus =
  | { kind: 'wire'; note?: string }
  | { kind: 'contract-only'; reason: string }
  | { kind: 'not-applicable'; reason: string };

/** One constraint of the contract: a keyword at one place of one parameter of one operation. */
export interface Constraint {
  /** Stable id: `getCalV1Events query.per_page minimum`, `postBatchV1 body.requests.items.method enum`. */
  id: string;
  operationId: string;
  location: ParamLocation;
  /** Top-level parameter name (for dependentRequired: the parameter whose presence demands another). */
  param: string;
  /** Schema keywords leading from the parameter's schema to the node carrying the keyword: `['items','properties','method']`. */
  schemaPath: string[];
  /** JSON Schema keyword: minimum, maximum, enum, pattern, format, type, required, uniqueItems, maxItems, dependentRequired... */
  keyword: string;
  /** required (nested): the property; format: the format name; dependentRequired: the parameter that must come along. */
  detail?: string;
  /** The schema node that carries the keyword (for a top-level `required`: the parameter's schema). */
  node: JsonSchema;
  wire: WireStatus;
  /** Notes of `x-contradictions` on the parameter: the constraint rests on the reading the contract chose. */
  contested: string[];
}

/** What the contract's validator must report for a violation: the keyword, at this place. */
export interface ExpectedIssue {
  keyword: string;
  /** `/query/per_page`, `/body/requests/3/method`, `/body/title` (required: the missing property's place). */
  instancePath: string;
}

/** A request that breaks exactly one constraint and satisfies every other. */
export interface Violation {
  constraintId: string;
  request: WireRequest;
  expected: ExpectedIssue;
  /**
   * Keywords that necessarily break together with the intended one at the same place — a JSON number sent for a
   * string with an `enum` is outside the enum too. Empty for almost every constraint.
   */
  alongside: ExpectedIssue[];
}
