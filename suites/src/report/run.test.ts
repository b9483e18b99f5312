import { describe, expect, it } from 'vitest';
import type { CaseResult } from './model.ts';
import { buildRun, exitCodeFor, summarize } from './run.ts';
import { sampleRun } from './sample.ts';

const c = (status: CaseResult['status'], extra: Partial<CaseResult> = {}): CaseResult => ({
  id: `x:${status}:${Math.random()}`,
  check: 'x',
  namespace: 'wp/v2',
  status,
  severity: 'documented',
  durationMs: 1,
  ...extra,
});

describe('summarize and exit code', () => {
  it('counts every status and fails on unaccepted failures and errors', () => {
    const s = summarize([c('passed'), c('failed'), c('errored'), c('warned'), c('skipped'), c('failed', { baseline: 'accepted' })]);
    expect(s).toEqual({ total: 6, passed: 1, failed: 2, warned: 1, inconclusive: 0, skipped: 1, errored: 1, accepted: 1, failing: 2, verdict: 'failed' });
  });

  it('passes when only warnings, skips and accepted failures remain', () => {
    const run = sampleRun([c('passed'), c('warned'), c('skipped'), c('errored', { baseline: 'accepted' })]);
    expect(run.summary.verdict).toBe('passed');
    expect(exitCodeFor(run)).toBe(0);
    expect(exitCodeFor(sampleRun([c('errored')]))).toBe(1);
  });

  it('derives the duration from the clock readings', () => {
    const run = buildRun({
      tool: { name: 't', version: '1' },
      target: { baseUrl: 'http://h', apiRoot: '/wp-json' },
      startedAt: new Date(1000),
      finishedAt: new Date(3500),
      seed: 1,
      options: {},
      cases: [],
      shard: { index: 1, total: 2 },
    });
    expect(run).toMatchObject({ durationMs: 2500, startedAt: '1970-01-01T00:00:01.000Z', shard: { index: 1, total: 2 } });
  });
});
