// A run stopped by Ctrl-C or SIGTERM did only part of its work: every format says INTERRUPTED, never
// PASSED, even when every case that ran passed. So does a run that --max-duration or --max-requests ended
// before its plan was done: INCOMPLETE, exit 4, naming the checks that did not run.

import { describe, expect, it } from 'vitest';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { mergeRuns } from './merge.ts';
import type { CaseResult, RunResult } from './model.ts';
import { buildRun, EXIT_INCOMPLETE, EXIT_SIGNAL, exitCodeFor, summarize } from './run.ts';
import type { Incompleteness } from './model.ts';

const passed: CaseResult = { id: 'cors:-:', check: 'cors', namespace: 'root', status: 'passed', severity: 'convention', durationMs: 3 };

function run(interrupted?: RunResult['interrupted'], cases: CaseResult[] = [passed], incomplete?: Incompleteness): RunResult {
  return buildRun({
    tool: { name: 'site-contracts', version: '0.1.0' },
    target: { baseUrl: 'https://staging.example.org', apiRoot: '/wp-json' },
    startedAt: new Date('2026-01-02T03:04:05Z'),
    finishedAt: new Date('2026-01-02T03:04:15Z'),
    seed: 7,
    options: {},
    cases,
    ...(interrupted ? { interrupted } : {}),
    ...(incomplete ? { incomplete } : {}),
  });
}

describe('an interrupted run', () => {
  it('has the verdict interrupted whatever its cases say, and the signal exit code', () => {
    expect(summarize([passed]).verdict).toBe('passed');
    expect(summarize([passed], { interrupted: { signal: 'SIGINT' } }).verdict).toBe('interrupted');
    expect(run({ signal: 'SIGINT' }).summary.verdict).toBe('interrupted');
    expect(exitCodeFor(run({ signal: 'SIGINT' }))).toBe(130);
    expect(exitCodeFor(run({ signal: 'SIGTERM' }))).toBe(143);
    expect(EXIT_SIGNAL).toEqual({ SIGINT: 130, SIGTERM: 143 });
    expect(exitCodeFor(run())).toBe(0);
  });

  it('says so in the JSON report', () => {
    const json = JSON.parse(renderJson(run({ signal: 'SIGTERM' }))) as RunResult;
    expect(json.interrupted).toEqual({ signal: 'SIGTERM' });
    expect(json.summary.verdict).toBe('interrupted');
    expect(JSON.parse(renderJson(run())).interrupted).toBeUndefined();
  });

  it('is one error more in JUnit, so a dashboard does not show the part that ran as green', () => {
    const xml = renderJunit(run({ signal: 'SIGINT' }));
    expect(xml).toMatch(/<testsuites name="site-contracts" tests="2" failures="0" errors="1" skipped="0"/);
    expect(xml).toContain('<testcase classname="(run)" name="run interrupted" time="0.000">');
    expect(xml).toMatch(/<error message="INTERRUPTED: the run was stopped by SIGINT before it was done[^"]*" type="interrupted">/);
    expect(xml).toContain('<property name="verdict" value="INTERRUPTED"/>');
    const whole = renderJunit(run());
    expect(whole).toMatch(/<testsuites name="site-contracts" tests="1" failures="0" errors="0"/);
    expect(whole).not.toContain('run interrupted');
    expect(whole).toContain('<property name="verdict" value="PASSED"/>');
  });

  it('is INTERRUPTED in the HTML title and the data the page draws its badge from', () => {
    const html = renderHtml(run({ signal: 'SIGINT' }));
    expect(html).toMatch(/<title>INTERRUPTED: https:\/\/staging\.example\.org \(site-contracts test, [^)]*\)<\/title>/);
    expect(html).toContain('<span class="verdict interrupted" id="verdict-text">INTERRUPTED</span>');
    expect(html).toContain('"interrupted":{"signal":"SIGINT"}');
    expect(html).toContain('"verdict":"interrupted"');
    expect(html).not.toContain('<title>PASSED');
  });

  it('makes a merge of shards interrupted when one shard was', () => {
    const shard = (index: number, interrupted?: RunResult['interrupted']): { source: string; run: RunResult } => ({
      source: `shard-${index}.json`,
      run: { ...run(interrupted, [{ ...passed, id: `cors:-:${index}` }]), shard: { index, total: 2 } },
    });
    const merged = mergeRuns([shard(1), shard(2, { signal: 'SIGTERM' })]);
    expect(merged.interrupted).toEqual({ signal: 'SIGTERM' });
    expect(merged.summary.verdict).toBe('interrupted');
    expect(mergeRuns([shard(1), shard(2)]).summary.verdict).toBe('passed');
  });
});

