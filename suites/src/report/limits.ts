// How big a report may grow, whatever the target sent: a run of ten thousand cases against a site that
// answers every request with a large error page must still give reports a browser opens and a CI
// server keeps. Applied by the writer after redaction (so a cut never splits a secret it could still
// have recognised): the reports alike (REPORT_LIMITS), the HAR with room for every answer (HAR_LIMITS).

import { truncateUtf8 } from './case.ts';
import { ARCHIVED_BODY_LIMIT, RESPONSE_BODY_LIMIT, type CaseResult, type RecordedResponse, type ReportFormat, type RunResult } from './model.ts';
import { failsRun } from './run.ts';

export interface ReportLimits {
  /** Response bodies kept in one report; failing cases first. */
  responseBodies: number;
  /** Bytes of one response body. */
  responseBodyBytes: number;
  /** Whether passed and skipped cases keep their bodies: a HAR's entries do, a report's cases need none. */
  passingBodies: boolean;
  /** Bytes of a request body, and of a case message. */
  requestBodyBytes: number;
  messageBytes: number;
  /** Bytes of one header value, and headers kept per response. */
  headerValueBytes: number;
  headersPerResponse: number;
}

export const REPORT_LIMITS: ReportLimits = {
  responseBodies: 1000,
  responseBodyBytes: RESPONSE_BODY_LIMIT,
  passingBodies: false,
  requestBodyBytes: 64 * 1024,
  messageBytes: 8 * 1024,
  headerValueBytes: 1024,
  headersPerResponse: 64,
};

/** A HAR keeps every body the run held: their number and total were bounded while the run held them (ARCHIVED_BODIES_BYTES). */
export const HAR_LIMITS: ReportLimits = { ...REPORT_LIMITS, responseBodies: Number.MAX_SAFE_INTEGER, responseBodyBytes: ARCHIVED_BODY_LIMIT, passingBodies: true };

export function limitsFor(format: ReportFormat): ReportLimits {
  return format === 'har' ? HAR_LIMITS : REPORT_LIMITS;
}

/** What the limits left out, for the run's options (and so for every format). */
interface LimitsApplied {
  responseBodiesLeftOut: number;
  cut: number;
}

function cutText(text: string, limit: number): { text: string; cut: boolean } {
  const t = truncateUtf8(text, limit);
  return t.truncated ? { text: `${t.text} [cut by site-contracts: ${t.bytes} bytes in all]`, cut: true } : { text, cut: false };
}

/** The run as it may be written: bodies, messages and headers within REPORT_LIMITS. */
export function limitRun(run: RunResult, limits: ReportLimits = REPORT_LIMITS): RunResult {
  let cut = 0;
  let bodiesLeft = limits.responseBodies;
  let leftOut = 0;
  // A body the format does not show, or longer than it shows, is what a run without a HAR would have held: not a cut.
  const shown = run.cases.map((c) => (c.response ? shownResponse(c.response, c, limits) : undefined));
  // Failing cases keep their bodies first: they are what a reader opens the report for.
  const order = [...run.cases.keys()].sort((a, b) => Number(failsRun(run.cases[b]!)) - Number(failsRun(run.cases[a]!)));
  const keepBody = new Set<number>();
  for (const i of order) {
    if (shown[i]?.body === undefined) continue;
    if (bodiesLeft > 0) {
      keepBody.add(i);
      bodiesLeft--;
    } else leftOut++;
  }
  const limitCase = (c: CaseResult, i: number): CaseResult => {
    let out = c;
    if (c.message !== undefined) {
      const m = cutText(c.message, limits.messageBytes);
      if (m.cut) {
        cut++;
        out = { ...out, message: m.text };
      }
    }
    if (c.request?.body !== undefined) {
      const b = cutText(c.request.body, limits.requestBodyBytes);
      if (b.cut) {
        cut++;
        // The curl line would replay a different request; say so instead of sending the cut body.
        out = { ...out, request: { ...c.request, body: b.text }, curl: `# the request body (${Buffer.byteLength(c.request.body)} bytes) is too large to replay from a report` };
      }
    }
    const response = shown[i];
    if (response) {
      const r = limitResponse(response, keepBody.has(i), limits);
      if (r !== response) cut++;
      if (r !== c.response) out = { ...out, response: r };
    }
    return out;
  };
  const cases = run.cases.map(limitCase);
  if (cases.every((c, i) => c === run.cases[i])) return run;
  if (cut === 0 && leftOut === 0) return { ...run, cases };
  const applied: LimitsApplied = { responseBodiesLeftOut: leftOut, cut };
  return { ...run, cases, options: { ...run.options, reportLimits: { ...limits, ...applied } } };
}

/**
 * The answer as the format shows it: without the body of a passed or skipped case where it shows none, and the body
 * cut to the format's size, exactly as buildCase() records it for a run that writes no HAR.
 */
function shownResponse(r: RecordedResponse, c: CaseResult, limits: ReportLimits): RecordedResponse {
  if (r.body === undefined) return r;
  if (!limits.passingBodies && (c.status === 'passed' || c.status === 'skipped')) {
    const { body: _b, bodyTruncated: _t, bodyBytes: _n, ...rest } = r;
    return rest;
  }
  const t = truncateUtf8(r.body, limits.responseBodyBytes);
  return t.truncated ? { ...r, body: t.text, bodyTruncated: true, bodyBytes: r.bodyBytes ?? t.bytes } : r;
}

function limitResponse(r: RecordedResponse, keepBody: boolean, limits: ReportLimits): RecordedResponse {
  const entries = Object.entries(r.headers);
  let changed = entries.length > limits.headersPerResponse;
  const headers: Record<string, string> = {};
  for (const [k, v] of entries.slice(0, limits.headersPerResponse)) {
    const c = cutText(v, limits.headerValueBytes);
    if (c.cut) changed = true;
    headers[k] = c.text;
  }
  if (entries.length > limits.headersPerResponse) headers['x-site-contracts-left-out'] = `${entries.length - limits.headersPerResponse} more headers`;
  if (!keepBody && r.body !== undefined) {
    const { body, ...rest } = r;
    return { ...rest, headers, bodyTruncated: true, bodyBytes: r.bodyBytes ?? Buffer.byteLength(body) };
  }
  return changed ? { ...r, headers } : r;
}
