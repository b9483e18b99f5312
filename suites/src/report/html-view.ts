// What the HTML report shows and in which order, decided here (pure, typed, unit-tested) so that the
// inline client script only draws it and filters: the verdict and why, one tile per meaning (a partition
// of the cases, or the diff's own counts), the failing checks, and the grid with failures first.
// The page embeds this beside the run; every count the page shows comes from here.

import { differenceOf, type DifferenceKind } from '../diff/table.ts';
import type { DiffSummary } from '../diff/diff.ts';
import { SEVERITIES, type CaseResult, type RunResult, type Severity, type SeverityPolicy, type Verdict } from './model.ts';
import { failsRun, notRunLines, stoppedHow } from './run.ts';

/**
 * Where a case counts on the page: its status, except that a failure the baseline accepts counts as
 * `accepted` (it does not fail the run). Every case has exactly one, so the tiles add up to the total.
 */
type Outcome = 'failed' | 'errored' | 'accepted' | 'warned' | 'inconclusive' | 'passed' | 'skipped';
/** Worst first: the order of the tiles, of the case list and of a grid cell's label. */
export const OUTCOMES: readonly Outcome[] = ['failed', 'errored', 'accepted', 'warned', 'inconclusive', 'passed', 'skipped'];

export function outcomeOf(c: CaseResult): Outcome {
  if (c.status === 'failed' || c.status === 'errored') return failsRun(c) ? c.status : 'accepted';
  return c.status;
}

/** What a tile (or a grid column) filters the case list by. */
type FilterField = 'outcome' | 'difference' | 'check';

interface Tile {
  /** The value of `field` it filters by; '' for a tile that shows every case. */
  key: string;
  field: FilterField;
  label: string;
  count: number;
  /** A second line under the count, when the count alone would not say it (argument differences on N operations). */
  note?: string;
  /** Exactly what the tile counts: the tile's title and accessible description. */
  description: string;
  /** The colour it is drawn in. */
  tone: Outcome | 'neutral';
}

interface CellCounts {
  counts: Partial<Record<Outcome, number>>;
  total: number;
  /** The first outcome of OUTCOMES it holds: what the cell is coloured and labelled by. */
  worst: Outcome;
}

interface GridOperation {
  operationId: string;
  method?: string;
  route?: string;
  failing: number;
  cells: Record<string, CellCounts>;
}

interface GridRow {
  namespace: string;
  failing: number;
  cells: Record<string, CellCounts>;
  /** Failures first; empty where no case names an operation. */
  operations: GridOperation[];
}

interface GridView {
  /** What the columns are: the checks of a test run, the kinds of difference of a diff. */
  field: 'check' | 'difference';
  columns: { key: string; label: string; failing: number }[];
  rows: GridRow[];
}

/** The failing cases of one grid column (a check, or a kind of difference): a line of the first screen. */
interface FailingGroup {
  field: GridView['field'];
  /** The column's key, and how it is named. */
  key: string;
  label: string;
  outcome: 'failed' | 'errored';
  count: number;
  /** Operations (or routes, for what names none) among them. */
  operations: number;
  /** Index (in run.cases) of the case the line shows and links to: the first in the case list's order. */
  first: number;
  /** The first case's severity: the most severe of the group, as the case list sorts them. */
  severity: Severity;
  namespace: string;
  operationId?: string;
  method?: string;
  route?: string;
}

export interface HtmlView {
  command: 'test' | 'diff';
  /** Names of the outcomes and (for a diff) the kinds of difference, in their order, for filters and labels. */
  labels: { outcome: { key: Outcome; label: string }[]; difference: { key: string; label: string }[] };
  /** `site-contracts test` or `site-contracts diff`. */
  heading: string;
  title: string;
  verdict: Verdict;
  why: string;
  meta: string[];
  tiles: Tile[];
  /** Per case, parallel to run.cases. */
  outcomes: Outcome[];
  /** Per case of a diff, parallel to run.cases (`other` for a case that is no descriptor case). */
  differences?: (DifferenceKind | 'other')[];
  /** Indices of run.cases in the order the case list shows them: what fails the run first. */
  order: number[];
  failing: { groups: FailingGroup[]; total: number; cases: number };
  grid: GridView;
}

