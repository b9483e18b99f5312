// WP_REST_Server::serve_request() for the mock: raw request in, bytes out. Parses the request like PHP and
// WordPress do (wire/request.ts), honours the mock's own aids (`Prefer: code=`, `Prefer: latency=`, the control
// routes under /__mock/), dispatches, then applies `_fields`, `_embed`, `_envelope`, `_jsonp`, `_pretty` and the
// headers WordPress sends, in its order.
import type { Contract } from '../../../contracts/src/loader.ts';
import type { Lang } from '../store/model.ts';
import type { Store } from '../store/store.ts';
import { criticalError, jsonpCallbackInvalid, noRoute, payloadTooLarge, prefer as preferError, type WpErrorResponse } from '../wire/errors.ts';
import { embedLinks, envelope, filterFields, isFieldIncluded } from '../wire/envelope.ts';
import { responseHeaders, type HeaderList } from '../wire/headers.ts';
import { wpJsonEncode } from '../wire/php.ts';
import { apacheRejection, parseRequest, type ParsedRequest } from '../wire/request.ts';
import { readRequest } from './parse.ts';
import type { Discovery } from '../handlers/discovery.ts';
import type { HandlerCtx, Reply, Rng } from '../handlers/context.ts';
import { fastJson } from './json.ts';
import { allowFor, dispatch, langOf, type DispatchEnv, type Dispatched } from './dispatch.ts';
import { authenticate, type User } from './permissions.ts';
import { controlAction, controlAnswer, type ControlRoute } from './control.ts';
import { frontEndAnswer, type FrontEndSite } from './front-end.ts';
import type { RouteTable } from './routes.ts';
import type { Clock, MockRequest, MockResponse } from './types.ts';
import type { Operation } from '../../../contracts/src/types.ts';
import { utf8Encode } from '../bytes.ts';

export { fastJson } from './json.ts';

export interface CoreOptions {
  contract: Contract;
  table: RouteTable;
  discovery: Discovery;
  store: Store;
  /** Handler of an operation (undefined: the route answers rest_no_route). */
  route: (op: Operation) => ((ctx: HandlerCtx) => Reply) | undefined;
  authRequired: boolean;
  latencyMs: number;
  clock: Clock;
  rng: Rng;
  /** Used when the request does not say which host it reached (no Host header, no adapter origin). */
  siteUrl: string;
  maxBodyBytes: number;
  /** The site behind the front-end pages (everything outside the REST API). */
  frontEnd: FrontEndSite;
  /** The mock's control routes by action (`reset` for `/__mock/reset`). */
  control: Readonly<Record<string, ControlRoute>>;
  /** Serve repeated identical reads from a cache emptied by every write (default true). */
  responseCache?: boolean;
  /** Called when a handler throws: the answer is WordPress's critical-error 500, the error goes here. */
  onError?: (err: unknown) => void;
}

interface Prefer {
  code?: number;
  latency?: number;
}

/** RFC 7240 `Prefer: code=404, latency=300` (Prism's names); unknown preferences are ignored. */
export function parsePrefer(header: string | undefined): Prefer {
  const out: Prefer = {};
  if (!header) return out;
  for (const part of header.split(/[,;]/)) {
    const m = /^\s*(code|latency)\s*=\s*"?(\d{1,6})"?\s*$/i.exec(part);
    if (!m) continue;
    const n = Number(m[2]);
    if (m[1]!.toLowerCase() === 'code' && n >= 100 && n <= 599) out.code = n;
    if (m[1]!.toLowerCase() === 'latency' && n <= 600_000) out.latency = n;
  }
  return out;
}

function htmlNotFound(status: number): MockResponse {
  const body = `<!DOCTYPE html><html><head><title>${status === 400 ? 'Bad Request' : 'Not Found'}</title></head><body><h1>${status === 400 ? 'Bad Request' : 'Not Found'}</h1><p>This mock serves the REST interface under /wp-json/ (also /uk/wp-json/ and /?rest_route=/).</p></body></html>\n`;
  return { status, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body };
}

function toRecord(list: HeaderList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of list) out[k] = k in out ? `${out[k]}, ${v}` : v;
  return out;
}

