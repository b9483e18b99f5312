// validateBounded() beside validate(): the same verdict and the same failing params on every edge case of every
// operation (one constraint broken, and two of them broken in one request), and each of its issues one that
// validate() also reports; and its work does not grow with how many values fail.
// (Beside the generators because it runs their edge cases: the contract layer may not import them.)
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import { edgePlan, toTyped } from './index.ts';
import type { TypedRequest, ValidationIssue } from '../types.ts';

const contract = loadContractFile();

const failing = (issues: readonly ValidationIssue[]) => [...new Set(issues.map((i) => `${i.location} ${i.param}`))].sort();
const at = (i: ValidationIssue) => `${i.keyword} ${i.instancePath}`;

/** Two requests' values in one (the second's win where both have a param). */
function merged(a: TypedRequest, b: TypedRequest): TypedRequest {
  const out: TypedRequest = { path: { ...a.path, ...b.path }, query: { ...a.query, ...b.query } };
  if (a.body || b.body) out.body = { ...a.body, ...b.body };
  return out;
}

describe('validateBounded()', () => {
  it('agrees with validate() on every edge case, alone and in pairs', () => {
    let compared = 0;
    let invalid = 0;
    for (const op of contract.operations) {
      const typed = edgePlan(contract, op).cases.map((e) => toTyped(op, e.request));
      const requests = [...typed, ...typed.slice(1).map((t, i) => merged(typed[i]!, t))];
      for (const req of requests) {
        const full = contract.validate(op, req);
        const bounded = contract.validateBounded(op, req);
        expect(bounded.valid, op.id).toBe(full.valid);
        expect(failing(bounded.issues), op.id).toEqual(failing(full.issues));
        const all = new Set(full.issues.map(at));
        for (const i of bounded.issues) expect(all.has(at(i)), `${op.id} ${at(i)}`).toBe(true);
        compared++;
        if (!full.valid) invalid++;
      }
    }
    expect(compared).toBeGreaterThan(8000);
    expect(invalid).toBeGreaterThan(3000);
  });

  it('reports one issue for a param with 200,000 bad values, where validate() reports 200,000', () => {
    const op = contract.operations.find((o) => o.method === 'POST' && o.path === '/cal/v1/events')!;
    const req: TypedRequest = { path: {}, query: {}, body: { title: 't', tags: Array.from({ length: 200_000 }, () => 'a') } };
    const bounded = contract.validateBounded(op, req);
    expect(bounded.valid).toBe(false);
    expect(bounded.issues.map(at)).toEqual(['type /body/tags/0']);
    expect(contract.validate(op, req).issues).toHaveLength(200_000);
  });
});
