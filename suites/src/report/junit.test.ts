import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASSED_VARIANTS_SHOWN, renderJunit, testcaseName } from './junit.ts';
import { CASE_STATUSES, SEVERITIES, type CaseResult } from './model.ts';
import { summarize } from './run.ts';
import { sampleRun } from './sample.ts';
import { xmlAttr, xmlText } from './xml.ts';

/** Characters XML 1.0 does not allow anywhere in a document, not even as references. */
const FORBIDDEN_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|&#x?0*(?:[0-8]|1[1-2]|1[4-9]|2\d|3[01]|[bcBC]|1[0-9a-fA-F]);/;

function attr(xml: string, element: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${element}\\b[^>]*?\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1] ?? '');
}

describe('xml escaping', () => {
  it('escapes markup and spells out characters XML cannot carry', () => {
    expect(xmlText('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
    expect(xmlText('bell\u0007 esc\u001b nul\u0000 ok\ttab\nline')).toBe('bell\\u0007 esc\\u001B nul\\u0000 ok\ttab\nline');
    expect(xmlText('\uFFFE lone\uD800 pair😀')).toBe('\\uFFFE lone\\uD800 pair😀');
    expect(xmlAttr(`"it's"\n\t`)).toBe('&quot;it&apos;s&quot;&#10;&#9;');
  });
});

describe('renderJunit', () => {
  const run = sampleRun();
  const xml = renderJunit(run);

  it('has one testsuite per namespace with counts that match the verdict', () => {
    expect(attr(xml, 'testsuite', 'name')).toEqual(['(global)', 'cal/v1', 'wp/v2']);
    expect(xml).toMatch(/<testsuites name="site-contracts" tests="6" failures="2" errors="1" skipped="1" time="60.500"/);
    expect(xml).toMatch(/<testsuite name="wp\/v2" tests="2" failures="2" errors="0" skipped="0"/);
    expect(xml).toMatch(/<testsuite name="cal\/v1" tests="3" failures="0" errors="0" skipped="1"/);
    expect(xml).toContain('<property name="seed" value="42"/>');
  });

  it('names testcases by check, method and route with the namespace as classname', () => {
    expect(xml).toContain('<testcase classname="wp/v2" name="not_a_server_error GET /wp/v2/posts" time="0.120">');
    expect(xml).toContain('name="negative_rejection POST /wp/v2/posts [title:type]"');
    expect(testcaseName({ ...run.cases[5]!, method: undefined, route: undefined })).toBe('index_lists_namespaces');
  });

  it('puts message and curl line into failures, warnings into system-out and skips into <skipped/>', () => {
    const failure = /<failure message="expected a status below 500, got 500" type="documented">([^<]*)<\/failure>/.exec(xml);
    expect(failure?.[1]).toContain('curl -sS -i -g');
    expect(failure?.[1]).toContain('HTTP 500');
    expect(xml).toContain('<failure message="sent title=42 (not a string), expected 400, got 201 &quot;created&quot; &amp; &apos;kept&apos;"');
    expect(xml).toMatch(/<system-out>WARNING \(assumed\): property "venue" missing/);
    expect(xml).toContain('<skipped message="--read-only"/>');
    expect(xml).toMatch(/<error message="connect ECONNRESET" type="documented">/);
  });

  it('stays well-formed with hostile response bodies', () => {
    expect(xml).not.toMatch(FORBIDDEN_IN_XML);
    expect(xml).not.toContain('<script>');
    expect(xml).toContain('&lt;/script&gt;&lt;script&gt;');
    expect(xml).toContain('\\u0001\\u001B[31m');
    // Every element that opens is closed, in order.
    const stack: string[] = [];
    for (const m of xml.matchAll(/<(\/?)([a-z-]+)[^>]*?(\/?)>/g)) {
      if (m[3]) continue;
      if (m[1]) expect(stack.pop()).toBe(m[2]);
      else stack.push(m[2] ?? '');
    }
    expect(stack).toEqual([]);
  });

  it('reports baseline-accepted failures without failing, and fixed ones as notes', () => {
    const cases = sampleRun().cases.map((c, i) =>
      i === 0 ? { ...c, baseline: 'accepted' as const, acceptedReason: 'ticket WP-12' } : i === 3 ? { ...c, baseline: 'fixed' as const } : c,
    );
    const out = renderJunit(sampleRun(cases));
    expect(out).toMatch(/<testsuites [^>]*failures="1" errors="1"/);
    expect(out).toContain('ACCEPTED by baseline (ticket WP-12), failed: expected a status below 500');
    expect(out).toContain('FIXED: accepted in the baseline and passing now');
  });
});

/** How many of an element the XML holds. */
function elements(xml: string, name: string): number {
  return (xml.match(new RegExp(`<${name}[\\s/>]`, 'g')) ?? []).length;
}

/** Each testsuite's text, with its attributes and properties. */
function suites(xml: string): { tests: number; failures: number; errors: number; skipped: number; props: Record<string, string>; body: string }[] {
  return [...xml.matchAll(/<testsuite (name="[^"]*" tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"[^>]*)>([\s\S]*?)<\/testsuite>/g)].map((m) => ({
    tests: Number(m[2]),
    failures: Number(m[3]),
    errors: Number(m[4]),
    skipped: Number(m[5]),
    props: Object.fromEntries([...m[6]!.matchAll(/<property name="([^"]*)" value="([^"]*)"\/>/g)].map((p) => [p[1]!, p[2]!])),
    body: m[6]!,
  }));
}

describe('renderJunit: passes summarised', () => {
  const pass = (op: string, i: number, status: CaseResult['status'] = 'passed'): CaseResult => ({
    id: `negative_rejection:${op}:query.per_page ${i}`,
    check: 'negative_rejection',
    namespace: 'cal/v1',
    operationId: op,
    method: 'GET',
    route: '/cal/v1/events',
    variant: `query.per_page ${i}`,
    status,
    severity: 'documented',
    message: status === 'passed' ? 'refused with 400' : 'sent 101, got 200',
    durationMs: 2,
  });

  it('writes the plain passes of one check on one operation as one testcase saying how many, and every other case as its own', () => {
    const cases = [...Array.from({ length: 40 }, (_, i) => pass('getCalV1Events', i)), pass('getCalV1Events', 40, 'failed'), pass('getCalV1Events', 41, 'skipped')];
    const xml = renderJunit(sampleRun(cases));
    expect(elements(xml, 'testcase')).toBe(3);
    expect(xml).toContain('<testcase classname="cal/v1" name="negative_rejection GET /cal/v1/events (40 cases passed)" time="0.080">');
    expect(xml).toContain('<failure message="sent 101, got 200"');
    expect(xml).toMatch(/<testsuites [^>]*tests="3" failures="1" errors="0" skipped="1"/);
    const [suite] = suites(xml);
    expect(suite!.props).toMatchObject({ cases: '42', passed: '40', inconclusive: '0' });
    // A long list of variants is left to the JSON report; a short one is given.
    expect(/<system-out>([^<]*)<\/system-out>/.exec(xml)![1]).toBe('case ids negative_rejection:getCalV1Events:&lt;variant&gt;: 40 variants, listed in the JSON report');
    const few = renderJunit(sampleRun([pass('getCalV1Events', 0), pass('getCalV1Events', 1)]));
    expect(/<system-out>([^<]*)<\/system-out>/.exec(few)![1]).toBe('case ids negative_rejection:getCalV1Events:&lt;variant&gt;, variants:\nquery.per_page 0\nquery.per_page 1');
    expect(PASSED_VARIANTS_SHOWN).toBeLessThan(40 * 'query.per_page 10'.length);
  });

  it('counts the passes of one check in two namespaces as a testcase in each', () => {
    const global = (namespace: string, v: string): CaseResult => ({ id: `descriptor_routes:-:${v}`, check: 'descriptor_routes', namespace, variant: v, status: 'passed', severity: 'documented', durationMs: 1 });
    const xml = renderJunit(sampleRun([global('cal/v1', 'a'), global('forms/v1', 'b')]));
    expect(elements(xml, 'testcase')).toBe(2);
    expect(xml).toMatch(/<testsuites [^>]*tests="2" failures="0" errors="0" skipped="0"/);
  });

  it('keeps a fixed pass (the baseline can drop it) its own testcase', () => {
    const cases = [pass('getCalV1Events', 0), { ...pass('getCalV1Events', 1), baseline: 'fixed' as const }];
    const xml = renderJunit(sampleRun(cases));
    expect(elements(xml, 'testcase')).toBe(2);
    expect(xml).toContain('(1 case passed)');
    expect(xml).toContain('FIXED: accepted in the baseline');
  });

  it('adds up for any cases: tests, failures, errors and skipped count the elements, the cases properties the cases', () => {
    const caseArb = fc.record({
      op: fc.constantFrom('a', 'b', 'c'),
      namespace: fc.constantFrom('cal/v1', 'forms/v1'),
      status: fc.constantFrom(...CASE_STATUSES, 'passed', 'passed'),
      severity: fc.constantFrom(...SEVERITIES),
      baseline: fc.option(fc.constantFrom('accepted' as const, 'fixed' as const, 'new' as const), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(caseArb, { maxLength: 60 }), fc.boolean(), (drawn, interrupted) => {
        const cases: CaseResult[] = drawn.map((d, i) => ({
          id: `check_${i % 3}:${d.op}:v${i}`,
          check: `check_${i % 3}`,
          namespace: d.namespace,
          operationId: d.op,
          variant: `v${i}`,
          status: d.status,
          severity: d.severity,
          durationMs: 1,
          ...(d.baseline ? { baseline: d.baseline } : {}),
        }));
        const run = { ...sampleRun(cases), ...(interrupted ? { interrupted: { signal: 'SIGINT' as const } } : {}) };
        const xml = renderJunit(run);
        const top = /<testsuites [^>]*tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/.exec(xml)!.slice(1).map(Number);
        expect(top).toEqual([elements(xml, 'testcase'), elements(xml, 'failure'), elements(xml, 'error'), elements(xml, 'skipped')]);
        const all = suites(xml);
        for (const t of all) expect([t.tests, t.failures, t.errors, t.skipped]).toEqual([elements(t.body, 'testcase'), elements(t.body, 'failure'), elements(t.body, 'error'), elements(t.body, 'skipped')]);
        const counted = all.filter((t) => t.props['cases'] !== undefined);
        expect(counted.reduce((a, t) => a + Number(t.props['cases']), 0)).toBe(cases.length);
        expect(counted.reduce((a, t) => a + Number(t.props['passed']), 0)).toBe(summarize(cases).passed);
        // What fails the run is one element per case.
        expect(top[1]! + top[2]!).toBe(summarize(cases).failing + (interrupted ? 1 : 0));
      }),
      { numRuns: 500 },
    );
  });
});
