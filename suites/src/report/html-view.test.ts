// What the HTML report shows, decided before any browser: one tile per meaning adding up to the run,
// the verdict with its reason, failures first in the grid and the list, and a diff's own summary.

import { describe, expect, it } from 'vitest';
import type { DiffResult } from '../diff/diff.ts';
import { diffCases, differenceOf } from '../diff/table.ts';
import { applyBaseline } from './baseline.ts';
import { renderHtml } from './html.ts';
import { FAILING_LISTED, htmlView, OUTCOMES, outcomeOf, type HtmlView } from './html-view.ts';
import { DEFAULT_POLICY, type CaseResult, type CaseStatus, type RunResult, type Severity } from './model.ts';
import { buildRun, summarize } from './run.ts';

function mk(check: string, operationId: string, status: CaseStatus, severity: Severity = 'documented', variant = ''): CaseResult {
  const [method, ns, ...rest] = operationId.split(' ');
  const route = `/${ns}${rest.length ? `/${rest.join('/')}` : ''}`;
  return {
    id: `${check}:${operationId}:${variant}`,
    check,
    namespace: ns!,
    operationId,
    method,
    route,
    ...(variant ? { variant } : {}),
    status,
    severity,
    message: `${check} ${status} on ${operationId}`,
    durationMs: 1,
  };
}

function runOf(cases: CaseResult[], extra: Partial<RunResult> = {}): RunResult {
  return {
    ...buildRun({
      tool: { name: 'site-contracts', version: '1.2.3' },
      target: { baseUrl: 'https://staging.example.org', apiRoot: '/wp-json' },
      startedAt: new Date('2026-03-04T05:06:07.890Z'),
      finishedAt: new Date('2026-03-04T05:07:07.890Z'),
      seed: 99,
      options: { command: 'test', policy: DEFAULT_POLICY, requestsSent: 1234 },
      cases,
    }),
    ...extra,
  };
}

/** A run with failures in several checks and namespaces, passes everywhere, and one of each other status. */
function mixedCases(): CaseResult[] {
  const cases: CaseResult[] = [];
  for (const op of ['GET cal/v1 events', 'POST cal/v1 events', 'GET cal/v1 venues', 'GET seo/v1 settings', 'GET forms/v1 forms', 'GET batch/v1']) {
    for (const check of ['error_envelope', 'negative_rejection', 'pagination', 'route_presence', 'cors']) cases.push(mk(check, op, 'passed', 'documented', 'ok'));
  }
  cases.push(
    mk('pagination', 'GET cal/v1 venues', 'failed', 'convention', 'link'),
    mk('negative_rejection', 'GET cal/v1 events', 'failed', 'documented', 'per_page'),
    mk('negative_rejection', 'GET cal/v1 events', 'failed', 'documented', 'page'),
    mk('negative_rejection', 'GET forms/v1 forms', 'failed', 'documented', 'id'),
    mk('not_a_server_error', 'GET seo/v1 settings', 'errored', 'documented', 'x'),
    mk('response_shape', 'GET cal/v1 events', 'warned', 'assumed', 'shape'),
    mk('positive_acceptance', 'GET forms/v1 forms', 'inconclusive', 'documented', 'q'),
    mk('cors', 'POST cal/v1 events', 'skipped', 'convention', 'ro'),
  );
  return cases;
}

const sum = (view: HtmlView, field: 'outcome' | 'difference'): number => view.tiles.filter((t) => t.field === field && t.key !== '').reduce((a, t) => a + t.count, 0);

