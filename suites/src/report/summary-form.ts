// The report's short form of a case that needs no reading: a passing run of thirteen thousand cases wrote 18 MB
// of HTML and 22 MB of JSON, nearly all of it the requests and answers of passed cases. In the `json` and `html`
// reports a passed or skipped case keeps its id, status, severity and time (a skip its reason too); failing,
// warned, errored and inconclusive cases stay whole. What the id and the run's operation table give back
// (check, operation, variant, namespace, method, route) is left out and restored on reading (expandCases here,
// and the HTML page's script the same way); a field that differs from what they give is kept. An id is written
// as its `check:operationId` (an index into a table: 2,000 of them stand for 19,000 cases) and its variant, and
// the [status, severity, skip reason] as an index into another (22 reasons stand for 1,500 skips): a passing run
// of 19,207 cases was 1.86 MB of JSON with the whole id and reason in each row, and is under 1 MB so.
// The whole record is `--format json-full`.
import type { CaseResult, CaseStatus, RunResult } from './model.ts';

/** Statuses written in the short form. */
export const SUMMARIZED: ReadonlySet<CaseStatus> = new Set(['passed', 'skipped']);

/** What the JSON says about its short cases, so that a reader (or a merge) knows they are short on purpose. */
const CASES_NOTE =
  'passed and skipped cases, one row each: [prefix, variant, kind, durationMs, extra?]; the case id is ' +
  'prefixes[prefix] + ":" + variant (check:operationId:variant), kinds[kind] is the case\'s [status, severity, skip reason?], ' +
  'operations gives each operation\'s [namespace, method, route], extra holds any field that differs; ' +
  'wholeAt gives the places of the whole cases in the run, the rows fill the others in order; ' +
  '--format json-full writes every case whole';

/** operationId -> [namespace, method, route], for the short cases' operations. */
type OperationTable = Record<string, [string, string | null, string | null]>;

/** A short case: its id as an index into `prefixes` and its variant, its [status, severity, reason] as an index into `kinds`, its time. */
type ShortRow = [prefix: number, variant: string, kind: number, durationMs: number, extra?: Partial<CaseResult>];

/** The [status, severity, skip reason] triples the rows name by index. */
type Kind = [status: CaseStatus, severity: CaseResult['severity'], message?: string];

export interface ShortCases {
  note: string;
  operations: OperationTable;
  /** The `check:operationId` parts of the short cases' ids. */
  prefixes: string[];
  kinds: Kind[];
  rows: ShortRow[];
  /** Where each whole case stood in the run (the rows fill the other places, in order): views refer to cases by index. */
  wholeAt: number[];
}

/** A run as the `json` and `html` reports write it: whole cases in `cases`, the others in `summarized`. */
interface SummarizedRun extends RunResult {
  summarized: ShortCases;
}

const DERIVED = ['check', 'operationId', 'variant', 'namespace', 'method', 'route'] as const;
type Derived = Pick<CaseResult, (typeof DERIVED)[number]>;

/** Where an id's `check:operationId` ends (its second colon), or -1 for an id not of that form. */
function prefixEnd(id: string): number {
  return id.indexOf(':', id.indexOf(':') + 1);
}

/** Whether a case is written short: passed or skipped, with an id of the form `check:operationId:variant`. */
function isShort(c: CaseResult): boolean {
  return SUMMARIZED.has(c.status) && prefixEnd(c.id) > 0;
}

