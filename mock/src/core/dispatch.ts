// WP_REST_Server::dispatch() for one parsed request, split the way batch/v1 needs it: prepare() matches the route
// and checks the parameters (nothing changes yet), execute() runs the permission callback and the handler.
// A plain request runs both at once; a batch prepares every item first and executes them afterwards, in order.
import type { Contract } from '../../../contracts/src/loader.ts';
import type { Operation } from '../../../contracts/src/types.ts';
import type { Lang } from '../store/model.ts';
import type { Store } from '../store/store.ts';
import { invalidJson, noRoute, type WpErrorResponse } from '../wire/errors.ts';
import type { HeaderList } from '../wire/headers.ts';
import { paginate, sanitizedQuery } from '../wire/pagination.ts';
import type { ParsedRequest } from '../wire/request.ts';
import type { LinkBase } from '../handlers/calendar/render-shared.ts';
import type { HandlerCtx, Reply, Rng } from '../handlers/context.ts';
import { allowedMethods, checkPermission, type User } from './permissions.ts';
import { readParams } from './params.ts';
import type { RouteEntry, RouteTable } from './routes.ts';

/** What dispatch produces before serve_request() turns it into bytes. */
export interface Dispatched {
  status: number;
  data: unknown;
  /** The response's own headers (X-WP-Total, Link, Location, Allow...), in the order they were set. */
  headers: HeaderList;
  error: boolean;
  /** Raw non-JSON body (oEmbed XML). */
  raw?: { contentType: string; text: string };
}

export type Prepared =
  | { kind: 'ready'; route: RouteEntry; op: Operation; pathParams: Record<string, string>; params: Record<string, unknown>; lang: Lang }
  | { kind: 'error'; error: WpErrorResponse; route?: RouteEntry; op?: Operation; pathParams?: Record<string, string>; lang: Lang };

export interface DispatchEnv {
  contract: Contract;
  table: RouteTable;
  store: Store;
  links: LinkBase;
  user: User | undefined;
  authRequired: boolean;
  now: number;
  rng: Rng;
  /** Language of the URL (`/uk/wp-json`), before any i18n_language parameter. */
  urlLang?: Lang;
  route: (op: Operation) => ((ctx: HandlerCtx) => Reply) | undefined;
  /** GET of another REST URL inside this request (embedding); undefined for a URL outside the API. */
  subrequest: (href: string) => unknown;
}

const LANGS: readonly string[] = ['en', 'uk'];

export function langOf(params: Record<string, unknown> | undefined, env: DispatchEnv): Lang {
  const p = params?.i18n_language;
  if (typeof p === 'string' && LANGS.includes(p)) return p as Lang;
  return env.urlLang ?? env.store.get('calendarSettings').default_lang;
}

/** Route match, JSON body check, parameter check: the part of dispatch() that runs before any permission callback. */
export function prepare(req: ParsedRequest, env: DispatchEnv): Prepared {
  const m = env.table.match(req.method, req.route);
  if (m.kind !== 'match') return { kind: 'error', error: noRoute(), lang: langOf(undefined, env) };
  const base = { route: m.route, op: m.op, pathParams: m.pathParams };
  // has_valid_params() reports a body that did not decode before anything else.
  if (req.jsonError) return { kind: 'error', error: invalidJson(req.jsonError), ...base, lang: langOf(undefined, env) };
  const read = readParams(env.contract, m.op, req, m.pathParams);
  if (!read.ok) return { kind: 'error', error: read.error, ...base, lang: langOf(undefined, env) };
  return { kind: 'ready', ...base, params: read.params, lang: langOf(read.params, env) };
}

export function allowFor(route: RouteEntry | undefined, pathParams: Record<string, string> | undefined, lang: Lang, env: DispatchEnv): string[] | null {
  if (!route) return null;
  return allowedMethods(route, { store: env.store, pathParams: pathParams ?? {}, lang, user: env.user, authRequired: env.authRequired });
}

function withAllow(headers: HeaderList, allow: string[] | null): HeaderList {
  if (allow && allow.length) headers.push(['Allow', [...new Set(allow)].join(', ')]);
  return headers;
}

/** respond_to_request(): permission callback (unless validation already failed), then the handler. */
export function execute(prep: Prepared, req: ParsedRequest, env: DispatchEnv): Dispatched {
  if (prep.kind === 'error') {
    const headers = withAllow([], allowFor(prep.route, prep.pathParams, prep.lang, env));
    return { status: prep.error.status, data: prep.error.body, headers, error: true };
  }
  const { op, route, pathParams, params, lang } = prep;
  const denied = checkPermission({ op, store: env.store, pathParams, lang, user: env.user, authRequired: env.authRequired });
  let reply: Reply;
  if (denied) reply = { ...denied, error: true };
  else {
    const handler = env.route(op);
    reply = handler
      ? handler({
          op, params, pathParams, input: { ...req.query, ...(req.bodyParams ?? {}) }, headers: req.headers, store: env.store, links: env.links, lang, authRequired: env.authRequired,
          now: env.now, rng: env.rng, ...(env.user ? { user: env.user } : {}),
        })
      : { ...noRoute(), error: true };
  }
  const headers: HeaderList = [];
  if (!reply.error && reply.pagination) {
    const p = paginate({
      collectionUrl: env.links.apiRoot + op.path.replace(/^\//, ''),
      query: sanitizedQuery(req.phpQuery, params),
      page: reply.pagination.page,
      perPage: typeof params.per_page === 'number' ? params.per_page : 10,
      total: reply.pagination.total,
      beyondLastPage: 'empty-page',
    });
    for (const [k, v] of p.headers) headers.push([k, String(v)]);
  }
  for (const [k, v] of Object.entries(reply.headers ?? {})) headers.push([k, v]);
  // rest_send_allow_header() runs after the callback: a post deleted for good has no methods left (sample 37).
  withAllow(headers, allowFor(route, pathParams, lang, env));
  if (reply.error) return { status: reply.status, data: reply.body, headers, error: true };
  return { status: reply.status, data: reply.body, headers, error: false, ...(reply.raw ? { raw: reply.raw } : {}) };
}

export function dispatch(req: ParsedRequest, env: DispatchEnv): Dispatched {
  return execute(prepare(req, env), req, env);
}