describe('tiles: one per meaning', () => {
  it('partition the cases, so they add up to the total and no two count the same case', () => {
    const run = runOf(mixedCases());
    const view = htmlView(run);
    expect(view.tiles.map((t) => t.key)).toEqual(['failed', 'errored', 'warned', 'inconclusive', 'passed', 'skipped']);
    expect(sum(view, 'outcome')).toBe(run.summary.total);
    const count = (k: string): number => view.tiles.find((t) => t.key === k)!.count;
    expect(count('failed') + count('errored')).toBe(run.summary.failing);
    expect([count('failed'), count('errored'), count('warned'), count('inconclusive'), count('skipped')]).toEqual([4, 1, 1, 1, 1]);
    // Each tile counts exactly the cases its filter shows.
    for (const t of view.tiles) expect(view.outcomes.filter((o) => o === t.key)).toHaveLength(t.count);
    expect(new Set(view.tiles.map((t) => t.label)).size).toBe(view.tiles.length);
  });

  it('count a failure the baseline accepts under "accepted by the baseline", not under failed', () => {
    const cases = mixedCases();
    const accepted = cases.find((c) => c.check === 'pagination' && c.status === 'failed')!.id;
    const { cases: judged, report } = applyBaseline(cases, { source: 'baseline.yaml', accepted: [{ id: accepted, reason: 'known' }] });
    const run = runOf(judged, { baseline: report, summary: summarize(judged) });
    const view = htmlView(run);
    const tile = (k: string) => view.tiles.find((t) => t.key === k)!;
    expect(view.tiles.map((t) => t.key)).toEqual(['failed', 'errored', 'accepted', 'warned', 'inconclusive', 'passed', 'skipped']);
    expect([tile('failed').count, tile('accepted').count]).toEqual([3, 1]);
    expect(tile('accepted').label).toBe('accepted by the baseline');
    expect(tile('accepted').description).toContain('baseline.yaml');
    expect(sum(view, 'outcome')).toBe(run.summary.total);
    expect(outcomeOf(judged.find((c) => c.id === accepted)!)).toBe('accepted');
  });

  it('say exactly what they count, with the run\'s own policy', () => {
    const view = htmlView(runOf(mixedCases()));
    const d = Object.fromEntries(view.tiles.map((t) => [t.key, t.description]));
    expect(d['failed']).toMatch(/^Cases where the target did what the contract rules out, at a severity that fails the run \(documented, convention\)/);
    expect(d['warned']).toContain('(assumed)');
    expect(d['errored']).toMatch(/could not reach a verdict/);
    expect(d['inconclusive']).toMatch(/never let it decide/);
    expect(d['skipped']).toMatch(/not run/);
    const lenient = htmlView(runOf(mixedCases(), { options: { command: 'test', policy: { conventions: 'warn', responseShapes: 'error' } } }));
    expect(lenient.tiles.find((t) => t.key === 'failed')!.description).toContain('(documented, assumed)');
    expect(lenient.tiles.find((t) => t.key === 'warned')!.description).toContain('(convention)');
  });
});

describe('verdict and why', () => {
  it('FAILED says how many cases fail the run, in how many checks and operations', () => {
    const view = htmlView(runOf(mixedCases()));
    expect(view.verdict).toBe('failed');
    expect(view.why).toBe('5 cases fail the run (4 failed, 1 errored) in 3 checks on 4 operations, out of 38 cases; 1 warned, 1 inconclusive.');
    expect(view.title).toBe('FAILED: https://staging.example.org (site-contracts test, 2026-03-04 05:06:07 UTC)');
    expect(view.heading).toBe('site-contracts test');
    expect(view.meta).toEqual([
      'https://staging.example.org/wp-json',
      'started 2026-03-04 05:06:07 UTC',
      'took 60.0 s',
      'seed 99 (replay one case: --seed 99 --only <case id>)',
      '1,234 requests sent',
      'site-contracts 1.2.3',
    ]);
  });

  it('PASSED says nothing failed, and what did not pass cleanly', () => {
    const view = htmlView(runOf(mixedCases().filter((c) => c.status !== 'failed' && c.status !== 'errored')));
    expect(view.verdict).toBe('passed');
    expect(view.why).toBe('No case of 33 failed or errored; 1 warned, 1 inconclusive.');
    expect(view.failing).toEqual({ groups: [], total: 0, cases: 0 });
  });

  it('PASSED with no case says so', () => {
    expect(htmlView(runOf([])).why).toBe('No case ran: check --only, --skip and --shard.');
  });

  it('INTERRUPTED says why it cannot pass, even when every case that ran passed', () => {
    const cases = mixedCases().filter((c) => c.status === 'passed');
    const view = htmlView(runOf(cases, { interrupted: { signal: 'SIGINT' }, summary: summarize(cases, { interrupted: { signal: 'SIGINT' } }) }));
    expect(view.verdict).toBe('interrupted');
    expect(view.why).toBe('Stopped by Ctrl-C (SIGINT) after 30 cases: only part of the run happened, so it cannot pass.');
    expect(view.title).toMatch(/^INTERRUPTED: /);
  });
});

