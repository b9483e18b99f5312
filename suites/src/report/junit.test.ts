import { describe, expect, it } from 'vitest';
import { renderJunit, testcaseName } from './junit.ts';
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