export function createCore(opts: CoreOptions): { handle(req: MockRequest): MockResponse } {
  const languages = new Set(['en', 'uk']);

  const envFor = (req: ParsedRequest, origin: string, user: User | undefined): DispatchEnv => {
    const urlLang = req.language && languages.has(req.language) ? (req.language as Lang) : undefined;
    const apiRoot = `${origin}${urlLang ? `/${urlLang}` : ''}/wp-json/`;
    const env: DispatchEnv = {
      contract: opts.contract,
      table: opts.table,
      store: opts.store,
      links: { apiRoot, home: origin },
      user,
      authRequired: opts.authRequired,
      now: opts.clock.now(),
      rng: opts.rng,
      route: opts.route,
      subrequest: (href) => {
        if (!href.startsWith(apiRoot)) return undefined;
        const inner = parseRequest({ method: 'GET', url: `/wp-json/${href.slice(apiRoot.length)}`, headers: {} });
        if (!inner) return undefined;
        inner.method = 'GET';
        const d = dispatch(inner, { ...env });
        return d.data;
      },
    };
    // Set afterwards rather than spread into the literal: V8 adds the properties after a spread slowly.
    if (urlLang) env.urlLang = urlLang;
    return env;
  };

  const finish = (
    req: ParsedRequest,
    d: Dispatched,
    ctx: { env: DispatchEnv; origin: string; user: User | undefined; delayMs: number },
  ): MockResponse => {
    const g = req.globals;
    let status = d.status;
    let data = d.data;
    let own = d.headers;
    // The handler's own encoding is the answer when nothing reshapes the data.
    let encoded = !g._fields && !g._embed && !g._envelope && !g._pretty ? (typeof d.json === 'function' ? d.json() : d.json) : undefined;
    if (!d.error && !d.raw && encoded === undefined) {
      const fields = g._fields;
      // Controllers add _links only when they are wanted (rest_is_field_included('_links' | '_embedded')).
      const wantLinks = d.linksAlways === true || isFieldIncluded('_links', fields) || isFieldIncluded('_embedded', fields);
      if (fields) data = filterFields(data, wantLinks ? [...fields, '_links'] : fields, status);
      if (g._embed && wantLinks) data = embedLinks(data, g._embed, ctx.env.subrequest);
      if (fields && !d.linksAlways && !isFieldIncluded('_links', fields)) data = stripLinks(data);
    }
    let raw = d.raw;
    if (g._envelope) {
      const e = envelope(data, status, own);
      status = e.status;
      data = e.body;
      own = [];
      raw = undefined;
      encoded = undefined;
    }
    const jsonp = g._jsonp?.valid ? g._jsonp.callback : null;
    let body: string;
    let contentType: string | undefined;
    if (raw) {
      body = raw.text;
      contentType = raw.contentType;
    } else if (status === 204 || data === null || data === undefined) body = '';
    else {
      const json = encoded ?? (g._pretty ? wpJsonEncode(data, { pretty: true }) : fastJson(data));
      body = jsonp ? `/**/${jsonp}(${json})` : json;
    }
    const list = responseHeaders({
      apiRoot: ctx.env.links.apiRoot,
      status,
      originalMethod: req.originalMethod,
      origin: req.headers.origin,
      requestedHeaders: req.originalMethod === 'OPTIONS' ? req.headers['access-control-request-headers'] : undefined,
      loggedIn: ctx.user !== undefined,
      methodOverridden: req.methodOverridden,
      jsonp: jsonp !== null,
      responseHeaders: contentType ? [...own, ['Content-Type', contentType]] : own,
      allow: null,
    });
    return {
      status,
      headers: toRecord(list),
      body: req.originalMethod === 'HEAD' ? '' : body,
      ...(ctx.delayMs > 0 ? { delayMs: ctx.delayMs } : {}),
    };
  };

  const errorResponse = (req: ParsedRequest, e: WpErrorResponse, ctx: Parameters<typeof finish>[2], early = false): MockResponse => {
    if (!early) return finish(req, { status: e.status, data: e.body, headers: [], error: true }, ctx);
    // serve_request() picks the Content-Type from a truthy `_jsonp` before it checks the callback, so even the
    // "Invalid JSONP callback function." error goes out as application/javascript.
    const list = responseHeaders({ apiRoot: `${ctx.origin}/wp-json/`, status: e.status, originalMethod: req.originalMethod, loggedIn: false, early: true, jsonp: req.globals._jsonp !== null });
    return { status: e.status, headers: toRecord(list), body: fastJson(e.body), ...(ctx.delayMs > 0 ? { delayMs: ctx.delayMs } : {}) };
  };

  // Identical reads between two writes get identical answers: the state (store version), the second (answers may
  // depend on "now") and everything of the request that WordPress reads are the key. Writes empty it.
  const responses = new Map<string, MockResponse>();
  let responsesVersion = -1;
  const cacheKey = (mreq: MockRequest): string | undefined => {
    if (opts.responseCache === false) return undefined;
    if (mreq.method !== 'GET' && mreq.method !== 'HEAD') return undefined;
    if (mreq.body !== undefined && mreq.body.length > 0) return undefined;
    const h = mreq.headers;
    if (h.prefer !== undefined && /code\s*=/i.test(h.prefer)) return undefined;
    if (opts.store.version !== responsesVersion) {
      responses.clear();
      responsesVersion = opts.store.version;
    }
    return `${Math.floor(opts.clock.now() / 1000)}\u0000${mreq.method} ${mreq.url}\u0000${mreq.origin ?? ''}\u0000${h.origin ?? ''}\u0000${h.authorization ?? ''}\u0000${h['x-http-method-override'] ?? ''}\u0000${h['content-type'] ?? ''}`;
  };

  const handle = (mreq: MockRequest): MockResponse => {
    const key = cacheKey(mreq);
    if (key !== undefined) {
      const hit = responses.get(key);
      const pref = hit && parsePrefer(mreq.headers.prefer);
      const delayMs = pref?.latency ?? opts.latencyMs;
      if (hit) return { status: hit.status, headers: { ...hit.headers }, body: hit.body, ...(hit.bodyBytes ? { bodyBytes: hit.bodyBytes } : {}), ...(delayMs > 0 ? { delayMs } : {}) };
    }
    const res = serve(mreq);
    if (key !== undefined && res.status < 500 && opts.store.version === responsesVersion) {
      if (responses.size >= 2048) responses.clear();
      responses.set(key, { status: res.status, headers: { ...res.headers }, body: res.body, bodyBytes: utf8Encode(res.body) });
    }
    return res;
  };

  const serve = (mreq: MockRequest): MockResponse => {
    const origin = mreq.origin ?? opts.siteUrl;
    const pref = parsePrefer(mreq.headers.prefer);
    const delayMs = pref.latency ?? opts.latencyMs;
    const q = mreq.url.indexOf('?');
    const path = q < 0 ? mreq.url : mreq.url.slice(0, q);
    const action = controlAction(path);
    if (action !== undefined) {
      return controlAnswer(mreq, action, { routes: opts.control, authRequired: opts.authRequired, user: () => authenticate(mreq.headers.authorization, opts.store) });
    }
    const rejected = apacheRejection(mreq.url);
    if (rejected) return htmlNotFound(rejected.status);
    const req = readRequest(mreq);
    // Not a REST request: the site's front end, whose pages say where the API is.
    if (!req) return frontEndAnswer(mreq.method, mreq.url, origin, opts.frontEnd);
    const user = authenticate(req.headers.authorization, opts.store);
    const env = envFor(req, origin, user);
    const ctx = { env, origin, user, delayMs };

    if (mreq.oversize) return errorResponse(req, payloadTooLarge(opts.maxBodyBytes), ctx);
    if (req.globals._jsonp && !req.globals._jsonp.valid) return errorResponse(req, jsonpCallbackInvalid(), ctx, true);

    try {
      // rest_handle_options_request(): OPTIONS answers the first matching route's description, or an empty body.
      if (req.method === 'OPTIONS') {
        const m = opts.table.matching(req.route);
        if (!m) return finish(req, { status: 200, data: [], headers: [], error: false }, ctx);
        const allow = allowFor(m.route, m.pathParams, langOf(undefined, env), env);
        const headers: HeaderList = allow && allow.length ? [['Allow', allow.join(', ')]] : [];
        return finish(req, { status: 200, data: opts.discovery.options(m.route, env.links.apiRoot), headers, error: false }, ctx);
      }
      if (pref.code !== undefined) {
        const m = opts.table.match(req.method, req.route);
        if (m.kind !== 'match') return errorResponse(req, noRoute(), ctx);
        const forced = preferError(pref.code);
        if (forced) {
          const allow = allowFor(m.route, m.pathParams, langOf(undefined, env), env);
          return finish(req, { status: forced.status, data: forced.body, headers: allow && allow.length ? [['Allow', allow.join(', ')]] : [], error: true }, ctx);
        }
        const d = dispatch(req, env);
        return finish(req, { ...d, status: pref.code }, ctx);
      }
      return finish(req, dispatch(req, env), ctx);
    } catch (err) {
      opts.onError?.(err);
      return errorResponse(req, criticalError(), ctx);
    }
  };

  return { handle };
}

function stripLinks(data: unknown): unknown {
  const one = (item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item) || !('_links' in item)) return item;
    const { _links: _drop, ...rest } = item as Record<string, unknown>;
    return rest;
  };
  return Array.isArray(data) ? data.map(one) : one(data);
}