describe('failures first', () => {
  const run = runOf(mixedCases());
  const view = htmlView(run);

  it('orders the grid\'s columns by failing cases, most first, then warnings', () => {
    expect(view.grid.columns.map((c) => [c.key, c.failing])).toEqual([
      ['negative_rejection', 3],
      ['not_a_server_error', 1],
      ['pagination', 1],
      ['response_shape', 0],
      ['positive_acceptance', 0],
      ['cors', 0],
      ['error_envelope', 0],
      ['route_presence', 0],
    ]);
  });

  it('orders namespaces and their operations by failing cases too', () => {
    expect(view.grid.rows.map((r) => [r.namespace, r.failing])).toEqual([
      ['cal/v1', 3],
      ['forms/v1', 1],
      ['seo/v1', 1],
      ['batch/v1', 0],
    ]);
    expect(view.grid.rows[0]!.operations.map((o) => [o.operationId, o.failing])).toEqual([
      ['GET cal/v1 events', 2],
      ['GET cal/v1 venues', 1],
      ['POST cal/v1 events', 0],
    ]);
    const cell = view.grid.rows[0]!.cells['negative_rejection']!;
    expect(cell).toEqual({ counts: { passed: 3, failed: 2 }, total: 5, worst: 'failed' });
  });

  it('lists the failing checks, documented before convention, with how many operations and the case to open', () => {
    expect(view.failing.total).toBe(3);
    expect(view.failing.cases).toBe(5);
    expect(view.failing.groups.map((g) => [g.outcome, g.key, g.severity, g.count, g.operations, g.operationId])).toEqual([
      ['failed', 'negative_rejection', 'documented', 3, 2, 'GET cal/v1 events'],
      ['failed', 'pagination', 'convention', 1, 1, 'GET cal/v1 venues'],
      ['errored', 'not_a_server_error', 'documented', 1, 1, 'GET seo/v1 settings'],
    ]);
    const first = run.cases[view.failing.groups[0]!.first]!;
    expect(first.check).toBe('negative_rejection');
    expect(view.order[0]).toBe(view.failing.groups[0]!.first);
  });

  it('lists at most FAILING_LISTED of them, and counts the rest', () => {
    const many = Array.from({ length: 20 }, (_, i) => mk(`check_${i}`, `GET cal/v1 r${i}`, 'failed'));
    const v = htmlView(runOf(many));
    expect(v.failing.groups).toHaveLength(FAILING_LISTED);
    expect(v.failing.total).toBe(20);
  });

  it('puts what fails the run first in the case list, accepted failures after them', () => {
    const cases = mixedCases();
    const { cases: judged, report } = applyBaseline(cases, { source: 'b', accepted: [{ id: cases.find((c) => c.check === 'pagination' && c.status === 'failed')!.id }] });
    const v = htmlView(runOf(judged, { baseline: report, summary: summarize(judged) }));
    const outcomes = v.order.map((i) => v.outcomes[i]!);
    expect(outcomes.slice(0, 6)).toEqual(['failed', 'failed', 'failed', 'errored', 'accepted', 'warned']);
    expect(outcomes.map((o) => OUTCOMES.indexOf(o))).toEqual([...outcomes.map((o) => OUTCOMES.indexOf(o))].sort((a, b) => a - b));
  });
});

