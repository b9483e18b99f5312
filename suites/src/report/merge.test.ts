import { describe, expect, it } from 'vitest';
import { mergeRuns, MergeError, type MergeInput } from './merge.ts';
import type { CaseResult, RunResult } from './model.ts';
import { sampleCases, sampleRun } from './sample.ts';

function shard(index: number, total: number, cases: CaseResult[], start: string, end: string): MergeInput {
  const run: RunResult = {
    ...sampleRun(cases),
    shard: { index, total },
    startedAt: start,
    finishedAt: end,
    options: { runs: 3, shard: { index, total } },
  };
  return { source: `shard-${index}-of-${total}.json`, run };
}

describe('mergeRuns', () => {
  const all = sampleCases();
  const global = all[5]!;
  const parts = [
    shard(1, 3, [all[0]!, all[1]!, { ...global, status: 'passed' }], '2026-01-01T00:00:10.000Z', '2026-01-01T00:01:00.000Z'),
    shard(2, 3, [all[2]!, all[3]!, global], '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:30.000Z'),
    shard(3, 3, [all[4]!], '2026-01-01T00:00:05.000Z', '2026-01-01T00:02:00.000Z'),
  ];

  it('puts the shards back into one run with the worst outcome for shared cases', () => {
    const merged = mergeRuns(parts);
    expect(merged.cases.map((c) => c.id).sort()).toEqual(all.map((c) => c.id).sort());
    expect(merged.cases.find((c) => c.id === global.id)?.status).toBe('errored');
    expect(merged).not.toHaveProperty('shard');
    expect(merged.options).toEqual({ runs: 3, mergedFrom: ['shard-1-of-3.json', 'shard-2-of-3.json', 'shard-3-of-3.json'] });
    expect(merged.startedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(merged.finishedAt).toBe('2026-01-01T00:02:00.000Z');
    expect(merged.durationMs).toBe(120_000);
    expect(merged.summary).toMatchObject({ total: 6, failed: 2, warned: 1, errored: 1, failing: 3, verdict: 'failed' });
  });

  it('keeps the contract version the shards were made against (mock --deviations reads it), and refuses shards of two', () => {
    const v = (p: MergeInput, version: string): MergeInput => ({ ...p, run: { ...p.run, contract: { version } } });
    expect(mergeRuns(parts.map((p) => v(p, '1.0.0'))).contract).toEqual({ version: '1.0.0' });
    expect(() => mergeRuns([v(parts[0]!, '1.0.0'), v(parts[1]!, '1.1.0'), v(parts[2]!, '1.0.0')])).toThrow(/contract version "1.1.0" vs "1.0.0"/);
  });

  it('refuses an incomplete or inconsistent set of shards', () => {
    expect(() => mergeRuns([parts[0]!, parts[2]!])).toThrow(/shard 2\/3 missing/);
    expect(() => mergeRuns([parts[0]!, parts[0]!, parts[1]!])).toThrow(/both shard 1\/3/);
    expect(() => mergeRuns([parts[0]!, shard(2, 4, [], '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')])).toThrow(/others are of 3/);
    const otherSeed = { ...parts[1]!, run: { ...parts[1]!.run, seed: 7 } };
    expect(() => mergeRuns([parts[0]!, otherSeed, parts[2]!])).toThrow(/different run .*seed 7 vs 42/);
    const otherTarget = { ...parts[1]!, run: { ...parts[1]!.run, target: { baseUrl: 'http://else', apiRoot: '/wp-json' } } };
    expect(() => mergeRuns([parts[0]!, otherTarget, parts[2]!])).toThrow(MergeError);
    expect(() => mergeRuns([parts[0]!, { source: 'whole.json', run: sampleRun() }])).toThrow(/whole\.json is not a shard report/);
    expect(() => mergeRuns([])).toThrow(/at least one/);
  });

  it('merges whole runs of one target that were split by --only', () => {
    const a = { source: 'a.json', run: sampleRun(all.slice(0, 2)) };
    const b = { source: 'b.json', run: sampleRun(all.slice(2)) };
    expect(mergeRuns([a, b]).summary.total).toBe(6);
  });

  it('re-applies the baseline the shards carried, or the one given', () => {
    const carried = parts.map((p) => ({
      ...p,
      run: { ...p.run, baseline: { source: 'b.json', acceptedList: [{ id: all[0]!.id, reason: 'WP-1' }], newFailures: [], accepted: [], fixed: [], notRun: [] } },
    }));
    const merged = mergeRuns(carried);
    expect(merged.baseline).toMatchObject({ source: 'b.json', accepted: [{ id: all[0]!.id, reason: 'WP-1' }] });
    expect(merged.summary).toMatchObject({ accepted: 1, failing: 2 });
    const all3 = [all[0]!.id, all[1]!.id, global.id].map((id) => ({ id }));
    expect(mergeRuns(carried, { source: 'new.yaml', accepted: all3 }).summary.verdict).toBe('passed');
  });
});
