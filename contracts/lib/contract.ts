// parse → dereference → operation index → validators. The contract owns every validator compiled from it, on the
// one Ajv instance it creates (ajv-setup.ts), made on first need from the factory it is given: requests (once per operation, on first use or all at once with compileAll()),
// response bodies, and the schemas of the documents' alternative readings (x-contradictions). Everything the mock, the generators and the suites know about the interface
// comes through here. No file access, so the mock's browser entry can use it: loader.ts reads the file.
import type { parse as YamlParse } from 'yaml';
import type { ValidateFunction, ErrorObject } from 'ajv';
import { lazyAjv, type AjvFactory, type LazyAjv } from './ajv-setup.ts';
import { boundedValidator, type BoundedValidator } from './bounded-validate.ts';
import { compileRoute, RouteMatcher, routeKey, routePatternOf, type RegisteredRoute } from '../wordpress/rest/routes.ts';
import { dereference } from './deref.ts';
import type {
  Contradiction,
  Gap,
  HttpMethod,
  JsonSchema,
  Operation,
  OperationKind,
  ParamLocation,
  ParamSpec,
  TypedRequest,
  ValidationIssue,
  ValidationResult,
} from './types.ts';

/** One route of the contract as WordPress registers it: a path template with its operations. */
export interface ContractRoute extends RegisteredRoute {
  /** Path template as in the contract: `/cal/v1/events/{id}`. */
  template: string;
  /** Operations in the contract's order (GET, POST, PUT, PATCH, DELETE). */
  operations: readonly Operation[];
  byMethod: ReadonlyMap<string, Operation>;
  methods: readonly HttpMethod[];
}

export type MatchResult =
  | { kind: 'match'; route: ContractRoute; operation: Operation; pathParams: Record<string, string> }
  /** The route exists but not with this method (WordPress answers 404 rest_no_route, never 405). */
  | { kind: 'no-method'; route: ContractRoute; allowed: HttpMethod[]; pathParams: Record<string, string> }
  | { kind: 'no-route' };

export interface Contract {
  /** The bundle as written, $refs intact. */
  readonly doc: JsonSchema;
  /** The bundle with every $ref resolved. */
  readonly deref: JsonSchema;
  readonly operations: readonly Operation[];
  readonly namespaces: readonly string[];
  operation(id: string): Operation;
  /** The routes in registration order (the contract's order of paths), each with its operations. */
  readonly routes: readonly ContractRoute[];
  /**
   * Match a route (path under the API root, e.g. `/cal/v1/events/5`) as WordPress's REST server does
   * (contracts/wordpress/rest/routes.ts): the first matching route that serves the method, HEAD by GET.
   */
  match(method: string, route: string): MatchResult;
  /** The first route whose pattern matches, whatever its methods (what OPTIONS and the Allow header describe). */
  matching(route: string): { route: ContractRoute; pathParams: Record<string, string> } | undefined;
  /** Methods of the first route that matches the path (empty when none does). */
  methodsFor(route: string): HttpMethod[];
  /** The request schema of an operation: `{path, query, body?}` as one JSON Schema. */
  requestSchema(op: Operation): JsonSchema;
  validate(op: Operation, req: TypedRequest): ValidationResult;
  /**
   * validate() with work bounded by the request's size (bounded-validate.ts): the same validity and the same failing
   * params, but at most the first issue of each param (and every missing required one). For untrusted requests.
   */
  validateBounded(op: Operation, req: TypedRequest): ValidationResult;
  /**
   * Compile every operation's validator now; returns the time it took in ms. `'bounded'`: validateBounded()'s, the
   * ones a server of untrusted requests (the mock) calls, rather than validate()'s.
   */
  compileAll(kind?: 'full' | 'bounded'): number;
  /**
   * The check of an operation's response body for a response key of the contract (`200`, `4XX`, `default`), compiled
   * once; undefined when that response has no JSON body schema. The check gives Ajv's errors, none when valid.
   */
  responseCheck(op: Operation, key: string): SchemaCheck | undefined;
  /**
   * The check of one reading's schema (an `x-contradictions` reading of the contract), compiled once; undefined when
   * the schema does not compile on its own (a bare reference target says nothing sure).
   */
  readingCheck(schema: JsonSchema): SchemaCheck | undefined;
}

