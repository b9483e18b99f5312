// Shapes of a conformance run as every report format, the merger and the baseline see it.
// The JSON report is this object serialized, so changing a field here changes the on-disk format:
// bump REPORT_VERSION when a change would make older reports unreadable.

import type { Basis } from '../../../contracts/lib/types.ts';

// 2 (2026-11-29): a failed or warned case names its kind of deviation (`deviation`), for `mock --deviations`.
export const REPORT_VERSION = 2;

/**
 * The kind of deviation a failed or warned case shows, as the check that judged it says through its registry row
 * (suites/src/checks/registry.ts `deviation`) and its answer's status (checks/kit/deviation.ts):
 * - route-missing: the route is not served (route_presence);
 * - server-error: a 5xx; status: another status or error code than documented; value-refused: a documented value
 *   refused (positive_acceptance's 4xx);
 * - filter-ignored: a filter or order not applied (`params`: which); header: a header missing (`headers`: which);
 * - field: anything else a success answer showed (a field absent or of another type, a value, a state).
 * `mock --deviations` plays a report's cases by this field alone, never by check names.
 */
type DeviationKind = 'route-missing' | 'server-error' | 'status' | 'value-refused' | 'filter-ignored' | 'header' | 'field';

export interface CaseDeviation {
  kind: DeviationKind;
  /** filter-ignored: the parameters the check judged. */
  params?: string[];
  /** header: the headers the check reads. */
  headers?: string[];
}

/**
 * What happened to one case after the severity policy was applied.
 * - warned: the check found a deviation, but the policy says this kind of deviation only warns.
 * - errored: the check could not reach a verdict (network error, timeout, bug in the check).
 * - inconclusive: the check ran, but the target never gave it what it needed to decide (no valid request was
 *   accepted, a violation was refused for another parameter): neither a pass nor a failure. It does not fail the
 *   run by itself; a rising count means the suite proves less about the target than it seems.
 */
export type CaseStatus = 'passed' | 'failed' | 'warned' | 'inconclusive' | 'skipped' | 'errored';
export const CASE_STATUSES: readonly CaseStatus[] = ['passed', 'failed', 'warned', 'inconclusive', 'skipped', 'errored'];

/** How sure the contract is of the fact a check tested; the same scale as the contract's own `Basis`. */
export type Severity = Basis;
export const SEVERITIES: readonly Severity[] = ['documented', 'convention', 'assumed'];

export type PolicyLevel = 'error' | 'warn';

/**
 * Which findings fail the run. Documented facts always do; the other two are judgement calls a team
 * makes per site, so they are switches rather than constants.
 */
export interface SeverityPolicy {
  /** findings of severity 'convention' */
  conventions: PolicyLevel;
  /** findings of severity 'assumed' (response record shapes the documents never showed) */
  responseShapes: PolicyLevel;
}

export const DEFAULT_POLICY: SeverityPolicy = { conventions: 'error', responseShapes: 'warn' };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body exactly as sent (JSON text or form-encoded text). */
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** At most RESPONSE_BODY_LIMIT bytes of UTF-8 in a report, ARCHIVED_BODY_LIMIT in a HAR; see bodyTruncated. */
  body?: string;
  bodyTruncated?: boolean;
  /** Size of the whole body in bytes, kept when the body was truncated. */
  bodyBytes?: number;
}

/** The most of a response body the reports (JSON, HTML, JUnit) keep, for failing cases only. */
export const RESPONSE_BODY_LIMIT = 4096;
/**
 * A HAR is opened to see the answers, so a run that writes one keeps every case's response body, each up to
 * ARCHIVED_BODY_LIMIT bytes and all together up to ARCHIVED_BODIES_BYTES (the run's memory, and the file a HAR
 * viewer has to open); past that, cases keep what the reports keep.
 */
export const ARCHIVED_BODY_LIMIT = 64 * 1024;
export const ARCHIVED_BODIES_BYTES = 32 * 1024 * 1024;

/** How a failing case relates to the baseline the run was given (absent when no baseline). */
type BaselineMark = 'new' | 'accepted' | 'fixed';

export interface CaseResult {
  /** `${check}:${operationId ?? '-'}:${variant ?? ''}`; stable across runs so baselines can name it. */
  id: string;
  check: string;
  /** REST namespace such as `wp/v2`; global checks (not tied to an operation) use GLOBAL_NAMESPACE. */
  namespace: string;
  operationId?: string;
  method?: string;
  /** Path template under the API root, e.g. `/wp/v2/posts/{id}`. */
  route?: string;
  /** Distinguishes several cases of one check on one operation (parameter name, example index...). */
  variant?: string;
  status: CaseStatus;
  severity: Severity;
  message?: string;
  request?: RecordedRequest;
  response?: RecordedResponse;
  /** A shell line that replays the request, with credentials as an environment-variable reference. */
  curl?: string;
  durationMs: number;
  /** When its request was sent (ISO 8601), for the HAR's timeline; absent when none was. */
  startedAt?: string;
  baseline?: BaselineMark;
  /** The reviewer's reason, when the baseline accepted this case. */
  acceptedReason?: string;
  /** A failed or warned case's kind of deviation (since report version 2). */
  deviation?: CaseDeviation;
}

