// `--shard i/n` splits one run across CI jobs; merge puts the shards' JSON reports back into the run
// result a single job would have produced, and refuses when that is not what it was given (a shard
// missing, or shards of different runs), since a gate reading a partial merge would pass too easily.

import { applyBaseline, type Baseline } from './baseline.ts';
import type { AcceptedEntry, CaseResult, CaseStatus, Incompleteness, RunResult } from './model.ts';
import { buildRun } from './run.ts';

export class MergeError extends Error {
  override name = 'MergeError';
}

export interface MergeInput {
  source: string;
  run: RunResult;
}

const BADNESS: Record<CaseStatus, number> = { errored: 5, failed: 4, warned: 3, inconclusive: 2, passed: 1, skipped: 0 };

export function mergeRuns(inputs: readonly MergeInput[], baseline?: Baseline): RunResult {
  const first = inputs[0];
  if (!first) throw new MergeError('merge needs at least one JSON report');
  checkSameRun(inputs, first);
  checkShards(inputs);

  const cases = mergeCases(inputs);
  const started = Math.min(...inputs.map((i) => Date.parse(i.run.startedAt)));
  const finished = Math.max(...inputs.map((i) => Date.parse(i.run.finishedAt)));
  const { shard: _shard, ...options } = first.run.options;

  const effective = baseline ?? carriedBaseline(inputs);
  const applied = effective ? applyBaseline(cases, effective) : undefined;
  // One interrupted or incomplete shard leaves the whole run so.
  const interrupted = inputs.find((i) => i.run.interrupted)?.run.interrupted;
  const incomplete = mergeIncomplete(inputs.map((i) => i.run.incomplete).filter((x): x is Incompleteness => x !== undefined));
  return buildRun({
    tool: first.run.tool,
    target: first.run.target,
    startedAt: new Date(started),
    finishedAt: new Date(finished),
    seed: first.run.seed,
    ...(first.run.contract ? { contract: first.run.contract } : {}),
    options: { ...options, mergedFrom: inputs.map((i) => i.source) },
    cases: applied ? applied.cases : cases,
    ...(applied ? { baseline: applied.report } : {}),
    ...(interrupted ? { interrupted } : {}),
    ...(incomplete ? { incomplete } : {}),
  });
}

/** The shards' incompleteness as one: the first shard's reason, every check's counts added up, every unit listed. */
function mergeIncomplete(parts: readonly Incompleteness[]): Incompleteness | undefined {
  const first = parts[0];
  if (!first) return undefined;
  const checks = new Map<string, Incompleteness['checks'][number]>();
  for (const p of parts) {
    for (const c of p.checks) {
      const m = checks.get(c.check) ?? { check: c.check, notRun: 0, cutShort: 0, planned: 0 };
      checks.set(c.check, { check: c.check, notRun: m.notRun + c.notRun, cutShort: m.cutShort + c.cutShort, planned: m.planned + c.planned });
    }
  }
  return { ...first, checks: [...checks.values()], unitsNotRun: parts.flatMap((p) => p.unitsNotRun), unitsCutShort: parts.flatMap((p) => p.unitsCutShort) };
}

function checkSameRun(inputs: readonly MergeInput[], first: MergeInput): void {
  for (const input of inputs.slice(1)) {
    const a = first.run;
    const b = input.run;
    const differ = (what: string, x: unknown, y: unknown): MergeError =>
      new MergeError(`${input.source} is from a different run than ${first.source}: ${what} ${JSON.stringify(y)} vs ${JSON.stringify(x)}`);
    if (a.target.baseUrl !== b.target.baseUrl) throw differ('base URL', a.target.baseUrl, b.target.baseUrl);
    if (a.target.apiRoot !== b.target.apiRoot) throw differ('API root', a.target.apiRoot, b.target.apiRoot);
    if (a.contract?.version !== b.contract?.version) throw differ('contract version', a.contract?.version, b.contract?.version);
    if (a.tool.name !== b.tool.name || a.tool.version !== b.tool.version) {
      throw differ('tool', `${a.tool.name} ${a.tool.version}`, `${b.tool.name} ${b.tool.version}`);
    }
    // Shards partition the cases one seed generates; another seed generates other cases.
    if (a.seed !== b.seed) throw differ('seed', a.seed, b.seed);
  }
}

function checkShards(inputs: readonly MergeInput[]): void {
  const sharded = inputs.filter((i) => i.run.shard);
  if (sharded.length === 0) return;
  if (sharded.length !== inputs.length) {
    const plain = inputs.find((i) => !i.run.shard);
    throw new MergeError(`${plain?.source} is not a shard report, but others are; merge either shards of one run or whole runs`);
  }
  const total = sharded[0]?.run.shard?.total ?? 0;
  const seen = new Map<number, string>();
  for (const { source, run } of sharded) {
    const shard = run.shard;
    if (!shard) continue;
    if (shard.total !== total) throw new MergeError(`${source} is shard ${shard.index}/${shard.total}, others are of ${total}`);
    const other = seen.get(shard.index);
    if (other !== undefined) throw new MergeError(`${source} and ${other} are both shard ${shard.index}/${total}`);
    seen.set(shard.index, source);
  }
  const missing: string[] = [];
  for (let i = 1; i <= total; i++) if (!seen.has(i)) missing.push(`${i}/${total}`);
  if (missing.length > 0) throw new MergeError(`shard ${missing.join(', ')} missing: got ${sharded.length} of ${total} reports`);
}

/**
 * Global checks may run in every shard and so appear in several reports under one id; the worst
 * outcome stands for all of them. Repeats inside one report are the check's own business and stay.
 */
function mergeCases(inputs: readonly MergeInput[]): CaseResult[] {
  // worst badness of each id within each report
  const badness = inputs.map((input) => {
    const m = new Map<string, number>();
    for (const c of input.run.cases) m.set(c.id, Math.max(m.get(c.id) ?? -1, BADNESS[c.status] ?? 0));
    return m;
  });
  const owner = new Map<string, number>();
  badness.forEach((m, shard) => {
    for (const [id, bad] of m) {
      const current = owner.get(id);
      if (current === undefined || bad > (badness[current]?.get(id) ?? -1)) owner.set(id, shard);
    }
  });
  const out: CaseResult[] = [];
  inputs.forEach((input, shard) => {
    for (const c of input.run.cases) if (owner.get(c.id) === shard) out.push(c);
  });
  return out;
}

/** Shards run with --baseline carry its accepted list, so the merged run can be judged the same way. */
function carriedBaseline(inputs: readonly MergeInput[]): Baseline | undefined {
  const withBaseline = inputs.filter((i) => i.run.baseline);
  if (withBaseline.length === 0) return undefined;
  const accepted = new Map<string, AcceptedEntry>();
  const sources = new Set<string>();
  for (const { run } of withBaseline) {
    sources.add(run.baseline?.source ?? '');
    for (const entry of run.baseline?.acceptedList ?? []) if (!accepted.has(entry.id)) accepted.set(entry.id, entry);
  }
  return { source: [...sources].join(', '), accepted: [...accepted.values()] };
}
