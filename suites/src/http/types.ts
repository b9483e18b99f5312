// What a check sends and what it gets back. Every exchange, answered or not, is kept whole so that a
// case can put the exact request (for its curl line) and response into the report.

import type { RecordedRequest } from '../report/model.ts';
import type { BodyInput } from './encode.ts';
import type { RouteStyle } from './target.ts';

export type WireMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why a request with a write method is sent, which decides whether it may be sent at all:
 * - probe: built to be rejected before any handler runs (an invalid value, a missing required
 *   parameter, a route with no handler); a conforming server changes nothing.
 * - write: meant to change the target; only records the suite creates and keeps in its ledger.
 * - cleanup: removing the suite's own records at the end.
 */
export type Intent = 'read' | 'probe' | 'write' | 'cleanup';

export interface Outgoing {
  method: WireMethod;
  /** Concrete route under the API root: `/cal/v1/events/12`. */
  route: string;
  query?: Record<string, unknown>;
  /** Already encoded query string (no `?`), e.g. from the contract's generators; goes after `query`. */
  rawQuery?: string;
  body?: BodyInput;
  headers?: Record<string, string>;
  /** Send the run's credentials (default: whenever the run has some). */
  auth?: boolean;
  /** Default: the style of the configured --api-root. */
  style?: RouteStyle;
  /** Required for methods other than GET, HEAD and OPTIONS. */
  intent?: Intent;
}

export interface Received {
  status: number;
  /** Lower-case names; repeated headers joined with ", " as HTTP allows. */
  headers: Record<string, string>;
  body: string;
}

export type TransportErrorKind =
  /** no answer within --timeout-ms */
  | 'timeout'
  /** connection refused, reset, DNS failure */
  | 'connect'
  /** --max-requests reached; nothing was sent */
  | 'budget'
  /** the write policy (--read-only, no credentials) forbids this request; nothing was sent */
  | 'refused'
  /** the run is being stopped (Ctrl-C, SIGTERM) */
  | 'aborted'
  /** the target stopped answering: too many transport failures in a row; nothing was sent */
  | 'down'
  | 'other';

export interface TransportError {
  kind: TransportErrorKind;
  message: string;
}

export interface Exchange {
  request: RecordedRequest;
  response?: Received;
  error?: TransportError;
  durationMs: number;
}

/** The response, or undefined; for checks that only look at answers. */
export function answered(e: Exchange): Received | undefined {
  return e.error ? undefined : e.response;
}

/** Parsed JSON body, or undefined when the body is not JSON. */
export function jsonBody(r: Received | undefined): unknown {
  if (!r || r.body === '') return undefined;
  try {
    return JSON.parse(r.body);
  } catch {
    return undefined;
  }
}
