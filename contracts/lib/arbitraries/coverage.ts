// How many constraints of the contract have a generator that really breaks them — counted from the contract
// (constraints.ts), each generator checked on a few samples against the compiled validator, so a generator that
// exists but misses its mark does not count.
import fc from 'fast-check';
import type { Contract } from '../loader.ts';
import type { JsonSchema } from '../types.ts';
import type { Constraint, Violation } from './model.ts';
import { allConstraints } from './constraints.ts';
import { isGenerator, violationArb } from './violations.ts';
import { toTyped } from './wire.ts';

type CoverageStatus = 'generated' | 'not-applicable' | 'missing';

interface CoverageEntry {
  constraint: Constraint;
  status: CoverageStatus;
  /** not-applicable: why no request can break it; missing: why there is no working generator. */
  reason?: string;
}

interface Coverage {
  entries: CoverageEntry[];
  /** Constraints with a working generator, plus those no request can break (each with its reason). */
  covered: number;
  total: number;
}

/** The issues a violation must produce, as comparable strings. */
export function expectedIssues(v: Violation): string[] {
  return [v.expected, ...v.alongside].map((i) => `${i.keyword} ${i.instancePath}`).sort();
}

/** What the contract's validator reports for a violation's request, as comparable strings. */
export function reportedIssues(contract: Contract, v: Violation): string[] {
  const op = contract.operation(v.request.operationId);
  return contract
    .validate(op, toTyped(op, v.request))
    .issues.map((i) => `${i.keyword} ${i.instancePath}`)
    .sort();
}

/** Check one constraint's generator on `samples` requests; undefined when every sample hits exactly its mark. */
function checkGenerator(contract: Contract, arb: fc.Arbitrary<Violation>, samples: number, seed: number): string | undefined {
  let values: Violation[];
  try {
    values = fc.sample(arb, { numRuns: samples, seed });
  } catch (e) {
    return `generator throws: ${(e as Error).message}`;
  }
  for (const v of values) {
    const want = expectedIssues(v);
    const got = reportedIssues(contract, v);
    if (want.join('|') !== got.join('|')) return `expected [${want.join(', ')}], validator said [${got.join(', ')}]`;
  }
  return undefined;
}

export function computeCoverage(contract: Contract, opts: { samples?: number; seed?: number } = {}): Coverage {
  const samples = opts.samples ?? 3;
  const seed = opts.seed ?? 1;
  const entries: CoverageEntry[] = allConstraints(contract).map((constraint) => {
    const arb = violationArb(contract, constraint);
    if (!isGenerator(arb)) {
      return constraint.wire.kind === 'not-applicable'
        ? { constraint, status: 'not-applicable', reason: arb.reason }
        : { constraint, status: 'missing', reason: arb.reason };
    }
    const problem = checkGenerator(contract, arb, samples, seed);
    return problem ? { constraint, status: 'missing', reason: problem } : { constraint, status: 'generated' };
  });
  const covered = entries.filter((e) => e.status !== 'missing').length;
  return { entries, covered, total: entries.length };
}

/** Parameters without a type: nothing to violate but their presence (reported, not counted). */
export function untypedParameters(contract: Contract): string[] {
  const untyped = (s: JsonSchema): boolean => s.type === undefined && !s.enum && !('const' in s) && !s.anyOf && !s.oneOf && !s.allOf;
  return contract.operations.flatMap((op) => op.params.filter((p) => untyped(p.schema)).map((p) => `${op.id} ${p.in}.${p.name}`));
}

/** Ids joined by commas, in lines of about `width` characters. */
function wrap(ids: string[], width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const id of ids) {
    const next = line ? `${line}, ${id}` : id;
    if (next.length > width && line) {
      out.push(`${line},`);
      line = id;
    } else line = next;
  }
  if (line) out.push(line);
  return out;
}

function pad(s: string | number, n: number): string {
  return String(s).padEnd(n);
}

