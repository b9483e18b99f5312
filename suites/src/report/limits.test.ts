import { describe, expect, it } from 'vitest';
import { limitRun, REPORT_LIMITS, type ReportLimits } from './limits.ts';
import type { CaseResult } from './model.ts';
import { sampleRun } from './sample.ts';

const SMALL: ReportLimits = { responseBodies: 2, requestBodyBytes: 20, messageBytes: 30, headerValueBytes: 10, headersPerResponse: 3 };

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
