// What one request and its answer come to in a line: the mock's log (adapters/request-log.ts) prints it, and the
// recent-requests ring of the mock's page (GET /__mock/) keeps the last few. For an error the WordPress code and,
// for rest_invalid_param and its kind, the parameters it names, read from the answer's own body.
import type { MockRequest, MockResponse } from './core/types.ts';

export interface RequestRecord {
  /** ISO 8601, when the request arrived. */
  at: string;
  method: string;
  /** Path and query as sent, cut at MAX_PATH characters. */
  path: string;
  status: number;
  /** WordPress's error code, for an answer of 400 and over with a WordPress error body. */
  code?: string;
  /** The parameters the error names (data.params), in its order. */
  params?: string[];
  ms: number;
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
  const path = req.url.length > MAX_PATH ? `${req.url.slice(0, MAX_PATH)}…` : req.url;
  return { at: at.toISOString(), method: req.method.toUpperCase(), path, status: res.status, ...errorOf(res), ms };
}

/** The last `capacity` records, newest first; older ones drop off, so the memory it takes is bounded. */
export class RequestRing {
  readonly #items: RequestRecord[] = [];
  constructor(readonly capacity = 50) {}
  push(r: RequestRecord): void {
    this.#items.unshift(r);
    if (this.#items.length > this.capacity) this.#items.length = this.capacity;
  }
  list(): readonly RequestRecord[] {
    return this.#items;
  }
}
