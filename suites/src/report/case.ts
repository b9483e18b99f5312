// The one way a check turns what it saw into a CaseResult: id, policy, body limit and curl line are
// decided here so that no two checks spell them differently.

import { toCurl } from './curl.ts';
import {
  ARCHIVED_BODY_LIMIT,
  caseId,
  RESPONSE_BODY_LIMIT,
  type CaseResult,
  type RecordedRequest,
  type RecordedResponse,
  type Severity,
  type SeverityPolicy,
} from './model.ts';
import { statusFor, type Outcome } from './policy.ts';

export interface CaseInput {
  check: string;
  namespace: string;
  operationId?: string;
  method?: string;
  route?: string;
  variant?: string;
  severity: Severity;
  outcome: Outcome;
  message?: string;
  /** As sent, credentials included: the curl line replaces them, and redaction runs before writing. */
  request?: RecordedRequest;
  /** As received; the body is cut here (recordResponse()). */
  response?: { status: number; headers: Record<string, string>; body?: string; bodyBytes?: number };
  durationMs: number;
  /** When the request was sent, in milliseconds since the epoch (Exchange.startedAt). */
  startedAt?: number;
}

export interface CaseContext {
  policy: SeverityPolicy;
  /** Name of the env var the curl line should reference for credentials. */
  authEnv?: string;
  /** Set when the run writes a HAR: any case keeps its answer's body while this allows (ARCHIVED_BODY_LIMIT each). */
  archive?: BodyBudget;
}

/** Bytes of response bodies a run may still hold for its HAR. One per run; taken from as cases are built. */
export interface BodyBudget {
  /** Whether `bytes` more may be held; if so, they are counted. */
  take(bytes: number): boolean;
}

export function bodyBudget(totalBytes: number): BodyBudget {
  let left = totalBytes;
  return {
    take(bytes) {
      if (bytes > left) return false;
      left -= bytes;
      return true;
    },
  };
}

/**
 * Passed and skipped cases keep the response status and headers but not its body: a run of thousands
 * of cases would otherwise carry megabytes nobody reads into every report format. A run that writes a
 * HAR keeps every body within its budget (CaseContext.archive); the reports cut them again (limits.ts).
 */
export function buildCase(input: CaseInput, ctx: CaseContext): CaseResult {
  const status = statusFor(input.outcome, input.severity, ctx.policy);
  const result: CaseResult = {
    id: caseId(input.check, input.operationId, input.variant),
    check: input.check,
    namespace: input.namespace,
    status,
    severity: input.severity,
    durationMs: Math.max(0, Math.round(input.durationMs)),
  };
  if (input.operationId !== undefined) result.operationId = input.operationId;
  if (input.method !== undefined) result.method = input.method.toUpperCase();
  if (input.route !== undefined) result.route = input.route;
  if (input.variant !== undefined && input.variant !== '') result.variant = input.variant;
  if (input.message !== undefined) result.message = input.message;
  if (input.startedAt !== undefined) result.startedAt = new Date(input.startedAt).toISOString();
  if (input.request) {
    result.request = { ...input.request, headers: { ...input.request.headers } };
    result.curl = toCurl(input.request, ctx.authEnv === undefined ? {} : { authEnv: ctx.authEnv });
  }
  if (input.response) result.response = recordResponse(input.response, status !== 'passed' && status !== 'skipped', ctx.archive);
  return result;
}

function recordResponse(
  response: { status: number; headers: Record<string, string>; body?: string; bodyBytes?: number },
  failing: boolean,
  archive: BodyBudget | undefined,
): RecordedResponse {
  const recorded: RecordedResponse = { status: response.status, headers: { ...response.headers } };
  if (response.body === undefined) return recorded;
  const limit = archive?.take(Math.min(Buffer.byteLength(response.body), ARCHIVED_BODY_LIMIT)) ? ARCHIVED_BODY_LIMIT : failing ? RESPONSE_BODY_LIMIT : 0;
  if (limit === 0) return recorded;
  const cut = truncateUtf8(response.body, limit);
  recorded.body = cut.text;
  // bodyBytes: the body was already cut to its beginning while a check held it (checks/kit/bodies.ts heldForm()).
  if (cut.truncated || response.bodyBytes !== undefined) {
    recorded.bodyTruncated = true;
    recorded.bodyBytes = response.bodyBytes ?? cut.bytes;
  }
  return recorded;
}

/** Cuts to at most `limit` bytes of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, limit: number): { text: string; truncated: boolean; bytes: number } {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= limit) return { text, truncated: false, bytes: encoded.length };
  let end = limit;
  // Back off over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: encoded.subarray(0, end).toString('utf8'), truncated: true, bytes: encoded.length };
}