/** How many failing checks (or kinds of difference) the first screen lists before pointing at the case list. */
export const FAILING_LISTED = 8;

const DIFFERENCE_LABELS: Record<DifferenceKind, string> = {
  'route-missing': 'on missing routes',
  'method-missing': 'missing methods',
  args: 'argument differences',
  extra: 'extra routes or methods',
  same: 'the same',
  listed: 'route and method listed',
};
const OUTCOME_LABELS: Record<Outcome, string> = {
  failed: 'failed',
  errored: 'errored',
  accepted: 'accepted by the baseline',
  warned: 'warned',
  inconclusive: 'inconclusive',
  passed: 'passed',
  skipped: 'skipped',
};
const DIFFERENCE_ORDER: readonly DifferenceKind[] = ['route-missing', 'method-missing', 'args', 'extra', 'same', 'listed'];

const n = (x: number): string => x.toLocaleString('en-US');
const plural = (x: number, one: string, many = `${one}s`): string => `${n(x)} ${x === 1 ? one : many}`;

/** `2026-01-02 03:04:05 UTC`: unambiguous for people in any time zone reading a CI artifact. */
function formatWhen(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function isDiffSummary(v: unknown): v is DiffSummary {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return ['operations', 'same', 'routeMissing', 'methodMissing', 'withArgDiffs', 'argDiffs', 'extras'].every((k) => typeof s[k] === 'number');
}

function diffSummaryOf(run: RunResult): DiffSummary | undefined {
  const s = run.options['summary'];
  return run.options['command'] === 'diff' && isDiffSummary(s) ? s : undefined;
}

function policyOf(run: RunResult): SeverityPolicy | undefined {
  const p = run.options['policy'] as Partial<SeverityPolicy> | undefined;
  const level = (x: unknown): x is 'error' | 'warn' => x === 'error' || x === 'warn';
  return p && level(p.conventions) && level(p.responseShapes) ? { conventions: p.conventions, responseShapes: p.responseShapes } : undefined;
}

function countOutcomes(outcomes: readonly Outcome[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const o of outcomes) counts[o]++;
  return counts;
}

function outcomeTiles(run: RunResult, counts: Record<Outcome, number>): Tile[] {
  const policy = policyOf(run);
  const failing = policy
    ? ['documented', policy.conventions === 'error' ? 'convention' : '', policy.responseShapes === 'error' ? 'assumed' : ''].filter(Boolean).join(', ')
    : 'documented always; convention unless --conventions warn; assumed only with --response-shapes error';
  const warning = policy
    ? [policy.conventions === 'warn' ? 'convention' : '', policy.responseShapes === 'warn' ? 'assumed' : ''].filter(Boolean).join(', ') || 'none in this run'
    : 'assumed by default; convention with --conventions warn';
  const descriptions: Record<Outcome, string> = {
    failed: `Cases where the target did what the contract rules out, at a severity that fails the run (${failing}). A failure the baseline accepts is counted under "accepted by the baseline" instead.`,
    errored: 'Cases whose check could not reach a verdict: no answer, a timeout, the request budget (--max-requests) spent, or a fault in the check. They fail the run unless the baseline accepts them.',
    accepted: `Failed or errored cases that the baseline${run.baseline ? ` (${run.baseline.source})` : ''} lists: shown, but they do not fail the run.`,
    warned: `Deviations at a severity this run only warns about (${warning}). They do not fail the run.`,
    inconclusive: 'Cases whose check ran but the target never let it decide (no request carrying the parameter was accepted, or it was refused for something else). Neither passed nor failed; they do not fail the run.',
    passed: 'Cases whose check ran and found the target as the contract says.',
    skipped: 'Cases not run, each with its reason: writes the suite cannot undo, --read-only, routes left to other checks, constraints WordPress does not enforce on the wire.',
  };
  return OUTCOMES.filter((o) => o !== 'accepted' || run.baseline !== undefined).map((o) => ({
    key: o,
    field: 'outcome',
    label: OUTCOME_LABELS[o],
    count: counts[o],
    description: descriptions[o],
    tone: o,
  }));
}

function diffTiles(run: RunResult, s: DiffSummary, counts: Record<Outcome, number>): Tile[] {
  const tiles: Tile[] = [
    {
      key: '',
      field: 'difference',
      label: 'operations compared',
      count: s.operations,
      description: "Operations of the contract (after --only/--skip) looked up in the target's descriptor (GET on the API root).",
      tone: 'neutral',
    },
    {
      key: 'same',
      field: 'difference',
      label: DIFFERENCE_LABELS.same,
      count: s.same,
      description: "Operations whose route, method and every argument the target's descriptor lists as the contract has them (type, enum, default, required, bounds, lengths, pattern, format, items).",
      tone: 'passed',
    },
    {
      key: 'route-missing',
      field: 'difference',
      label: DIFFERENCE_LABELS['route-missing'],
      count: s.routeMissing,
      description: "Operations whose route the target's descriptor does not list at all.",
      tone: s.routeMissing ? 'failed' : 'neutral',
    },
    {
      key: 'method-missing',
      field: 'difference',
      label: DIFFERENCE_LABELS['method-missing'],
      count: s.methodMissing,
      description: "Operations whose route the target lists, but without the operation's method.",
      tone: s.methodMissing ? 'failed' : 'neutral',
    },
    {
      key: 'args',
      field: 'difference',
      label: DIFFERENCE_LABELS.args,
      count: s.argDiffs,
      note: `on ${plural(s.withArgDiffs, 'operation')}`,
      description: 'Arguments the target leaves out, adds, or describes otherwise in a keyword (type, enum, default, required, bounds...), one per argument; the note says on how many operations.',
      tone: s.argDiffs ? 'failed' : 'neutral',
    },
    {
      key: 'extra',
      field: 'difference',
      label: DIFFERENCE_LABELS.extra,
      count: s.extras,
      description: "Routes, or methods on a route, that the target serves in the contract's namespaces and the contract does not have.",
      tone: s.extras ? 'failed' : 'neutral',
    },
  ];
  if (run.baseline) {
    tiles.push({
      key: 'accepted',
      field: 'outcome',
      label: 'accepted by the baseline',
      count: counts.accepted,
      description: `Differences that the baseline (${run.baseline.source}) lists: shown, but they do not fail the run.`,
      tone: 'accepted',
    });
  }
  return tiles;
}

function verdictOf(run: RunResult): Verdict {
  return run.interrupted ? 'interrupted' : run.incomplete && run.summary.verdict === 'passed' ? 'incomplete' : run.summary.verdict;
}

function whyTest(run: RunResult, counts: Record<Outcome, number>, outcomes: readonly Outcome[]): string {
  const s = run.summary;
  const failingCases = counts.failed + counts.errored;
  const rest = [
    counts.accepted ? `${n(counts.accepted)} accepted by the baseline` : '',
    counts.warned ? `${n(counts.warned)} warned` : '',
    counts.inconclusive ? `${n(counts.inconclusive)} inconclusive` : '',
  ].filter(Boolean);
  const failing = run.cases.filter((_, i) => outcomes[i] === 'failed' || outcomes[i] === 'errored');
  const checks = new Set(failing.map((c) => c.check)).size;
  const operations = new Set(failing.map(operationKey)).size;
  const failures =
    failingCases > 0
      ? `${plural(failingCases, 'case')} ${failingCases === 1 ? 'fails' : 'fail'} the run (${n(counts.failed)} failed, ${n(counts.errored)} errored) in ${plural(checks, 'check')} on ${plural(operations, 'operation')}`
      : '';
  const also = rest.length ? `; ${rest.join(', ')}` : '';
  const notRun = notRunSentence(run);
  if (run.interrupted) {
    const signal = run.interrupted.signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : 'SIGTERM';
    return `Stopped by ${signal} after ${plural(s.total, 'case')}: only part of the run happened, so it cannot pass${failures ? `. Before it stopped, ${failures}` : ''}${also}.${notRun}`;
  }
  if (s.total === 0 && !run.incomplete) return 'No case ran: check --only, --skip and --shard.';
  const cut = cutShort(run);
  if (failingCases > 0) return `${failures}, out of ${plural(s.total, 'case')}${also}.${cut}${notRun}`;
  if (run.incomplete) return `No case of ${n(s.total)} failed or errored${also}, but the run ${stoppedHow(run.incomplete)} before its plan was done, so it cannot pass.${notRun}`;
  return `No case of ${n(s.total)} failed or errored${also}.`;
}

/** A run that stopped before its end says so in the header: its counts cover only part of the suite. */
function cutShort(run: RunResult): string {
  const i = run.incomplete;
  if (!i) return '';
  if (i.stoppedBy === 'max-failures') return ` Cut short by ${i.limit ?? '--max-failures'}: no check started after that many cases had failed, so this is not the whole suite.`;
  return ` Cut short: the run ${stoppedHow(i)}.`;
}

/** The checks a run that ended early did not wholly run, as the header names them. */
function notRunSentence(run: RunResult): string {
  const lines = run.incomplete ? notRunLines(run.incomplete) : [];
  return lines.length ? ` Not run or cut short: ${lines.join(', ')}.` : '';
}

/** An operation, or for a case that names none (a global check, an extra route) its method and route. */
function operationKey(c: CaseResult): string {
  return c.operationId ?? `${c.namespace} ${c.method ?? ''} ${c.route ?? ''}`;
}

function whyDiff(run: RunResult, s: DiffSummary, counts: Record<Outcome, number>): string {
  if (run.interrupted) return `Stopped by ${run.interrupted.signal} before the descriptor was compared.`;
  const parts = [
    s.routeMissing ? `${n(s.routeMissing)} on missing routes` : '',
    s.methodMissing ? plural(s.methodMissing, 'missing method') : '',
    s.argDiffs ? `${plural(s.argDiffs, 'argument difference')} on ${plural(s.withArgDiffs, 'operation')}` : '',
    s.extras ? plural(s.extras, 'extra route or method', 'extra routes or methods') : '',
  ].filter(Boolean);
  if (parts.length === 0) return `The target's descriptor matches the contract: all ${plural(s.operations, 'operation')} the same, nothing extra.`;
  const accepted = counts.failed + counts.errored === 0 ? '; every difference is accepted by the baseline' : counts.accepted ? `; ${n(counts.accepted)} accepted by the baseline` : '';
  return `The target's descriptor differs from the contract: ${parts.join(', ')}; ${n(s.same)} of ${plural(s.operations, 'operation')} the same${accepted}.`;
}

/** --disposable-target: what the run changed that it did not create (options.changes), each with whether it was restored. */
function changesOf(run: RunResult): string | undefined {
  const changes = run.options['changes'];
  if (!Array.isArray(changes)) return undefined;
  const list = changes as { method?: unknown; route?: unknown; restored?: unknown }[];
  const restored = list.filter((c) => c.restored === 'yes').length;
  const each = list.map((c) => `${String(c.method)} ${String(c.route)} (${c.restored === 'yes' ? 'restored' : c.restored === 'no' ? 'not restored' : 'cannot be restored'})`);
  return `--disposable-target: ${plural(list.length, 'change')} to what the run did not create${list.length ? `, ${n(restored)} restored: ${each.join(', ')}` : ''}`;
}

function metaOf(run: RunResult, diff: boolean): string[] {
  const meta = [`${run.target.baseUrl}${run.target.apiRoot}`, `${diff ? 'compared' : 'started'} ${formatWhen(run.startedAt)}`, `took ${(run.durationMs / 1000).toFixed(1)} s`];
  if (!diff) {
    meta.push(`seed ${run.seed} (replay one case: --seed ${run.seed} --only <case id>)`);
    const sent = run.options['requestsSent'];
    if (typeof sent === 'number') meta.push(`${n(sent)} requests sent`);
    if (run.shard) meta.push(`shard ${run.shard.index}/${run.shard.total}`);
    const changed = changesOf(run);
    if (changed) meta.push(changed);
  } else {
    const other = run.options['otherNamespaces'];
    if (Array.isArray(other) && other.length) meta.push(`not compared (namespaces the contract does not describe): ${other.join(', ')}`);
  }
  meta.push(`${run.tool.name} ${run.tool.version}`);
  return meta;
}

const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((s, i) => [s, i])) as Record<Severity, number>;
const OUTCOME_RANK = Object.fromEntries(OUTCOMES.map((o, i) => [o, i])) as Record<Outcome, number>;
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function caseOrder(cases: readonly CaseResult[], outcomes: readonly Outcome[]): number[] {
  return [...cases.keys()].sort((a, b) => {
    const x = cases[a]!;
    const y = cases[b]!;
    return (
      OUTCOME_RANK[outcomes[a]!] - OUTCOME_RANK[outcomes[b]!] ||
      SEVERITY_RANK[x.severity] - SEVERITY_RANK[y.severity] ||
      cmp(x.namespace, y.namespace) ||
      cmp(x.check, y.check) ||
      cmp(x.route ?? '', y.route ?? '') ||
      cmp(x.id, y.id)
    );
  });
}

