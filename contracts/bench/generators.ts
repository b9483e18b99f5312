// Generation rate of the request generators: valid and violating requests per second, across all operations and
// all constraints with a generator. `npm run bench` (mock/bench/) imports benchGenerators(); run standalone with
// `npx tsx contracts/bench/generators.ts [ms per phase]` for a small table.
import fc from 'fast-check';
import { pathToFileURL } from 'node:url';
import { loadContractFile, type Contract } from '../lib/index.ts';
import type { Violation, WireRequest } from '../lib/arbitraries/model.ts';
import { allConstraints } from '../lib/arbitraries/constraints.ts';
import { validRequestArb } from '../lib/arbitraries/requests.ts';
import { isGenerator, violationArb } from '../lib/arbitraries/violations.ts';

export interface BenchOptions {
  /** How long each phase (valid, then invalid) samples, in ms. Default 2000. */
  durationMs?: number;
  contract?: Contract;
  seed?: number;
}

export interface BenchResult {
  validPerSec: number;
  invalidPerSec: number;
  /** Operations sampled for valid requests. */
  operations: number;
  /** Constraints with a generator, sampled for violations. */
  constraints: number;
  /** Time to build every arbitrary once, in ms (not part of the rates). */
  setupMs: number;
}

/** Samples per call: enough to amortise fast-check's per-run setup, few enough to rotate over every arbitrary. */
const BATCH = 20;

async function rate<T>(arbs: readonly fc.Arbitrary<T>[], durationMs: number, seed: number): Promise<number> {
  let produced = 0;
  let i = 0;
  const start = performance.now();
  let now = start;
  while (now - start < durationMs) {
    const arb = arbs[i % arbs.length]!;
    produced += fc.sample(arb, { numRuns: BATCH, seed: seed + i }).length;
    i++;
    // Yield now and then, so a caller's timers and I/O keep running during the bench.
    if (i % 50 === 0) await new Promise<void>((r) => setImmediate(r));
    now = performance.now();
  }
  return produced / ((now - start) / 1000);
}

export async function benchGenerators(opts: BenchOptions = {}): Promise<BenchResult> {
  const contract = opts.contract ?? loadContractFile();
  const durationMs = opts.durationMs ?? 2000;
  const seed = opts.seed ?? 1;
  const t0 = performance.now();
  const valid: fc.Arbitrary<WireRequest>[] = contract.operations.map((op) => validRequestArb(op));
  const invalid: fc.Arbitrary<Violation>[] = allConstraints(contract)
    .map((c) => violationArb(contract, c))
    .filter(isGenerator);
  const setupMs = performance.now() - t0;
  const validPerSec = await rate(valid, durationMs, seed);
  const invalidPerSec = await rate(invalid, durationMs, seed);
  return { validPerSec, invalidPerSec, operations: valid.length, constraints: invalid.length, setupMs };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const durationMs = process.argv[2] ? Number(process.argv[2]) : 2000;
  const r = await benchGenerators({ durationMs });
  const row = (k: string, v: string) => console.log(`${k.padEnd(34)}${v.padStart(12)}`);
  row('valid requests / s', r.validPerSec.toFixed(0));
  row('violating requests / s', r.invalidPerSec.toFixed(0));
  row('operations', String(r.operations));
  row('constraints with a generator', String(r.constraints));
  row('setup (build all arbitraries), ms', r.setupMs.toFixed(0));
}
