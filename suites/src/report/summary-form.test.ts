// The short form of passed and skipped cases (summary-form.ts) against the canonical record: whatever the cases,
// reading the `json` report back gives every case, the whole ones unchanged and the short ones as the whole case
// less its request, answer, curl line and (for a pass) message. And the sizes it exists for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunJson, renderJson, renderJsonFull } from './json.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { CASE_STATUSES, SEVERITIES, type CaseResult } from './model.ts';
import { summarize } from './run.ts';
import { sampleRun } from './sample.ts';
import { SUMMARIZED, summarizeCases } from './summary-form.ts';

const part = fc.stringMatching(/^[a-zA-Z_.\/{} =-]{0,12}$/);
const caseArb: fc.Arbitrary<CaseResult> = fc
  .record(
    {
      check: fc.constantFrom('route_presence', 'negative_rejection', 'pagination', 'cors'),
      op: fc.option(fc.constantFrom('getCalV1Events', 'postCalV1Events', 'getFormsV1'), { nil: undefined }),
      variant: fc.option(fc.stringMatching(/^[a-z_.:= ]{1,10}$/), { nil: undefined }),
      namespace: fc.constantFrom('cal/v1', 'forms/v1', '(global)', ''),
      method: fc.option(fc.constantFrom('GET', 'POST'), { nil: undefined }),
      route: fc.option(part.map((p) => `/cal/v1/${p}`), { nil: undefined }),
      status: fc.constantFrom(...CASE_STATUSES),
      severity: fc.constantFrom(...SEVERITIES),
      message: fc.option(fc.string(), { nil: undefined }),
      curl: fc.option(fc.constant("curl 'http://h/x'"), { nil: undefined }),
      durationMs: fc.nat(5000),
      baseline: fc.option(fc.constantFrom('new' as const, 'accepted' as const, 'fixed' as const), { nil: undefined }),
    },
    { requiredKeys: ['check', 'namespace', 'status', 'severity', 'durationMs'] },
  )
  .map((r) => {
    const c: CaseResult = { id: `${r.check}:${r.op ?? '-'}:${r.variant ?? ''}`, check: r.check, namespace: r.namespace, status: r.status, severity: r.severity, durationMs: r.durationMs };
    if (r.op !== undefined) c.operationId = r.op;
    if (r.variant !== undefined) c.variant = r.variant;
    if (r.method !== undefined) c.method = r.method;
    if (r.route !== undefined) c.route = r.route;
    if (r.message !== undefined) c.message = r.message;
    if (r.curl !== undefined) c.curl = r.curl;
    if (r.baseline !== undefined) c.baseline = r.baseline;
    if (r.curl !== undefined) c.request = { method: c.method ?? 'GET', url: 'http://h/x', headers: {} };
    return c;
  });

/** The canonical record less what the short form leaves out. */
function expected(c: CaseResult): CaseResult {
  if (!SUMMARIZED.has(c.status)) return c;
  const { request: _q, response: _r, curl: _c, message, ...rest } = c;
  return c.status === 'skipped' && message !== undefined ? { ...rest, message } : rest;
}

