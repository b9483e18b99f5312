import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyBudget, buildCase, type CaseInput } from './case.ts';
import { renderHtml } from './html.ts';
import { renderJson, renderJsonFull } from './json.ts';
import { renderJunit } from './junit.ts';
import { HAR_LIMITS, limitRun, limitsFor, REPORT_LIMITS, type ReportLimits } from './limits.ts';
import { ARCHIVED_BODIES_BYTES, DEFAULT_POLICY, type CaseResult } from './model.ts';
import { sampleRun } from './sample.ts';

const SMALL: ReportLimits = { ...REPORT_LIMITS, responseBodies: 2, requestBodyBytes: 20, messageBytes: 30, headerValueBytes: 10, headersPerResponse: 3 };

function kase(i: number, status: CaseResult['status'], extra: Partial<CaseResult> = {}): CaseResult {
  return {
    id: `c:${i}`,
    check: 'c',
    namespace: 'cal/v1',
    status,
    severity: 'documented',
    durationMs: 0,
    response: { status: 400, headers: { 'content-type': 'application/json' }, body: `body ${i}` },
    ...extra,
  };
}

describe('limitRun', () => {
  it('leaves a run within the limits untouched', () => {
    const run = sampleRun();
    expect(limitRun(run)).toBe(run);
    expect(REPORT_LIMITS.responseBodies).toBe(1000);
  });

  it('keeps response bodies for failing cases first and says how many it left out', () => {
    const run = sampleRun([kase(0, 'warned'), kase(1, 'failed'), kase(2, 'warned'), kase(3, 'errored')]);
    const out = limitRun(run, SMALL);
    const bodies = out.cases.map((c) => c.response?.body);
    expect(bodies).toEqual([undefined, 'body 1', undefined, 'body 3']);
    expect(out.cases[0]!.response).toMatchObject({ status: 400, bodyTruncated: true, bodyBytes: 6 });
    expect(out.options['reportLimits']).toMatchObject({ responseBodiesLeftOut: 2, responseBodies: 2 });
    expect(run.cases[0]!.response?.body).toBe('body 0');
  });

  it('cuts long messages, request bodies (saying the curl line cannot replay them) and header values', () => {
    const headers: Record<string, string> = { a: '1', b: 'x'.repeat(50), c: '3', d: '4', e: '5' };
    const run = sampleRun([
      kase(0, 'failed', {
        message: 'm'.repeat(100),
        request: { method: 'POST', url: 'http://h/wp-json/x', headers: {}, body: 'b'.repeat(100) },
        curl: "curl -X POST http://h/wp-json/x --data-raw 'bbbb'",
        response: { status: 400, headers, body: '{}' },
      }),
    ]);
    const c = limitRun(run, SMALL).cases[0]!;
    expect(c.message).toBe(`${'m'.repeat(30)} [cut by site-contracts: 100 bytes in all]`);
    expect(c.request?.body).toBe(`${'b'.repeat(20)} [cut by site-contracts: 100 bytes in all]`);
    expect(c.curl).toBe('# the request body (100 bytes) is too large to replay from a report');
    expect(c.response?.headers).toEqual({ a: '1', b: `${'x'.repeat(10)} [cut by site-contracts: 50 bytes in all]`, c: '3', 'x-site-contracts-left-out': '2 more headers' });
    expect(c.response?.body).toBe('{}');
  });
});

describe('a run that writes a HAR', () => {
  const body = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', minLength: 1000, maxLength: 3000 }),
    fc.nat({ max: 80_000 }).map((n) => 'é'.repeat(Math.floor(n / 2)) + 'x'.repeat(n % 2)),
  );
  const input = fc.record({
    outcome: fc.constantFrom('pass', 'fail', 'skip', 'error', 'inconclusive') as fc.Arbitrary<CaseInput['outcome']>,
    severity: fc.constantFrom('documented', 'assumed') as fc.Arbitrary<CaseInput['severity']>,
    body: fc.option(body, { nil: undefined }),
    // A body a check held cut to its beginning (runner/bodies.ts heldForm()) comes with its whole size.
    held: fc.boolean(),
  });

  it('gives reports equal to those of the same run without one, byte for byte, whatever the budget', () => {
    fc.assert(
      fc.property(fc.array(input, { maxLength: 12 }), fc.nat({ max: 300_000 }), (inputs, budget) => {
        const caseInputs: CaseInput[] = inputs.map((x, i) => ({
          check: 'c',
          namespace: 'cal/v1',
          variant: String(i),
          severity: x.severity,
          outcome: x.outcome,
          durationMs: i,
          request: { method: 'GET', url: `http://h/wp-json/cal/v1/events/${i}`, headers: {} },
          response: { status: 200, headers: { 'content-type': 'application/json' }, ...(x.body !== undefined ? { body: x.body, ...(x.held ? { bodyBytes: Buffer.byteLength(x.body) + 7 } : {}) } : {}) },
        }));
        const plain = sampleRun(caseInputs.map((c) => buildCase(c, { policy: DEFAULT_POLICY })));
        const archive = bodyBudget(budget);
        const archived = sampleRun(caseInputs.map((c) => buildCase(c, { policy: DEFAULT_POLICY, archive })));
        for (const render of [renderJson, renderJsonFull, renderHtml, renderJunit]) {
          expect(render(limitRun(archived, REPORT_LIMITS))).toBe(render(limitRun(plain, REPORT_LIMITS)));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('keeps every body it held in the HAR, and cuts none held within 64 KiB', () => {
    const inputs = ['pass', 'fail', 'skip'].map((outcome, i): CaseInput => ({
      check: 'c',
      namespace: 'cal/v1',
      variant: String(i),
      severity: 'documented',
      outcome: outcome as CaseInput['outcome'],
      durationMs: 1,
      request: { method: 'GET', url: 'http://h/x', headers: {} },
      response: { status: 200, headers: {}, body: `{"n":${i},"pad":"${'p'.repeat(5000)}"}` },
    }));
    const run = sampleRun(inputs.map((c) => buildCase(c, { policy: DEFAULT_POLICY, archive: bodyBudget(ARCHIVED_BODIES_BYTES) })));
    expect(limitRun(run, HAR_LIMITS)).toBe(run);
    expect(limitRun(run, limitsFor('har')).cases.map((c) => c.response?.body?.length)).toEqual([5016, 5016, 5016]);
    // The reports keep the failing one's first 4 KiB only.
    expect(limitRun(run, limitsFor('json')).cases.map((c) => c.response?.body?.length)).toEqual([undefined, 4096, undefined]);
  });
});
