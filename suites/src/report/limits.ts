// How big a report may grow, whatever the target sent: a run of ten thousand cases against a site that
// answers every request with a large error page must still give reports a browser opens and a CI
// server keeps. Applied by the writer after redaction (so a cut never splits a secret it could still
// have recognised), to every format alike.

import { truncateUtf8 } from './case.ts';
import type { CaseResult, RecordedResponse, RunResult } from './model.ts';
import { failsRun } from './run.ts';

export interface ReportLimits {
  /** Response bodies kept in one report (each already at most RESPONSE_BODY_LIMIT); failing cases first. */
  responseBodies: number;
  /** Bytes of a request body, and of a case message. */
  requestBodyBytes: number;
  messageBytes: number;
  /** Bytes of one header value, and headers kept per response. */
  headerValueBytes: number;
  headersPerResponse: number;
}

export const REPORT_LIMITS: ReportLimits = {
  responseBodies: 1000,
  requestBodyBytes: 64 * 1024,
  messageBytes: 8 * 1024,
  headerValueBytes: 1024,
  headersPerResponse: 64,
};

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
  // Failing cases keep their bodies first: they are what a reader opens the report for.
  const order = [...run.cases.keys()].sort((a, b) => Number(failsRun(run.cases[b]!)) - Number(failsRun(run.cases[a]!)));
  const keepBody = new Set<number>();
  for (const i of order) {
    if (run.cases[i]!.response?.body === undefined) continue;
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
    if (c.response) {
      const r = limitResponse(c.response, keepBody.has(i), limits);
      if (r !== c.response) {
        cut++;
        out = { ...out, response: r };
      }
    }
    return out;
  };
  const cases = run.cases.map(limitCase);
  if (cut === 0 && leftOut === 0) return run;
  const applied: LimitsApplied = { responseBodiesLeftOut: leftOut, cut };
  return { ...run, cases, options: { ...run.options, reportLimits: { ...limits, ...applied } } };
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
