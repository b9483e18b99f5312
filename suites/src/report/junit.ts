// JUnit XML for CI dashboards: one testsuite per REST namespace, one testcase per case. Only what
// fails the run becomes <failure>/<error>, so a dashboard's red matches the exit code; warnings and
// baseline-accepted failures are kept as system-out where people can still read them. JUnit has no
// "inconclusive": such a case is a <skipped> whose message starts with INCONCLUSIVE (never a pass), and
// each testsuite counts them apart in an `inconclusive` property.

import type { CaseResult, RunResult } from './model.ts';
import { failsRun } from './run.ts';
import { xmlAttr, xmlText } from './xml.ts';

export function testcaseName(c: CaseResult): string {
  const base = [c.check, c.method, c.route].filter((p) => p !== undefined && p !== '').join(' ');
  // Variants of one check on one route would otherwise share a name, and some consumers merge those.
  return c.variant ? `${base} [${c.variant}]` : base;
}

export function renderJunit(run: RunResult): string {
  const byNamespace = new Map<string, CaseResult[]>();
  for (const c of run.cases) {
    const list = byNamespace.get(c.namespace) ?? [];
    list.push(c);
    byNamespace.set(c.namespace, list);
  }
  const totals = counts(run.cases);
  // An interrupted run is one error more: a dashboard must not show the part that ran as a green run.
  if (run.interrupted) totals.errors++;
  if (run.interrupted) totals.tests++;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="${xmlAttr(run.tool.name)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(run.durationMs)}" timestamp="${xmlAttr(run.startedAt)}">`,
  );
  for (const [namespace, cases] of [...byNamespace].sort(([a], [b]) => a.localeCompare(b))) {
    const c = counts(cases);
    const time = cases.reduce((sum, k) => sum + k.durationMs, 0);
    out.push(
      `  <testsuite name="${xmlAttr(namespace)}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(time)}" timestamp="${xmlAttr(run.startedAt)}">`,
    );
    out.push('    <properties>');
    for (const [name, value] of [...properties(run), ['inconclusive', String(c.inconclusive)] as [string, string]]) {
      out.push(`      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`);
    }
    out.push('    </properties>');
    for (const k of cases) out.push(...testcase(k));
    out.push('  </testsuite>');
  }
  if (run.interrupted) out.push(...interruptedSuite(run));
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}

function testcase(c: CaseResult): string[] {
  const open = `    <testcase classname="${xmlAttr(c.namespace)}" name="${xmlAttr(testcaseName(c))}" time="${seconds(c.durationMs)}"`;
  const body: string[] = [];
  const message = c.message ?? c.status;
  if (failsRun(c)) {
    const tag = c.status === 'errored' ? 'error' : 'failure';
    body.push(`      <${tag} message="${xmlAttr(message)}" type="${xmlAttr(c.severity)}">${xmlText(details(c))}</${tag}>`);
  } else if (c.status === 'skipped') {
    body.push(c.message ? `      <skipped message="${xmlAttr(c.message)}"/>` : '      <skipped/>');
  } else if (c.status === 'inconclusive') {
    body.push(`      <skipped message="${xmlAttr(`INCONCLUSIVE: ${c.message ?? 'the target never let this check decide'}`)}">${xmlText(details(c))}</skipped>`);
  } else if (c.status === 'warned') {
    body.push(`      <system-out>${xmlText(`WARNING (${c.severity}): ${details(c)}`)}</system-out>`);
  } else if (c.baseline === 'accepted') {
    const why = c.acceptedReason ? ` (${c.acceptedReason})` : '';
    body.push(`      <system-out>${xmlText(`ACCEPTED by baseline${why}, ${c.status}: ${details(c)}`)}</system-out>`);
  } else if (c.baseline === 'fixed') {
    body.push(`      <system-out>${xmlText('FIXED: accepted in the baseline and passing now; the entry can be removed.')}</system-out>`);
  }
  if (body.length === 0) return [`${open}/>`];
  return [`${open}>`, ...body, '    </testcase>'];
}

function interruptedSuite(run: RunResult): string[] {
  const message = `INTERRUPTED: the run was stopped by ${run.interrupted!.signal} before it was done; its cases are only part of the run`;
  return [
    `  <testsuite name="(run)" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="${xmlAttr(run.startedAt)}">`,
    `    <testcase classname="(run)" name="run interrupted" time="0.000">`,
    `      <error message="${xmlAttr(message)}" type="interrupted">${xmlText(message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
  ];
}

function details(c: CaseResult): string {
  const parts = [c.message ?? c.status, `case: ${c.id}`, `severity: ${c.severity}`];
  if (c.curl) parts.push(`reproduce:\n${c.curl}`);
  if (c.response) {
    const r = c.response;
    let text = `response: HTTP ${r.status}`;
    if (r.body !== undefined) text += `\n${r.body}${r.bodyTruncated ? `\n[truncated, ${r.bodyBytes ?? '?'} bytes in all]` : ''}`;
    else if (r.bodyTruncated) text += `\n[body left out of the report, ${r.bodyBytes ?? '?'} bytes]`;
    parts.push(text);
  }
  return parts.join('\n\n');
}

function counts(cases: readonly CaseResult[]): { tests: number; failures: number; errors: number; skipped: number; inconclusive: number } {
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  let inconclusive = 0;
  for (const c of cases) {
    if (failsRun(c)) {
      if (c.status === 'errored') errors++;
      else failures++;
    } else if (c.status === 'skipped') skipped++;
    else if (c.status === 'inconclusive') {
      inconclusive++;
      skipped++;
    }
  }
  return { tests: cases.length, failures, errors, skipped, inconclusive };
}

function properties(run: RunResult): [string, string][] {
  const props: [string, string][] = [
    ['tool', `${run.tool.name} ${run.tool.version}`],
    ['baseUrl', run.target.baseUrl],
    ['apiRoot', run.target.apiRoot],
    ['seed', String(run.seed)],
  ];
  if (run.shard) props.push(['shard', `${run.shard.index}/${run.shard.total}`]);
  if (run.baseline) props.push(['baseline', run.baseline.source]);
  props.push(['verdict', run.summary.verdict.toUpperCase()]);
  return props;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
