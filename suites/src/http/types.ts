// What a check sends and what it gets back. Every exchange, answered or not, is kept whole so that a
// case can put the exact request (for its curl line) and response into the report.

import type { RecordedRequest } from '../report/model.ts';
import type { BodyInput } from './encode.ts';
import type { RouteStyle } from './target.ts';

export type WireMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export { SAFE_METHODS } from '../../../contracts/wordpress/rest/routes.ts';

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
  /**
   * An absolute address of the site outside its REST root (a record's `link`: a page of the front end), sent as it is
   * instead of `route` (and `query`), asking for text/html; the client refuses one on another origin than --base-url.
   */
  page?: string;
  query?: Record<string, unknown>;
  /** Already encoded query string (no `?`), e.g. from the contract's generators; goes after `query`. */
  rawQuery?: string;
  body?: BodyInput;
  headers?: Record<string, string>;
  /** Send the run's credentials (default: whenever the run has some); 'low': those of --low-auth-env's user instead. */
  auth?: boolean | 'low';
  /** Default: the style of the configured --api-root. */
  style?: RouteStyle;
  /** Another REST root of the same site (`/uk/wp-json`, a language's); default the configured --api-root. */
  apiRoot?: string;
  /** Required for methods other than GET, HEAD and OPTIONS. */
  intent?: Intent;
  /** Read at most this much of the answer's body (default: the client's maxBodyBytes). */
  maxBodyBytes?: number;
}

export interface Received {
  status: number;
  /** Lower-case names; repeated headers joined with ", " as HTTP allows. */
  headers: Record<string, string>;
  /** Already redacted (the run's secrets never reach a check). */
  body: string;
  /** Set when the body was longer than the client reads: `body` is only its beginning, and is not parsed. */
  bodyCut?: BodyCut;
  /** The body's length in bytes when `body` keeps only its beginning (a finding held past its answer: checks/kit/bodies.ts heldForm()). */
  bodyBytes?: number;
  /**
   * Whether the body parsed as JSON as it arrived, before redaction (a secret blanked inside a string can leave
   * text that no longer parses); set by the client when redaction changed a body it read whole.
   */
  arrivedAsJson?: boolean;
  /**
   * The JSON a `_jsonp` answer wraps (an empty comment, the callback, the JSON in parentheses: WP_REST_Server::serve_request()), set where the answer is
   * read (the client), so that every check reads the one JSON a client of the callback gets: jsonBody() parses it.
   * `body` stays the bytes as they came, for the report and for the checks of the wrapping itself.
   */
  payload?: string;
}

export interface BodyCut {
  /** The most the client reads of one body. */
  limitBytes: number;
  /** What the server's Content-Length announced, when it did. */
  declaredBytes?: number;
}

/** "the body was cut at 8 MiB ..." for messages about an answer whose body was too large to read. */
export function describeCut(cut: BodyCut): string {
  const declared = cut.declaredBytes !== undefined ? ` (Content-Length ${cut.declaredBytes})` : '';
  return `body too large: the answer's body is longer than the ${formatBytes(cut.limitBytes)} the suite reads of one body${declared}, so only its beginning was read and it was not parsed`;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

type TransportErrorKind =
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
  /** When the request went out, in milliseconds since the epoch; absent when it was never sent (refused, budget). */
  startedAt?: number;
}

/** Parsed JSON body (a `_jsonp` answer's payload), or undefined when it is not JSON (or was too large to read whole). */
export function jsonBody(r: Received | undefined): unknown {
  if (!r || r.bodyCut) return undefined;
  const text = r.payload ?? r.body;
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The callback a request asks its answer to be wrapped in, read as WordPress reads `$_GET['_jsonp']`: a value PHP
 * holds true (not "" or "0"). Undefined when it asks for none.
 */
export function jsonpCallback(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  // PHP's $_GET keeps the last of repeated names.
  const v = new URLSearchParams(url.slice(q + 1)).getAll('_jsonp').at(-1);
  return v === undefined || v === '' || v === '0' ? undefined : v;
}

/** The answer as every check reads it: a `_jsonp` answer with the JSON it wraps beside its body (see `payload`). */
export function readAnswer(url: string, r: Received): Received {
  const payload = r.bodyCut ? undefined : jsonpPayload(url, r.body);
  return payload === undefined ? r : { ...r, payload };
}

/**
 * What a `_jsonp` answer wraps: the text between the empty comment and callback with its `(`, and the last `)`, as serve_request() echoes it
 * around the JSON. Undefined when the body is not that wrapping of the callback the request named (WordPress echoes
 * its own refusals of a callback, rest_callback_invalid, unwrapped).
 */
function jsonpPayload(url: string, body: string): string | undefined {
  const callback = jsonpCallback(url);
  if (callback === undefined) return undefined;
  const prefix = `/**/${callback}(`;
  return body.startsWith(prefix) && body.endsWith(')') ? body.slice(prefix.length, -1) : undefined;
}
