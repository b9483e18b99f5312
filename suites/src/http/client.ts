// The one way the suite talks to a target: a keep-alive undici Pool per target, a timeout on every
// request, a rate limit, a request budget, a write policy that no check can get around, and a breaker
// that stops the run when the target stops answering, so that a dead or stalled site ends in a
// report instead of a hang. Answers are read up to a byte limit (whatever the target sends, memory
// stays bounded) and redacted as they arrive, before anything can cut them.

import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Pool, type Dispatcher } from 'undici';
import type { RecordedRequest } from '../report/model.ts';
import { collectCredentialValues, createRedactor, REDACTED, type Redactor } from '../report/redact.ts';
import { encodeBody, encodeQuery } from './encode.ts';
import { systemClock, unlimited, type Clock, type RateLimiter } from './rate.ts';
import { routeUrl, type Target } from './target.ts';
import { readAnswer, SAFE_METHODS, type BodyCut, type Exchange, type Intent, type Outgoing, type Received, type TransportError } from './types.ts';

/**
 * - none: --read-only; only GET, HEAD and OPTIONS leave the suite.
 * - probes: no credentials; write methods only for requests built to be rejected (and for removing
 *   what a wrongly accepted probe created).
 * - all: credentials given; the suite may create, change and delete its own records.
 */
export type WritePolicy = 'none' | 'probes' | 'all';

export interface ClientOptions {
  target: Target;
  /** `user:application-password`, sent as HTTP Basic. */
  credentials?: string;
  /** --low-auth-env: a user with fewer rights, sent instead on requests that ask for it (`auth: 'low'`). */
  lowCredentials?: string;
  timeoutMs: number;
  maxRequests: number;
  writes: WritePolicy;
  limiter?: RateLimiter;
  clock?: Clock;
  /** The time of day (ms since the epoch) a request is sent at, for the reports; default Date.now. */
  wallClock?: () => number;
  /** Stops everything in flight (Ctrl-C). */
  signal?: AbortSignal;
  /** For tests; by default a Pool on the target's origin. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  /** Sent on every request (-H/--header); a request's own headers (a check's Origin...) win over them. */
  headers?: Readonly<Record<string, string>>;
  /** Transport failures in a row after which the target counts as down; cleanup obeys it too. */
  maxConsecutiveFailures?: number;
  /** Bodies beyond this are cut (a runaway response must not exhaust memory). */
  maxBodyBytes?: number;
  /** Secrets besides `credentials` to redact from every answer, and more credential header names. */
  redact?: { secrets?: readonly string[]; secretHeaders?: readonly string[] };
  onExchange?: (e: Exchange) => void;
}

export interface HttpClient {
  send(o: Outgoing): Promise<Exchange>;
  /** Requests sent so far (cleanup included). */
  readonly sent: number;
  readonly down: boolean;
  readonly hasCredentials: boolean;
  readonly hasLowCredentials: boolean;
  readonly writes: WritePolicy;
  readonly target: Target;
  close(): Promise<void>;
}

/** The most of one answer's body the suite reads: well above a page of 100 records, far below trouble. */
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

function allowed(method: string, intent: Intent | undefined, writes: WritePolicy): string | undefined {
  if (SAFE_METHODS.has(method)) return undefined;
  if (writes === 'none') return `--read-only: ${method} is not sent`;
  if (intent === undefined || intent === 'read') return `${method} needs an intent (probe, write or cleanup)`;
  if (writes === 'probes' && intent === 'write') return `no credentials: ${method} that would change the target is not sent`;
  return undefined;
}

