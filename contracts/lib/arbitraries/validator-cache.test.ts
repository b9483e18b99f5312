// The validator cache (validator-cache.ts) against the canonical path, Ajv compiling the request schema: for every
// operation of the contract, the validator evaluated from a cache entry written by another "process" (a second cache
// and Ajv over the same files) gives the same verdict and the same errors as the one Ajv compiles, on every edge
// case of the operation (one constraint broken at its edge, and the valid requests among them).
// (Beside the generators because it runs their edge cases: the contract layer may not import them.)
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../ajv.ts';
import { lazyAjv, type AjvSetup } from '../ajv-setup.ts';
import type { CacheIo } from '../contract-cache.ts';
import { loadContractFile, requestSchemaFor } from '../loader.ts';
import { validatorCache } from '../validator-cache.ts';
import { edgePlan, toTyped } from './index.ts';

const contract = loadContractFile(undefined, undefined, null);
const requireModule = createRequire(import.meta.url);
const SETUP: AjvSetup = { allErrors: false, standalone: 'commonjs' };

function memoryIo(): CacheIo & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return { files, read: (p) => files.get(p), write: (p, t) => void files.set(p, t) };
}

describe('validators from the cache', () => {
  it('give what Ajv compiles, verdict and errors, on every edge case of every operation', () => {
    const io = memoryIo();
    const cold = lazyAjv(createAjv, SETUP);
    const writer = validatorCache({ dirs: ['/cache'], io, requireModule });
    const schemas = new Map(contract.operations.map((op) => [op.id, requestSchemaFor(op)]));
    const compiled = new Map<string, ValidateFunction>();
    for (const op of contract.operations) compiled.set(op.id, writer.compile(op.id, schemas.get(op.id)!, cold));
    expect(io.files.size).toBe(contract.operations.length);

    // Another process: no Ajv is made (every validator comes from an entry).
    const warm = lazyAjv(() => {
      throw new Error('made an Ajv although the cache holds the entry');
    }, SETUP);
    const reader = validatorCache({ dirs: ['/cache'], io, requireModule });
    let compared = 0;
    let invalid = 0;
    for (const op of contract.operations) {
      const cached = reader.compile(op.id, schemas.get(op.id)!, warm);
      const canonical = compiled.get(op.id)!;
      expect(cached).not.toBe(canonical);
      for (const edge of edgePlan(contract, op).cases) {
        const req = toTyped(op, edge.request);
        const input = op.bodySchema ? { ...req, body: req.body ?? {} } : { path: req.path, query: req.query };
        const verdict = canonical(input);
        expect(cached(input), `${op.id} ${edge.id}`).toBe(verdict);
        expect(cached.errors ?? null, `${op.id} ${edge.id}`).toEqual(canonical.errors ?? null);
        compared++;
        if (!verdict) invalid++;
      }
    }
    expect(compared).toBeGreaterThan(4000);
    expect(invalid).toBeGreaterThan(1800);
  });
});
