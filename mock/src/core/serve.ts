// WP_REST_Server::serve_request() for the mock: raw request in, bytes out. Parses the request like PHP and
// WordPress do (wire/request.ts), honours the mock's own aids (`Prefer: code=`, `Prefer: latency=`, the control
// routes under /__mock/), dispatches, then applies `_fields`, `_embed`, `_envelope`, `_jsonp`, `_pretty` and the
// headers WordPress sends, in its order.
//
// Links are built from the site URL (WordPress's `home` and `siteurl` options): the one the mock was given, else the
// address the adapter serves (never the Host header, which any client sets to anything).
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Lang } from '../../../fixtures/model/records.ts';
import type { Store } from '../store/store.ts';
import { criticalError, invalidPrefer, jsonpCallbackInvalid, noRoute, payloadTooLarge, prefer as preferError, type WpErrorResponse } from '../wire/errors.ts';
import { embedLinks, envelope, filterFields, isFieldIncluded } from '../wire/envelope.ts';
import { responseHeaders, type HeaderList } from '../wire/headers.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';
import { apacheRejection, parseRequest, type ParsedRequest } from '../wire/request.ts';
import type { Discovery } from '../handlers/discovery.ts';
import type { HandlerCtx, HandlerMemos, Reply, Rng } from '../handlers/context.ts';
import { allowFor, dispatch, langOf, subrequest, type DispatchEnv, type Dispatched } from './dispatch.ts';
import { textBytes, VersionedMemo, type MemoSettings, type MemoStats } from './memo.ts';
import { ParamReader } from './params.ts';
import { authenticate, type User } from './permissions.ts';
import { controlAction, controlAnswer, type ControlRoute } from './control.ts';
import { frontEndAnswer, type FrontEndSite } from './front-end.ts';
import type { Clock, MockRequest, MockResponse } from './types.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { utf8Encode } from '../../../contracts/wordpress/bytes.ts';
import { ANONYMOUS_MAX_LATENCY_MS, tooManyHeld, type HeldAnswers } from './held.ts';

/** The site URL when neither the mock nor the adapter names one. */
export const DEFAULT_SITE_URL = 'http://127.0.0.1:4010';

export interface CoreOptions {
  contract: Contract;
  discovery: Discovery;
  store: Store;
  /** Handler of an operation (undefined: the route answers rest_no_route). */
  route: (op: Operation) => ((ctx: HandlerCtx) => Reply) | undefined;
  authRequired: boolean;
  latencyMs: number;
  clock: Clock;
  rng: Rng;
  /** The site URL (`http://127.0.0.1:4010`, no path): when absent, the adapter's (MockRequest.origin). */
  siteUrl?: string;
  maxBodyBytes: number;
  /** The site behind the front-end pages (everything outside the REST API). */
  frontEnd: FrontEndSite;
  /** The mock's control routes by action (`reset` for `/__mock/reset`). */
  control: Readonly<Record<string, ControlRoute>>;
  /** What handlers remember (renderings, lists, documents). */
  memos: HandlerMemos;
  /** The attachment IDs of the site's media library (the fixtures' featured images). */
  media: ReadonlySet<number>;
  /** The response memo: identical reads between two writes, within the same second. */
  responses: MemoSettings;
  /** Called when a handler throws: the answer is WordPress's critical-error 500, the error goes here. */
  onError?: (err: unknown) => void;
  /** The answers held for latency at once: bounded (held.ts). */
  held: HeldAnswers;
}

interface Prefer {
  code?: number;
  latency?: number;
  /** Why a `code` or `latency` value cannot be honoured; the request is then answered 400 mock_invalid_prefer. */
  invalid?: string;
}

/** What `Prefer: code=` forces: a final status (1xx are interim answers, not ones a handler can give). */
export const PREFER_CODES = { min: 200, max: 599 } as const;
/** The longest `Prefer: latency=` (and --latency), in milliseconds. */
export const PREFER_MAX_LATENCY_MS = 600_000;