function failingGroups(cases: readonly CaseResult[], outcomes: readonly Outcome[], order: readonly number[], columnOf: (i: number) => string, field: GridView['field'], label: (key: string) => string): FailingGroup[] {
  const groups = new Map<string, { group: FailingGroup; operations: Set<string> }>();
  for (const i of order) {
    const o = outcomes[i]!;
    if (o !== 'failed' && o !== 'errored') continue;
    const c = cases[i]!;
    const key = columnOf(i);
    const id = `${o}\u0000${key}`;
    const had = groups.get(id);
    if (had) {
      had.group.count++;
      had.operations.add(operationKey(c));
      continue;
    }
    const group: FailingGroup = { field, key, label: label(key), outcome: o, count: 1, operations: 1, first: i, severity: c.severity, namespace: c.namespace };
    if (c.operationId !== undefined) group.operationId = c.operationId;
    if (c.method !== undefined) group.method = c.method;
    if (c.route !== undefined) group.route = c.route;
    groups.set(id, { group, operations: new Set([operationKey(c)]) });
  }
  // Each group's first case came in the case list's order: failed before errored, documented first.
  return [...groups.values()]
    .map(({ group, operations }) => ({ ...group, operations: operations.size }))
    .sort((a, b) => OUTCOME_RANK[a.outcome] - OUTCOME_RANK[b.outcome] || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count || cmp(a.key, b.key));
}

