// dereference() against the plainest reading of a local $ref (resolve it afresh wherever it appears, siblings laid
// over the target): equal values for any document whose definitions refer to earlier ones, the targets of a $ref
// without siblings shared, the input left as it was, and circular or unresolved references refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dereference } from './deref.ts';
import type { JsonSchema } from './types.ts';

/** The plainest reading: every $ref resolved afresh, siblings (dereferenced) laid over the target. */
function naive(doc: JsonSchema): unknown {
  const at = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((cur, raw) => (cur as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    const base = typeof obj.$ref === 'string' ? (walk(at(obj.$ref)) as Record<string, unknown>) : {};
    const own = Object.fromEntries(Object.entries(obj).filter(([k]) => !(k === '$ref' && typeof obj.$ref === 'string')).map(([k, v]) => [k, walk(v)]));
    return typeof obj.$ref === 'string' && Object.keys(own).length === 0 ? base : { ...base, ...own };
  };
  return walk(doc);
}

// Definitions d0..dn, each may refer to earlier ones (with or without siblings), and a body referring to any.
const docArb = fc.integer({ min: 1, max: 5 }).chain((n) => {
  const refTo = (max: number) => fc.integer({ min: 0, max: max - 1 }).map((i) => `#/$defs/d~1${i}`);
  const node = (max: number): fc.Arbitrary<unknown> =>
    fc.letrec<{ n: unknown }>((tie) => ({
      n: fc.oneof(
        { depthSize: 'small' },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie('n'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('type', 'description', 'properties', 'items', 'a/b', '0'), tie('n'), { maxKeys: 3 }),
        ...(max > 0 ? [refTo(max).map(($ref) => ({ $ref })), fc.tuple(refTo(max), fc.string()).map(([$ref, description]) => ({ $ref, description }))] : []),
      ),
    })).n;
  const defs = fc.tuple(...Array.from({ length: n }, (_, i) => node(i)));
  return fc.tuple(defs, node(n)).map(([list, body]) => ({ $defs: Object.fromEntries(list.map((d, i) => [`d/${i}`, d])), body }) as JsonSchema);
});

describe('dereference', () => {
  it('gives what resolving every $ref afresh gives, and leaves the document as it was', () => {
    fc.assert(
      fc.property(docArb, (doc) => {
        const before = structuredClone(doc);
        expect(dereference(doc)).toEqual(naive(doc));
        expect(doc).toEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it('shares the target of a $ref without siblings, and copies one with siblings', () => {
    const doc = { $defs: { a: { type: 'string' } }, x: { $ref: '#/$defs/a' }, y: { $ref: '#/$defs/a' }, z: { $ref: '#/$defs/a', description: 'z' } } as JsonSchema;
    const d = dereference(doc) as Record<string, unknown>;
    expect(d.x).toBe(d.y);
    expect(d.z).toEqual({ type: 'string', description: 'z' });
    expect(d.x).toEqual({ type: 'string' });
    expect(d.x).not.toBe((doc.$defs as Record<string, unknown>).a);
  });

  it('refuses circular, unresolved and remote references', () => {
    expect(() => dereference({ $defs: { a: { items: { $ref: '#/$defs/a' } } }, x: { $ref: '#/$defs/a' } } as JsonSchema)).toThrow(/circular \$ref #\/\$defs\/a/);
    expect(() => dereference({ x: { $ref: '#/$defs/none' } } as JsonSchema)).toThrow(/unresolved \$ref #\/\$defs\/none/);
    expect(() => dereference({ x: { $ref: 'other.yaml#/a' } } as JsonSchema)).toThrow(/only local \$refs/);
  });
});