/** At most this much of a refused value is echoed in the error. */
const ECHO_CHARS = 40;

/**
 * RFC 7240 `Prefer: code=404, latency=300` (Prism's names). Preferences are split at commas; what follows a `;` is a
 * preference's parameters, which none of ours takes. Per RFC 7240 section 2, a preference the server does not know
 * (`return=minimal`, `respond-async`, Prism's `dynamic=true`) is ignored and only the first instance of one counts.
 * Our own two are the mock's test aids, so a value outside what they take is refused (`invalid`), not ignored.
 */
export function parsePrefer(header: string | undefined): Prefer {
  const out: Prefer = {};
  if (!header) return out;
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const preference of header.split(',')) {
    const head = (preference.split(';', 1)[0] ?? '').trim();
    const eq = head.indexOf('=');
    const name = (eq < 0 ? head : head.slice(0, eq)).trim().toLowerCase();
    if ((name !== 'code' && name !== 'latency') || seen.has(name)) continue;
    seen.add(name);
    let raw = eq < 0 ? '' : head.slice(eq + 1).trim();
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1);
    const shown = JSON.stringify(raw.length > ECHO_CHARS ? `${raw.slice(0, ECHO_CHARS)}...` : raw);
    if (name === 'code') {
      const n = /^\d{3}$/.test(raw) ? Number(raw) : NaN;
      if (n >= PREFER_CODES.min && n <= PREFER_CODES.max) out.code = n;
      else problems.push(`code takes an HTTP status from ${PREFER_CODES.min} to ${PREFER_CODES.max}, got ${shown}`);
    } else {
      const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
      if (n <= PREFER_MAX_LATENCY_MS) out.latency = n;
      else problems.push(`latency takes a whole number of milliseconds from 0 to ${PREFER_MAX_LATENCY_MS}, got ${shown}`);
    }
  }
  if (problems.length > 0) out.invalid = problems.join('; ');
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

/** The global parameters serve_request() reads itself: a query that has only these and declared args is plain. */
const GLOBAL_PARAMS: ReadonlySet<string> = new Set(['_fields', '_embed', '_envelope', '_jsonp', '_pretty', '_method', 'rest_route']);

/**
 * Whether an answer may be remembered for identical requests: it answered a declared route with only declared or
 * global parameters (so a client adding `?_=123` or any other made-up parameter makes no entry), with no credentials
 * or valid ones.
 */
function isPlainRead(req: ParsedRequest, d: Dispatched, user: User | undefined): boolean {
  if (d.op === undefined || (req.headers.authorization !== undefined && user === undefined)) return false;
  const declared = d.op.params;
  for (const k of req.phpQuery.keys()) {
    const name = String(k);
    if (!GLOBAL_PARAMS.has(name) && !declared.some((p) => p.name === name)) return false;
  }
  return true;
}

export interface Core {
  handle(req: MockRequest): MockResponse;
  /** What the response memo holds. */
  responseStats(): MemoStats;
}

