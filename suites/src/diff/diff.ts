// The target's descriptor against the contract: routes and methods missing or extra, and for every
// argument the keywords WordPress prints in a descriptor (type, enum, default, required, bounds, ...)
// compared after putting both sides into one form: the contract is OpenAPI 3.1 (JSON Schema 2020-12),
// WordPress speaks draft-04 (`required: true` on the argument, boolean exclusiveMinimum).

import { isDeepStrictEqual } from 'node:util';
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { JsonSchema, Operation, ParamSpec } from '../../../contracts/lib/types.ts';
import { wordpressFormatOf } from '../../../contracts/lib/wp-format.ts';
import { templateKey, type LiveArg, type LiveDescriptor, type LiveRoute } from './descriptor.ts';

type ArgKeyword =
  | 'type'
  | 'enum'
  | 'default'
  | 'required'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'minLength'
  | 'maxLength'
  | 'minItems'
  | 'maxItems'
  | 'uniqueItems'
  | 'pattern'
  | 'format'
  | 'items.type'
  | 'items.enum';

const ARG_KEYWORDS: readonly ArgKeyword[] = [
  'type', 'enum', 'default', 'required', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'pattern', 'format', 'items.type', 'items.enum',
];

/** One argument as both sides describe it, keyword → value (absent keywords left out). */
export type ArgForm = Partial<Record<ArgKeyword, unknown>>;

export interface KeywordDiff {
  keyword: ArgKeyword;
  contract: unknown;
  target: unknown;
}

export interface ArgDiff {
  name: string;
  kind: 'missing' | 'extra' | 'different';
  keywords: KeywordDiff[];
  /** The contract's form (missing, different) and the target's (extra, different). */
  contract?: ArgForm;
  target?: ArgForm;
}

interface OperationDiff {
  operationId: string;
  method: string;
  route: string;
  namespace: string;
  kind: 'route-missing' | 'method-missing' | 'args' | 'same';
  args: ArgDiff[];
}

interface ExtraDiff {
  route: string;
  pattern: string;
  namespace: string;
  /** Methods the target serves there that the contract does not have (all of them for an extra route). */
  methods: string[];
  kind: 'route-extra' | 'method-extra';
}

export interface DiffResult {
  operations: OperationDiff[];
  extras: ExtraDiff[];
  /** Namespaces the target lists that the contract does not describe (their routes are not compared). */
  otherNamespaces: string[];
  summary: DiffSummary;
}

/** The diff's own counts, printed on its last line and shown at the top of its HTML report. */
export interface DiffSummary {
  operations: number;
  same: number;
  routeMissing: number;
  methodMissing: number;
  withArgDiffs: number;
  argDiffs: number;
  extras: number;
  identical: boolean;
}

function typesOf(schema: JsonSchema | LiveArg | undefined): string[] | undefined {
  if (!schema) return undefined;
  const t = schema['type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return [...new Set(t.filter((x): x is string => typeof x === 'string'))].sort();
  const alternatives = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) {
    const all = alternatives.map((a) => typesOf(a));
    if (all.every((x) => x !== undefined)) return [...new Set(all.flat() as string[])].sort();
  }
  return undefined;
}

function sortedEnum(v: unknown): unknown {
  return Array.isArray(v) ? [...v].map((x) => JSON.stringify(x)).sort().map((x) => JSON.parse(x) as unknown) : v;
}