/** The Authorization header of `user:password` credentials, as the client sends them (UTF-8, Basic). */
export function basicAuthHeader(credentials: string): string {
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

export function createClient(options: ClientOptions): HttpClient {
  const clock = options.clock ?? systemClock;
  const limiter = options.limiter ?? unlimited;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const secrets = [...(options.credentials ? [options.credentials] : []), ...(options.lowCredentials ? [options.lowCredentials] : []), ...(options.redact?.secrets ?? [])];
  const redactOptions = options.redact?.secretHeaders ? { secretHeaders: options.redact.secretHeaders } : {};
  const redactor = createRedactor(secrets, redactOptions);
  const maxFailures = options.maxConsecutiveFailures ?? 5;
  const origin = new URL(options.target.baseUrl).origin;
  const dispatcher =
    options.dispatcher ??
    new Pool(origin, {
      connections: 8,
      keepAliveTimeout: 10_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: { timeout: options.timeoutMs },
    });
  const authHeader = options.credentials ? basicAuthHeader(options.credentials) : undefined;
  const lowAuthHeader = options.lowCredentials ? basicAuthHeader(options.lowCredentials) : undefined;
  let sent = 0;
  let failuresInRow = 0;
  let down = false;

  const fail = (request: RecordedRequest, error: TransportError, started: number, startedAt?: number): Exchange => {
    const e: Exchange = { request, error, durationMs: clock.now() - started, ...(startedAt !== undefined ? { startedAt } : {}) };
    options.onExchange?.(e);
    return e;
  };

  const send = async (o: Outgoing): Promise<Exchange> => {
    const started = clock.now();
    const query = [o.query ? encodeQuery(o.query) : '', o.rawQuery ?? ''].filter((q) => q !== '').join('&');
    const url = o.page ?? routeUrl(o.apiRoot ? { ...options.target, apiRoot: o.apiRoot } : options.target, o.route, query, o.style);
    // identity: without Accept-Encoding any coding is acceptable (RFC 9110 §12.5.3), and checks read bodies as sent.
    const headers: Record<string, string> = { Accept: o.page ? 'text/html' : 'application/json', 'Accept-Encoding': 'identity', 'User-Agent': options.userAgent ?? 'site-contracts' };
    let bodyText: string | undefined;
    if (o.body) {
      const b = encodeBody(o.body);
      bodyText = b.text;
      headers['Content-Type'] = b.contentType;
    }
    for (const extra of [options.headers, o.headers]) for (const [name, value] of Object.entries(extra ?? {})) setHeader(headers, name, value);
    const auth = o.auth === 'low' ? lowAuthHeader : o.auth !== false ? authHeader : undefined;
    if (auth) headers['Authorization'] = auth;
    const request: RecordedRequest = { method: o.method, url, headers, ...(bodyText !== undefined ? { body: bodyText } : {}) };

    const refusal = allowed(o.method, o.intent, options.writes) ?? (o.page !== undefined && !sameOrigin(o.page, options.target.baseUrl) ? `${o.page} is not on the target's origin (${options.target.baseUrl}): the suite sends nowhere else` : undefined);
    if (refusal) return fail(request, { kind: 'refused', message: refusal }, started);
    // Cleanup runs because the run was stopped, so the stop must not stop it (the timeout still does).
    const cleanup = o.intent === 'cleanup';
    const runSignal = cleanup ? undefined : options.signal;
    if (runSignal?.aborted) return fail(request, { kind: 'aborted', message: 'the run was stopped' }, started);
    // Cleanup too: against a stalled target, every cleanup request would otherwise wait its full timeout.
    if (down) return fail(request, { kind: 'down', message: 'the target stopped answering; request not sent' }, started);
    if (!cleanup && sent >= options.maxRequests) {
      return fail(request, { kind: 'budget', message: `request budget of ${options.maxRequests} (--max-requests) used up; request not sent` }, started);
    }
    try {
      await limiter.take(runSignal);
    } catch {
      return fail(request, { kind: 'aborted', message: 'the run was stopped' }, started);
    }
    sent++;
    const startedAt = (options.wallClock ?? Date.now)();

    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = runSignal ? AbortSignal.any([runSignal, timeout]) : timeout;
    const parsed = new URL(url);
    try {
      const res = await dispatcher.request({
        origin,
        path: parsed.pathname + parsed.search,
        method: o.method,
        headers,
        ...(bodyText !== undefined ? { body: bodyText } : {}),
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const limit = o.maxBodyBytes ?? maxBody;
      const answered = flatHeaders(res.headers);
      const declared = Number(answered['content-length']);
      // A body announced longer than the limit is cut whatever follows, and a cut body is never parsed: its
      // beginning is all a report shows, so that much is read and the rest is not waited for.
      const announcedTooLong = Number.isSafeInteger(declared) && declared > limit;
      const read = decode(await readBody(res.body, announcedTooLong ? Math.min(limit, CUT_BODY_KEPT_BYTES) : limit), answered['content-encoding'], limit);
      if (announcedTooLong) read.cut = true;
      const cut: BodyCut | undefined = read.cut ? { limitBytes: limit, ...(Number.isSafeInteger(declared) ? { declaredBytes: declared } : {}) } : undefined;
      const redacted = redactAnswer({ status: res.statusCode, headers: answered, body: read.text, ...(cut ? { bodyCut: cut } : {}) }, redactor, secrets, redactOptions);
      // The one reading of an answer every check gets (a `_jsonp` answer's JSON beside its body).
      const answer = readAnswer(url, redacted);
      // Parsed here only when redaction changed the body; otherwise the body checks see is the one that arrived.
      const response = !cut && redacted.body !== read.text ? { ...answer, arrivedAsJson: parses(readAnswer(url, { ...redacted, body: read.text }).payload ?? read.text) } : answer;
      failuresInRow = 0;
      const e: Exchange = { request, response, durationMs: clock.now() - started, startedAt };
      options.onExchange?.(e);
      return e;
    } catch (err) {
      const error = classify(err, options.timeoutMs, runSignal, timeout);
      if (error.kind === 'timeout' || error.kind === 'connect') {
        failuresInRow++;
        if (failuresInRow >= maxFailures) down = true;
      }
      return fail(request, error, started, startedAt);
    }
  };

  return {
    send,
    get sent() {
      return sent;
    },
    get down() {
      return down;
    },
    hasCredentials: authHeader !== undefined,
    hasLowCredentials: lowAuthHeader !== undefined,
    writes: options.writes,
    target: options.target,
    close: async () => {
      if (!options.dispatcher) await dispatcher.close().catch(() => {});
    },
  };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** HTTP header names are case-insensitive: a later `user-agent` replaces the default `User-Agent`, not joins it. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const k of Object.keys(headers)) if (k.toLowerCase() === lower) delete headers[k];
  headers[name] = value;
}

/**
 * How much of a cut body an answer keeps: checks never parse one, and reports show its first 4 KiB. Keeping all
 * 8 MiB of each made findings that a check holds until its operation ends (identifiers.ts) cost 8 MiB apiece:
 * 806 MiB for a run of 300 requests against a target answering 9 MB everywhere.
 */
export const CUT_BODY_KEPT_BYTES = 64 * 1024;

/** Reads at most `max` bytes and stops the stream there, so a runaway body is never held whole. */
async function readBody(body: AsyncIterable<Buffer | Uint8Array> & { destroy?: (e?: Error) => unknown }, max: number): Promise<{ text: string; cut: boolean; bytes: Buffer }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (size + b.length > max) {
      chunks.push(b.subarray(0, max - size));
      body.destroy?.();
      // Copied, so that the string kept does not pin the 8 MiB it was cut from.
      const kept = Buffer.from(Buffer.concat(chunks).subarray(0, CUT_BODY_KEPT_BYTES));
      return { text: kept.toString('utf8'), cut: true, bytes: kept };
    }
    chunks.push(b);
    size += b.length;
  }
  const bytes = Buffer.concat(chunks);
  return { text: bytes.toString('utf8'), cut: false, bytes };
}

