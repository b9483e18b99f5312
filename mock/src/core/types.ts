import type { Operation } from '../../../contracts/lib/types.ts';

// The mock's core speaks plain data: a request in, a response out. Adapters (node:http, MSW) translate their own
// request objects into these, so the same core serves a port, a test's fetch, or a benchmark in-process.

/** An HTTP request as the wire delivered it, before any WordPress reading. */
export interface MockRequest {
  method: string;
  /** Path and query exactly as on the request line: `/uk/wp-json/cal/v1/events?page=2`. */
  url: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Raw body bytes (or text); absent when the request had none. */
  body?: string | Uint8Array;
  /**
   * The body's text, when the adapter decoded the bytes as they arrived (only when they are valid UTF-8): the core
   * takes it instead of decoding `body` again, at once (node-http.ts does so for bodies of 256 KiB or more).
   */
  text?: string;
  /**
   * The site URL the adapter serves (`http://127.0.0.1:4010`): the node adapter's listening address, MSW's `origin`
   * option or the intercepted URL's origin. Links are built on it when the mock was given no `siteUrl`. An adapter
   * never fills it from the Host header.
   */
  origin?: string;
  /** The adapter stopped reading a body larger than its limit; `body` is then absent. */
  oversize?: boolean;
  /**
   * The client's address as the adapter saw the connection (never a header): with the credentials, who the request
   * is from, for the bounds shared between clients (core/byte-budget.ts). Absent in process: one client.
   */
  client?: string;
}

export interface MockResponse {
  status: number;
  /** Header names in their canonical case, in the order WordPress sends them. */
  headers: Record<string, string>;
  /** '' for HEAD and for answers without a body. */
  body: string;
  /** `body` as UTF-8 bytes, when the core already has them (cached answers): adapters may send these instead. */
  bodyBytes?: Uint8Array;
  /**
   * The request was dispatched as a safe method (GET, HEAD, OPTIONS: RFC 9110 §9.2.1): it changed nothing, so asking
   * again is harmless, and an adapter short of room may answer 503 instead of this (answer-budget.ts). Absent: the
   * answer must go out (a write happened, or may have).
   */
  safe?: true;
  /** How long the adapter should hold the answer (`--latency`, `Prefer: latency=`); the core never sleeps. */
  delayMs?: number;
  /**
   * A held answer's place among those held at once (held.ts): the adapter calls this once the answer is sent or
   * dropped because its client left. Calling it again does nothing.
   */
  release?: () => void;
  /** The id of the played deviation (playback/stage.ts) that shaped this answer, for the log line and the page. */
  deviation?: string;
  /** The operation that answered (pipeline.ts): what a write that cannot be saved is refused as (commit-trace.ts). */
  operation?: Pick<Operation, 'kind' | 'resource'>;
  /**
   * A batch's answer: for each entry of its `responses`, the versions its item's commits lie in (from, to] and the
   * item's operation, or undefined for an item that ran no write. With a state file, an item whose write was undone
   * is answered as refused, the others as they ran (assemble.ts).
   */
  items?: readonly (ItemWrites | undefined)[];
}

/**
 * What a played deviation (playback/stage.ts) asks of the pipeline for one request, so that its answer is built,
 * encoded and headed as every other answer of the mock (stages/respond.ts), not beside it.
 */
export interface Played {
  /** The site's recorded answer, answered in place of the operation's (as a forced error is: pipeline.ts). */
  answer?: { status: number; body: string; contentType: string };
  /**
   * Edits of a success's data before it is answered: each returns the edited copy, or undefined when it changed
   * nothing (the data is shared with the handlers' memos and must not be written to). Those that changed it tag the
   * answer (MockResponse.deviation).
   */
  edits?: readonly { id: string; edit(data: unknown): unknown }[];
}

export interface ItemWrites {
  from: number;
  to: number;
  operation?: Pick<Operation, 'kind' | 'resource'>;
}

/** Side effects the core needs, passed in so tests and benchmarks control them. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