describe('the short form of passed and skipped cases', () => {
  it('reads back as the whole record less requests, answers and curl lines, for any cases', () => {
    fc.assert(
      fc.property(fc.uniqueArray(caseArb, { selector: (c) => c.id, maxLength: 30 }), (cases) => {
        const run = { ...sampleRun(), cases };
        const back = parseRunJson(renderJson(run), 'r.json').cases;
        // In the run's order: views refer to cases by index.
        expect(back).toEqual(cases.map(expected));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps failing, warned, errored and inconclusive cases whole, in run order', () => {
    const run = sampleRun();
    const s = summarizeCases(run);
    expect(s.cases).toEqual(run.cases.filter((c) => !SUMMARIZED.has(c.status)));
    expect(s.summarized.rows.map((r) => `${s.summarized.prefixes[r[0]]}:${r[1]}`)).toEqual(run.cases.filter((c) => SUMMARIZED.has(c.status)).map((c) => c.id));
  });

  it('keeps whole a passed case whose id is not check:operationId:variant, and reads it back', () => {
    const run = sampleRun();
    const odd: CaseResult = { ...run.cases.find((c) => c.status === 'passed')!, id: 'odd-id' };
    const cases = [...run.cases, odd];
    expect(summarizeCases({ ...run, cases }).cases).toContainEqual(odd);
    expect(parseRunJson(renderJson({ ...run, cases }), 'r.json').cases).toEqual(cases.map(expected).map((c) => (c.id === 'odd-id' ? odd : c)));
  });

  it('names one check:operationId and one skip reason once, however many cases share them', () => {
    const base = sampleRun();
    const skip = (i: number): CaseResult => ({ id: `pagination:getCalV1Events:v${i}`, check: 'pagination', operationId: 'getCalV1Events', variant: `v${i}`, namespace: 'cal/v1', status: 'skipped', severity: 'documented', message: 'no credentials', durationMs: 0 });
    const s = summarizeCases({ ...base, cases: Array.from({ length: 50 }, (_, i) => skip(i)) }).summarized;
    expect(s.prefixes).toEqual(['pagination:getCalV1Events']);
    expect(s.kinds).toEqual([['skipped', 'documented', 'no credentials']]);
    expect(s.rows[7]).toEqual([0, 'v7', 0, 0]);
  });

  it('refuses short rows it cannot read, naming the report and what is wrong', () => {
    const text = renderJson(sampleRun());
    const data = JSON.parse(text) as { summarized: Record<string, unknown> };
    const earlier = { ...data, summarized: { ...data.summarized, prefixes: undefined, rows: [['route_presence:-:', 0, 0]] } };
    expect(() => parseRunJson(JSON.stringify(earlier), 'old.json')).toThrow(/old\.json: "summarized" lacks "prefixes".*earlier site-contracts/);
    const dangling = { ...data, summarized: { ...data.summarized, rows: [[99, 'x', 0, 1]] } };
    expect(() => parseRunJson(JSON.stringify(dangling), 'r.json')).toThrow(/r\.json: "summarized" rows\[0\] is not \[prefix, variant, kind, durationMs\]/);
  });

  it('keeps a passing run of 13,000 cases under 2 MB in JSON, HTML and JUnit (under 1 MB in JSON), where the whole record is many times that', () => {
    const base = sampleRun();
    const template = base.cases.find((c) => c.request && c.response)!;
    const cases: CaseResult[] = Array.from({ length: 13_000 }, (_, i) => ({
      ...template,
      id: `negative_rejection:getCalV1Events:query.per_page maximum ${i}`,
      check: 'negative_rejection',
      operationId: 'getCalV1Events',
      variant: `query.per_page maximum ${i}`,
      status: i % 8 === 0 ? 'skipped' : 'passed',
      message: i % 8 === 0 ? 'no credentials: an anonymous POST may be refused for permission before the record is looked up' : 'refused with 400 naming per_page',
    }));
    const run = { ...base, cases, summary: summarize(cases) };
    const mb = (s: string) => Buffer.byteLength(s) / 1024 / 1024;
    const sizes = { json: mb(renderJson(run)), html: mb(renderHtml(run)), junit: mb(renderJunit(run)), full: mb(renderJsonFull(run)) };
    console.log(`13,000 passing cases: json ${sizes.json.toFixed(2)} MB, html ${sizes.html.toFixed(2)} MB, junit ${sizes.junit.toFixed(2)} MB, json-full ${sizes.full.toFixed(2)} MB`);
    expect(sizes.json).toBeLessThan(1);
    expect(sizes.html).toBeLessThan(2);
    expect(sizes.junit).toBeLessThan(2);
    expect(sizes.full).toBeGreaterThan(4 * sizes.json);
  });
});
