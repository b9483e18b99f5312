// The edge phase: for every constraint of an operation, the values at and beside it, fixed (no seed), the way
// Schemathesis's coverage phase does before random sampling. Random sampling tests `per_page` maximum with 752 and
// 346 and seldom with 101; a server that takes exactly 101 passes it. Here every bound gets min-1, min, max, max+1;
// every enum its near misses (another case, surrounding spaces, a value of a neighbouring enum, a missing HTTP
// method); every pattern and format values one edit from a valid one (`T` for the single space, seconds missing, a
// trailing space, month 13); every required parameter is left out once; arrays get exactly maxItems and one more,
// one duplicate where items must be unique; and each operation gets its minimal valid request (required parameters
// only) and a full one (every parameter).
//
// Each edge either is valid by the contract (`expect: 'accept'`) or breaks exactly the one constraint it names
// (`expect: 'refuse'`); edgePlan() checks every request with the contract's validator and drops (with the reason)
// any that would not be, so a verdict built on an edge never rests on a second, hidden violation. Whether WordPress
// refuses a broken value on the wire is the constraint's `wire` status, as for the random violations.
//
// The values around the edge are plausible (plausible.ts): the same on every run, and ones a site accepts.
import type { Contract } from '../loader.ts';
import type { JsonSchema, Operation, ParamSpec } from '../types.ts';
import { constraintsOf } from './constraints.ts';
import type { Constraint, WireRequest } from './model.ts';
import { baseValues, describe, nodeName, place, REMOVE, valueAt, valueOf, without, type DroppedEdge, type Draft, type EdgeCase, type EdgeFamily, type Pick, type Values } from './edge-values.ts';
import { plausibleItems } from './plausible.ts';
import { enumValuePicks, singleDrafts, typePicks } from './singles.ts';
import { assemble, bodyEncodings, dependentRequiredOf } from './requests.ts';
import { conforms, stableKey } from './values.ts';
import { toTyped, type WireStyle } from './wire.ts';

export type { DroppedEdge, EdgeCase, EdgeFamily } from './edge-values.ts';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

function toRequest(op: Operation, values: Values): WireRequest {
  const encodings = bodyEncodings(op);
  const encoding = encodings.includes('json') ? 'json' : encodings[0];
  const req = assemble(op, { style: EDGE_STYLE, encoding, values });
  return req;
}

/** One spelling for every edge: brackets keep a spaced enum value inside a list as it is (a comma list would be split and trimmed). */
export const EDGE_STYLE: WireStyle = { arrays: 'brackets', integers: 'plain', booleans: 'word', json: 'native' };

/** Enum values of the operation's other parameters: the "neighbouring enum" a client confuses this one with. */
function neighbourValues(op: Operation, own: readonly unknown[]): string[] {
  const seen = new Set(own.map(stableKey));
  const out: string[] = [];
  const visit = (s: JsonSchema | undefined): void => {
    if (!s || typeof s !== 'object') return;
    if (Array.isArray(s.enum)) for (const e of s.enum as unknown[]) if (typeof e === 'string' && !seen.has(stableKey(e))) out.push(e);
    if (s.items && typeof s.items === 'object') visit(s.items as JsonSchema);
    for (const sub of Object.values((s.properties ?? {}) as Record<string, JsonSchema>)) visit(sub);
  };
  // The language every route takes is everyone's neighbour; a parameter of the operation's own is a nearer one.
  for (const p of [...op.params].sort((a, b) => Number(a.name === 'i18n_language') - Number(b.name === 'i18n_language'))) visit(p.schema);
  return out;
}

function enumMisses(op: Operation, node: JsonSchema, v: unknown): Pick[] {
  const allowed = (node.enum as unknown[]) ?? [];
  const inEnum = (x: unknown): boolean => allowed.some((e) => stableKey(e) === stableKey(x));
  const rest = without(node, 'enum', 'default');
  const out: Pick[] = [];
  const add = (tag: string, x: unknown): void => {
    if (!inEnum(x) && conforms(rest, x) && !out.some((o) => stableKey(o.value) === stableKey(x))) out.push({ tag, value: x, expect: 'refuse' });
  };
  if (typeof v !== 'string') return out;
  add('case', v.toUpperCase() !== v ? v.toUpperCase() : v.toLowerCase());
  add('spaces', ` ${v} `);
  // All HTTP methods (a batch item's method): the one left out is the near miss (GET).
  if (allowed.every((e) => typeof e === 'string' && HTTP_METHODS.includes(e))) {
    const missing = HTTP_METHODS.find((m) => !inEnum(m));
    if (missing) add('neighbour', missing);
  } else {
    const n = neighbourValues(op, allowed)[0];
    if (n !== undefined) add('neighbour', n);
  }
  return out;
}