const DECODERS: Record<string, (b: Buffer, o: { maxOutputLength: number }) => Buffer> = { gzip: gunzipSync, 'x-gzip': gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

/**
 * A body the target compressed although asked not to, decompressed to at most `max` bytes: a gzip bomb ends
 * as a cut body, never as memory. One that does not decompress stays as it came (and is not JSON).
 */
function decode(read: { text: string; cut: boolean; bytes: Buffer }, encoding: string | undefined, max: number): { text: string; cut: boolean } {
  const decoder = DECODERS[(encoding ?? '').trim().toLowerCase()];
  if (!decoder || read.cut) return read;
  try {
    return { text: decoder(read.bytes, { maxOutputLength: max }).toString('utf8'), cut: false };
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) return { text: '', cut: true };
    return read;
  }
}

/**
 * The answer as checks and reports get it: the run's secrets redacted from headers and body, values of
 * credential headers (Set-Cookie...) blanked and redacted wherever the body echoes them. A body the
 * read cut short also loses a secret the cut left only the beginning of.
 */
function redactAnswer(r: Received, redactor: Redactor, secrets: readonly string[], options: { secretHeaders?: readonly string[] }): Received {
  const echoed = collectCredentialValues(r.headers, options);
  const using = echoed.length > 0 ? createRedactor([...secrets, ...echoed], options) : redactor;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) headers[k] = using.isSecretHeader(k) && v !== '' ? REDACTED : using.text(v);
  return { ...r, headers, body: r.bodyCut ? using.cut(r.body) : using.text(r.body) };
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function classify(err: unknown, timeoutMs: number, runSignal: AbortSignal | undefined, timeout: AbortSignal): TransportError {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (runSignal?.aborted) return { kind: 'aborted', message: 'the run was stopped' };
  if (timeout.aborted || (code && TIMEOUT_CODES.has(code))) {
    return { kind: 'timeout', message: `no answer within ${timeoutMs} ms (--timeout-ms)` };
  }
  if (code && CONNECT_CODES.has(code)) return { kind: 'connect', message: `${code}: ${e.cause?.message ?? e.message ?? ''}`.trim() };
  return { kind: 'other', message: `${e.name ?? 'Error'}: ${e.message ?? String(err)}` };
}

/** Whether an address is on the origin (scheme, host, port) of the target's base URL. */
function sameOrigin(address: string, baseUrl: string): boolean {
  try {
    return new URL(address).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}