describe('the diff report', () => {
  // Two operations the same, one on a missing route, one without its method, one with two argument
  // differences, and an extra route.
  const d: DiffResult = {
    operations: [
      { operationId: 'getCalV1Events', method: 'GET', route: '/cal/v1/events', namespace: 'cal/v1', kind: 'args', args: [
        { name: 'per_page', kind: 'different', keywords: [{ keyword: 'maximum', contract: 100, target: 50 }] },
        { name: 'order', kind: 'missing', keywords: [], contract: { type: 'string' } },
      ] },
      { operationId: 'postCalV1Events', method: 'POST', route: '/cal/v1/events', namespace: 'cal/v1', kind: 'method-missing', args: [] },
      { operationId: 'getCalV1Venues', method: 'GET', route: '/cal/v1/venues', namespace: 'cal/v1', kind: 'same', args: [] },
      { operationId: 'getFormsV1Forms', method: 'GET', route: '/forms/v1/forms', namespace: 'forms/v1', kind: 'route-missing', args: [] },
      { operationId: 'getSeoV1', method: 'GET', route: '/seo/v1', namespace: 'seo/v1', kind: 'same', args: [] },
    ],
    extras: [{ route: '/cal/v1/extra', pattern: '/cal/v1/extra', namespace: 'cal/v1', methods: ['GET'], kind: 'route-extra' }],
    otherNamespaces: ['wp/v2'],
    summary: { operations: 5, same: 2, routeMissing: 1, methodMissing: 1, withArgDiffs: 1, argDiffs: 2, extras: 1, identical: false },
  };
  const cases = diffCases(d, DEFAULT_POLICY);
  const run = runOf(cases, { seed: 0, options: { command: 'diff', summary: d.summary, otherNamespaces: d.otherNamespaces } });
  const view = htmlView(run);

  it('reads every case back as the count of the summary it belongs to', () => {
    const kinds = cases.map(differenceOf);
    const count = (k: string): number => kinds.filter((x) => x === k).length;
    expect([count('same'), count('route-missing'), count('method-missing'), count('args'), count('extra')]).toEqual([2, 1, 1, 2, 1]);
    expect(count('listed')).toBe(d.summary.same + d.summary.withArgDiffs);
    expect(kinds).not.toContain(undefined);
  });

  it('has its own title, heading, summary tiles and no seed', () => {
    expect(view.command).toBe('diff');
    expect(view.heading).toBe('site-contracts diff');
    expect(view.title).toBe('FAILED: https://staging.example.org (site-contracts diff, 2026-03-04 05:06:07 UTC)');
    expect(view.tiles.map((t) => [t.label, t.count, t.note ?? ''])).toEqual([
      ['operations compared', 5, ''],
      ['the same', 2, ''],
      ['on missing routes', 1, ''],
      ['missing methods', 1, ''],
      ['argument differences', 2, 'on 1 operation'],
      ['extra routes or methods', 1, ''],
    ]);
    // Each tile but the total filters to exactly as many cases as it counts.
    for (const t of view.tiles.filter((x) => x.key !== '')) expect(view.differences!.filter((k) => k === t.key)).toHaveLength(t.count);
    expect(view.why).toBe(
      "The target's descriptor differs from the contract: 1 on missing routes, 1 missing method, 2 argument differences on 1 operation, 1 extra route or method; 2 of 5 operations the same.",
    );
    expect(view.meta.join(' ')).not.toMatch(/seed/);
    expect(view.meta).toContain('not compared (namespaces the contract does not describe): wp/v2');
    expect(view.meta[1]).toBe('compared 2026-03-04 05:06:07 UTC');
    const html = renderHtml(run);
    expect(html).toContain('<title>FAILED: https://staging.example.org (site-contracts diff, 2026-03-04 05:06:07 UTC)</title>');
    expect(html).toContain('<p class="heading" id="heading">site-contracts diff</p>');
    expect(/<header>[\s\S]*<\/header>/.exec(html)![0]).not.toMatch(/seed|site-contracts report/);
  });

  it('lists its differences by kind on the first screen, not as one "descriptor" check', () => {
    expect(view.failing.groups.map((g) => [g.field, g.key, g.label, g.count, g.operations])).toEqual([
      ['difference', 'args', 'argument differences', 2, 1],
      ['difference', 'extra', 'extra routes or methods', 1, 1],
      ['difference', 'method-missing', 'missing methods', 1, 1],
      ['difference', 'route-missing', 'on missing routes', 1, 1],
    ]);
  });

  it('orders its grid by kind of difference, failures first', () => {
    expect(view.grid.field).toBe('difference');
    expect(view.grid.columns.map((c) => [c.label, c.failing])).toEqual([
      ['argument differences', 2],
      ['on missing routes', 1],
      ['missing methods', 1],
      ['extra routes or methods', 1],
      ['the same', 0],
      ['route and method listed', 0],
    ]);
    expect(view.grid.rows.map((r) => r.namespace)).toEqual(['cal/v1', 'forms/v1', 'seo/v1']);
  });

  it('says when the descriptor matches, or when the baseline accepts every difference', () => {
    const same: DiffResult = { ...d, operations: d.operations.filter((o) => o.kind === 'same'), extras: [], summary: { operations: 2, same: 2, routeMissing: 0, methodMissing: 0, withArgDiffs: 0, argDiffs: 0, extras: 0, identical: true } };
    const v = htmlView(runOf(diffCases(same, DEFAULT_POLICY), { options: { command: 'diff', summary: same.summary } }));
    expect(v.verdict).toBe('passed');
    expect(v.why).toBe("The target's descriptor matches the contract: all 2 operations the same, nothing extra.");
    const all = cases.filter((c) => c.status === 'failed').map((c) => ({ id: c.id }));
    const { cases: judged, report } = applyBaseline(cases, { source: 'accepted.yaml', accepted: all });
    const accepted = htmlView(runOf(judged, { baseline: report, summary: summarize(judged), options: { command: 'diff', summary: d.summary } }));
    expect(accepted.verdict).toBe('passed');
    expect(accepted.why).toMatch(/; every difference is accepted by the baseline\.$/);
    expect(accepted.tiles.at(-1)).toMatchObject({ label: 'accepted by the baseline', count: 5 });
  });
});