describe('an incomplete run', () => {
  const incomplete: Incompleteness = {
    stoppedBy: 'max-duration',
    limit: '--max-duration 20m',
    checks: [
      { check: 'lifecycle', notRun: 8, cutShort: 0, planned: 8 },
      { check: 'positive_acceptance', notRun: 100, cutShort: 2, planned: 204 },
    ],
    unitsNotRun: ['lifecycle:cal/v1/event'],
    unitsCutShort: ['positive_acceptance:postCalV1Events'],
  };
  const failed: CaseResult = { ...passed, id: 'cors:-:x', status: 'failed' };

  it('is INCOMPLETE with exit 4 when no case failed, FAILED with exit 1 when one did, INTERRUPTED after a signal', () => {
    expect(summarize([passed], { incomplete }).verdict).toBe('incomplete');
    expect(exitCodeFor(run(undefined, [passed], incomplete))).toBe(EXIT_INCOMPLETE);
    expect(EXIT_INCOMPLETE).toBe(4);
    expect(exitCodeFor(run(undefined, [passed, failed], incomplete))).toBe(1);
    expect(exitCodeFor(run({ signal: 'SIGINT' }, [passed], { ...incomplete, stoppedBy: 'signal' }))).toBe(130);
  });

  it('says so and names what did not run in JSON, JUnit and HTML', () => {
    const r = run(undefined, [passed], incomplete);
    const json = JSON.parse(renderJson(r)) as RunResult;
    expect(json.summary.verdict).toBe('incomplete');
    expect(json.incomplete).toEqual(incomplete);
    const xml = renderJunit(r);
    expect(xml).toMatch(/<testsuites name="site-contracts" tests="2" failures="0" errors="1" skipped="0"/);
    expect(xml).toContain('<testcase classname="(run)" name="run incomplete" time="0.000">');
    expect(xml).toContain(
      '<error message="INCOMPLETE: the run ended before its plan was done (stopped at --max-duration 20m); its cases are only part of the run; not run or cut short: lifecycle 8 of 8 unit(s), positive_acceptance 102 of 204 unit(s) (2 cut short)" type="incomplete">',
    );
    expect(xml).toContain('<property name="verdict" value="INCOMPLETE"/>');
    const html = renderHtml(r);
    expect(html).toMatch(/<title>INCOMPLETE: https:\/\/staging\.example\.org/);
    expect(html).toContain('<span class="verdict incomplete" id="verdict-text">INCOMPLETE</span>');
    expect(html).toMatch(/<p class="why" id="why">[^<]*Not run or cut short: lifecycle 8 of 8 unit\(s\), positive_acceptance 102 of 204 unit\(s\) \(2 cut short\)\./);
  });

  it('makes a merge of shards incomplete when one shard was, adding up what did not run', () => {
    const shard = (index: number, inc?: Incompleteness): { source: string; run: RunResult } => ({
      source: `shard-${index}.json`,
      run: { ...run(undefined, [{ ...passed, id: `cors:-:${index}` }], inc), shard: { index, total: 2 } },
    });
    const merged = mergeRuns([shard(1, incomplete), shard(2, { ...incomplete, unitsNotRun: ['lifecycle:cal/v1/venue'] })]);
    expect(merged.summary.verdict).toBe('incomplete');
    expect(merged.incomplete?.checks[0]).toEqual({ check: 'lifecycle', notRun: 16, cutShort: 0, planned: 16 });
    expect(merged.incomplete?.unitsNotRun).toEqual(['lifecycle:cal/v1/event', 'lifecycle:cal/v1/venue']);
    expect(exitCodeFor(merged)).toBe(4);
  });
});