/** The report `npm run generators:coverage` prints. */
export function formatCoverage(cov: Coverage, untyped: string[]): string {
  const lines: string[] = [];
  const by = (pred: (e: CoverageEntry) => boolean): CoverageEntry[] => cov.entries.filter(pred);
  const generated = by((e) => e.status === 'generated');
  const wire = generated.filter((e) => e.constraint.wire.kind === 'wire');
  const contractOnly = generated.filter((e) => e.constraint.wire.kind === 'contract-only');
  const na = by((e) => e.status === 'not-applicable');
  const missing = by((e) => e.status === 'missing');
  lines.push(`constraints with generators: ${cov.covered}/${cov.total}`);
  lines.push(`  generated, WordPress refuses them too (400):        ${wire.length}`);
  lines.push(`  generated, contract only (WordPress does not 400):  ${contractOnly.length}`);
  lines.push(`  not applicable, no request can break them:          ${na.length}`);
  lines.push(`  missing:                                            ${missing.length}`);
  lines.push('');
  lines.push(`${pad('by keyword', 28)}${pad('covered', 12)}${pad('wire', 8)}${pad('contract', 10)}n/a`);
  const keywords = [...new Set(cov.entries.map((e) => (e.constraint.keyword === 'format' ? `format:${e.constraint.detail}` : e.constraint.keyword)))].sort();
  for (const k of keywords) {
    const es = cov.entries.filter((e) => (e.constraint.keyword === 'format' ? `format:${e.constraint.detail}` : e.constraint.keyword) === k);
    const n = (f: (e: CoverageEntry) => boolean): number => es.filter(f).length;
    lines.push(
      `  ${pad(k, 26)}${pad(`${n((e) => e.status !== 'missing')}/${es.length}`, 12)}${pad(n((e) => e.status === 'generated' && e.constraint.wire.kind === 'wire'), 8)}${pad(n((e) => e.status === 'generated' && e.constraint.wire.kind === 'contract-only'), 10)}${n((e) => e.status === 'not-applicable')}`,
    );
  }
  const grouped = (es: CoverageEntry[], reasonOf: (e: CoverageEntry) => string): void => {
    const groups = new Map<string, string[]>();
    for (const e of es) groups.set(reasonOf(e), [...(groups.get(reasonOf(e)) ?? []), e.constraint.id]);
    for (const [reason, ids] of groups) {
      lines.push(`  ${ids.length} × ${reason}`);
      lines.push(...wrap(ids, 110).map((l) => `      ${l}`));
    }
  };
  const wireReason = (e: CoverageEntry): string => (e.constraint.wire.kind === 'wire' ? '' : e.constraint.wire.reason);
  lines.push('');
  lines.push('not violable on the wire — not applicable (counted as covered: no request can break them):');
  grouped(na, (e) => e.reason ?? wireReason(e));
  lines.push('');
  lines.push('not violable on the wire — contract only (a generator breaks the contract; WordPress would not answer 400):');
  grouped(contractOnly, wireReason);
  const notes = wire.filter((e) => e.constraint.wire.kind === 'wire' && e.constraint.wire.note);
  if (notes.length) {
    lines.push('');
    lines.push('violable on the wire only in one spelling:');
    grouped(notes, (e) => (e.constraint.wire.kind === 'wire' ? (e.constraint.wire.note ?? '') : ''));
  }
  const alongside = generated.filter((e) => e.constraint.keyword === 'type' && Array.isArray(e.constraint.node.enum));
  lines.push('');
  lines.push(`type violations that necessarily break the enum at the same place as well: ${alongside.length} (a value of another type is outside a string enum too)`);
  const contested = cov.entries.filter((e) => e.constraint.contested.length > 0);
  lines.push(`constraints resting on the reading the contract chose among contradicting ones (x-contradictions): ${contested.length}`);
  lines.push(`untyped parameters (no constraint but their presence; not counted): ${untyped.length}`);
  if (missing.length) {
    lines.push('');
    lines.push('MISSING generators:');
    for (const e of missing) lines.push(`  ${e.constraint.id}: ${e.reason}`);
  }
  return lines.join('\n');
}
