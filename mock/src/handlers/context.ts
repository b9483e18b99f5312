// What a route handler gets and gives back. Handlers are pure over the store: everything from the outside
// world (time, randomness, who is asking, where links should point) comes in through HandlerCtx.
import type { Work } from '../core/work.ts';
import type { ParsedRequest } from '../wire/request.ts';
import type { Lang, UserRecord } from '../../../contracts/model/records.ts';
import type { Store } from '../store/store.ts';
import type { DeepReadonly } from '../store/table.ts';
import type { WpErrorResponse } from '../wire/errors.ts';
import type { LinkBase } from './calendar/render-shared.ts';
import type { HandlerMemos } from './memos.ts';

export type { HandlerMemos } from './memos.ts';

export interface Rng {
  next(): number;
  hex(length: number): string;
}

/**
 * What one operation's handler gets. Not the operation: the operation table (operations.ts) already chose the handler
 * by operationId, and what differs between operations that share code (namespace, post type) is bound where the
 * table is built, so no handler chooses again by namespace, path or method.
 */
export interface HandlerCtx {
  /** Parameters after WordPress's reading: merged by precedence, coerced, defaults applied. */
  params: Record<string, unknown>;
  /** Values the route pattern captured (`id`, `slug`), before any body or query value of the same name. */
  pathParams: Readonly<Record<string, string>>;
  /**
   * Every parameter the request carried, declared or not (WP_REST_Request::get_params(): body over query).
   * Routes whose parameters the documents do not show (marked † there) read their input from here.
   */
  input: Readonly<Record<string, unknown>>;
  /** Header names lower-case. */
  headers: Readonly<Record<string, string | undefined>>;
  store: Store;
  links: LinkBase;
  /** Language the request is served in (i18n_language, else the URL's segment, else the site default). */
  lang: Lang;
  /** The user the credentials name, when they are valid. */
  user?: DeepReadonly<UserRecord>;
  /** --auth: writes need credentials. */
  authRequired: boolean;
  /** Milliseconds since the epoch. */
  now: number;
  rng: Rng;
  /** The mock's memos of what handlers compute (renderings, list results, documents). */
  memos: HandlerMemos;
  /** The attachment IDs of the site's media library (the mock keeps no media: the fixtures' featured images). */
  media: ReadonlySet<number>;
  /** How a batch runs its items: as the batch request itself (its user, language, links), through the same stages. */
  items: ItemDispatcher;
}

/** One batch item after route and validate: ready to run, or the error it is answered with. */
export type PreparedItem = { readonly kind: 'ready' } | { readonly kind: 'error'; readonly error: WpErrorResponse };

/** One item's answer, before its envelope. */
interface ItemAnswer {
  status: number;
  data: unknown;
  headers: readonly (readonly [string, string])[];
}

/** What serve_batch_request_v1() asks of the server for each item. */
export interface ItemDispatcher {
  /** Route and validate (nothing runs yet); a route that does not allow batching is `rest_batch_not_allowed`. */
  prepare(req: ParsedRequest): PreparedItem;
  /** Authorize and run an item prepare() gave back (in steps when its handler works in steps: a long post's content). */
  run(item: PreparedItem, req: ParsedRequest): ItemAnswer | Work<ItemAnswer>;
}

export interface Pagination {
  total: number;
  totalPages: number;
  page: number;
}

interface OkReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Lists: the core adds X-WP-Total, X-WP-TotalPages and Link from this. */
  pagination?: Pagination;
  /**
   * `body` already encoded (from the render cache), used as is when no `_fields`/`_embed`/`_envelope`/`_pretty`
   * applies; a function when encoding should wait until it is known to be needed.
   */
  json?: string | (() => string);
  /** Raw text with its own Content-Type (oEmbed XML); skips JSON encoding and `_fields`. */
  raw?: { contentType: string; text: string };
  error?: false;
}

export type ErrorReply = WpErrorResponse & { error: true; headers?: Record<string, string> };

export type Reply = OkReply | ErrorReply;

export function ok(body: unknown, status = 200, extra: Omit<OkReply, 'status' | 'body'> = {}): OkReply {
  return { status, body, ...extra };
}

export function fail(e: WpErrorResponse, headers?: Record<string, string>): ErrorReply {
  return { ...e, error: true, ...(headers ? { headers } : {}) };
}

/** An operation's handler: its answer, or (much to do) its work in steps that end in the answer (core/work.ts). */
export type Handler = (ctx: HandlerCtx) => Reply | Work<Reply>;