/** A compiled schema: Ajv's errors for a value, an empty list when it is valid. */
export type SchemaCheck = (value: unknown) => readonly ErrorObject[];

function checkOf(v: ValidateFunction): SchemaCheck {
  return (value) => (v(value) ? [] : [...(v.errors ?? [])]);
}

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function marks(node: JsonSchema | undefined): { gaps: Gap[]; contradictions: Contradiction[] } {
  return { gaps: (node?.['x-gaps'] as Gap[]) ?? [], contradictions: (node?.['x-contradictions'] as Contradiction[]) ?? [] };
}

/** `{id}` of a path template → the pattern of its path parameter, which must be anchored to route by. */
function routeOf(path: string, pathParams: ParamSpec[]): string {
  return routeKey(path, (name) => {
    const spec = pathParams.find((p) => p.name === name);
    if (!spec) throw new Error(`${path}: no parameter declared for {${name}}`);
    const pattern = routePatternOf(spec.schema.pattern);
    if (pattern === undefined) throw new Error(`path parameter {${name}} of ${path} needs an anchored pattern to route by`);
    return pattern;
  });
}

/** The operations grouped by path template, in the contract's order, with the namespace WordPress registers them in. */
function routesOf(operations: readonly Operation[]): ContractRoute[] {
  const byTemplate = new Map<string, ContractRoute & { operations: Operation[]; byMethod: Map<string, Operation>; methods: HttpMethod[] }>();
  for (const op of operations) {
    let route = byTemplate.get(op.path);
    if (!route) {
      // Core registers the index and /batch/v1 in WP_REST_Server itself, outside any namespace.
      const namespace = op.kind === 'root' || op.kind === 'batch' ? '' : op.namespace;
      route = { template: op.path, route: op.route, namespace, operations: [], byMethod: new Map(), methods: [] };
      byTemplate.set(op.path, route);
    }
    route.operations.push(op);
    route.byMethod.set(op.method, op);
    route.methods.push(op.method);
  }
  return [...byTemplate.values()];
}

function paramSpec(name: string, location: ParamLocation, required: boolean, schema: JsonSchema, pointer: string, owner?: JsonSchema): ParamSpec {
  const m1 = marks(owner);
  const m2 = marks(schema);
  const untyped = schema.type === undefined && !schema.anyOf && !schema.allOf;
  const enforced = owner?.['x-wire-enforced'] !== false && schema['x-wire-enforced'] !== false;
  return {
    name,
    in: location,
    required,
    schema,
    pointer,
    gaps: [...m1.gaps, ...m2.gaps],
    contradictions: [...m1.contradictions, ...m2.contradictions],
    enforcedOnWire: enforced && !untyped,
  };
}

function pointerEscape(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function buildOperations(deref: JsonSchema): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(deref.paths as Record<string, JsonSchema>)) {
    for (const method of METHODS) {
      const raw = item[method.toLowerCase()] as JsonSchema | undefined;
      if (!raw) continue;
      const base = `#/paths/${pointerEscape(path)}/${method.toLowerCase()}`;
      const declared = new Map<string, JsonSchema>();
      for (const p of [...((item.parameters as JsonSchema[]) ?? []), ...((raw.parameters as JsonSchema[]) ?? [])]) {
        declared.set(`${p.in}:${p.name}`, p);
      }
      const params: ParamSpec[] = [];
      let i = 0;
      for (const p of declared.values()) {
        if (p.in !== 'path' && p.in !== 'query') throw new Error(`${raw.operationId}: parameters in ${p.in} are not supported`);
        params.push(paramSpec(p.name, p.in, p.required === true, p.schema ?? {}, `${base}/parameters/${i++}`, p));
      }
      const content = (raw.requestBody?.content ?? {}) as Record<string, JsonSchema>;
      const bodyMediaTypes = Object.keys(content);
      const bodySchema = content['application/json']?.schema as JsonSchema | undefined;
      if (bodySchema) {
        const required = new Set<string>((bodySchema.required as string[]) ?? []);
        for (const [name, schema] of Object.entries((bodySchema.properties ?? {}) as Record<string, JsonSchema>)) {
          params.push(paramSpec(name, 'body', required.has(name), schema, `${base}/requestBody/content/application~1json/schema/properties/${pointerEscape(name)}`));
        }
      }
      const route = routeOf(path, params.filter((p) => p.in === 'path'));
      const opMarks = marks(raw);
      ops.push({
        id: raw.operationId,
        method,
        path,
        namespace: raw['x-namespace'] ?? '',
        kind: raw['x-kind'] as OperationKind,
        bodyDefaults: raw['x-defaults-apply'] === 'create' ? 'create' : 'always',
        ...(raw['x-resource'] ? { resource: raw['x-resource'] as string } : {}),
        route,
        regex: compileRoute(route),
        params,
        bodyMediaTypes,
        ...(bodySchema ? { bodySchema } : {}),
        gaps: opMarks.gaps,
        contradictions: [...opMarks.contradictions, ...marks(bodySchema).contradictions],
        raw,
      });
    }
  }
  return ops;
}