describe('a run cut short', () => {
  const cases = [mk('negative_rejection', 'GET cal/v1 events', 'failed'), mk('pagination', 'GET cal/v1 events', 'skipped', 'documented', 'not-run:max-failures')];
  it('says in the header that --max-failures stopped it, and which checks did not run', () => {
    const run = runOf(cases, {});
    const incomplete = { stoppedBy: 'max-failures' as const, limit: '--max-failures 1', checks: [{ check: 'pagination', notRun: 1, cutShort: 0, planned: 1 }], unitsNotRun: ['pagination:x'], unitsCutShort: [] };
    const cut = { ...run, incomplete };
    expect(htmlView(cut).verdict).toBe('failed');
    expect(htmlView(cut).why).toContain('Cut short by --max-failures 1: no check started after that many cases had failed, so this is not the whole suite. Not run or cut short: pagination 1 of 1 unit(s).');
    expect(renderHtml(cut)).toMatch(/<p class="why" id="why">[^<]*Cut short by --max-failures 1/);
  });
  it('INCOMPLETE: a run that --max-duration ended with no failure cannot pass, and names what did not run', () => {
    const passing = [mk('route_presence', 'GET cal/v1 events', 'passed'), mk('lifecycle', 'POST cal/v1 events', 'skipped', 'documented', 'not-run:lifecycle:cal/v1/event')];
    const incomplete = {
      stoppedBy: 'max-duration' as const,
      limit: '--max-duration 20m',
      checks: [{ check: 'positive_acceptance', notRun: 0, cutShort: 1, planned: 3 }, { check: 'lifecycle', notRun: 1, cutShort: 0, planned: 1 }],
      unitsNotRun: ['lifecycle:cal/v1/event'],
      unitsCutShort: ['positive_acceptance:postCalV1Events'],
    };
    const run = runOf(passing, { incomplete, summary: summarize(passing, { incomplete }) });
    expect(run.summary.verdict).toBe('incomplete');
    const view = htmlView(run);
    expect(view.verdict).toBe('incomplete');
    expect(view.why).toBe(
      'No case of 2 failed or errored, but the run stopped at --max-duration 20m before its plan was done, so it cannot pass. Not run or cut short: positive_acceptance 1 of 3 unit(s) (1 cut short), lifecycle 1 of 1 unit(s).',
    );
    expect(renderHtml(run)).toMatch(/<span class="verdict incomplete" id="verdict-text">INCOMPLETE<\/span>/);
  });
  it('says nothing of the kind for a run that ran to its end', () => {
    expect(htmlView(runOf(cases)).why).not.toContain('Cut short');
  });
});
