// Every constraint of the contract, found by walking the dereferenced parameter schemas — so the total the
// coverage report prints is counted from the contract, not from a list kept here. A constraint is one keyword
// at one place: (operation, parameter location + name, path inside the parameter's schema, keyword).
import type { Contract } from '../loader.ts';
import type { JsonSchema, Operation, ParamSpec } from '../types.ts';
import type { Constraint } from './model.ts';
import { dependentRequiredOf } from './requests.ts';
import { wireStatus } from './wire-status.ts';

/**
 * The validation keywords of JSON Schema 2020-12 (applicators that only lead to sub-schemas — properties, items,
 * additionalProperties as a schema — are walked, not counted). Any of these found in the contract is a
 * constraint, whether or not a generator exists for it.
 */
export const VALIDATION_KEYWORDS: readonly string[] = [
  'type', 'enum', 'const',
  'multipleOf', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'format',
  'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains', 'prefixItems', 'unevaluatedItems',
  'minProperties', 'maxProperties', 'required', 'dependentRequired', 'dependentSchemas', 'patternProperties', 'propertyNames', 'unevaluatedProperties',
  'allOf', 'anyOf', 'oneOf', 'not', 'if',
];

/** `['items','properties','method']` → `.items.method`; additionalProperties reads `*`. */
export function dottedPath(schemaPath: readonly string[]): string {
  let out = '';
  for (let i = 0; i < schemaPath.length; i++) {
    const s = schemaPath[i]!;
    if (s === 'properties') out += `.${schemaPath[++i] ?? ''}`;
    else if (s === 'additionalProperties') out += '.*';
    else out += `.${s}`;
  }
  return out;
}

function constraintId(opId: string, location: string, param: string, schemaPath: readonly string[], keyword: string, detail?: string): string {
  if (keyword === 'required') {
    const where = `${location}.${param}${dottedPath(schemaPath)}${detail !== undefined ? `.${detail}` : ''}`;
    return `${opId} ${where} required`;
  }
  return `${opId} ${location}.${param}${dottedPath(schemaPath)} ${keyword}${detail !== undefined ? `:${detail}` : ''}`;
}

function parameterObject(contract: Contract, op: Operation, spec: ParamSpec): JsonSchema | undefined {
  if (spec.in === 'body') return undefined;
  const pathItem = (contract.deref.paths as Record<string, JsonSchema>)[op.path] ?? {};
  const all = [...((pathItem.parameters as JsonSchema[] | undefined) ?? []), ...((op.raw.parameters as JsonSchema[] | undefined) ?? [])];
  return all.reverse().find((p) => p.name === spec.name && p.in === spec.in);
}

interface Found {
  schemaPath: string[];
  node: JsonSchema;
  keyword: string;
  detail?: string;
}

/** Keyword occurrences inside one schema, depth first, in the order the schema writes them. */
function keywordsIn(schema: JsonSchema, schemaPath: string[] = []): Found[] {
  const out: Found[] = [];
  for (const keyword of VALIDATION_KEYWORDS) {
    if (!(keyword in schema)) continue;
    if (keyword === 'required') {
      for (const name of (schema.required as string[] | undefined) ?? []) out.push({ schemaPath, node: schema, keyword, detail: name });
    } else if (keyword === 'uniqueItems') {
      if (schema.uniqueItems === true) out.push({ schemaPath, node: schema, keyword });
    } else if (keyword === 'format') {
      out.push({ schemaPath, node: schema, keyword, detail: String(schema.format) });
    } else {
      out.push({ schemaPath, node: schema, keyword });
    }
  }
  if (schema.additionalProperties === false) out.push({ schemaPath, node: schema, keyword: 'additionalProperties' });
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) out.push(...keywordsIn(sub, [...schemaPath, 'properties', name]));
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) out.push(...keywordsIn(schema.items as JsonSchema, [...schemaPath, 'items']));
  const ap = schema.additionalProperties;
  if (ap && typeof ap === 'object') out.push(...keywordsIn(ap as JsonSchema, [...schemaPath, 'additionalProperties']));
  return out;
}

/** The constraints of one operation: per parameter its `required`, then every keyword inside its schema; then dependentRequired pairs. */
export function constraintsOf(contract: Contract, op: Operation): Constraint[] {
  const out: Constraint[] = [];
  for (const spec of op.params) {
    const owner = parameterObject(contract, op, spec);
    const wireEnforced = owner?.['x-wire-enforced'] !== false && spec.schema['x-wire-enforced'] !== false;
    const wireNote = (owner?.['x-wire-note'] ?? spec.schema['x-wire-note']) as string | undefined;
    const contested = spec.contradictions.map((c) => `${c.kind}: ${c.note}`);
    const make = (f: Found, topLevel: boolean): Constraint => ({
      id: constraintId(op.id, spec.in, spec.name, f.schemaPath, f.keyword, topLevel ? undefined : f.detail),
      operationId: op.id,
      location: spec.in,
      param: spec.name,
      schemaPath: f.schemaPath,
      keyword: f.keyword,
      ...(f.detail !== undefined && !topLevel ? { detail: f.detail } : {}),
      node: f.node,
      wire: wireStatus({ location: spec.in, keyword: f.keyword, detail: f.detail, topLevel, node: f.node, paramSchema: spec.schema, wireEnforced, wireNote }),
      contested,
    });
    if (spec.required) out.push(make({ schemaPath: [], node: spec.schema, keyword: 'required' }, true));
    for (const f of keywordsIn(spec.schema)) out.push(make(f, false));
  }
  for (const [param, needs] of Object.entries(dependentRequiredOf(op))) {
    const spec = op.params.find((p) => p.in === 'query' && p.name === param);
    for (const need of needs) {
      out.push({
        id: constraintId(op.id, 'query', param, [], 'dependentRequired', need),
        operationId: op.id,
        location: 'query',
        param,
        schemaPath: [],
        keyword: 'dependentRequired',
        detail: need,
        node: spec?.schema ?? {},
        wire: wireStatus({ location: 'query', keyword: 'dependentRequired', detail: need, topLevel: true, node: spec?.schema ?? {}, paramSchema: spec?.schema ?? {}, wireEnforced: true }),
        contested: spec?.contradictions.map((c) => `${c.kind}: ${c.note}`) ?? [],
      });
    }
  }
  return out;
}

/** Every constraint of every operation of the contract. */
export function allConstraints(contract: Contract): Constraint[] {
  return contract.operations.flatMap((op) => constraintsOf(contract, op));
}