/** An argument of either side in one form: 2020-12 numeric exclusive bounds become draft-04's booleans. */
export function argForm(schema: JsonSchema | LiveArg, required: boolean): ArgForm {
  const f: ArgForm = {};
  const type = typesOf(schema);
  if (type) f.type = type.length === 1 ? type[0] : type;
  if (Array.isArray(schema['enum'])) f.enum = sortedEnum(schema['enum']);
  if ('default' in schema) f.default = schema['default'];
  f.required = required;
  for (const k of ['minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'pattern', 'format'] as const) {
    if (schema[k] !== undefined) f[k] = schema[k];
  }
  // A documented exact format (a pattern in the contract) is compared as the WordPress format a site prints for it.
  const wpFormat = wordpressFormatOf(schema as JsonSchema);
  if (wpFormat) {
    delete f.pattern;
    f.format = wpFormat;
  }
  for (const [bound, exclusive] of [['minimum', 'exclusiveMinimum'], ['maximum', 'exclusiveMaximum']] as const) {
    const ex = schema[exclusive];
    if (typeof ex === 'number') {
      f[bound] = ex;
      f[exclusive] = true;
    } else {
      if (schema[bound] !== undefined) f[bound] = schema[bound];
      if (ex === true) f[exclusive] = true;
    }
  }
  const items = schema['items'];
  if (items && typeof items === 'object' && !Array.isArray(items)) {
    const it = typesOf(items as JsonSchema);
    if (it) f['items.type'] = it.length === 1 ? it[0] : it;
    const en = (items as JsonSchema)['enum'];
    if (Array.isArray(en)) f['items.enum'] = sortedEnum(en);
  }
  if (f.uniqueItems === false) delete f.uniqueItems;
  return f;
}

export function compareArgs(contract: ArgForm, target: ArgForm): KeywordDiff[] {
  const out: KeywordDiff[] = [];
  for (const k of ARG_KEYWORDS) {
    const a = contract[k];
    const b = target[k];
    if (a === undefined && b === undefined) continue;
    if (!isDeepStrictEqual(a, b)) out.push({ keyword: k, contract: a, target: b });
  }
  return out;
}

function argsOf(op: Operation): ParamSpec[] {
  // Path parameters are part of the route key; WordPress may or may not repeat them as args.
  return op.params.filter((p) => p.in !== 'path');
}

interface DiffOptions {
  /** Keep only these operations (selection by --only/--skip). */
  include?(op: Operation): boolean;
  /** Look for routes and methods beyond the contract (default true); a check of one operation has no use for them. */
  extras?: boolean;
}

export function diffDescriptor(contract: Contract, live: LiveDescriptor, options: DiffOptions = {}): DiffResult {
  const ops = contract.operations.filter((o) => options.include?.(o) ?? true);
  const operations: OperationDiff[] = [];
  for (const op of ops) {
    const base = { operationId: op.id, method: op.method, route: op.path, namespace: op.namespace };
    const route = live.byKey.get(templateKey(op.path));
    if (!route) {
      operations.push({ ...base, kind: 'route-missing', args: [] });
      continue;
    }
    const ep = route.endpoints.find((e) => e.methods.includes(op.method));
    if (!ep) {
      operations.push({ ...base, kind: 'method-missing', args: [] });
      continue;
    }
    const args: ArgDiff[] = [];
    const pathNames = new Set(op.params.filter((p) => p.in === 'path').map((p) => p.name));
    const seen = new Set<string>();
    for (const p0 of argsOf(op)) {
      if (seen.has(p0.name)) continue; // a parameter in both query and body is one WordPress arg
      seen.add(p0.name);
      // A body field named like a path parameter is the same WordPress arg, declared by the route.
      const p = op.params.find((x) => x.in === 'path' && x.name === p0.name) ?? p0;
      const c = argForm(p.schema, p.required);
      // An update's body defaults describe a create (x-defaults-apply: create): WordPress prints none there.
      if (op.bodyDefaults === 'create' && p.in === 'body') delete c.default;
      const liveArg = ep.args[p.name];
      if (!liveArg) {
        args.push({ name: p.name, kind: 'missing', keywords: [], contract: c });
        continue;
      }
      const t = argForm(liveArg, liveArg['required'] === true);
      const keywords = compareArgs(c, t);
      if (keywords.length) args.push({ name: p.name, kind: 'different', keywords, contract: c, target: t });
    }
    for (const [name, liveArg] of Object.entries(ep.args)) {
      if (seen.has(name) || pathNames.has(name)) continue;
      args.push({ name, kind: 'extra', keywords: [], target: argForm(liveArg, liveArg['required'] === true) });
    }
    operations.push({ ...base, kind: args.length ? 'args' : 'same', args });
  }

  if (options.extras === false) return { operations, extras: [], otherNamespaces: [], summary: summarize(operations, []) };
  const contractKeys = new Map<string, Set<string>>();
  for (const op of contract.operations) {
    const k = templateKey(op.path);
    contractKeys.set(k, (contractKeys.get(k) ?? new Set()).add(op.method));
  }
  const known = new Set(contract.operations.map((o) => o.namespace).filter((n) => n !== ''));
  const inKnownNamespace = (r: LiveRoute): boolean =>
    known.has(r.namespace) || [...known].some((ns) => r.template.toLowerCase() === `/${ns}`.toLowerCase() || r.template.toLowerCase().startsWith(`/${ns}/`.toLowerCase())) || r.template === '/' || r.key === '/batch/v1';
  const selectedKeys = new Set(ops.map((o) => templateKey(o.path)));
  const extras: ExtraDiff[] = [];
  for (const r of live.routes) {
    if (!inKnownNamespace(r)) continue;
    const methods = contractKeys.get(r.key);
    if (!methods) {
      // Routes of a namespace the selection left out are not this run's business.
      if (options.include && !ops.some((o) => o.namespace === r.namespace)) continue;
      extras.push({ route: r.template, pattern: r.pattern, namespace: r.namespace, methods: r.methods, kind: 'route-extra' });
      continue;
    }
    if (!selectedKeys.has(r.key)) continue;
    const extra = r.methods.filter((m) => !methods.has(m) && m !== 'HEAD' && m !== 'OPTIONS');
    if (extra.length) extras.push({ route: r.template, pattern: r.pattern, namespace: r.namespace, methods: extra, kind: 'method-extra' });
  }
  const otherNamespaces = live.namespaces.filter((n) => !known.has(n)).sort();

  return { operations, extras, otherNamespaces, summary: summarize(operations, extras) };
}

function summarize(operations: OperationDiff[], extras: ExtraDiff[]): DiffSummary {
  const summary: DiffSummary = {
    operations: operations.length,
    same: operations.filter((o) => o.kind === 'same').length,
    routeMissing: operations.filter((o) => o.kind === 'route-missing').length,
    methodMissing: operations.filter((o) => o.kind === 'method-missing').length,
    withArgDiffs: operations.filter((o) => o.kind === 'args').length,
    argDiffs: operations.reduce((n, o) => n + o.args.length, 0),
    extras: extras.length,
    identical: false,
  };
  summary.identical = summary.same === summary.operations && extras.length === 0;
  return summary;
}
