// WP_REST_Server::dispatch() for one parsed request, split the way batch/v1 needs it: prepare() matches the route
// and checks the parameters (nothing changes yet), execute() runs the permission callback and the handler.
// A plain request runs both at once; a batch prepares every item first and executes them afterwards, in order.
// All of them, and the internal GETs of `_embed` (subrequest()), run in the one DispatchEnv the top-level request
// was given: in WordPress they are the same PHP request, with the same user, language and site URL
// (serve_batch_request_v1() and rest_do_request() call $this->dispatch() on the same server).
import type { Contract, ContractRoute } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Lang } from '../../../fixtures/model/records.ts';
import type { Store } from '../store/store.ts';
import { assignOwn } from '../store/table.ts';
import { invalidJson, noRoute, type WpErrorResponse } from '../wire/errors.ts';
import { oembedXmlAnswer } from '../handlers/addons/oembed.ts';
import type { HeaderList } from '../wire/headers.ts';
import { paginate, sanitizedQuery } from '../wire/pagination.ts';
import { wpRestRequest, type ParsedRequest } from '../wire/request.ts';
import type { LinkBase } from '../handlers/calendar/render-shared.ts';
import type { HandlerCtx, HandlerMemos, Reply, Rng } from '../handlers/context.ts';
import { allowedMethods, checkPermission, type User } from './permissions.ts';
import type { ParamReader } from './params.ts';
import { forbiddenStatusErrors } from './status-capability.ts';

/** What dispatch produces before serve_request() turns it into bytes. */
export interface Dispatched {
  status: number;
  data: unknown;
  /** The response's own headers (X-WP-Total, Link, Location, Allow...), in the order they were set. */
  headers: HeaderList;
  error: boolean;
  /** Raw non-JSON body (oEmbed XML). */
  raw?: { contentType: string; text: string };
  /** `data` already encoded (or how to get it), when the handler had it. */
  json?: string | (() => string);
  /**
   * The links are added whatever `_fields` asks (the API root's `help`, a namespace index's `up`): those callbacks
   * add_link() unconditionally, and response_to_data() prints them after the fields were filtered.
   */
  linksAlways?: boolean;
  /** The operation the request matched, if any. */
  op?: Operation;
}

export type Prepared =
  | { kind: 'ready'; route: ContractRoute; op: Operation; pathParams: Record<string, string>; params: Record<string, unknown>; lang: Lang }
  | { kind: 'error'; error: WpErrorResponse; route?: ContractRoute; op?: Operation; pathParams?: Record<string, string>; lang: Lang };

/** Everything a dispatch depends on besides the request: built once per top-level request (core/serve.ts). */
export interface DispatchEnv {
  contract: Contract;
  params: ParamReader;
  store: Store;
  /** The site URL's API root for the request's language, and its home page. */
  links: LinkBase;
  user: User | undefined;
  authRequired: boolean;
  /** Milliseconds since the epoch, read once for the whole request. */
  now: number;
  rng: Rng;
  /** Language of the URL (`/uk/wp-json`), before any i18n_language parameter. */
  urlLang?: Lang;
  route: (op: Operation) => ((ctx: HandlerCtx) => Reply) | undefined;
  memos: HandlerMemos;
  /** The attachment IDs of the site's media library. */
  media: ReadonlySet<number>;
}

const LANGS: readonly string[] = ['en', 'uk'];

export function langOf(params: Record<string, unknown> | undefined, env: DispatchEnv): Lang {
  const p = params?.i18n_language;
  if (typeof p === 'string' && LANGS.includes(p)) return p as Lang;
  return env.urlLang ?? env.store.get('calendarSettings').default_lang;
}

/** Route match, JSON body check, parameter check: the part of dispatch() that runs before any permission callback. */
export function prepare(req: ParsedRequest, env: DispatchEnv): Prepared {
  const m = env.contract.match(req.method, req.route);
  if (m.kind !== 'match') return { kind: 'error', error: noRoute(), lang: langOf(undefined, env) };
  const { route, operation: op, pathParams } = m;
  // has_valid_params() reports a body that did not decode before anything else.
  if (req.jsonError) return { kind: 'error', error: invalidJson(req.jsonError), route, op, pathParams, lang: langOf(undefined, env) };
  // Only --auth restricts statuses; open mode (and every batch item in it) needs no check, nor a closure for it.
  const read = env.params.read(op, req, pathParams, env.authRequired ? (raw) => forbiddenStatusErrors(op, raw, env) : undefined);
  if (!read.ok) return { kind: 'error', error: read.error, route, op, pathParams, lang: langOf(undefined, env) };
  // Literals rather than `{ ...base, key }`: V8 adds properties to a spread copy slowly, and this runs per request.
  return { kind: 'ready', route, op, pathParams, params: read.params, lang: langOf(read.params, env) };
}

