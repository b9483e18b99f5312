// descriptor_routes  the target's descriptor (GET {api_root}/, read at the start of the run) holds every documented
//                    route with its documented methods and arguments: `site-contracts diff`'s comparison (diff/diff.ts)
//                    as a check of the run, one case per operation for its route and method and one for its arguments,
//                    and one per namespace for what the target lists beyond the documents. Severity by what the
//                    documents state (001 §1, §2: "listing every namespace and route with its methods and parameters"),
//                    and by what a client relies on (judgeKeyword()):
//                    - a route or method missing, an argument missing, a keyword the documents give differing from the
//                      one listed once both are read as WordPress reads them (`"10"` is the integer 10): documented
//                      (i18n_language, which every route "accepts", may be read by the add-on without each declaring it:
//                      its absence is assumed);
//                    - what the documents cannot express or allow is assumed, with the reason: a keyword the target
//                      leaves out (an argument "may carry" each, 001 §2), one it gives where the documents give none,
//                      a body field's default (the value a record gets, create_defaults' business), the rule of an
//                      argument the route's path carries, a pattern or format that takes every documented value tried
//                      (the documents give forms in words; one that refuses a documented value is documented);
//                      core's rendered field (title, content, excerpt listed as an object of raw and a read-only
//                      rendered), which takes the documented string as its raw value;
//                    - a keyword of an argument the documents mark as open (x-gaps) or readable two ways
//                      (x-contradictions), or that they give no type: assumed, with the mark named;
//                    - an argument the documents do not name: assumed (they list parameters, not all a plugin adds);
//                    - a route or method the documents do not name: assumed, except what they deny (cal/v1: POST on
//                      {id} routes, by-slug, category and tag routes, 000 §4.2), which is documented.
// descriptor_auth    the descriptor's `authentication` advertises `application-passwords` with its one endpoint,
//                    `authorization`, an absolute address (001 §5; 000 §5).

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation, ParamSpec } from '../../../contracts/lib/types.ts';
import { diffDescriptor, type ArgDiff, type ArgForm, type KeywordDiff } from '../diff/diff.ts';
import { liveEndpoint, type LiveArg } from '../diff/descriptor.ts';
import { describeCut, jsonBody } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Unit, UnitEnv } from './kit/unit.ts';
import { undocumentedMethods } from './options.ts';
import { describeAnswer, sourceOf, transportOutcome } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
import { isWpError, toWpSchema, wpSanitizeValue, wpValidateValue } from '../../../contracts/wordpress/schema/index.ts';
import { plausibleSchema, plausibleValue, valueArb } from '../../../contracts/lib/arbitraries/index.ts';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';

export const DESCRIPTOR_ROUTES = 'descriptor_routes';
export const DESCRIPTOR_AUTH = 'descriptor_auth';

/** The parameter the documents give every route at once (000 and 001 conventions). */
const GLOBAL_PARAM = 'i18n_language';

const READ_AT_START = 'GET {api_root}/ as read at the start of the run';

const RANK: Record<Severity, number> = { assumed: 0, convention: 1, documented: 2 };

