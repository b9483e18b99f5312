// The JSON report of a `site-contracts test` run (`--format json-full` or `json`), as far as deviation playback reads
// it: the failed cases with their request and answer. The mock never imports the suites (.ci/layers/layers.ts), so
// this is a reader of its own of the few fields it needs; suites/src/report/model.ts is the writer, and the round
// trip is proven by suites/src/checks/playback.faults.test.ts.

import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

/**
 * The report format this reader knows (suites/src/report/model.ts REPORT_VERSION): 2, whose failed and warned cases
 * name their kind of deviation. A version 1 report is refused rather than read by check names (the mock may not know
 * the suite's checks, .ci/layers): one `site-contracts test` run makes a version 2 report of the same site.
 */
const PLAYABLE_REPORT_VERSION = 2;

/** The kinds of deviation a report's case may name (suites/src/report/model.ts DeviationKind). */
const KINDS = ['route-missing', 'server-error', 'status', 'value-refused', 'filter-ignored', 'header', 'field'] as const;
type CaseKind = (typeof KINDS)[number];

interface ReportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

interface ReportResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  bodyTruncated?: boolean;
}

/** One case of the report, as playback reads it. */
export interface ReportCase {
  id: string;
  check: string;
  status: string;
  operationId?: string;
  variant?: string;
  message?: string;
  request?: ReportRequest;
  response?: ReportResponse;
  /** What kind of deviation the suite says the case shows; a kind this reader does not know is kept as `unknown`. */
  deviation?: { kind: CaseKind; params: string[]; headers: string[] } | { unknown: string };
}

interface PlaybackReport {
  /** The site the run was against (target.baseUrl), for the banner and the page. */
  site: string;
  cases: ReportCase[];
}

/** A report that cannot be played: the CLI prints `message` on one line and exits 2. */
export class ReportInputError extends Error {
  override readonly name = 'ReportInputError';
}


function stringRecord(v: unknown): Record<string, string> {
  if (!isPlainObject(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function deviationOf(v: unknown): ReportCase['deviation'] {
  if (!isPlainObject(v) || typeof v['kind'] !== 'string') return undefined;
  const kind = v['kind'];
  if (!(KINDS as readonly string[]).includes(kind)) return { unknown: kind };
  return { kind: kind as CaseKind, params: strings(v['params']), headers: strings(v['headers']) };
}

function requestOf(v: unknown): ReportRequest | undefined {
  if (!isPlainObject(v) || typeof v['method'] !== 'string' || typeof v['url'] !== 'string') return undefined;
  return { method: v['method'], url: v['url'], headers: stringRecord(v['headers']), ...(typeof v['body'] === 'string' ? { body: v['body'] } : {}) };
}

function responseOf(v: unknown): ReportResponse | undefined {
  if (!isPlainObject(v) || typeof v['status'] !== 'number') return undefined;
  return {
    status: v['status'],
    headers: stringRecord(v['headers']),
    ...(typeof v['body'] === 'string' ? { body: v['body'] } : {}),
    ...(v['bodyTruncated'] === true ? { bodyTruncated: true } : {}),
  };
}

/**
 * The report in `text` (read from `file`), made against the contract of `contractVersion`. Throws ReportInputError
 * naming the file and what was expected: not JSON (a truncated file), another report version, another contract.
 */
export function readReport(text: string, file: string, contractVersion: string): PlaybackReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ReportInputError(`${file}: expected a site-contracts JSON report (--format json-full), but it is not JSON (${(e as Error).message}); a truncated file?`);
  }
  if (!isPlainObject(data) || !Array.isArray(data['cases']) || !isPlainObject(data['target'])) {
    throw new ReportInputError(`${file}: expected a site-contracts JSON report (--format json-full) with "cases" and "target"`);
  }
  if (data['reportVersion'] !== PLAYABLE_REPORT_VERSION) {
    const old = data['reportVersion'] === 1 ? ' (made by an older site-contracts: its cases do not name their kind of deviation)' : '';
    throw new ReportInputError(`${file}: expected report version ${PLAYABLE_REPORT_VERSION}, got ${JSON.stringify(data['reportVersion'] ?? null)}${old}; run site-contracts test again with this version`);
  }
  const contract = isPlainObject(data['contract']) ? data['contract']['version'] : undefined;
  if (contract !== contractVersion) {
    throw new ReportInputError(
      `${file}: expected a report made against contract version ${contractVersion}, got ${contract === undefined ? 'a report that names no contract version (made by an older site-contracts)' : JSON.stringify(contract)}; run site-contracts test again with this version`,
    );
  }
  const cases: ReportCase[] = [];
  for (const [i, c] of (data['cases'] as unknown[]).entries()) {
    if (!isPlainObject(c) || typeof c['id'] !== 'string' || typeof c['status'] !== 'string' || typeof c['check'] !== 'string') {
      throw new ReportInputError(`${file}: expected cases[${i}] to have string "id", "check" and "status"`);
    }
    const request = requestOf(c['request']);
    const deviation = deviationOf(c['deviation']);
    const response = responseOf(c['response']);
    cases.push({
      id: c['id'],
      check: c['check'],
      status: c['status'],
      ...(typeof c['operationId'] === 'string' ? { operationId: c['operationId'] } : {}),
      ...(typeof c['variant'] === 'string' ? { variant: c['variant'] } : {}),
      ...(typeof c['message'] === 'string' ? { message: c['message'] } : {}),
      ...(request ? { request } : {}),
      ...(response ? { response } : {}),
      ...(deviation ? { deviation } : {}),
    });
  }
  return { site: typeof data['target']['baseUrl'] === 'string' ? data['target']['baseUrl'] : '(unknown site)', cases };
}
