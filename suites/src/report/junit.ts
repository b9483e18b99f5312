// JUnit XML for CI dashboards: one testsuite per REST namespace. Only what fails the run becomes
// <failure>/<error>, so a dashboard's red matches the exit code; warnings and baseline-accepted failures are
// kept as system-out where people can still read them. JUnit has no "inconclusive": such a case is a <skipped>
// whose message starts with INCONCLUSIVE (never a pass), and each testsuite counts them apart in an
// `inconclusive` property.
// Every case that is not a plain pass is its own testcase (failed, errored, warned, inconclusive, skipped with
// its reason, a pass the baseline marks fixed). Plain passes are one testcase per check and operation, named
// "... (N cases passed)", with their variants in system-out when the list is short: one per case made a passing run of
// 19,207 cases 2.96 MB of XML. The counts follow the elements, as JUnit readers count them: tests= is the number
// of <testcase> elements, failures=, errors= and skipped= the number of <failure>, <error> and <skipped> (each
// one case), so they add up for any reader; each testsuite's `cases` and `passed` properties give the counts
// of cases, which the summary and the JSON report give too.

import { caseId, type CaseResult, type RunResult } from './model.ts';
import { failsRun, notRunLines, stoppedHow } from './run.ts';
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
  // Passes are grouped within a testsuite, so the run's counts are the sum of its testsuites'. A replay of a
  // recording (test --calls) has one case per call, a few dozen: each is its own testcase, named by its line.
  const oneEach = typeof run.options['calls'] === 'string';
  const suites = [...byNamespace].sort(([a], [b]) => a.localeCompare(b)).map(([namespace, cases]) => {
    const groups = passedGroups(cases, oneEach);
    const c = counts(cases.filter((k) => !passedPlainly(k)));
    c.tests += groups.length;
    return { namespace, cases, groups, c };
  });
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  for (const { c } of suites) for (const k of ['tests', 'failures', 'errors', 'skipped'] as const) totals[k] += c[k];
  // An interrupted or incomplete run is one error more: a dashboard must not show the part that ran as a green run.
  const cut = run.interrupted !== undefined || run.incomplete !== undefined;
  if (cut) totals.errors++;
  if (cut) totals.tests++;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="${xmlAttr(run.tool.name)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(run.durationMs)}" timestamp="${xmlAttr(run.startedAt)}">`,
  );
  for (const { namespace, cases, groups, c } of suites) {
    const time = cases.reduce((sum, k) => sum + k.durationMs, 0);
    out.push(
      `  <testsuite name="${xmlAttr(namespace)}" tests="${c.tests}" failures="${c.failures}" errors="${c.errors}" skipped="${c.skipped}" time="${seconds(time)}" timestamp="${xmlAttr(run.startedAt)}">`,
    );
    out.push('    <properties>');
    const own: [string, string][] = [
      ['cases', String(cases.length)],
      ['passed', String(cases.filter((k) => k.status === 'passed').length)],
      ['inconclusive', String(c.inconclusive)],
    ];
    for (const [name, value] of [...properties(run), ...own]) {
      out.push(`      <property name="${xmlAttr(name)}" value="${xmlAttr(value)}"/>`);
    }
    out.push('    </properties>');
    // Run order, each group of passes where its first pass stood.
    const first = new Map(groups.map((g) => [g.cases[0], g]));
    for (const k of cases) {
      if (!passedPlainly(k)) out.push(...testcase(k));
      else if (first.has(k)) out.push(...passedTestcase(first.get(k)!));
    }
    out.push('  </testsuite>');
  }
  if (cut) out.push(...cutShortSuite(run));
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

/** A pass that needs no line of its own: no baseline mark to tell. */
function passedPlainly(c: CaseResult): boolean {
  return c.status === 'passed' && c.baseline === undefined;
}

interface PassedGroup {
  /** check:operationId */
  key: string;
  cases: CaseResult[];
}

/** The plain passes of one testsuite, grouped by check and operation, in the order each group first passed. */
function passedGroups(cases: readonly CaseResult[], oneEach = false): PassedGroup[] {
  const groups = new Map<string, PassedGroup>();
  for (const c of cases) {
    if (!passedPlainly(c)) continue;
    const key = oneEach ? c.id : caseId(c.check, c.operationId);
    const g = groups.get(key) ?? { key, cases: [] };
    g.cases.push(c);
    groups.set(key, g);
  }
  return [...groups.values()];
}

/** The longest list of a group's variants its testcase carries; a longer one is left to the JSON report. */
export const PASSED_VARIANTS_SHOWN = 200;

function passedTestcase(g: PassedGroup): string[] {
  const [first] = g.cases as [CaseResult];
  const same = g.cases.every((c) => c.method === first.method && c.route === first.route);
  const name = same ? testcaseName(g.key === first.id ? first : { ...first, variant: undefined }) : first.check;
  const n = g.cases.length;
  const time = g.cases.reduce((sum, c) => sum + c.durationMs, 0);
  const open = `    <testcase classname="${xmlAttr(first.namespace)}" name="${xmlAttr(`${name} (${n} ${n === 1 ? 'case' : 'cases'} passed)`)}" time="${seconds(time)}"`;
  const variants = g.cases.map((c) => c.variant ?? '').filter((v) => v !== '');
  if (variants.length === 0) return [`${open}/>`];
  const listed = variants.join('\n');
  const text = listed.length <= PASSED_VARIANTS_SHOWN ? `case ids ${g.key}<variant>, variants:\n${listed}` : `case ids ${g.key}<variant>: ${variants.length} variants, listed in the JSON report`;
  return [`${open}>`, `      <system-out>${xmlText(text)}</system-out>`, '    </testcase>'];
}

/** One errored testcase for a run that ended before its plan was done, naming the checks that did not (wholly) run. */
function cutShortSuite(run: RunResult): string[] {
  const notRun = run.incomplete ? notRunLines(run.incomplete) : [];
  const what = notRun.length ? `; not run or cut short: ${notRun.join(', ')}` : '';
  const [name, type, message] = run.interrupted
    ? ['run interrupted', 'interrupted', `INTERRUPTED: the run was stopped by ${run.interrupted.signal} before it was done; its cases are only part of the run${what}`]
    : ['run incomplete', 'incomplete', `INCOMPLETE: the run ended before its plan was done (${stoppedHow(run.incomplete!)}); its cases are only part of the run${what}`];
  return [
    `  <testsuite name="(run)" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="${xmlAttr(run.startedAt)}">`,
    `    <testcase classname="(run)" name="${name}" time="0.000">`,
    `      <error message="${xmlAttr(message)}" type="${type}">${xmlText(message)}</error>`,
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
