// The generated validators (schema-validators.ts, Ajv's standalone code) are a build-time copy of what Ajv compiles
// from contracts/model/schema.json at run time, which is the canonical path: the committed file is what the schema renders
// today, and on generated values both accept and reject the same values with the same errors. Values: the generated
// fixtures with one node replaced (by a value of the contract's generators for a field's schema, which is mostly
// valid and at the schema's edges, by any JSON value, or removed), and any JSON value against every definition.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { valueArb } from '../../../contracts/lib/arbitraries/values.ts';
import { dereference } from '../../../contracts/lib/deref.ts';
import type { JsonSchema } from '../../../contracts/lib/types.ts';
import { generateFixtures } from '../../../fixtures/lib/generate-all.ts';
import schemaJson from '../../../contracts/model/schema.json' with { type: 'json' };
import * as generated from '../../../contracts/model/schema-validators.ts';
import { compiledValidators, renderSchemaValidators, type FixtureSchema } from '../../../contracts/model/validators-source.ts';

const schema = schemaJson as FixtureSchema;
const RUNS = 150;

interface Check {
  (data: unknown): boolean;
  errors?: unknown;
}
const standalone: Readonly<Record<string, Check | undefined>> = generated;
const compiled = compiledValidators(schema).validators;
const defNames = [...compiled.keys()];

/** The three fixture files of a small generated set, and a state file holding them. */
function baseDocuments(seed: number): Record<'calendarFile' | 'addonsFile' | 'usersFile' | 'stateFile', unknown> {
  const set = generateFixtures({ seed, eventCount: 4 });
  const state = schema.$defs.stateFile as { properties: { sequences: { required: string[] } } };
  const sequences = Object.fromEntries(state.properties.sequences.required.map((k) => [k, 1]));
  return { calendarFile: set.calendar, addonsFile: set.addons, usersFile: set.users, stateFile: { version: 1, sequences, calendar: set.calendar, addons: set.addons, users: set.users } };
}

type Path = (string | number)[];