function show(v: unknown): string {
  if (v === undefined) return '-';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function form(f: ArgForm | undefined): string {
  if (!f) return '-';
  return Object.entries(f).map(([k, v]) => (k === 'required' ? (v ? 'required' : 'optional') : `${k}=${show(v)}`)).join(' ') || '(no keywords)';
}

/** Why the documents do not settle a parameter's keywords; undefined when they state them. */
function openMark(p: ParamSpec | undefined): string | undefined {
  if (!p) return 'the documents do not name this argument';
  const c = p.contradictions[0];
  if (c) return `the documents can be read two ways here (${c.kind}, ${c.source})`;
  const g = p.gaps[0];
  if (g) return `the documents leave this open (${g.kind}, ${g.source})`;
  if (p.schema.type === undefined && !Array.isArray(p.schema.enum)) return 'the documents give it no type';
  return undefined;
}

/** Keywords whose value WordPress reads through the argument's type: `"10"` is the integer 10, `"publish"` the list ["publish"]. */
const COERCED: ReadonlySet<string> = new Set(['default', 'enum', 'items.enum', 'minimum', 'maximum']);

/** Keywords that rule what a value may look like: for a path parameter the route's own pattern rules that first. */
const VALUE_FORM: ReadonlySet<string> = new Set(['type', 'pattern', 'format', 'minLength', 'maxLength']);

/** How many documented values a listed pattern or format is tried on. */
const SAMPLES = 12;

/** Documented values of a parameter: its plausible value and samples of its schema (seeded by the unit: a rerun tries the same). */
function documentedValues(spec: ParamSpec, seed: number): unknown[] {
  const values = [plausibleValue(plausibleSchema(spec.schema, spec.contradictions), spec.name), ...fc.sample(valueArb(spec.schema), { seed, numRuns: SAMPLES })];
  return values.filter((v, i) => typeof v === 'string' && values.findIndex((w) => w === v) === i);
}

/** Whether the target's value of a keyword is the documented one as WordPress reads it through the documented type. */
function sameAsRead(spec: ParamSpec, keyword: string, documented: unknown, listed: unknown): boolean {
  const schema = toWpSchema(spec.schema);
  const itemSchema = (isPlainObject(schema['items']) ? schema['items'] : {}) as Record<string, unknown>;
  const read = (v: unknown, s: Record<string, unknown>): unknown => {
    const x = s['type'] === undefined ? v : wpSanitizeValue(v, { type: s['type'], ...(s['items'] ? { items: s['items'] } : {}) });
    return isWpError(x) ? v : x;
  };
  const setOf = (v: unknown, s: Record<string, unknown>): string[] | undefined => (Array.isArray(v) ? v.map((x) => JSON.stringify(read(x, s))).sort() : undefined);
  switch (keyword) {
    case 'default':
      return isDeepStrictEqual(read(listed, schema), documented);
    case 'enum':
      return isDeepStrictEqual(setOf(listed, schema), setOf(documented, schema));
    case 'items.enum':
      return isDeepStrictEqual(setOf(listed, itemSchema), setOf(documented, itemSchema));
    default:
      return typeof documented === 'number' && (typeof listed === 'number' || typeof listed === 'string') && Number(listed) === documented;
  }
}

/**
 * Whether a listed argument is a field core renders (WP_REST_Posts_Controller's title, content, excerpt): an object of
 * `raw` (the documented type) and a read-only `rendered`, which takes the raw value sent as it is
 * (prepare_item_for_database(): a string title is the raw title). A client sending the documented string is served.
 */
function renderedField(listed: LiveArg | undefined, documentedType: unknown): boolean {
  const props = listed && isPlainObject(listed['properties']) ? (listed['properties'] as Record<string, unknown>) : undefined;
  const raw = props && isPlainObject(props['raw']) ? (props['raw'] as Record<string, unknown>) : undefined;
  const rendered = props && isPlainObject(props['rendered']) ? (props['rendered'] as Record<string, unknown>) : undefined;
  return listed?.['type'] === 'object' && raw !== undefined && raw['type'] === documentedType && rendered?.['readonly'] === true;
}

/**
 * One keyword difference judged by what a client relies on. Undefined: no difference once read as WordPress reads
 * it. Otherwise its severity, and why it is not a documented failure where it is not:
 * - left out by the target: an argument "may carry" each keyword (001 §2), so leaving one out contradicts nothing;
 * - given by the target where the documents give none: they cannot contradict it;
 * - whether an argument named like a path parameter is required, and its value rule: the route's own pattern decides
 *   what reaches it, and the path always carries it;
 * - a default of a body field: the documents give the value a new record gets (create_defaults judges it), not a
 *   keyword the descriptor must print;
 * - a pattern or format: the documents give formats in words, so the listed one is judged by the documented values
 *   it refuses, not by how it is spelled;
 * - a type that takes every documented value tried (an array of strings reads a string as a one-item list);
 * - a type "object" of raw and rendered for a field the documents type as its raw value: core's rendered field, which
 *   takes that value as it is (renderedField());
 * - a parameter the documents mark open or readable two ways.
 */
function judgeKeyword(op: Operation, spec: ParamSpec | undefined, k: KeywordDiff, seed: number, listed?: LiveArg): { severity: Severity; note?: string } | undefined {
  const kw = k.keyword;
  const pathNamed = spec !== undefined && op.params.some((p) => p.in === 'path' && p.name === spec.name);
  if (pathNamed && (kw === 'required' || VALUE_FORM.has(kw))) return { severity: 'assumed', note: `{${spec.name}} is in the route's path, whose own pattern decides what reaches it, and it is always sent` };
  if (kw === 'required') return { severity: 'documented' };
  if (k.target === undefined) return { severity: 'assumed', note: `left out, which the documents allow: an argument "may carry" ${kw} (001 §2)` };
  if (k.contract === undefined) return { severity: 'assumed', note: `the documents give it no ${kw}` };
  if (!spec) return { severity: 'assumed', note: 'the documents do not name this argument' };
  if (kw === 'default' && spec.in === 'body') return { severity: 'assumed', note: 'a default the documents give a body field is the value a new record gets (create_defaults judges it), not a keyword the descriptor must print' };
  if (COERCED.has(kw) && sameAsRead(spec, kw, k.contract, k.target)) return undefined;
  if (kw === 'type' && renderedField(listed, k.contract)) return { severity: 'assumed', note: `core's rendered field (raw and rendered), which takes a ${show(k.contract)} as its raw value: the documents cannot express that form` };
  if (kw === 'type' && listed) {
    // An array of strings takes a string as a one-item list (rest_is_array()): judged by the documented values it refuses.
    const values = documentedValues(spec, seed);
    const schema = { type: listed['type'], ...(listed['items'] !== undefined ? { items: listed['items'] } : {}) };
    if (values.length && values.every((v) => wpValidateValue(v, schema) === null)) return { severity: 'assumed', note: `the listed type takes each of the ${values.length} documented value(s) tried, as WordPress reads them` };
  }
  if (kw === 'pattern' || kw === 'format') {
    const values = documentedValues(spec, seed);
    const refused = values.filter((v) => wpValidateValue(v, { type: 'string', [kw]: k.target }) !== null);
    if (refused.length) return { severity: openMark(spec) ? 'assumed' : 'documented', note: `the listed ${kw} refuses ${JSON.stringify(refused[0])}, a value the documents allow${openMark(spec) ? `; ${openMark(spec)}` : ''}` };
    return { severity: 'assumed', note: `the documents give the form in words; the listed ${kw} takes each of the ${values.length} documented value(s) tried` };
  }
  const mark = openMark(spec);
  return mark ? { severity: 'assumed', note: mark } : { severity: 'documented' };
}

/** One argument difference, its severity and how it reads (contract / target); undefined when nothing differs once read as WordPress reads it. */
function judgeArg(op: Operation, a: ArgDiff, seed: number, listed?: LiveArg): { severity: Severity; text: string } | undefined {
  const spec = op.params.find((p) => p.name === a.name && p.in !== 'path') ?? op.params.find((p) => p.name === a.name);
  if (a.kind === 'extra') return { severity: 'assumed', text: `${a.name}: listed by the target (${form(a.target)}), not in the documents (assumed: they list parameters, not all a plugin adds)` };
  if (a.kind === 'missing') {
    // Every route "accepts" i18n_language (000, 001 conventions: "not repeated below"): the translation add-on may read it
    // for all routes at once, and WordPress ignores what a route does not declare, so its absence contradicts nothing.
    if (a.name === GLOBAL_PARAM) return { severity: 'assumed', text: `${a.name}: documented for every route (${form(a.contract)}), not listed by the target (assumed: the documents say every route accepts it, not that each declares it)` };
    return { severity: 'documented', text: `${a.name}: documented (${form(a.contract)}), not listed by the target` };
  }
  const judged = a.keywords.flatMap((k) => {
    const j = judgeKeyword(op, spec, k, seed, listed);
    return j ? [{ ...j, line: `${k.keyword} ${show(k.contract)} documented, ${show(k.target)} listed${j.note ? ` (${j.severity === 'assumed' ? 'assumed: ' : ''}${j.note})` : ''}` }] : [];
  });
  if (judged.length === 0) return undefined;
  return { severity: judged.reduce<Severity>((s, j) => (RANK[j.severity] > RANK[s] ? j.severity : s), 'assumed'), text: `${a.name}: ${judged.map((j) => j.line).join(', ')}` };
}

function routesOf(env: UnitEnv, op: Operation): void {
  const base = { check: DESCRIPTOR_ROUTES, operation: op };
  const d = diffDescriptor(env.contract, env.descriptor, { include: (o) => o.id === op.id, extras: false }).operations[0];
  if (!d) return;
  if (d.kind === 'route-missing' || d.kind === 'method-missing') {
    const what = d.kind === 'route-missing' ? `has no route ${op.path}` : `lists ${op.path} without ${op.method}`;
    env.emit({ ...base, variant: 'route', severity: 'documented', outcome: 'fail', message: `expected the descriptor to list ${op.method} ${op.path} (${sourceOf(op)}; 001 §2: every route with its methods); ${READ_AT_START}, it ${what}` });
    env.emit({ ...base, variant: 'args', severity: 'documented', outcome: 'skip', message: `the route or method is not listed (see the route case)` });
    return;
  }
  env.emit({ ...base, variant: 'route', severity: 'documented', outcome: 'pass', message: `${READ_AT_START} lists ${op.method} ${op.path}` });
  const listed = liveEndpoint(env.descriptor, op.path, op.method)?.args ?? {};
  const judged = d.args.flatMap((a) => judgeArg(op, a, env.seed, listed[a.name]) ?? []);
  if (judged.length === 0) {
    const n = op.params.filter((p) => p.in !== 'path').length;
    return env.emit({ ...base, variant: 'args', severity: 'documented', outcome: 'pass', message: `its ${n} argument(s) as documented${d.args.length ? ` (${d.args.map((a) => a.name).join(', ')} the same once read as WordPress reads them)` : ''}` });
  }
  const severity = judged.reduce<Severity>((s, j) => (RANK[j.severity] > RANK[s] ? j.severity : s), 'assumed');
  env.emit({
    ...base,
    variant: 'args',
    severity,
    outcome: 'fail',
    message: `expected the descriptor's arguments of ${op.method} ${op.path} as documented (${sourceOf(op)}; 001 §2); ${READ_AT_START}, ${judged.length} differ: ${judged.map((j) => j.text).join('; ')}`,
  });
}

/** A route 000 §4.2 says cal/v1 does not have: "no by-slug, category or tag routes". */
function deniedRoute(template: string): boolean {
  return /^\/cal\/v1\/(?:.*\/by-slug(?:\/|$)|categories(?:\/|$)|tags(?:\/|$))/i.test(template);
}

function extrasOf(env: UnitEnv, namespace: string): void {
  const d = diffDescriptor(env.contract, env.descriptor, { include: (o) => o.namespace === namespace });
  const denied = new Set(undocumentedMethods(env.contract).map((u) => `${u.method} ${u.op.path.toLowerCase()}`));
  const base = { check: DESCRIPTOR_ROUTES, namespace, variant: `extras:${namespace || 'root'}` };
  const mine = d.extras.filter((x) => x.namespace === namespace || (namespace === '' && (x.route === '/' || x.namespace === '')));
  if (mine.length === 0) return env.emit({ ...base, severity: 'assumed', outcome: 'pass', message: `${READ_AT_START} lists nothing in ${namespace || 'the root'} beyond the documents` });
  const isDenied = (route: string, m: string): boolean => denied.has(`${m} ${route.toLowerCase()}`) || deniedRoute(route);
  const severity: Severity = mine.some((x) => x.methods.some((m) => isDenied(x.route, m))) ? 'documented' : 'assumed';
  const lines = mine.map((x) => `${x.kind === 'route-extra' ? 'route' : 'methods'} ${x.methods.join(', ')} ${x.route}${x.methods.some((m) => isDenied(x.route, m)) ? ` (the documents deny it: 000 §4.2 "${deniedRoute(x.route) ? 'no by-slug, category or tag routes' : 'no POST on {id} routes'}")` : ''}`);
  env.emit({ ...base, severity, outcome: 'fail', message: `expected the descriptor to list no route or method the documents do not have${severity === 'assumed' ? ' (assumed: the documents do not say a namespace has nothing else)' : ''}; ${READ_AT_START}, it lists ${lines.join('; ')}` });
}

async function auth(env: UnitEnv, root: Operation): Promise<void> {
  const e = await env.send({ method: 'GET', route: '/', auth: false }, root);
  const base = { check: DESCRIPTOR_AUTH, operation: root, variant: 'application-passwords', severity: 'documented' as const, exchange: e };
  const t = transportOutcome(e);
  if (t) return env.emit({ ...base, ...t });
  if (e.response!.bodyCut) return env.emit({ ...base, outcome: 'inconclusive', message: `${describeCut(e.response!.bodyCut)}: the authentication block was not read` });
  const b = jsonBody(e.response);
  const a = typeof b === 'object' && b !== null ? (b as Record<string, unknown>)['authentication'] : undefined;
  const scheme = isPlainObject(a) ? a['application-passwords'] : undefined;
  const endpoint = (scheme as { endpoints?: { authorization?: unknown } } | undefined)?.endpoints?.authorization;
  let problem: string | undefined;
  if (e.response!.status !== 200 || b === undefined) problem = `the root answered ${describeAnswer(e.response)}`;
  else if (scheme === undefined) problem = `authentication is ${show(a ?? '(absent)')}: no application-passwords`;
  // The report blanks values under secret-looking keys (authorization), so a value there is all that can be seen.
  else if (typeof endpoint !== 'string' || endpoint.trim() === '') problem = `application-passwords is ${show(scheme)}: no endpoints.authorization address`;
  if (problem) return env.emit({ ...base, outcome: 'fail', message: `expected the descriptor's authentication to list application-passwords with endpoints.authorization, the approval page's address (001 §5; 000 §5); ${problem}` });
  env.emit({ ...base, outcome: 'pass', message: `authentication lists application-passwords with an endpoints.authorization address` });
}

export function planDescriptor(contract: Contract): Unit[] {
  const units: Unit[] = contract.operations.map((op) => ({ id: `${DESCRIPTOR_ROUTES}:${op.id}`, family: DESCRIPTOR_ROUTES, checks: [DESCRIPTOR_ROUTES], operations: [op], run: async (env) => routesOf(env, op) }));
  for (const ns of [...new Set(contract.operations.map((o) => o.namespace))]) {
    units.push({ id: `${DESCRIPTOR_ROUTES}:extras:${ns || 'root'}`, family: DESCRIPTOR_ROUTES, checks: [DESCRIPTOR_ROUTES], operations: [], namespaces: [ns], run: async (env) => extrasOf(env, ns) });
  }
  const root = contract.operations.find((o) => o.kind === 'root');
  if (root) units.push({ id: `${DESCRIPTOR_AUTH}:${root.id}`, family: DESCRIPTOR_AUTH, checks: [DESCRIPTOR_AUTH], operations: [root], run: (env) => auth(env, root) });
  return units;
}
