// The inconclusive status through every report format and the summary line: shown as such, counted apart,
// never as passed, and not failing the run by itself.

import { describe, expect, it } from 'vitest';
import { describeRun } from '../cli/finish.ts';
import { buildCase } from './case.ts';
import { parseRunJson, renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { mergeRuns } from './merge.ts';
import { DEFAULT_POLICY } from './model.ts';
import { exitCodeFor, summarize } from './run.ts';
import { renderHtml } from './html.ts';
import { htmlView } from './html-view.ts';
import { sampleRun } from './sample.ts';

const inconclusive = buildCase(
  {
    check: 'positive_acceptance',
    namespace: 'cal/v1',
    operationId: 'getCalV1VenuesById',
    method: 'GET',
    route: '/cal/v1/venues/{id}',
    variant: 'path.id',
    severity: 'documented',
    outcome: 'inconclusive',
    message: 'none of the 3 valid request(s) carrying it was accepted (3× 404 rest_post_invalid_id)',
    request: { method: 'GET', url: 'https://staging.example.org/wp-json/cal/v1/venues/7', headers: {} },
    response: { status: 404, headers: {}, body: '{"code":"rest_post_invalid_id","message":"Invalid post ID.","data":{"status":404}}' },
    durationMs: 12,
  },
  { policy: DEFAULT_POLICY },
);
const passed = buildCase({ check: 'route_presence', namespace: 'cal/v1', operationId: 'getCalV1Venues', severity: 'documented', outcome: 'pass', durationMs: 3 }, { policy: DEFAULT_POLICY });
const run = sampleRun([passed, inconclusive]);

describe('inconclusive cases', () => {
  it('are a status of their own, counted apart, and do not fail the run by themselves', () => {
    expect(inconclusive.status).toBe('inconclusive');
    expect(run.summary).toMatchObject({ total: 2, passed: 1, inconclusive: 1, failing: 0, verdict: 'passed' });
    expect(exitCodeFor(run)).toBe(0);
    // The body that shows why stays in the report, unlike a passed case's.
    expect(inconclusive.response?.body).toContain('rest_post_invalid_id');
  });

  it('are counted apart on the summary line', () => {
    expect(describeRun(run, [])).toMatch(/^site-contracts: PASSED: 2 cases, 1 passed, 0 failed, 0 warned, 1 inconclusive, 0 errored, 0 skipped$/m);
  });

  it('read back from JSON and survive a merge of shards', () => {
    const back = parseRunJson(renderJson(run), 'run.json');
    expect(back.cases.filter((c) => c.status === 'inconclusive')).toHaveLength(1);
    expect(back.summary.inconclusive).toBe(1);
    const a = sampleRun([passed]);
    const b = sampleRun([inconclusive]);
    a.shard = { index: 1, total: 2 };
    b.shard = { index: 2, total: 2 };
    expect(mergeRuns([{ source: 'a', run: a }, { source: 'b', run: b }]).summary.inconclusive).toBe(1);
  });

  it('are a <skipped> marked INCONCLUSIVE in JUnit, counted in an inconclusive property, never a pass', () => {
    const xml = renderJunit(run);
    expect(xml).toContain('<skipped message="INCONCLUSIVE: none of the 3 valid request(s) carrying it was accepted');
    expect(xml).toMatch(/<testsuite name="cal\/v1" tests="2" failures="0" errors="0" skipped="1"/);
    expect(xml).toContain('<property name="inconclusive" value="1"/>');
  });

  it('have their own count, filter and colour in the HTML report', () => {
    const html = renderHtml(run);
    expect(html).toContain('"inconclusive":1');
    expect(html).toMatch(/\.tone-inconclusive \.n \{/);
    expect(htmlView(run).tiles.find((t) => t.key === 'inconclusive')).toMatchObject({ field: 'outcome', count: 1, tone: 'inconclusive' });
    expect(summarize([inconclusive]).inconclusive).toBe(1);
  });
});