/** A short case's derivable fields, from its id (`check:operationId:variant`) and the operation table. */
function derive(id: string, operations: OperationTable): Derived {
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

/** An index into a table, the entry added when new; `key` makes entries comparable. */
function indexer<T>(table: T[], key: (t: T) => string): (t: T) => number {
  const at = new Map<string, number>();
  return (t) => {
    const k = key(t);
    let i = at.get(k);
    if (i === undefined) at.set(k, (i = table.push(t) - 1));
    return i;
  };
}

/** The run with its passed and skipped cases moved to short rows (in run order, as are the whole cases). */
export function summarizeCases(run: RunResult): SummarizedRun {
  const operations: OperationTable = {};
  for (const c of run.cases) {
    if (c.operationId !== undefined && !(c.operationId in operations)) operations[c.operationId] = [c.namespace, c.method ?? null, c.route ?? null];
  }
  const prefixes: string[] = [];
  const kinds: Kind[] = [];
  const prefixOf = indexer(prefixes, (p) => p);
  const kindOf = indexer(kinds, (k) => JSON.stringify(k));
  const rows: ShortRow[] = [];
  const wholeAt: number[] = [];
  const cases: CaseResult[] = [];
  run.cases.forEach((c, i) => {
    if (!isShort(c)) {
      wholeAt.push(i);
      cases.push(c);
      return;
    }
    const end = prefixEnd(c.id);
    const d = derive(c.id, operations);
    const extra: Record<string, unknown> = {};
    // A null marks a field the case lacks although the id or the operation table gives it.
    for (const k of DERIVED) if (c[k] !== d[k]) extra[k] = c[k] ?? null;
    if (c.baseline !== undefined) extra['baseline'] = c.baseline;
    if (c.acceptedReason !== undefined) extra['acceptedReason'] = c.acceptedReason;
    const kind: Kind = c.status === 'skipped' && c.message !== undefined ? [c.status, c.severity, c.message] : [c.status, c.severity];
    const row: ShortRow = [prefixOf(c.id.slice(0, end)), c.id.slice(end + 1), kindOf(kind), c.durationMs];
    if (Object.keys(extra).length > 0) row.push(extra as Partial<CaseResult>);
    rows.push(row);
  });
  return { ...run, cases, summarized: { note: CASES_NOTE, operations, prefixes, kinds, rows, wholeAt } };
}

/** A short row back as a case: everything but the request, the answer, the curl line and a pass's message. */
function expandRow(row: ShortRow, s: Pick<ShortCases, 'operations' | 'prefixes' | 'kinds'>): CaseResult {
  const [prefix, variant, kind, durationMs, extra] = row;
  const id = `${s.prefixes[prefix]!}:${variant}`;
  const [status, severity, message] = s.kinds[kind]!;
  const out = { ...derive(id, s.operations), id, status, severity, ...(message !== undefined ? { message } : {}), durationMs, ...extra } as CaseResult &
    Record<string, unknown>;
  for (const k of DERIVED) if (out[k] === null) delete out[k];
  return out;
}

/** What is wrong with a report's `summarized` (so that a reader can name it), or undefined when it can be read. */
export function shortCasesProblem(s: unknown, wholeCases: number): string | undefined {
  if (typeof s !== 'object' || s === null) return 'is not an object';
  const t = s as Partial<Record<keyof ShortCases, unknown>>;
  if (!Array.isArray(t.prefixes) || !Array.isArray(t.kinds) || !Array.isArray(t.rows) || !Array.isArray(t.wholeAt) || typeof t.operations !== 'object') {
    return 'lacks "prefixes", "kinds", "rows", "wholeAt" or "operations" (a report of an earlier site-contracts: re-run it, or write it with --format json-full)';
  }
  if (t.wholeAt.length !== wholeCases) return `"wholeAt" has ${t.wholeAt.length} places for ${wholeCases} whole cases`;
  for (const [i, r] of t.rows.entries()) {
    if (!Array.isArray(r) || typeof r[0] !== 'number' || t.prefixes[r[0]] === undefined || typeof r[1] !== 'string' || typeof r[2] !== 'number' || t.kinds[r[2]] === undefined) {
      return `rows[${i}] is not [prefix, variant, kind, durationMs] with a prefix and a kind of its tables`;
    }
  }
  return undefined;
}

/** A JSON report's cases, whole and short together, in the run's order. */
export function expandCases(run: RunResult & { summarized?: ShortCases }): CaseResult[] {
  const s = run.summarized;
  if (s === undefined) return run.cases;
  const total = run.cases.length + s.rows.length;
  const whole = new Map(s.wholeAt.map((at, i) => [at, run.cases[i]!]));
  const out: CaseResult[] = [];
  let row = 0;
  for (let i = 0; i < total; i++) out.push(whole.get(i) ?? expandRow(s.rows[row++]!, s));
  return out;
}