export function allowFor(route: ContractRoute | undefined, pathParams: Record<string, string> | undefined, lang: Lang, env: DispatchEnv, params?: Record<string, unknown>): string[] | null {
  if (!route) return null;
  // rest_send_allow_header() asks each method's permission callback about this very request, parameters included.
  return allowedMethods(route, { store: env.store, pathParams: pathParams ?? {}, lang, user: env.user, authRequired: env.authRequired, ...(params ? { params } : {}) });
}

function withAllow(headers: HeaderList, allow: string[] | null): HeaderList {
  if (allow && allow.length) headers.push(['Allow', [...new Set(allow)].join(', ')]);
  return headers;
}

/** respond_to_request(): permission callback (unless validation already failed), then the handler. */
export function execute(prep: Prepared, req: ParsedRequest, env: DispatchEnv): Dispatched {
  if (prep.kind === 'error') {
    const headers = withAllow([], allowFor(prep.route, prep.pathParams, prep.lang, env));
    const failed: Dispatched = { status: prep.error.status, data: prep.error.body, headers, error: true };
    if (prep.op) failed.op = prep.op;
    return failed;
  }
  const { op, route, pathParams, params, lang } = prep;
  // `$request['author']` as the permission callbacks read it: the sanitized value of a declared arg, else the raw one.
  const asked = env.authRequired ? assignOwn(assignOwn({}, req.query, req.bodyParams), params) : params;
  const denied = checkPermission({ op, store: env.store, pathParams, lang, user: env.user, authRequired: env.authRequired, params: asked });
  let reply: Reply;
  if (denied) reply = { ...denied, error: true };
  else {
    const handler = env.route(op);
    reply = handler
      ? handler({
          op, params, pathParams, input: assignOwn({}, req.query, req.bodyParams), headers: req.headers, store: env.store, links: env.links, lang, authRequired: env.authRequired,
          now: env.now, rng: env.rng, memos: env.memos, media: env.media, env, ...(env.user ? { user: env.user } : {}),
        })
      : { ...noRoute(), error: true };
  }
  const headers: HeaderList = [];
  if (!reply.error && reply.pagination) headers.push(...paginationHeaders(env.links.apiRoot + op.path.replace(/^\//, ''), req, params, reply.pagination));
  for (const [k, v] of Object.entries(reply.headers ?? {})) headers.push([k, v]);
  // rest_send_allow_header() runs after the callback: a post deleted for good has no methods left (sample 37).
  withAllow(headers, allowFor(route, pathParams, lang, env, asked));
  if (reply.error) return { status: reply.status, data: reply.body, headers, error: true, op };
  const out: Dispatched = { status: reply.status, data: reply.body, headers, error: false, op };
  if (op.kind === 'root' || op.kind === 'index') out.linksAlways = true;
  if (reply.raw) out.raw = reply.raw;
  if (reply.json !== undefined) out.json = reply.json;
  return out;
}

/** X-WP-Total, X-WP-TotalPages and Link, rebuilt from the query as sent (`per_page` and `page` as sanitized). */
function paginationHeaders(collectionUrl: string, req: ParsedRequest, params: Record<string, unknown>, pg: { page: number; total: number }): HeaderList {
  const perPage = typeof params.per_page === 'number' ? params.per_page : 10;
  const p = paginate({ collectionUrl, query: sanitizedQuery(req.phpQuery, params), page: pg.page, perPage, total: pg.total, beyondLastPage: 'empty-page' });
  return p.headers.map(([k, v]) => [k, String(v)] as [string, string]);
}

export function dispatch(req: ParsedRequest, env: DispatchEnv): Dispatched {
  const d = execute(prepare(req, env), req, env);
  // The embed route's refusals go out as XML too when XML was asked for (the handler answers its own successes).
  const xml = d.error ? oembedXmlAnswer(req, d.data) : undefined;
  if (xml) d.raw = xml;
  return d;
}

/**
 * rest_do_request( WP_REST_Request::from_url( $href ) ): a GET of another URL under this request's API root, in
 * the same environment (embedding). Undefined for a URL outside the API.
 */
export function subrequest(href: string, env: DispatchEnv): unknown {
  const root = env.links.apiRoot;
  if (!href.startsWith(root)) return undefined;
  const inner = wpRestRequest({ method: 'GET', path: `/${href.slice(root.length)}`, headers: {} });
  return inner ? dispatch(inner, env).data : undefined;
}