/** Every node of a JSON value with its path, the root first. */
function nodes(value: unknown, path: Path = [], out: { path: Path; value: unknown }[] = []): { path: Path; value: unknown }[] {
  out.push({ path, value });
  if (Array.isArray(value)) value.forEach((v, i) => nodes(v, [...path, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) nodes(v, [...path, k], out);
  return out;
}

const REMOVE = Symbol('remove');

/** A copy of `doc` with the node at `path` replaced (or removed from its object or array). */
function replaced(doc: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value === REMOVE ? {} : value;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value !== REMOVE) parent[last] = value;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

/** Every schema of the dereferenced definitions the contract's value generators can honour: values near the edges. */
function fieldArbitraries(): fc.Arbitrary<unknown>[] {
  const deref = dereference(schema as unknown as JsonSchema) as unknown as FixtureSchema;
  const arbs: fc.Arbitrary<unknown>[] = [];
  const seen = new Set<unknown>();
  const walk = (s: unknown): void => {
    if (s === null || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    try {
      arbs.push(valueArb(s as JsonSchema));
    } catch {
      // allOf, anyOf and other shapes the request generators leave out: their parts are walked below.
    }
    for (const v of Object.values(s)) {
      if (Array.isArray(v)) v.forEach(walk);
      else walk(v);
    }
  };
  Object.values(deref.$defs).forEach(walk);
  return arbs;
}

/** What a validator says of a value: the verdict and the errors, with everything they carry (verbose). */
function verdict(v: Check | ValidateFunction, value: unknown): { valid: boolean; errors: unknown } {
  const valid = v(value);
  return { valid, errors: v.errors };
}

/** The first definition on which `a` and `b` disagree about `value`, if any. */
function disagreement(a: (name: string) => Check | ValidateFunction | undefined, b: (name: string) => Check | ValidateFunction | undefined, names: readonly string[], value: unknown): string | undefined {
  for (const name of names) {
    const va = a(name);
    const vb = b(name);
    if (!va || !vb) return `${name}: missing on one side`;
    const x = verdict(va, value);
    const y = verdict(vb, value);
    if (!isDeepStrictEqual(x, y)) return `${name}: ${JSON.stringify(x).slice(0, 400)} vs ${JSON.stringify(y).slice(0, 400)}`;
  }
  return undefined;
}

const docs = [baseDocuments(1), baseDocuments(7)];
const fileCases = docs.flatMap((d) => Object.entries(d).map(([def, doc]) => ({ def, doc, nodes: nodes(doc) })));
const fields = fieldArbitraries();
/** A node of a fixture file replaced: by a field value of the generators, by any JSON value, or removed. */
const mutatedFile = fc
  .record({
    file: fc.nat(fileCases.length - 1),
    at: fc.nat(),
    with: fc.oneof(fc.oneof(...fields), fc.jsonValue({ maxDepth: 3 }), fc.constant(REMOVE)),
  })
  .map(({ file, at, with: value }) => {
    const c = fileCases[file]!;
    const node = c.nodes[at % c.nodes.length]!;
    return { def: c.def, value: replaced(c.doc, node.path, value), node: node.path };
  });
/** A node of a fixture file on its own (a record, a list, a field), possibly replaced the same way. */
const mutatedNode = fc
  .record({ file: fc.nat(fileCases.length - 1), at: fc.nat(), inner: fc.nat(), with: fc.option(fc.oneof(fc.oneof(...fields), fc.jsonValue({ maxDepth: 2 }), fc.constant(REMOVE)), { freq: 2 }) })
  .map(({ file, at, inner, with: value }) => {
    const c = fileCases[file]!;
    const node = c.nodes[1 + (at % (c.nodes.length - 1))]!.value;
    if (value === null) return node;
    const within = nodes(node);
    return replaced(node, within[inner % within.length]!.path, value);
  });

describe('contracts/model/schema-validators.ts (Ajv standalone code of contracts/model/schema.json)', () => {
  it('is what the schema renders today (run `npm run model:types` after editing the schema or updating Ajv)', () => {
    expect(readFileSync(new URL('../../../contracts/model/schema-validators.ts', import.meta.url), 'utf8') === renderSchemaValidators(schema)).toBe(true);
  });

  it('exports one validator per definition of the schema, and nothing else', () => {
    expect(Object.keys(generated).sort()).toEqual([...defNames].sort());
  });

  it('judges a fixture file with one node replaced exactly as Ajv compiling the schema does', () => {
    const seen = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(mutatedFile, ({ def, value }) => {
        const d = disagreement((n) => standalone[n], (n) => compiled.get(n), [def], value);
        if (d) throw new Error(d);
        seen[compiled.get(def)!(value) ? 'valid' : 'invalid']++;
      }),
      { numRuns: RUNS },
    );
    // Both verdicts were reached: the comparison covered acceptance as well as rejection and its errors.
    expect(seen.valid).toBeGreaterThan(0);
    expect(seen.invalid).toBeGreaterThan(0);
  });

  it('judges records, fields and any JSON value exactly as Ajv does, under every definition', () => {
    const seen = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(fc.oneof(mutatedNode, fc.jsonValue({ maxDepth: 3 })), (value) => {
        const d = disagreement((n) => standalone[n], (n) => compiled.get(n), defNames, value);
        if (d) throw new Error(d);
        for (const name of defNames) seen[compiled.get(name)!(value) ? 'valid' : 'invalid']++;
      }),
      { numRuns: RUNS },
    );
    expect(seen.valid).toBeGreaterThan(0);
    expect(seen.invalid).toBeGreaterThan(0);
  });

  it('the comparison fails on validators of a schema that differs in one rule (an event title of at most 3 characters)', () => {
    const edited = structuredClone(schemaJson) as unknown as FixtureSchema & { $defs: { postBase: { properties: { title: Record<string, unknown> } } } };
    edited.$defs.postBase.properties.title = { ...edited.$defs.postBase.properties.title, maxLength: 3 };
    const other = compiledValidators({ ...edited, $id: `${schema.$id}-edited` }).validators;
    const found = fc.sample(mutatedFile, { numRuns: 50, seed: 1 }).some(({ def, value }) => disagreement((n) => other.get(n), (n) => standalone[n], [def], value) !== undefined);
    expect(found).toBe(true);
  });
});