/** Strings one edit away from a valid value; which edits depends on what the value looks like. */
function oneEditMisses(v: unknown): [string, string][] {
  if (typeof v !== 'string') return [];
  const edits: [string, string][] = [];
  const dated = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d/.test(v);
  if (dated) {
    if (v.includes(' ')) edits.push(['t-for-space', v.replace(' ', 'T')]);
    edits.push(['no-seconds', v.replace(/(\d\d:\d\d):\d\d/, '$1')]);
    edits.push(['trailing-space', `${v} `]);
    edits.push(['month-13', v.replace(/^(\d{4})-\d\d-/, '$1-13-')]);
  } else if (v.includes('@')) {
    // A dot for the `@`: dropping it would join the local part to the domain and name another host (eventsexample.org).
    edits.push(['no-at', v.replace('@', '.')]);
    edits.push(['trailing-space', `${v} `]);
  } else if (/^https?:\/\//.test(v)) {
    edits.push(['no-scheme', v.replace(/^https?:\/\//, '')]);
  } else {
    edits.push(['trailing-space', `${v} `]);
    edits.push(['slash', `${v}/`]);
    edits.push(['empty', '']);
  }
  return edits;
}

function patternMisses(node: JsonSchema, v: unknown): Pick[] {
  const re = new RegExp(node.pattern as string, 'u');
  const rest = without(node, 'pattern');
  return oneEditMisses(v)
    .filter(([, s]) => s !== v && !re.test(s) && !re.test(s.replace(/\n$/, '')) && conforms(rest, s))
    .map(([tag, value]) => ({ tag, value, expect: 'refuse' as const }));
}

/** Near misses of a format: the contract's validator (ajv-formats) decides, in edgePlan's check. */
function formatMisses(node: JsonSchema, v: unknown): Pick[] {
  const rest = without(node, 'format');
  const edits = node.format === 'tel' ? ([['letters', 'call me']] as [string, string][]) : oneEditMisses(v);
  return edits.filter(([, s]) => s !== v && conforms(rest, s)).map(([tag, value]) => ({ tag, value, expect: 'refuse' as const }));
}

function bounds(node: JsonSchema, keyword: string): Pick[] {
  const integral = node.type === 'integer' || (Array.isArray(node.type) && node.type.includes('integer') && !node.type.includes('number'));
  const step = 1;
  const b = node[keyword] as number;
  const at = (tag: string, value: number, expect: 'accept' | 'refuse'): Pick => ({ tag, value: integral ? Math.round(value) : value, expect });
  switch (keyword) {
    case 'minimum':
      return [at('min', b, 'accept'), at('min-1', b - step, 'refuse')];
    case 'maximum':
      return [at('max', b, 'accept'), at('max+1', b + step, 'refuse')];
    case 'exclusiveMinimum':
      return [at('min', b + step, 'accept'), at('min-1', b, 'refuse')];
    case 'exclusiveMaximum':
      return [at('max', b - step, 'accept'), at('max+1', b, 'refuse')];
    default:
      return [];
  }
}

function lengths(node: JsonSchema, keyword: string): Pick[] {
  const n = node[keyword] as number;
  const text = (k: number): string => 'x'.repeat(Math.max(0, k));
  if (keyword === 'minLength') return [{ tag: 'min', value: text(n), expect: 'accept' }, ...(n > 0 ? [{ tag: 'min-1', value: text(n - 1), expect: 'refuse' as const }] : [])];
  return [{ tag: 'max', value: text(n), expect: 'accept' }, { tag: 'max+1', value: text(n + 1), expect: 'refuse' }];
}

function itemCounts(node: JsonSchema, keyword: string, name: string): Pick[] {
  const n = node[keyword] as number;
  const items = (k: number): unknown[] => (node.uniqueItems === true ? plausibleItems(node, name, k) : Array.from({ length: k }, () => plausibleItems(node, name, 1)[0]));
  if (keyword === 'minItems') return [{ tag: 'min', value: items(n), expect: 'accept' }, ...(n > 0 ? [{ tag: 'min-1', value: items(n - 1), expect: 'refuse' as const }] : [])];
  return [{ tag: 'max', value: items(n), expect: 'accept' }, { tag: 'max+1', value: items(n + 1), expect: 'refuse' }];
}

const FAMILY: Readonly<Record<string, EdgeFamily>> = {
  minimum: 'bound',
  maximum: 'bound',
  exclusiveMinimum: 'bound',
  exclusiveMaximum: 'bound',
  minLength: 'length',
  maxLength: 'length',
  enum: 'enum',
  pattern: 'pattern',
  format: 'format',
  minItems: 'items',
  maxItems: 'items',
  uniqueItems: 'unique',
  required: 'required',
  dependentRequired: 'dependent',
  additionalProperties: 'properties',
  type: 'type',
};

/** The edge values of one constraint, as typed values of its node (or REMOVE for a property left out). */
function picks(op: Operation, c: Constraint, nodeValue: unknown): Pick[] {
  const node = c.node;
  switch (c.keyword) {
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return typeof node[c.keyword] === 'number' ? bounds(node, c.keyword) : [];
    case 'minLength':
    case 'maxLength':
      return lengths(node, c.keyword);
    case 'minItems':
    case 'maxItems':
      return itemCounts(node, c.keyword, nodeName(c.param, c.schemaPath));
    case 'uniqueItems': {
      if (typeof node.maxItems === 'number' && node.maxItems < 2) return [];
      const [one] = plausibleItems(node, nodeName(c.param, c.schemaPath), 1);
      return [{ tag: 'duplicate', value: [one, one], expect: 'refuse' }];
    }
    case 'enum':
      return [...enumValuePicks(node, nodeValue), ...enumMisses(op, node, nodeValue)];
    case 'type':
      return typePicks(node, nodeValue);
    case 'pattern':
      return patternMisses(node, nodeValue);
    case 'format':
      return formatMisses(node, nodeValue);
    case 'additionalProperties':
      return [{ tag: 'extra-property', value: { ...((nodeValue ?? {}) as Record<string, unknown>), site_contracts_extra: 'x' }, expect: 'refuse' }];
    default:
      return [];
  }
}

function drafts(op: Operation, contract: Contract): Draft[] {
  const out: Draft[] = [];
  const minimal = baseValues(op, false);
  const full = baseValues(op, true);
  out.push({ id: `${op.id} minimal`, family: 'minimal', expect: 'accept', tag: 'minimal', label: 'the required parameters only', values: minimal });
  if (op.params.some((p) => p.in !== 'path' && !p.required)) out.push({ id: `${op.id} full`, family: 'full', expect: 'accept', tag: 'full', label: 'every parameter', values: full });
  out.push(...singleDrafts(op, minimal));
  const copy = (): Values => ({ path: { ...minimal.path }, query: { ...minimal.query }, body: { ...minimal.body } });
  for (const c of constraintsOf(contract, op)) {
    if (c.wire.kind === 'not-applicable') continue;
    const spec = op.params.find((p) => p.in === c.location && p.name === c.param);
    if (!spec) continue;
    const family = FAMILY[c.keyword];
    if (!family) continue;
    const place0 = `/${c.location}/${c.param}`;
    if (c.keyword === 'required' && c.schemaPath.length === 0 && c.detail === undefined) {
      const values = copy();
      delete values[c.location][c.param];
      out.push({ id: `${c.id} missing`, family, expect: 'refuse', constraint: c, location: c.location, param: c.param, tag: 'missing', label: `${c.param} left out`, values, expected: { keyword: 'required', instancePath: place0 } });
      continue;
    }
    if (c.keyword === 'dependentRequired') {
      const values = copy();
      values.query[c.param] = valueOf(spec);
      delete values.query[c.detail!];
      out.push({ id: `${c.id} alone`, family, expect: 'refuse', constraint: c, location: 'query', param: c.param, tag: 'alone', label: `${c.param} without ${c.detail}`, values, expected: { keyword: 'dependentRequired', instancePath: `/query/${c.detail}` } });
      continue;
    }
    const pv = valueOf(spec);
    if (c.keyword === 'required') {
      // A property of a nested object left out (a batch item without `path`).
      const values = copy();
      values[c.location][c.param] = place(spec.schema, pv, [...c.schemaPath, 'properties', c.detail!], REMOVE);
      out.push({ id: `${c.id} missing`, family, expect: 'refuse', constraint: c, location: c.location, param: c.param, tag: 'missing', label: describe(c.param, [...c.schemaPath, 'properties', c.detail!], REMOVE), values, expected: { keyword: 'required', instancePath: `${place0}/0/${c.detail}` } });
      continue;
    }
    const nodeValue = valueAt(spec.schema, pv, c.schemaPath);
    for (const pick of picks(op, c, nodeValue)) {
      const values = copy();
      values[c.location][c.param] = place(spec.schema, pv, c.schemaPath, pick.value);
      out.push({
        id: `${c.id} ${pick.tag}`,
        family,
        expect: pick.expect,
        constraint: c,
        location: c.location,
        param: c.param,
        tag: pick.tag,
        label: describe(c.param, c.schemaPath, pick.value),
        values,
        ...(pick.expect === 'refuse' ? { expected: { keyword: c.keyword, instancePath: place0 } } : {}),
      });
    }
  }
  return out;
}

/** Why a drafted edge is not what it claims to be, checked with the contract's own validator. */
function verdictProblem(contract: Contract, op: Operation, d: Draft, request: WireRequest): string | undefined {
  const issues = contract.validate(op, toTyped(op, request)).issues;
  if (d.expect === 'accept') return issues.length === 0 ? undefined : `meant to be valid, but ${issues.map((i) => `${i.wpParam} ${i.keyword}`).join(', ')}`;
  const c = d.constraint!;
  const own = new Set([c.param, ...(c.keyword === 'dependentRequired' && c.detail ? [c.detail] : [])]);
  if (!issues.some((i) => i.keyword === c.keyword && own.has(i.param))) return `meant to break ${c.keyword} of ${c.param}, which the validator does not report`;
  const others = issues.filter((i) => !own.has(i.param));
  if (others.length) return `breaks ${others.map((i) => `${i.wpParam} ${i.keyword}`).join(', ')} as well`;
  return undefined;
}

/** Which edges a caller wants, decided on the draft, before its request is built and validated. */
export type EdgeFilter = (d: { expect: 'accept' | 'refuse'; family: EdgeFamily }) => boolean;

/** Every edge case of an operation (those `want` keeps), and the drafted ones left out because they would not be what they claim. */
export function edgePlan(contract: Contract, op: Operation, want?: EdgeFilter): { cases: EdgeCase[]; dropped: DroppedEdge[] } {
  const cases: EdgeCase[] = [];
  const dropped: DroppedEdge[] = [];
  const seen = new Set<string>();
  for (const d of drafts(op, contract)) {
    if (seen.has(d.id) || (want && !want(d))) continue;
    seen.add(d.id);
    const request = toRequest(op, d.values);
    const problem = verdictProblem(contract, op, d, request);
    if (problem) {
      dropped.push({ id: d.id, reason: problem });
      continue;
    }
    const { values: _v, ...rest } = d;
    cases.push({ ...rest, operationId: op.id, request });
  }
  return { cases, dropped };
}

/**
 * The edge cases of an operation (by object or id), the same on every call; `want` keeps some of them (only the
 * accept side, only the minimal request) without building and validating the others.
 */
export function edgeCases(contract: Contract, op: Operation | string, want?: EdgeFilter): EdgeCase[] {
  return edgePlan(contract, typeof op === 'string' ? contract.operation(op) : op, want).cases;
}

/** The query parameters of an operation whose documented default is a value the parameter accepts. */
export function documentedDefaults(op: Operation): { param: ParamSpec; value: unknown }[] {
  return op.params
    .filter((p) => p.in === 'query' && p.schema.default !== undefined && p.schema.default !== null && conforms(p.schema, p.schema.default))
    .filter((p) => !p.gaps.some((g) => g.kind.startsWith('default')) && !(p.name in dependentRequiredOf(op)))
    .map((p) => ({ param: p, value: p.schema.default as unknown }));
}