function locationSchema(op: Operation, location: ParamLocation): JsonSchema {
  const ps = op.params.filter((p) => p.in === location);
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(ps.map((p) => [p.name, p.schema])),
  };
  const required = ps.filter((p) => p.required).map((p) => p.name);
  if (required.length) schema.required = required;
  const dep = op.raw['x-dependent-required'];
  if (location === 'query' && dep) schema.dependentRequired = dep;
  return schema;
}

/**
 * Whether a route takes batch items (`allow_batch: {v1: true}` on its endpoints; serve_batch_request_v1() answers
 * any other route's item 400 rest_batch_not_allowed). 001 §4.1 does not say which routes do; the batch operation's
 * `x-batchable-namespaces` names the namespaces whose record routes opt in, as the controllers they build on do
 * (core's posts and terms controllers, behind cal/v1; The Events Calendar registers its own routes without it).
 */
export function allowsBatch(contract: Pick<Contract, 'operations'>, route: Pick<ContractRoute, 'namespace' | 'operations'>): boolean {
  const batch = contract.operations.find((o) => o.kind === 'batch');
  const namespaces = batch?.raw['x-batchable-namespaces'];
  if (!Array.isArray(namespaces) || !namespaces.includes(route.namespace)) return false;
  return route.operations.some((o) => o.resource !== undefined && RECORD_KINDS.has(o.kind));
}

const RECORD_KINDS: ReadonlySet<OperationKind> = new Set(['list', 'read', 'create', 'update', 'delete']);

export function requestSchemaFor(op: Operation): JsonSchema {
  const properties: JsonSchema = { path: locationSchema(op, 'path'), query: locationSchema(op, 'query') };
  if (op.bodySchema) properties.body = locationSchema(op, 'body');
  return { type: 'object', properties, required: ['path', 'query'] };
}

/** `/body/requests/3/method` → `requests[3][method]`, WordPress's way of naming a nested value. */
export function wpParamName(segments: string[]): string {
  const [head, ...rest] = segments;
  return (head ?? '') + rest.map((s) => `[${s}]`).join('');
}

export function toIssues(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const e of errors ?? []) {
    const segs = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const loc = segs.shift() as ParamLocation | undefined;
    if (!loc) continue; // the request object itself is built by us, never malformed
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    if ((e.keyword === 'required' || e.keyword === 'dependentRequired') && missing !== undefined) segs.push(missing);
    const path = [loc, ...segs];
    out.push({
      location: loc,
      param: segs[0] ?? '',
      keyword: e.keyword,
      instancePath: `/${path.join('/')}`,
      wpParam: wpParamName(segs),
      message: e.message ?? e.keyword,
      params: e.params as Record<string, unknown>,
    });
  }
  return out;
}

/** What loadContract() asks of a cache (validator-cache.ts): the validator of `schema` on `ajv`, kept or compiled. */
export interface ValidatorCache {
  compile(id: string, schema: JsonSchema, ajv: LazyAjv): ValidateFunction;
}

export interface LoadOptions {
  /**
   * Where the bounded validation's validators (the ones the mock runs on every request) come from when they were
   * compiled before, in another process (validator-cache.ts; loader.ts passes one kept under node_modules/.cache).
   * Without it each is compiled by Ajv on first use.
   */
  validators?: ValidatorCache;
}

