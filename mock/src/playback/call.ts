// A request as playback matches it: the operation it reaches and the parameters it carries, read by the mock's own
// wire reader (wire/request.ts), for a recorded request of a report and a live request alike: one reading for both.
import type { Contract } from '../../../contracts/lib/contract.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { parseRequest } from '../wire/request.ts';

export interface Call {
  op: Operation;
  /** Path parameters by name (`id`), as routed. */
  pathParams: Record<string, string>;
  /** Query and body parameters by top-level name (`categories[0]` → `categories`), their values as text. */
  params: Map<string, string>;
  /** The request carried credentials (an Authorization header): a site answers the anonymous otherwise. */
  signedIn: boolean;
}

/** WordPress's own global parameters: they shape how an answer is sent, not which answer; left out of a shape. */
const GLOBALS = new Set(['_fields', '_embed', '_envelope', '_jsonp', '_pretty', '_method', 'rest_route', '_locale']);

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');

export function callOf(contract: Contract, req: { method: string; url: string; headers: Readonly<Record<string, string | undefined>>; body?: string | Uint8Array }): Call | undefined {
  const parsed = parseRequest({ method: req.method, url: req.url, headers: req.headers, body: req.body });
  if (!parsed) return undefined;
  const m = contract.match(parsed.method === 'HEAD' ? 'GET' : parsed.method, parsed.route);
  if (m.kind !== 'match') return undefined;
  const params = new Map<string, string>();
  for (const source of [parsed.query, parsed.bodyParams ?? {}]) {
    for (const [k, v] of Object.entries(source)) if (!GLOBALS.has(k)) params.set(k, text(v));
  }
  const signedIn = Object.keys(req.headers).some((h) => h.toLowerCase() === 'authorization');
  return { op: m.operation, pathParams: m.pathParams, params, signedIn };
}
