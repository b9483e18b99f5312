import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import { violatingRequest } from './index.ts';
import { assertProperty, PropertyFailure, seedFromEnv } from './replay.ts';
import { validRequestArb } from './requests.ts';
import { toTyped } from './wire.ts';

const contract = loadContractFile();
const op = contract.operation('getCalV1Events');
const perPageAtMost50 = fc.property(validRequestArb(op), (r) => {
  const q = toTyped(op, r).query;
  return q.per_page === undefined || (q.per_page as number) <= 50;
});

function failureOf(run: () => void): PropertyFailure {
  try {
    run();
  } catch (e) {
    if (e instanceof PropertyFailure) return e;
    throw e;
  }
  throw new Error('the property did not fail');
}

describe('reproducible failures', () => {
  it('name the seed, the path and the command to replay them', () => {
    const f = failureOf(() => assertProperty(perPageAtMost50, { label: 'per_page at most 50', seed: 42, replay: (s, p) => `FC_SEED=${s} FC_PATH=${p}` }));
    expect(f.seed).toBe(42);
    expect(f.message).toContain('per_page at most 50: property failed (seed 42, path "');
    expect(f.message).toContain(`replay: FC_SEED=42 FC_PATH=${f.path}`);
  });

  it('shrink to the smallest request that still fails: per_page 51 and nothing else', () => {
    const f = failureOf(() => assertProperty(perPageAtMost50, { label: 'x', seed: 7 }));
    expect(f.counterexample).toEqual([expect.objectContaining({ query: { per_page: '51' }, pathParams: {} })]);
  });

  it('replay exactly the shrunk case from its seed and path', () => {
    const first = failureOf(() => assertProperty(perPageAtMost50, { label: 'x', seed: 9 }));
    const again = failureOf(() => assertProperty(perPageAtMost50, { label: 'x', seed: first.seed, path: first.path }));
    expect(again.counterexample).toEqual(first.counterexample);
  });

  it('shrink violations too: a 101 per_page alone', () => {
    const f = failureOf(() => assertProperty(fc.property(violatingRequest(contract, op.id, 'getCalV1Events query.per_page maximum'), () => false), { label: 'x', seed: 1 }));
    expect(f.counterexample).toEqual([expect.objectContaining({ request: expect.objectContaining({ query: { per_page: '101' } }) })]);
  });

  it('read the seed from the environment', () => {
    expect(seedFromEnv({ FC_SEED: '123' })).toBe(123);
    expect(seedFromEnv({})).toBeUndefined();
    expect(() => seedFromEnv({ FC_SEED: 'abc' })).toThrow(/not an integer/);
  });
});