/** The contract of `doc`, its validators compiled on Ajvs `makeAjv` makes (loader.ts's loadContract() passes its own). */
export function loadContractWith(makeAjv: AjvFactory, doc: JsonSchema, options: LoadOptions = {}): Contract {
  const deref = dereference(doc);
  const operations = buildOperations(deref);
  const byId = new Map(operations.map((o) => [o.id, o]));
  const ajv = lazyAjv(makeAjv, {});
  const compiled = new Map<string, ValidateFunction>();
  const routes = routesOf(operations);
  const router = new RouteMatcher(routes);
  const responses = new Map<string, SchemaCheck | undefined>();
  const readings = new Map<JsonSchema, SchemaCheck | undefined>();

  // Stops at the first error: the bounded validation's passes (bounded-validate.ts).
  const cache = options.validators;
  const firstAjv = lazyAjv(makeAjv, { allErrors: false, ...(cache ? { standalone: 'commonjs' as const } : {}) });
  const bounded = new Map<string, BoundedValidator>();
  const boundedOf = (op: Operation): BoundedValidator => {
    let b = bounded.get(op.id);
    if (!b) {
      const schema = requestSchemaFor(op);
      const whole = cache ? cache.compile(op.id, schema, firstAjv) : firstAjv.get().compile(schema);
      b = boundedValidator(op, whole, firstAjv, ajv, locationSchema);
      bounded.set(op.id, b);
    }
    return b;
  };
  const inputOf = (op: Operation, req: TypedRequest) => (op.bodySchema ? { ...req, body: req.body ?? {} } : { path: req.path, query: req.query });

  const validatorOf = (op: Operation): ValidateFunction => {
    const cached = compiled.get(op.id);
    if (cached) return cached;
    const v = ajv.get().compile(requestSchemaFor(op));
    compiled.set(op.id, v);
    return v;
  };

  return {
    doc,
    deref,
    operations,
    namespaces: (doc['x-namespaces'] as string[]) ?? [],
    operation(id) {
      const op = byId.get(id);
      if (!op) throw new Error(`no operation ${id} in the contract`);
      return op;
    },
    routes,
    match(method, route) {
      const m = router.match(method, route);
      if (m.kind === 'no-route') return m;
      if (m.kind === 'no-method') return { kind: 'no-method', route: m.route, allowed: [...m.route.methods], pathParams: m.pathParams };
      return { kind: 'match', route: m.route, operation: m.route.byMethod.get(m.method)!, pathParams: m.pathParams };
    },
    matching(route) {
      return router.matching(route);
    },
    methodsFor(route) {
      return [...(router.matching(route)?.route.methods ?? [])];
    },
    requestSchema: requestSchemaFor,
    validate(op, req) {
      const v = validatorOf(op);
      const input = inputOf(op, req);
      if (v(input)) return { valid: true, issues: [] };
      return { valid: false, issues: toIssues(v.errors) };
    },
    validateBounded(op, req) {
      const errors = boundedOf(op).errors(inputOf(op, req));
      return errors.length === 0 ? { valid: true, issues: [] } : { valid: false, issues: toIssues(errors) };
    },
    responseCheck(op, key) {
      const id = `${op.id} ${key}`;
      if (responses.has(id)) return responses.get(id);
      const schema = (op.raw.responses as Record<string, JsonSchema> | undefined)?.[key]?.content?.['application/json']?.schema as JsonSchema | undefined;
      const check = schema ? checkOf(ajv.get().compile(schema)) : undefined;
      responses.set(id, check);
      return check;
    },
    readingCheck(schema) {
      if (readings.has(schema)) return readings.get(schema);
      let check: SchemaCheck | undefined;
      try {
        check = checkOf(ajv.get().compile(schema));
      } catch {
        check = undefined;
      }
      readings.set(schema, check);
      return check;
    },
    compileAll(kind = 'full') {
      const t0 = performance.now();
      for (const op of operations) {
        if (kind === 'bounded') boundedOf(op);
        else validatorOf(op);
      }
      return performance.now() - t0;
    },
  };
}

/**
 * The contract's document from its YAML text, by yaml's `parse` handed in (aliases unbounded: the bundle shares
 * schemas by anchors). Handed in so that loading a contract does not load the YAML parser: under Node (loader.ts's
 * parseContract) it is loaded only when the parsed-contract cache misses, about 40 ms of every test file's start.
 */
export function parseContractWith(parse: typeof YamlParse, text: string): JsonSchema {
  return parse(text, { maxAliasCount: -1 }) as JsonSchema;
}
