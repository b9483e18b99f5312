// Shapes of the loaded contract that the mock, the generators and the suites share.
// The contract (contracts/openapi.yaml) is the source; these types describe the index the loader builds from it.
import type { JsonSchema } from '../wordpress/schema/types.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A JSON Schema (2020-12) object as it stands in the dereferenced bundle (the WordPress layer's type). */
export type { JsonSchema } from '../wordpress/schema/types.ts';

/** Where a request value lives on the wire. `body` covers JSON and form-encoded bodies alike. */
export type ParamLocation = 'path' | 'query' | 'body';

/**
 * How sure the contract is of a fact:
 * - documented: stated by the interface documents; a deviation is a hard failure.
 * - convention: not in the documents, but what every WordPress REST server does (error envelope, pagination headers...).
 * - assumed: the documents are silent and WordPress gives no single answer (response record shapes).
 */
export type Basis = 'documented' | 'convention' | 'assumed';

/** `x-gaps` entry: the documents say "not shown" (or omit) something here. */
export interface Gap {
  kind: string;
  note: string;
  source: string;
}

/** `x-contradictions` entry: the documents say two things, or something loose; both readings are kept. */
export interface Contradiction {
  kind: string;
  note: string;
  source: string;
  readings: { reading: string; schema?: JsonSchema }[];
  /** index into readings of the one the schema enforces */
  chosen: number;
}

export interface ParamSpec {
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: JsonSchema;
  /** JSON pointer of the parameter's schema inside the bundle, for reports and GAPS.md. */
  pointer: string;
  gaps: Gap[];
  contradictions: Contradiction[];
  /**
   * false where WordPress only sanitizes and never rejects (format uri, untyped parameters):
   * a violation is still a violation of the contract, but a live server is not expected to answer 400.
   */
  enforcedOnWire: boolean;
}

/** What an operation does to a resource, so the mock and the suites can pick behaviour without a table per route. */
export type OperationKind = 'root' | 'index' | 'doc' | 'list' | 'read' | 'create' | 'update' | 'delete' | 'batch' | 'action';

export interface Operation {
  /** operationId, unique, stable: e.g. `calV1.events.list`. */
  id: string;
  method: HttpMethod;
  /** Path template under the API root, as in the bundle: `/cal/v1/events/{id}`. */
  path: string;
  namespace: string;
  kind: OperationKind;
  /** Resource name shared across namespaces (`event`, `venue`, ...), when the operation works on one. */
  resource?: string;
  /** The route WordPress registers for the path: `/cal/v1/events/(?P<id>[0-9]+)` (contracts/wordpress/rest/routes.ts). */
  route: string;
  /** Matches a concrete path under the API root, as the route does; named groups are the path parameters. */
  regex: RegExp;
  params: ParamSpec[];
  /** Media types the request body may be sent as (empty when the operation takes no body). */
  bodyMediaTypes: string[];
  /** Schema of the whole body object (properties + required), dereferenced. */
  bodySchema?: JsonSchema;
  /**
   * `x-defaults-apply`: whether the body fields' `default`s are filled in on this operation (`always`) or only
   * describe a record being created (`create`: an update leaves unsent fields as they are, as in WordPress).
   */
  bodyDefaults: 'always' | 'create';
  gaps: Gap[];
  contradictions: Contradiction[];
  /** The raw dereferenced OpenAPI operation object. */
  raw: JsonSchema;
}

/** A request in typed form (after wire coercion), split by location. */
export interface TypedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** One thing wrong with a request, in the contract's terms. */
export interface ValidationIssue {
  location: ParamLocation;
  /** top-level parameter name */
  param: string;
  /** ajv keyword that failed: minimum, maximum, enum, pattern, format, required, type, uniqueItems, maxItems, ... */
  keyword: string;
  /** JSON pointer inside the request: `/query/per_page`, `/body/requests/3/method` */
  instancePath: string;
  /** WordPress-style parameter path for messages: `per_page`, `status[1]`, `requests[3][method]` */
  wpParam: string;
  message: string;
  params: Record<string, unknown>;
}

export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}
