import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract, loadContractFile } from '../loader.ts';
import type { JsonSchema } from '../types.ts';
import { allConstraints, constraintsOf, VALIDATION_KEYWORDS } from './constraints.ts';
import { computeCoverage, expectedIssues, formatCoverage, reportedIssues } from './coverage.ts';
import { isGenerator, violationArb } from './violations.ts';

const contract = loadContractFile();
const all = allConstraints(contract);
const byId = new Map(all.map((c) => [c.id, c]));

/** Keyword occurrences counted straight from the bundle's parameter and body schemas, as a cross-check. */
function countInBundle(keyword: string): number {
  let n = 0;
  const walk = (s: JsonSchema): void => {
    if (keyword in s && !(keyword === 'uniqueItems' && s.uniqueItems !== true)) n += keyword === 'required' ? (s.required as string[]).length : 1;
    for (const sub of Object.values((s.properties ?? {}) as Record<string, JsonSchema>)) walk(sub);
    if (s.items && typeof s.items === 'object') walk(s.items as JsonSchema);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties as JsonSchema);
  };
  for (const op of contract.operations) for (const p of op.params) walk(p.schema);
  return n;
}

describe('constraints, counted from the contract', () => {
  it('have unique ids', () => {
    expect(byId.size).toBe(all.length);
  });

  it.each(['type', 'enum', 'pattern', 'minimum', 'maximum', 'uniqueItems', 'maxItems', 'format'])('one %s constraint per occurrence in the schemas', (k) => {
    expect(all.filter((c) => c.keyword === k).length).toBe(countInBundle(k));
  });

  it('one required constraint per required parameter and per required property, one per dependentRequired pair', () => {
    const params = contract.operations.flatMap((op) => op.params.filter((p) => p.required));
    expect(all.filter((c) => c.keyword === 'required').length).toBe(params.length + countInBundle('required'));
    expect(all.filter((c) => c.keyword === 'dependentRequired').map((c) => c.id)).toEqual([
      'getCalEventsV1Events query.geoloc_lat dependentRequired:geoloc_lng',
      'getCalEventsV1Events query.geoloc_lng dependentRequired:geoloc_lat',
    ]);
  });

  it('name the places of the issue', () => {
    for (const id of [
      'getCalV1Events query.per_page minimum',
      'getCalV1Events query.per_page maximum',
      'postBatchV1 body.requests maxItems',
      'postBatchV1 body.requests.items.method enum',
      'postBatchV1 body.requests.items.path required',
      'postBatchV1 body.requests.items.headers.* type',
      'getCalV1Events query.status.items enum',
      'postCalV1Organizers body.email format:email',
      'postCalEventsV1Events body.title required',
    ]) expect(byId.get(id), id).toBeDefined();
  });

  it('say which breaks WordPress refuses, and why not the others', () => {
    const kind = (id: string) => byId.get(id)?.wire.kind;
    expect(kind('getCalV1Events query.per_page maximum')).toBe('wire');
    expect(kind('getOembed10Proxy query.url format:uri')).toBe('contract-only');
    expect(kind('postCalV1Organizers body.website format:uri')).toBe('contract-only');
    expect(kind('postCalV1Organizers body.phone format:tel')).toBe('contract-only');
    expect(kind('getCalEventsV1Events query.geoloc_lat format:double')).toBe('not-applicable');
    expect(kind('getCalEventsV1Events query.geoloc_lat dependentRequired:geoloc_lng')).toBe('contract-only');
    expect(kind('postSeoV1UpdateRedirection body.redirectionType required')).toBe('contract-only');
    expect(kind('postSeoV1UpdateRedirection body.objectID required')).toBe('wire');
    expect(kind('getFormsV1ContactFormsById path.id pattern')).toBe('contract-only');
    expect(kind('getFormsV1ContactFormsById path.id required')).toBe('not-applicable');
    const search = byId.get('getCalV1Events query.search type')!;
    expect(search.wire.kind === 'wire' && search.wire.note).toMatch(/bracket/);
  });

  it('carry the contradictions their parameter rests on', () => {
    expect(byId.get('getCalEventsV1Events query.categories.items type')?.contested[0]).toMatch(/^type-vs-description/);
  });
});

/** A one-operation contract with keywords the real one does not use. */
function tinyContract(schema: JsonSchema): ReturnType<typeof loadContract> {
  return loadContract({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/t/v1/things': {
        get: { operationId: 'getThings', 'x-kind': 'list', 'x-namespace': 't/v1', parameters: [{ name: 'q', in: 'query', schema }], responses: { 200: { description: 'ok' } } },
      },
    },
  });
}

describe('keywords beyond the contract', () => {
  it('find every validation keyword, with or without a generator', () => {
    const tiny = tinyContract({ type: 'string', minLength: 2, maxLength: 5, const: 'abc' });
    expect(constraintsOf(tiny, tiny.operation('getThings')).map((c) => c.keyword)).toEqual(['type', 'const', 'minLength', 'maxLength']);
    expect(VALIDATION_KEYWORDS).toContain('multipleOf');
  });

  it('break minLength, maxLength and exclusive bounds', () => {
    for (const schema of [{ type: 'string', minLength: 3 }, { type: 'string', maxLength: 3 }, { type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 }]) {
      const tiny = tinyContract(schema);
      for (const c of allConstraints(tiny)) {
        const arb = violationArb(tiny, c);
        if (!isGenerator(arb)) continue;
        for (const v of fc.sample(arb, { numRuns: 20, seed: 3 })) expect(reportedIssues(tiny, v)).toEqual(expectedIssues(v));
      }
    }
  });

  it('report a keyword without a generator as missing, so the coverage falls short', () => {
    const tiny = tinyContract({ type: 'integer', multipleOf: 3 });
    const cov = computeCoverage(tiny);
    expect(cov.covered).toBeLessThan(cov.total);
    expect(formatCoverage(cov, [])).toMatch(/constraints with generators: 1\/2[\s\S]*MISSING generators:\n {2}getThings query.q multipleOf: no generator for the keyword multipleOf/);
  });
});
