// parse → dereference → operation index → validators (compiled once per operation, on first use or all at
// once with compileAll()). Everything the mock, the generators and the suites know about the interface
// comes through here. No file access, so the mock's browser entry can use it: loader.ts reads the file.
import { parse } from 'yaml';
import type { ValidateFunction, ErrorObject } from 'ajv';
import { createAjv, type AjvInstance } from './ajv.ts';
import { dereference } from './deref.ts';
import { escapeRegExp } from '../wordpress/regexp.ts';
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

export type MatchResult =
  | { kind: 'match'; operation: Operation; pathParams: Record<string, string> }
  /** The route exists but not with this method (WordPress answers 404 rest_no_route, never 405). */
  | { kind: 'no-method'; allowed: HttpMethod[] }
  | { kind: 'no-route' };

export interface Contract {
  /** The bundle as written, $refs intact. */
  readonly doc: JsonSchema;
  /** The bundle with every $ref resolved. */
  readonly deref: JsonSchema;
  readonly operations: readonly Operation[];
  readonly namespaces: readonly string[];
  operation(id: string): Operation;
  /** Match a route (path under the API root, e.g. `/cal/v1/events/5`) case-insensitively, as WordPress does. */
  match(method: string, route: string): MatchResult;
  /** Methods of every operation whose path template matches the route. */
  methodsFor(route: string): HttpMethod[];
  /** The request schema of an operation: `{path, query, body?}` as one JSON Schema. */
  requestSchema(op: Operation): JsonSchema;
  validate(op: Operation, req: TypedRequest): ValidationResult;
  /** Compile every operation's validator now; returns the time it took in ms. */
  compileAll(): number;
  readonly ajv: AjvInstance;
}

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function marks(node: JsonSchema | undefined): { gaps: Gap[]; contradictions: Contradiction[] } {
  return { gaps: (node?.['x-gaps'] as Gap[]) ?? [], contradictions: (node?.['x-contradictions'] as Contradiction[]) ?? [] };
}

function patternBody(schema: JsonSchema, name: string, path: string): string {
  const p: unknown = schema.pattern;
  if (typeof p !== 'string' || !p.startsWith('^') || !p.endsWith('$')) {
    throw new Error(`path parameter {${name}} of ${path} needs an anchored pattern to route by`);
  }
  return p.slice(1, -1);
}

function buildRegex(path: string, pathParams: ParamSpec[]): RegExp {
  let src = '';
  for (const seg of path.split(/(\{[^}]+\})/)) {
    const m = /^\{(.+)\}$/.exec(seg);
    if (!m) {
      src += escapeRegExp(seg);
      continue;
    }
    const spec = pathParams.find((p) => p.name === m[1]);
    if (!spec) throw new Error(`${path}: no parameter declared for {${m[1]}}`);
    src += `(?<${m[1]}>${patternBody(spec.schema, m[1]!, path)})`;
  }
  return new RegExp(`^${src}$`, 'i');
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
      const pathParams = params.filter((p) => p.in === 'path');
      const opMarks = marks(raw);
      ops.push({
        id: raw.operationId,
        method,
        path,
        namespace: raw['x-namespace'] ?? '',
        kind: raw['x-kind'] as OperationKind,
        bodyDefaults: raw['x-defaults-apply'] === 'create' ? 'create' : 'always',
        ...(raw['x-resource'] ? { resource: raw['x-resource'] as string } : {}),
        regex: buildRegex(path, pathParams),
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

export function loadContract(doc: JsonSchema): Contract {
  const deref = dereference(doc);
  const operations = buildOperations(deref);
  const byId = new Map(operations.map((o) => [o.id, o]));
  const ajv = createAjv();
  const compiled = new Map<string, ValidateFunction>();
  const staticRoutes = new Map<string, Operation[]>();
  const dynamic: Operation[] = [];
  for (const op of operations) {
    if (op.path.includes('{')) dynamic.push(op);
    else staticRoutes.set(op.path.toLowerCase(), [...(staticRoutes.get(op.path.toLowerCase()) ?? []), op]);
  }

  const validatorOf = (op: Operation): ValidateFunction => {
    const cached = compiled.get(op.id);
    if (cached) return cached;
    const v = ajv.compile(requestSchemaFor(op));
    compiled.set(op.id, v);
    return v;
  };

  const candidates = (route: string): { op: Operation; groups: Record<string, string> }[] => {
    const exact = staticRoutes.get(route.toLowerCase());
    if (exact) return exact.map((op) => ({ op, groups: {} }));
    const out: { op: Operation; groups: Record<string, string> }[] = [];
    for (const op of dynamic) {
      const m = op.regex.exec(route);
      if (m) out.push({ op, groups: { ...(m.groups ?? {}) } });
    }
    return out;
  };

  return {
    doc,
    deref,
    operations,
    namespaces: (doc['x-namespaces'] as string[]) ?? [],
    ajv,
    operation(id) {
      const op = byId.get(id);
      if (!op) throw new Error(`no operation ${id} in the contract`);
      return op;
    },
    match(method, route) {
      const found = candidates(route);
      if (found.length === 0) return { kind: 'no-route' };
      const m = method.toUpperCase();
      const hit = found.find((f) => f.op.method === m);
      if (hit) return { kind: 'match', operation: hit.op, pathParams: hit.groups };
      return { kind: 'no-method', allowed: found.map((f) => f.op.method) };
    },
    methodsFor(route) {
      return candidates(route).map((f) => f.op.method);
    },
    requestSchema: requestSchemaFor,
    validate(op, req) {
      const v = validatorOf(op);
      const input = op.bodySchema ? { ...req, body: req.body ?? {} } : { path: req.path, query: req.query };
      if (v(input)) return { valid: true, issues: [] };
      return { valid: false, issues: toIssues(v.errors) };
    },
    compileAll() {
      const t0 = performance.now();
      for (const op of operations) validatorOf(op);
      return performance.now() - t0;
    },
  };
}

export function parseContract(text: string): JsonSchema {
  return parse(text, { maxAliasCount: -1 }) as JsonSchema;
}