function emptyCell(): CellCounts {
  return { counts: {}, total: 0, worst: 'skipped' };
}

function add(cell: CellCounts, o: Outcome): void {
  cell.counts[o] = (cell.counts[o] ?? 0) + 1;
  cell.total++;
  if (OUTCOME_RANK[o] < OUTCOME_RANK[cell.worst] || cell.total === 1) cell.worst = o;
}

/** Failures first, then warnings, then what could not be decided; names last, so the order is stable. */
function attention(a: Partial<Record<Outcome, number>>, b: Partial<Record<Outcome, number>>): number {
  const f = (x: Partial<Record<Outcome, number>>): number => (x.failed ?? 0) + (x.errored ?? 0);
  return f(b) - f(a) || (b.warned ?? 0) - (a.warned ?? 0) || (b.inconclusive ?? 0) - (a.inconclusive ?? 0);
}

function totals(cells: Record<string, CellCounts>): Partial<Record<Outcome, number>> {
  const t: Partial<Record<Outcome, number>> = {};
  for (const cell of Object.values(cells)) for (const [o, k] of Object.entries(cell.counts) as [Outcome, number][]) t[o] = (t[o] ?? 0) + k;
  return t;
}

function gridOf(cases: readonly CaseResult[], outcomes: readonly Outcome[], columnOf: (i: number) => string, field: GridView['field'], label: (key: string) => string): GridView {
  const rows = new Map<string, { cells: Record<string, CellCounts>; ops: Map<string, GridOperation> }>();
  const columns = new Map<string, Partial<Record<Outcome, number>>>();
  cases.forEach((c, i) => {
    const col = columnOf(i);
    const o = outcomes[i]!;
    const colCounts = columns.get(col) ?? {};
    colCounts[o] = (colCounts[o] ?? 0) + 1;
    columns.set(col, colCounts);
    const row = rows.get(c.namespace) ?? { cells: {}, ops: new Map<string, GridOperation>() };
    rows.set(c.namespace, row);
    add((row.cells[col] ??= emptyCell()), o);
    if (c.operationId === undefined) return;
    let op = row.ops.get(c.operationId);
    if (!op) {
      op = { operationId: c.operationId, failing: 0, cells: {} };
      if (c.method !== undefined) op.method = c.method;
      if (c.route !== undefined) op.route = c.route;
      row.ops.set(c.operationId, op);
    }
    add((op.cells[col] ??= emptyCell()), o);
  });
  const failingOf = (t: Partial<Record<Outcome, number>>): number => (t.failed ?? 0) + (t.errored ?? 0);
  const columnList = [...columns.entries()]
    .sort(([ka, a], [kb, b]) => attention(a, b) || (field === 'difference' ? DIFFERENCE_ORDER.indexOf(ka as DifferenceKind) - DIFFERENCE_ORDER.indexOf(kb as DifferenceKind) : 0) || cmp(ka, kb))
    .map(([key, t]) => ({ key, label: label(key), failing: failingOf(t) }));
  const rowList: GridRow[] = [...rows.entries()]
    .map(([namespace, r]) => {
      const t = totals(r.cells);
      const operations = [...r.ops.values()]
        .map((op) => ({ op, t: totals(op.cells) }))
        .sort((a, b) => attention(a.t, b.t) || cmp(a.op.route ?? '', b.op.route ?? '') || cmp(a.op.method ?? '', b.op.method ?? '') || cmp(a.op.operationId, b.op.operationId))
        .map(({ op, t: opTotals }) => ({ ...op, failing: failingOf(opTotals) }));
      return { row: { namespace, failing: failingOf(t), cells: r.cells, operations }, t };
    })
    .sort((a, b) => attention(a.t, b.t) || cmp(a.row.namespace, b.row.namespace))
    .map(({ row }) => row);
  return { field, columns: columnList, rows: rowList };
}

