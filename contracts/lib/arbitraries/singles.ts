// The coverage phase (Schemathesis has one of the same name): each parameter judged on its own. A random write
// carries every parameter, so one value the site refuses (a legacy image URL, an id naming no attachment) sinks
// every other parameter of that request, and a parameter is then never judged. Here, besides the minimal and
// the full request:
// - each optional parameter alone on the minimal request (with the companions it needs, dependentRequired);
// - every documented enum value once, on the accept side, for top-level and item enums (status=future);
// - type violations enumerated rather than sampled: a fraction and a number with trailing letters for an
//   integer, each spelling WordPress does not take for a boolean (rest_is_boolean(): yes, on, 2);
// - the plain edges the documents allow: 0 for an integer that takes it (duration, parent), the empty string in
//   free text.
// Like every edge, each request is checked with the contract's validator (edgePlan) before it is used.
import type { JsonSchema, Operation, ParamSpec } from '../types.ts';
import { valueOf, type Draft, type Pick, type Values } from './edge-values.ts';
import { textKind } from './plausible.ts';
import { dependentRequiredOf } from './requests.ts';
import { conforms } from './values.ts';

function typesOf(node: JsonSchema): string[] {
  const t = node.type;
  return (Array.isArray(t) ? (t as string[]) : t !== undefined ? [t as string] : []).filter((x) => x !== 'null');
}

/**
 * Each value of a documented enum, valid by the contract: one accept case each, but for `sent`, the value the
 * minimal, alone or full request already carries there.
 */
export function enumValuePicks(node: JsonSchema, sent: unknown): Pick[] {
  const values = Array.isArray(node.enum) ? (node.enum as unknown[]) : [];
  return values.filter((v) => v !== null && JSON.stringify(v) !== JSON.stringify(sent)).map((v) => ({ tag: `value:${typeof v === 'string' ? v : JSON.stringify(v)}`, value: v, expect: 'accept' as const }));
}

/** Booleans WordPress refuses (rest_is_boolean() takes true/false/1/0 in any case, nothing else). */
const NOT_BOOLEANS = ['yes', 'on', '2'] as const;

/** Values of the wrong type at the edge of the right one: each one, not a random draw among them. */
export function typePicks(node: JsonSchema, near: unknown): Pick[] {
  const ts = typesOf(node);
  if (ts.length !== 1) return [];
  if (ts[0] === 'integer') {
    const n = typeof near === 'number' && Number.isInteger(near) ? near : 1;
    // Inside the bounds, so that only the type is broken: n + 0.5 unless that passes a maximum.
    const max = typeof node.maximum === 'number' ? node.maximum : Infinity;
    const fraction = n + 0.5 <= max ? n + 0.5 : n - 0.5;
    // `x`, not `e`: is_numeric('5e3') holds.
    return [
      { tag: 'fraction', value: fraction, expect: 'refuse' },
      { tag: 'trailing-letters', value: `${n}x`, expect: 'refuse' },
    ];
  }
  if (ts[0] === 'boolean') return NOT_BOOLEANS.map((b) => ({ tag: `boolean:${b}`, value: b, expect: 'refuse' as const }));
  return [];
}

function copy(v: Values): Values {
  return { path: { ...v.path }, query: { ...v.query }, body: { ...v.body } };
}

/** The minimal request with `p` set to `value`, and with the parameters `p` needs (dependentRequired). */
function withOne(op: Operation, minimal: Values, p: ParamSpec, value: unknown): Values {
  const values = copy(minimal);
  values[p.in][p.name] = value;
  if (p.in === 'query') {
    for (const need of dependentRequiredOf(op)[p.name] ?? []) {
      const spec = op.params.find((x) => x.in === 'query' && x.name === need);
      if (spec && !(need in values.query)) values.query[need] = valueOf(spec);
    }
  }
  return values;
}

/** Free text: a plain string whose allowed values the documents leave open, named as words (not a URL, date, slug...). */
function freeText(p: ParamSpec): boolean {
  const s = p.schema;
  const ts = typesOf(s);
  return ts.length === 1 && ts[0] === 'string' && !Array.isArray(s.enum) && s.pattern === undefined && s.format === undefined && s.minLength === undefined && textKind(p.name) === 'words';
}

function acceptsZero(p: ParamSpec): boolean {
  // An author is a user, and 0 is nobody: WordPress refuses it (rest_invalid_author) where parent 0 means "none".
  if (p.name === 'author') return false;
  const ts = typesOf(p.schema);
  return ts.length === 1 && ts[0] === 'integer' && !Array.isArray(p.schema.enum) && conforms(p.schema, 0);
}

/** Per parameter: alone on the minimal request, 0 where an integer takes it, "" in free text. */
export function singleDrafts(op: Operation, minimal: Values): Draft[] {
  const out: Draft[] = [];
  // With one optional parameter, the full request is that parameter alone.
  const optional = op.params.filter((p) => p.in !== 'path' && !p.required);
  for (const p of op.params) {
    if (p.in === 'path') continue;
    const id = `${op.id} ${p.in}.${p.name}`;
    const at = { location: p.in, param: p.name, expect: 'accept' as const };
    const plausible = valueOf(p);
    if (!p.required && optional.length > 1) {
      out.push({ ...at, id: `${id} alone`, family: 'alone', tag: 'alone', label: `${p.name}=${JSON.stringify(plausible)} alone`, values: withOne(op, minimal, p, plausible) });
    }
    if (acceptsZero(p) && plausible !== 0) out.push({ ...at, id: `${id} zero`, family: 'zero', tag: 'zero', label: `${p.name}=0`, values: withOne(op, minimal, p, 0) });
    if (freeText(p) && plausible !== '') out.push({ ...at, id: `${id} empty`, family: 'empty', tag: 'empty', label: `${p.name}=""`, values: withOne(op, minimal, p, '') });
  }
  return out;
}
