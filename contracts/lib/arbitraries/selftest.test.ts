// The generators' proof, over ALL operations and ALL constraints of the contract:
//   - every valid sample passes the compiled validator (after WordPress's coercion) and routes to its operation;
//   - every violation sample fails it with exactly the intended keyword at the intended place (plus the
//     unavoidable companions the violation declares), and path violations route nowhere near their operation;
//   - every constraint has a generator or a reason why no request can break it.
// Replay: FC_SEED=<seed> (the whole run), FC_ONLY=<operation or constraint id> with FC_PATH=<path> (one case).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import { allConstraints, constraintsOf } from './constraints.ts';
import { expectedIssues, reportedIssues } from './coverage.ts';
import { assertProperty, freshSeed, seedFromEnv } from './replay.ts';
import { validRequestArb } from './requests.ts';
import { isGenerator, violationArb } from './violations.ts';
import type { Violation } from './model.ts';
import { bodyValues, toTyped } from './wire.ts';

const contract = loadContractFile();
const seed = seedFromEnv(process.env) ?? freshSeed();
const only = process.env.FC_ONLY;
const path = process.env.FC_PATH;
console.info(`[arbitraries self-test] fast-check seed ${seed} — replay the whole run with FC_SEED=${seed}`);

const replay = (id: string) => (s: number, p: string) => `FC_SEED=${s} FC_ONLY='${id}' FC_PATH='${p}' npx vitest run contracts/lib/arbitraries/selftest.test.ts`;
const runOpts = (id: string, numRuns: number) => ({ label: id, seed, numRuns, replay: replay(id), ...(only === id && path ? { path } : {}) });
const selected = (id: string, opId: string): boolean => only === undefined || only === id || only === opId;

/** Constraints worth more samples: the issue's own examples. */
const KEY_CONSTRAINTS = new Set([
  'getCalV1Events query.per_page minimum',
  'getCalV1Events query.per_page maximum',
  'postBatchV1 body.requests maxItems',
  'postBatchV1 body.requests.items.method enum',
  'getCalV1Events query.status.items enum',
  'getCalV1Events query.categories uniqueItems',
  'postCalV1Organizers body.email format:email',
  'getCalV1Events query.start_date pattern',
  'postCalV1Events body.start_date pattern',
]);

function decodedMatch(method: string, requestPath: string): { id: string; params: Record<string, string> } | undefined {
  const m = contract.match(method, requestPath);
  if (m.kind !== 'match') return undefined;
  return { id: m.operation.id, params: Object.fromEntries(Object.entries(m.pathParams).map(([k, v]) => [k, decodeURIComponent(v)])) };
}

describe('valid requests, every operation', () => {
  for (const op of contract.operations) {
    if (!selected(op.id, op.id)) continue;
    it(op.id, () => {
      assertProperty(
        fc.property(validRequestArb(op), (req) => {
          const result = contract.validate(op, toTyped(op, req));
          expect(result.issues).toEqual([]);
          expect(decodedMatch(req.method, req.path)).toEqual({ id: op.id, params: req.pathParams });
        }),
        runOpts(op.id, 10),
      );
    });
  }
});

describe('violations, every constraint', () => {
  for (const op of contract.operations) {
    const constraints = constraintsOf(contract, op).filter((c) => selected(c.id, op.id));
    if (constraints.length === 0) continue;
    it(`${op.id} (${constraints.length} constraints)`, () => {
      for (const c of constraints) {
        const arb = violationArb(contract, c);
        if (!isGenerator(arb)) {
          // Only a constraint no request can break may go without a generator, and it must say why.
          expect(c.wire.kind, `${c.id} has no generator: ${arb.reason}`).toBe('not-applicable');
          expect(arb.reason.length).toBeGreaterThan(20);
          continue;
        }
        assertProperty(
          fc.property(arb, (v) => {
            expect(v.constraintId).toBe(c.id);
            expect(reportedIssues(contract, v)).toEqual(expectedIssues(v));
            if (c.location === 'path') {
              // WordPress routes by the path pattern: a value off it must not reach this operation.
              expect(decodedMatch(v.request.method, v.request.path)?.id).not.toBe(op.id);
            }
          }),
          runOpts(c.id, KEY_CONSTRAINTS.has(c.id) ? 60 : 6),
        );
      }
    });
  }
});

describe('the issue\'s own examples', () => {
  const sample = (id: string): Violation[] => {
    const arb = violationArb(contract, allConstraints(contract).find((c) => c.id === id)!);
    return isGenerator(arb) ? fc.sample(arb, { numRuns: 300, seed }) : [];
  };

  it('per_page 0 and 101', () => {
    expect(sample('getCalV1Events query.per_page minimum').map((v) => Number(v.request.query.per_page))).toContain(0);
    expect(sample('getCalV1Events query.per_page maximum').map((v) => Number(v.request.query.per_page))).toContain(101);
  });

  it('a 26-request batch, as JSON and as a form', () => {
    const batches = sample('postBatchV1 body.requests maxItems');
    for (const v of batches) expect(Object.keys(bodyValues(v.request.body!).requests as object)).toHaveLength(26);
    expect(new Set(batches.map((v) => Object.keys(v.request.body!)[0]))).toEqual(new Set(['json', 'form']));
  });

  it('a batch item with a disallowed method', () => {
    const methods = sample('postBatchV1 body.requests.items.method enum').map((v) => {
      const requests = Object.values(bodyValues(v.request.body!).requests as object) as { method?: unknown }[];
      return requests.map((r) => r.method).find((m) => typeof m === 'string' && !['POST', 'PUT', 'PATCH', 'DELETE'].includes(m));
    });
    expect(methods).toContain('GET');
  });
});
