// The report's short form of a case that needs no reading: a passing run of thirteen thousand cases wrote 18 MB
// of HTML and 22 MB of JSON, nearly all of it the requests and answers of passed cases. In the `json` and `html`
// reports a passed or skipped case keeps its id, status, severity and time (a skip its reason too); failing,
// warned, errored and inconclusive cases stay whole. What the id and the run's operation table give back
// (check, operation, variant, namespace, method, route) is left out and restored on reading (expandCases here,
// and the HTML page's script the same way); a field that differs from what they give is kept. The whole record
// is `--format json-full`.
import type { CaseResult, CaseStatus, RunResult } from './model.ts';

/** Statuses written in the short form. */
export const SUMMARIZED: ReadonlySet<CaseStatus> = new Set(['passed', 'skipped']);

/** What the JSON says about its short cases, so that a reader (or a merge) knows they are short on purpose. */
export const CASES_NOTE =
  'passed and skipped cases, one row each: [id, kind, durationMs, extra?]; id is check:operationId:variant, kinds[kind] ' +
  'is the case\'s [status, severity], ' +
  'operations gives each operation\'s [namespace, method, route], extra holds a skip\'s message and any field that differs; ' +
  'wholeAt gives the places of the whole cases in the run, the rows fill the others in order; ' +
  '--format json-full writes every case whole';

/** operationId -> [namespace, method, route], for the short cases' operations. */
export type OperationTable = Record<string, [string, string | null, string | null]>;

/** A short case: its id, its [status, severity] as an index into `kinds` (25 bytes less a row of 19,000), its time. */
export type ShortRow = [id: string, kind: number, durationMs: number, extra?: Partial<CaseResult>];

/** The [status, severity] pairs the rows name by index. */
export type KindTable = [status: CaseStatus, severity: CaseResult['severity']][];

export interface ShortCases {
  note: string;
  operations: OperationTable;
  kinds: KindTable;
  rows: ShortRow[];
  /** Where each whole case stood in the run (the rows fill the other places, in order): views refer to cases by index. */
  wholeAt: number[];
}

/** A run as the `json` and `html` reports write it: whole cases in `cases`, the others in `summarized`. */
export interface SummarizedRun extends RunResult {
  summarized: ShortCases;
}

const DERIVED = ['check', 'operationId', 'variant', 'namespace', 'method', 'route'] as const;
type Derived = Pick<CaseResult, (typeof DERIVED)[number]>;

/** A short case's derivable fields, from its id (`check:operationId:variant`) and the operation table. */
export function derive(id: string, operations: OperationTable): Derived {
  const first = id.indexOf(':');
  const second = id.indexOf(':', first + 1);
  const op = id.slice(first + 1, second);
  const variant = id.slice(second + 1);
  const out: Derived = { check: id.slice(0, first), namespace: '' };
  if (op !== '-') {
    out.operationId = op;
    const known = operations[op];
    if (known) {
      out.namespace = known[0];
      if (known[1] !== null) out.method = known[1];
      if (known[2] !== null) out.route = known[2];
    }
  }
  if (variant !== '') out.variant = variant;
  return out;
}

function shortRow(c: CaseResult, operations: OperationTable, kindOf: (c: CaseResult) => number): ShortRow {
  const d = derive(c.id, operations);
  const extra: Record<string, unknown> = {};
  // A null marks a field the case lacks although the operation table has it.
  for (const k of DERIVED) if (c[k] !== d[k]) extra[k] = c[k] ?? null;
  if (c.status === 'skipped' && c.message !== undefined) extra['message'] = c.message;
  if (c.baseline !== undefined) extra['baseline'] = c.baseline;
  if (c.acceptedReason !== undefined) extra['acceptedReason'] = c.acceptedReason;
  const row: ShortRow = [c.id, kindOf(c), c.durationMs];
  if (Object.keys(extra).length > 0) row.push(extra as Partial<CaseResult>);
  return row;
}

/** The run with its passed and skipped cases moved to short rows (in run order, as are the whole cases). */
export function summarizeCases(run: RunResult): SummarizedRun {
  const operations: OperationTable = {};
  for (const c of run.cases) {
    if (c.operationId !== undefined && !(c.operationId in operations)) operations[c.operationId] = [c.namespace, c.method ?? null, c.route ?? null];
  }
  const kinds: KindTable = [];
  const kindOf = (c: CaseResult): number => {
    let i = kinds.findIndex(([status, severity]) => status === c.status && severity === c.severity);
    if (i < 0) i = kinds.push([c.status, c.severity]) - 1;
    return i;
  };
  const rows = run.cases.filter((c) => SUMMARIZED.has(c.status)).map((c) => shortRow(c, operations, kindOf));
  const wholeAt = [...run.cases.keys()].filter((i) => !SUMMARIZED.has(run.cases[i]!.status));
  return { ...run, cases: run.cases.filter((c) => !SUMMARIZED.has(c.status)), summarized: { note: CASES_NOTE, operations, kinds, rows, wholeAt } };
}

/** A short row back as a case: everything but the request, the answer, the curl line and a pass's message. */
export function expandRow(row: ShortRow, operations: OperationTable, kinds: KindTable): CaseResult {
  const [id, kind, durationMs, extra] = row;
  const [status, severity] = kinds[kind]!;
  const out = { ...derive(id, operations), id, status, severity, durationMs, ...extra } as CaseResult & Record<string, unknown>;
  for (const k of DERIVED) if (out[k] === null) delete out[k];
  return out;
}

/** A JSON report's cases, whole and short together, in the run's order. */
export function expandCases(run: RunResult & { summarized?: ShortCases }): CaseResult[] {
  const s = run.summarized;
  if (s === undefined) return run.cases;
  const total = run.cases.length + s.rows.length;
  const whole = new Map(s.wholeAt.map((at, i) => [at, run.cases[i]!]));
  const out: CaseResult[] = [];
  let row = 0;
  for (let i = 0; i < total; i++) out.push(whole.get(i) ?? expandRow(s.rows[row++]!, s.operations, s.kinds));
  return out;
}