export const GLOBAL_NAMESPACE = '(global)';

export interface AcceptedEntry {
  id: string;
  reason?: string;
}

export interface BaselineReport {
  /** Where the baseline came from (file path as given), for people reading the report. */
  source: string;
  /** The whole accepted list, kept so that merged shard reports can re-apply it. */
  acceptedList: AcceptedEntry[];
  /** ids of current failures the baseline does not know: these fail the run. */
  newFailures: string[];
  /** current failures the baseline accepts: reported, not failing. */
  accepted: AcceptedEntry[];
  /** accepted ids whose case now passes: the baseline entry can be removed. */
  fixed: string[];
  /** accepted ids that did not run this time (filtered out, other shard, renamed check). */
  notRun: string[];
}

export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  warned: number;
  /** Cases the target never let decide; counted apart, never as passed, and not failing the run. */
  inconclusive: number;
  skipped: number;
  errored: number;
  /** failed or errored cases the baseline accepts */
  accepted: number;
  /** failed or errored cases that fail the run */
  failing: number;
  /**
   * `interrupted` whenever the run was stopped by a signal (Ctrl-C, SIGTERM), whatever its cases say; else `failed`
   * when a case fails the run; else `incomplete` when the run ended before its plan was done (--max-duration,
   * --max-requests); else `passed`. An incomplete run never passes.
   */
  verdict: Verdict;
}

export type Verdict = 'passed' | 'failed' | 'incomplete' | 'interrupted';

/** A run stopped by a signal before it was done: what it did is only part of what it was asked to. */
export interface Interruption {
  signal: 'SIGINT' | 'SIGTERM';
}

/** What ended a run before its plan was done. */
export type IncompleteBy = 'max-duration' | 'max-requests' | 'signal' | 'max-failures' | 'target-down';

/** A run that ended before its plan was done: why, and which checks did not (wholly) run. */
export interface Incompleteness {
  stoppedBy: IncompleteBy;
  /** The flag and value that ended it (`--max-duration 20m`), when a flag did. */
  limit?: string;
  /**
   * Per check (a unit's family) that did not wholly run, in the run's order: its units that never started, those
   * cut short (started, stopped before their end), and how many it had.
   */
  checks: { check: string; notRun: number; cutShort: number; planned: number }[];
  /** Ids of the units that never started (each also has a `not-run:<unit>` case). */
  unitsNotRun: string[];
  /** Ids of the units that started and were stopped before they ended. */
  unitsCutShort: string[];
}

export interface ToolInfo {
  name: string;
  version: string;
}

export interface TargetInfo {
  baseUrl: string;
  /** `/wp-json`, or `/?rest_route=` for sites without pretty permalinks. */
  apiRoot: string;
}

export interface ShardInfo {
  /** 1-based */
  index: number;
  total: number;
}

export interface RunResult {
  reportVersion: number;
  tool: ToolInfo;
  target: TargetInfo;
  /** ISO 8601 */
  startedAt: string;
  /** ISO 8601 */
  finishedAt: string;
  durationMs: number;
  seed: number;
  /**
   * The contract the run judged by (its `info.version`): a reader of the report (the mock's --deviations) refuses a
   * report made against another contract. Absent in reports of older versions of the tool.
   */
  contract?: { version: string };
  shard?: ShardInfo;
  /** The options the run used, without secrets (and redacted again before writing). */
  options: Record<string, unknown>;
  cases: CaseResult[];
  summary: RunSummary;
  baseline?: BaselineReport;
  /** Present when the run was stopped by a signal; its verdict is then `interrupted`. */
  interrupted?: Interruption;
  /** Present when the run ended before its plan was done (a signal included): what did not run. */
  incomplete?: Incompleteness;
}

export type ReportFormat = 'junit' | 'json' | 'html' | 'json-full' | 'har';
export const REPORT_FORMATS: readonly ReportFormat[] = ['junit', 'json', 'html', 'json-full', 'har'];
/** What a run writes when --format is not given: the full record and the HAR are asked for. */
export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ['junit', 'json', 'html'];

export function caseId(check: string, operationId?: string, variant?: string): string {
  return `${check}:${operationId ?? '-'}:${variant ?? ''}`;
}
