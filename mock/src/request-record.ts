// What one request and its answer come to: a line (the mock's log, adapters/request-log.ts, and a row of GET
// /__mock/'s recent requests) and, for the recent ones, the exchange itself (GET /__mock/requests/<n>). For an error
// the WordPress code and, for rest_invalid_param and its kind, the parameters it names, read from the answer's own
// body. Everything shown goes through redact.ts: the query's and bodies' secrets and the credentials hidden.
import type { MockRequest, MockResponse } from './core/types.ts';
import { utf8Length } from '../../contracts/wordpress/bytes.ts';
import { bodyShown, headersShown, MAX_SHOWN_BODY_BYTES, urlShown, type BodyShown } from './redact.ts';

export interface RequestRecord {
  /** The request's number since the mock started (1, 2, ...), for its own page; 0 for one no ring kept. */
  id: number;
  /** ISO 8601, when the request arrived. */
  at: string;
  method: string;
  /** Path and query as sent, secrets hidden, cut at MAX_PATH characters. */
  path: string;
  status: number;
  /** WordPress's error code, for an answer of 400 and over with a WordPress error body. */
  code?: string;
  /** The parameters the error names (data.params), in its order. */
  params?: string[];
  /** How long the answer took, in milliseconds, from a high-resolution clock. */
  ms: number;
  /** The played deviation (--deviations) that shaped the answer. */
  deviation?: string;
}

const MAX_PATH = 300;
/** Error bodies larger than this are not read for their code: an error envelope is a few hundred bytes. */
const MAX_ERROR_BODY = 64 * 1024;

/** The error code and named parameters of a WordPress error answer; nothing for success or another body. */
export function errorOf(res: MockResponse): { code?: string; params?: string[] } {
  if (res.status < 400 || typeof res.body !== 'string' || res.body.length > MAX_ERROR_BODY || !res.body.startsWith('{')) return {};
  try {
    const body = JSON.parse(res.body) as { code?: unknown; data?: { params?: unknown } };
    const out: { code?: string; params?: string[] } = {};
    if (typeof body.code === 'string') out.code = body.code;
    const params = body.data?.params;
    if (params && typeof params === 'object' && !Array.isArray(params)) out.params = Object.keys(params);
    return out;
  } catch {
    return {};
  }
}

export function recordOf(req: MockRequest, res: MockResponse, at: Date, ms: number): RequestRecord {
  const shown = urlShown(req.url.length > MAX_PATH * 4 ? req.url.slice(0, MAX_PATH * 4) : req.url);
  const path = shown.length > MAX_PATH ? `${shown.slice(0, MAX_PATH)}…` : shown;
  return { id: 0, at: at.toISOString(), method: req.method.toUpperCase(), path, status: res.status, ...errorOf(res), ms, ...(res.deviation ? { deviation: res.deviation } : {}) };
}

/** A duration as people read it: `0.04 ms`, `0.4 ms`, `3.2 ms`, `12 ms`, `1530 ms`. */
export function formatMs(ms: number): string {
  if (ms < 0.1) return `${ms.toFixed(2)} ms`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** A body as kept: the body itself when small enough to show, else only that it was larger. */
interface KeptBody {
  body?: string | Uint8Array;
  /** Its length (characters or bytes): its size is counted when it is shown, not for every request. */
  length: number;
  contentType?: string;
}

function keep(body: string | Uint8Array | undefined, contentType: string | undefined): KeptBody {
  const length = body === undefined ? 0 : body.length;
  // A small body is kept as it is (a reference, not a copy: the request read it whole, the answer is built whole);
  // a larger one only by its length, so the ring holds at most a few MB however large the bodies.
  return { length, ...(body !== undefined && length <= MAX_SHOWN_BODY_BYTES ? { body } : {}), ...(contentType !== undefined ? { contentType } : {}) };
}

/** Its size in bytes when kept; when not, its length, which a larger size only passes. */
function bytesOf(kept: KeptBody): number {
  if (kept.body === undefined) return kept.length;
  return typeof kept.body === 'string' ? utf8Length(kept.body) : kept.body.byteLength;
}

/** A recent request with what it takes to show the exchange: headers as sent, bodies up to the shown size. */
interface KeptExchange {
  record: RequestRecord;
  url: string;
  requestHeaders: Readonly<Record<string, string | undefined>>;
  requestBody: KeptBody;
  responseHeaders: Readonly<Record<string, string>>;
  responseBody: KeptBody;
}

/** A recent request as its page shows it, every part through redact.ts. */
export interface RequestDetail {
  record: RequestRecord;
  /** Path and query, secrets hidden, whole (up to the request line's own bound). */
  url: string;
  /** The query's parameters as sent (names and values decoded), secrets hidden. */
  query: [string, string][];
  requestHeaders: [string, string][];
  requestBody?: BodyShown;
  requestBytes: number;
  responseHeaders: [string, string][];
  responseBody?: BodyShown;
  responseBytes: number;
}

function queryOf(url: string): [string, string][] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  return [...new URLSearchParams(url.slice(q + 1)).entries()];
}

function detailOf(e: KeptExchange): RequestDetail {
  const url = urlShown(e.url);
  const requestBytes = bytesOf(e.requestBody);
  const responseBytes = bytesOf(e.responseBody);
  return {
    record: e.record,
    url,
    query: queryOf(url),
    requestHeaders: headersShown(e.requestHeaders),
    ...optional('requestBody', bodyShown(e.requestBody.body, e.requestBody.contentType, requestBytes)),
    requestBytes,
    responseHeaders: headersShown(e.responseHeaders),
    ...optional('responseBody', bodyShown(e.responseBody.body, e.responseBody.contentType, responseBytes)),
    responseBytes,
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** The last `capacity` requests, newest first, numbered from 1; older ones drop off, so the memory it takes is bounded. */
export class RequestRing {
  readonly #items: KeptExchange[] = [];
  #next = 1;
  constructor(readonly capacity = 50) {}
  /** Keeps `record` (numbering it) with its exchange. */
  push(record: RequestRecord, req: MockRequest, res: MockResponse): void {
    record.id = this.#next++;
    const body = res.body === '' && res.bodyBytes ? res.bodyBytes : res.body;
    this.#items.unshift({
      record,
      url: req.url,
      requestHeaders: req.headers,
      requestBody: keep(req.body, req.headers['content-type']),
      responseHeaders: res.headers,
      responseBody: keep(body, res.headers['Content-Type']),
    });
    if (this.#items.length > this.capacity) this.#items.length = this.capacity;
  }
  list(): RequestRecord[] {
    return this.#items.map((e) => e.record);
  }
  /** Request `id` as its page shows it, or undefined when it is no longer kept (or never was). */
  detail(id: number): RequestDetail | undefined {
    const found = this.#items.find((e) => e.record.id === id);
    return found ? detailOf(found) : undefined;
  }
}
