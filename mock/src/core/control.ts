// The mock's own control routes under /__mock/ (reset, state): not WordPress, so they answer in its error shape but
// by their own rules. Under --auth they change or reveal the whole store, so only an administrator's credentials
// (manage_options) open them. They may be called from a page on another origin, but never with the browser's
// credentials: `Access-Control-Allow-Origin: *` and no Access-Control-Allow-Credentials, so a page can read an answer
// only for a request it authorised itself with an explicit Authorization header.
import { userCan, type User } from '../auth/capabilities.ts';
import type { MockRequest, MockResponse } from './types.ts';
import { wpError } from '../wire/errors.ts';

export interface ControlRoute {
  method: 'GET' | 'POST';
  /**
   * JSON `body`, or `text` of `contentType` (the mock's pages and their script and style). `id` is the last segment
   * of a route that takes one (`/__mock/requests/12`).
   */
  run(id?: string): { status: number; body?: unknown; text?: string; contentType?: string; headers?: Record<string, string> };
  /** The route is `/__mock/<name>/<id>`, and only that. */
  takesId?: boolean;
  /** A page for a browser: under --auth a refusal asks the browser for credentials (WWW-Authenticate). */
  page?: boolean;
}

interface ControlOptions {
  routes: Readonly<Record<string, ControlRoute>>;
  authRequired: boolean;
  /** Who the request's credentials name; asked only when a route needs to know. */
  user: () => User | undefined;
}

export const CONTROL_PREFIX = '/__mock';

/** The control action a path names (`/__mock/reset/` → `reset`), without a regular expression over the client's path. */
export function controlAction(path: string): string | undefined {
  if (path !== CONTROL_PREFIX && !path.startsWith(`${CONTROL_PREFIX}/`)) return undefined;
  let end = path.length;
  while (end > CONTROL_PREFIX.length && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(CONTROL_PREFIX.length + 1, end);
}

const ALLOW_HEADERS = 'Authorization, Content-Type, Prefer';

function answer(status: number, body: unknown, headers: Record<string, string>, req: MockRequest): MockResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers: { ...headers, ...(text ? { 'Content-Type': 'application/json; charset=UTF-8' } : {}) }, body: req.method.toUpperCase() === 'HEAD' ? '' : text };
}

function decodedId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function controlAnswer(req: MockRequest, action: string, opts: ControlOptions): MockResponse {
  const method = req.method.toUpperCase();
  // Readable from another origin, never with the browser's credentials (no reflected Origin, no Allow-Credentials).
  const cors: Record<string, string> = req.headers.origin ? { 'Access-Control-Allow-Origin': '*' } : {};
  const slash = action.indexOf('/');
  const name = slash < 0 ? action : action.slice(0, slash);
  // An id as a client writes it into a URL: a deviation's `kind:operation:...` arrives as `kind%3Aoperation%3A...` from
  // encodeURIComponent (and from curl scripts built on it); a malformed escape is kept as sent and names nothing.
  const id = slash < 0 ? undefined : decodedId(action.slice(slash + 1));
  const found = Object.hasOwn(opts.routes, name) ? opts.routes[name] : undefined;
  const route = found && (found.takesId === true) === (id !== undefined && id !== '' && !id.includes('/')) ? found : undefined;
  if (!route) {
    const known = Object.entries(opts.routes).map(([key, r]) => `${r.method} ${CONTROL_PREFIX}/${key}${r.takesId ? '/<n>' : ''}`).join(', ');
    return answer(404, wpError('mock_no_control_route', `No control route ${CONTROL_PREFIX}/${action}. Known: ${known}.`, { status: 404 }).body, cors, req);
  }
  const allow = `${route.method}, OPTIONS`;
  if (method === 'OPTIONS') {
    const preflight: Record<string, string> = req.headers.origin ? { 'Access-Control-Allow-Methods': allow, 'Access-Control-Allow-Headers': ALLOW_HEADERS } : {};
    return answer(204, undefined, { ...cors, ...preflight, Allow: allow }, req);
  }
  if (method !== route.method && !(method === 'HEAD' && route.method === 'GET')) {
    return answer(405, wpError('mock_method_not_allowed', `${CONTROL_PREFIX}/${action} answers ${route.method} only.`, { status: 405 }).body, { ...cors, Allow: allow }, req);
  }
  if (opts.authRequired) {
    const user = opts.user();
    if (!userCan(user, 'manage_options')) {
      // rest_authorization_required_code(): 401 for nobody, 403 for a user who may not.
      const status = user ? 403 : 401;
      const challenge: Record<string, string> = route.page && status === 401 ? { 'WWW-Authenticate': 'Basic realm="site-contracts mock"' } : {};
      return answer(status, wpError('rest_forbidden', 'Sorry, you are not allowed to do that.', { status }).body, { ...cors, ...challenge }, req);
    }
  }
  const out = route.run(id);
  if (out.text !== undefined) {
    return { status: out.status, headers: { ...cors, ...out.headers, 'Content-Type': out.contentType ?? 'text/plain; charset=UTF-8' }, body: method === 'HEAD' ? '' : out.text };
  }
  return answer(out.status, out.body, cors, req);
}