/** What a grid column is for a case: its check, or for a diff the kind of difference it stands for. */
interface Columns {
  field: GridView['field'];
  of(i: number): string;
  label(key: string): string;
}

export function htmlView(run: RunResult): HtmlView {
  const diff = diffSummaryOf(run);
  const cases = run.cases;
  const outcomes = cases.map(outcomeOf);
  const counts = countOutcomes(outcomes);
  const order = caseOrder(cases, outcomes);
  const differences = diff ? cases.map((c) => differenceOf(c) ?? 'other') : undefined;
  const columns: Columns = differences
    ? { field: 'difference', of: (i) => differences[i]!, label: (k) => DIFFERENCE_LABELS[k as DifferenceKind] ?? k }
    : { field: 'check', of: (i) => cases[i]!.check, label: (k) => k };
  const groups = failingGroups(cases, outcomes, order, columns.of, columns.field, columns.label);
  const verdict = verdictOf(run);
  const command = diff ? 'diff' : 'test';
  const heading = `${run.tool.name} ${command}`;
  const view: HtmlView = {
    command,
    labels: {
      outcome: OUTCOMES.map((o) => ({ key: o, label: OUTCOME_LABELS[o] })),
      difference: diff ? DIFFERENCE_ORDER.map((k) => ({ key: k, label: DIFFERENCE_LABELS[k] })) : [],
    },
    heading,
    title: `${verdict.toUpperCase()}: ${run.target.baseUrl} (${heading}, ${formatWhen(run.startedAt)})`,
    verdict,
    why: diff ? whyDiff(run, diff, counts) : whyTest(run, counts, outcomes),
    meta: metaOf(run, diff !== undefined),
    tiles: diff ? diffTiles(run, diff, counts) : outcomeTiles(run, counts),
    outcomes,
    order,
    failing: { groups: groups.slice(0, FAILING_LISTED), total: groups.length, cases: counts.failed + counts.errored },
    grid: gridOf(cases, outcomes, columns.of, columns.field, columns.label),
  };
  if (differences) view.differences = differences;
  return view;
}