export function createCore(opts: CoreOptions): Core {
  const languages = new Set(['en', 'uk']);
  const params = new ParamReader(opts.contract);

  const envFor = (req: ParsedRequest, site: string, user: User | undefined, now: number, rng: Rng): DispatchEnv => {
    const urlLang = req.language && languages.has(req.language) ? (req.language as Lang) : undefined;
    const env: DispatchEnv = {
      contract: opts.contract,
      params,
      store: opts.store,
      links: { apiRoot: `${site}${urlLang ? `/${urlLang}` : ''}/wp-json/`, home: site },
      user,
      authRequired: opts.authRequired,
      now,
      rng,
      route: opts.route,
      memos: opts.memos,
      media: opts.media,
    };
    // Set afterwards rather than spread into the literal: V8 adds the properties after a spread slowly.
    if (urlLang) env.urlLang = urlLang;
    return env;
  };

  const finish = (
    req: ParsedRequest,
    d: Dispatched,
    ctx: { env: DispatchEnv; site: string; user: User | undefined; delayMs: number },
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
      if (g._embed && wantLinks) data = embedLinks(data, g._embed, (href) => subrequest(href, ctx.env));
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
      const json = encoded ?? (wpJsonEncode(data, { pretty: g._pretty }));
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
    const list = responseHeaders({ apiRoot: `${ctx.site}/wp-json/`, status: e.status, originalMethod: req.originalMethod, loggedIn: false, early: true, jsonp: req.globals._jsonp !== null });
    return { status: e.status, headers: toRecord(list), body: wpJsonEncode(e.body), ...(ctx.delayMs > 0 ? { delayMs: ctx.delayMs } : {}) };
  };

  // Identical reads between two writes get identical answers: the state (store version), the second (answers may
  // depend on "now"), the site URL and everything of the request that WordPress reads are the key. An answer that
  // drew on the random source (an oEmbed secret) is never kept: the next read must draw again.
  const responses = new VersionedMemo<string, MockResponse>(opts.responses, (key, r) => textBytes(key) + r.body.length + (r.bodyBytes?.byteLength ?? 0) + 512);
  const cacheKey = (mreq: MockRequest, pref: Prefer, now: number, site: string): string | undefined => {
    if (!opts.responses.enabled) return undefined;
    if (mreq.method !== 'GET' && mreq.method !== 'HEAD') return undefined;
    if (mreq.body !== undefined && mreq.body.length > 0) return undefined;
    const h = mreq.headers;
    // A forced status, or a Prefer the request is refused for, is not the answer identical reads get.
    if (pref.code !== undefined || pref.invalid !== undefined) return undefined;
    return `${Math.floor(now / 1000)}\u0000${mreq.method} ${mreq.url}\u0000${site}\u0000${h.origin ?? ''}\u0000${h.authorization ?? ''}\u0000${h['x-http-method-override'] ?? ''}\u0000${h['content-type'] ?? ''}`;
  };

  /** Runs the request with a place among the held answers when it is to be held; 503 at once when none is free. */
  const handle = (mreq: MockRequest): MockResponse => {
    let pref = parsePrefer(mreq.headers.prefer);
    if (pref.latency !== undefined && pref.latency > ANONYMOUS_MAX_LATENCY_MS && authenticate(mreq.headers.authorization, opts.store) === undefined) {
      pref = { ...pref, invalid: `latency takes at most ${ANONYMOUS_MAX_LATENCY_MS} milliseconds without valid credentials (up to ${PREFER_MAX_LATENCY_MS} with them), got "${pref.latency}"` };
      delete pref.latency;
    }
    const delayMs = pref.latency ?? opts.latencyMs;
    if (delayMs <= 0) return answer(mreq, pref);
    const release = opts.held.take();
    if (!release) return tooManyHeld(opts.held.max);
    const res = answer(mreq, pref);
    if (res.delayMs && res.delayMs > 0) {
      res.release = release;
      return res;
    }
    release();
    return res;
  };

  const answer = (mreq: MockRequest, pref: Prefer): MockResponse => {
    // One reading of the clock for the whole request: the key's second is the answer's.
    const now = opts.clock.now();
    const site = opts.siteUrl ?? mreq.origin ?? DEFAULT_SITE_URL;
    const key = cacheKey(mreq, pref, now, site);
    const version = opts.store.version;
    if (key !== undefined) {
      const hit = responses.at(version).peek(key);
      if (hit) {
        const delayMs = pref.latency ?? opts.latencyMs;
        return { status: hit.status, headers: { ...hit.headers }, body: hit.body, ...(hit.bodyBytes ? { bodyBytes: hit.bodyBytes } : {}), ...(delayMs > 0 ? { delayMs } : {}) };
      }
    }
    let drew = false;
    const rng: Rng = {
      next: () => {
        drew = true;
        return opts.rng.next();
      },
      hex: (length) => {
        drew = true;
        return opts.rng.hex(length);
      },
    };
    const { res, plain } = serve(mreq, pref, now, site, rng);
    if (key !== undefined && plain && !drew && res.status < 500 && opts.store.version === version) {
      responses.at(version).set(key, { status: res.status, headers: { ...res.headers }, body: res.body, bodyBytes: utf8Encode(res.body) });
    }
    return res;
  };

  /** The answer, and whether it may be remembered (isPlainRead()). */
  const serve = (mreq: MockRequest, pref: Prefer, now: number, site: string, rng: Rng): { res: MockResponse; plain: boolean } => {
    const res = (r: MockResponse) => ({ res: r, plain: false });
    const delayMs = pref.latency ?? opts.latencyMs;
    const q = mreq.url.indexOf('?');
    const path = q < 0 ? mreq.url : mreq.url.slice(0, q);
    const action = controlAction(path);
    if (action !== undefined) {
      return res(controlAnswer(mreq, action, { routes: opts.control, authRequired: opts.authRequired, user: () => authenticate(mreq.headers.authorization, opts.store) }));
    }
    const rejected = apacheRejection(mreq.url);
    if (rejected) return res(htmlNotFound(rejected.status));
    const req = parseRequest(mreq);
    // Not a REST request: the site's front end, whose pages say where the API is.
    if (!req) return res(frontEndAnswer(mreq.method, mreq.url, site, opts.frontEnd));
    const user = authenticate(req.headers.authorization, opts.store);
    const env = envFor(req, site, user, now, rng);
    const ctx = { env, site, user, delayMs };

    if (mreq.oversize) return res(errorResponse(req, payloadTooLarge(opts.maxBodyBytes), ctx));
    // Before anything runs: a request that asked for a status or a delay the mock cannot give changes nothing.
    if (pref.invalid !== undefined) return res(errorResponse(req, invalidPrefer(pref.invalid), ctx));
    if (req.globals._jsonp && !req.globals._jsonp.valid) return res(errorResponse(req, jsonpCallbackInvalid(), ctx, true));

    try {
      // rest_handle_options_request(): OPTIONS answers the first matching route's description, or an empty body.
      if (req.method === 'OPTIONS') {
        const m = opts.contract.matching(req.route);
        if (!m) return res(finish(req, { status: 200, data: [], headers: [], error: false }, ctx));
        const allow = allowFor(m.route, m.pathParams, langOf(undefined, env), env);
        const headers: HeaderList = allow && allow.length ? [['Allow', allow.join(', ')]] : [];
        return res(finish(req, { status: 200, data: opts.discovery.options(m.route, env.links.apiRoot), headers, error: false }, ctx));
      }
      if (pref.code !== undefined) {
        const m = opts.contract.match(req.method, req.route);
        if (m.kind !== 'match') return res(errorResponse(req, noRoute(), ctx));
        const forced = preferError(pref.code);
        if (forced) {
          const allow = allowFor(m.route, m.pathParams, langOf(undefined, env), env);
          return res(finish(req, { status: forced.status, data: forced.body, headers: allow && allow.length ? [['Allow', allow.join(', ')]] : [], error: true }, ctx));
        }
        const d = dispatch(req, env);
        return res(finish(req, { ...d, status: pref.code }, ctx));
      }
      const d = dispatch(req, env);
      return { res: finish(req, d, ctx), plain: isPlainRead(req, d, user) };
    } catch (err) {
      opts.onError?.(err);
      return res(errorResponse(req, criticalError(), ctx));
    }
  };

  return { handle, responseStats: () => responses.stats };
}

function stripLinks(data: unknown): unknown {
  const one = (item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item) || !('_links' in item)) return item;
    const { _links: _drop, ...rest } = item as Record<string, unknown>;
    return rest;
  };
  return Array.isArray(data) ? data.map(one) : one(data);
}
