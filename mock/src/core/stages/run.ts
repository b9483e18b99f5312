// Stage 5, run: the operation's handler, looked up by operationId in the operation table (handlers/operations.ts),
// given what its operation needs; then the headers WordPress adds after the callback: pagination (X-WP-Total,
// X-WP-TotalPages, Link) and Allow (rest_send_allow_header() runs after it: a post deleted for good has no methods
// left, sample 37). A handler with much to do returns its work in steps (work.ts).
import { noRoute } from '../../wire/errors.ts';
import type { HeaderList } from '../../wire/headers.ts';
import { paginate, sanitizedQuery } from '../../wire/pagination.ts';
import type { ParsedRequest } from '../../wire/request.ts';
import { assignOwn } from '../../store/table.ts';
import type { HandlerCtx, ItemDispatcher, Reply } from '../../handlers/context.ts';
import { allowFor, rowOf, withAllow, type Dispatched, type DispatchEnv, type Prepared } from '../exchange.ts';
import { andThen, type Work } from '../../base/work.ts';
import type { Authorized } from './authorize.ts';

/**
 * What a handler gets. A class, so that `input` is a getter on its prototype: the object literal this was made with a
 * getter of its own, which V8 keeps in a new hidden class and accessor made for every request, in the old generation.
 * Until the next full collection, every young-generation collection then kept all the request reached alive through
 * that accessor (2.7 KB per read of one event, the whole rendered batch per batch), and promoted it.
 */
class RunCtx implements HandlerCtx {
  readonly params: Record<string, unknown>;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly store: HandlerCtx['store'];
  readonly links: HandlerCtx['links'];
  readonly lang: HandlerCtx['lang'];
  declare readonly user?: HandlerCtx['user'];
  readonly authRequired: boolean;
  readonly now: number;
  readonly rng: HandlerCtx['rng'];
  readonly memos: HandlerCtx['memos'];
  readonly media: ReadonlySet<number>;
  readonly items: ItemDispatcher;
  readonly #req: ParsedRequest;
  #input: Record<string, unknown> | undefined;

  constructor(prep: Extract<Prepared, { kind: 'ready' }>, req: ParsedRequest, env: DispatchEnv, items: ItemDispatcher) {
    this.params = prep.params;
    this.pathParams = prep.pathParams;
    this.headers = req.headers;
    this.store = env.store;
    this.links = env.links;
    this.lang = prep.lang;
    if (env.user) (this as { user?: HandlerCtx['user'] }).user = env.user;
    this.authRequired = env.authRequired;
    this.now = env.now;
    this.rng = env.rng;
    this.memos = env.memos;
    this.media = env.media;
    this.items = items;
    this.#req = req;
  }

  /** Merged when a handler first reads it (few do): a body of 500,000 keys took a second to copy. */
  get input(): Record<string, unknown> {
    this.#input ??= assignOwn({}, this.#req.query, this.#req.bodyParams);
    return this.#input;
  }
}

export function run(prep: Extract<Prepared, { kind: 'ready' }>, req: ParsedRequest, env: DispatchEnv, auth: Authorized, items: ItemDispatcher): Dispatched | Work<Dispatched> {
  const { op, route, pathParams, params, lang } = prep;
  let reply: Reply | Work<Reply>;
  if (auth.denied) reply = { ...auth.denied, error: true };
  else {
    const handler = rowOf(env, op)?.handler;
    reply = handler ? handler(new RunCtx(prep, req, env, items)) : { ...noRoute(), error: true };
  }
  return andThen(reply, (r): Dispatched => {
    const headers: HeaderList = [];
    if (!r.error && r.pagination) headers.push(...paginationHeaders(env.links.apiRoot + op.path.replace(/^\//, ''), req, params, r.pagination));
    for (const [k, v] of Object.entries(r.headers ?? {})) headers.push([k, v]);
    withAllow(headers, allowFor(route, pathParams, lang, env, auth.asked));
    if (r.error) return { status: r.status, data: r.body, headers, error: true, op };
    const out: Dispatched = { status: r.status, data: r.body, headers, error: false, op };
    if (op.kind === 'root' || op.kind === 'index') out.linksAlways = true;
    if (r.raw) out.raw = r.raw;
    if (r.json !== undefined) out.json = r.json;
    return out;
  });
}

/** X-WP-Total, X-WP-TotalPages and Link, rebuilt from the query as sent (`per_page` and `page` as sanitized). */
function paginationHeaders(collectionUrl: string, req: ParsedRequest, params: Record<string, unknown>, pg: { page: number; total: number }): HeaderList {
  const perPage = typeof params.per_page === 'number' ? params.per_page : 10;
  const p = paginate({ collectionUrl, query: sanitizedQuery(req.phpQuery, params), page: pg.page, perPage, total: pg.total, beyondLastPage: 'empty-page' });
  return p.headers.map(([k, v]) => [k, String(v)] as [string, string]);
}
