// What a route handler gets and gives back. Handlers are pure over the store: everything from the outside
// world (time, randomness, who is asking, where links should point) comes in through HandlerCtx.
import type { Memo, VersionedMemo } from '../base/memo.ts';
import type { Work } from '../base/work.ts';
import type { ParsedRequest } from '../wire/request.ts';
import type { Lang, UserRecord } from '../../../contracts/model/records.ts';
import type { Store } from '../store/store.ts';
import type { DeepReadonly } from '../store/table.ts';
import type { WpErrorResponse } from '../wire/errors.ts';
import type { Permission } from '../auth/permissions.ts';
import type { JsonSchema } from '../../../contracts/lib/types.ts';
import type { WpError } from '../../../contracts/wordpress/schema/index.ts';

/** Where generated links point: the API root the client used and the site's home page. */
export interface LinkBase {
  /** Absolute API root with trailing slash: `http://127.0.0.1:4010/wp-json/` or `.../uk/wp-json/`. */
  apiRoot: string;
  /** Absolute home URL without trailing slash: `http://127.0.0.1:4010`. */
  home: string;
}

/** A record as a handler renders it: its object, and that object as serve_request() would encode it. */
export interface Rendered {
  obj: Record<string, unknown>;
  readonly json: string;
}

/** What the render memo holds for one record: per variant, the rendering, what it depends on, its size. */
export type RecordRenderings = Map<string, { deps: string; rendered: Rendered; bytes: number }>;

/**
 * What handlers remember between requests (handlers/memos.ts makes one set per mock): each a pure memo
 * (base/memo.ts), bounded in bytes, switched off with the mock's cache, never a source of an answer's content.
 */
export interface HandlerMemos {
  /** Per stored record (frozen, replaced on update): its renderings by namespace, context and API root. */
  renders: Memo<object, RecordRenderings>;
  /** Per store version and query: the matching records in order, before paging. */
  lists: VersionedMemo<string, readonly unknown[]>;
  /** Per namespace and API root: the documentation route's OpenAPI document. */
  docs: Memo<string, unknown>;
}

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

/** An operation's handler: its answer, or (much to do) its work in steps that end in the answer (base/work.ts). */
export type Handler = (ctx: HandlerCtx) => Reply | Work<Reply>;

/**
 * One row of the operation table (operations.ts): what answers an operation and what it takes to be let in. The
 * stages read the matched operation's row and nothing else to decide: authorize its permission, validate its
 * controller args, run its handler.
 */
export interface OperationRow {
  readonly handler: Handler;
  /** The permission callback, stated for every operation (auth/permissions.ts). */
  readonly permission: Permission;
  /**
   * Args the controller registers that the documents do not list (the posts controller's `context`), validated in
   * WordPress's validate pass beside the contract's and handed to the handler in `params`.
   */
  readonly args?: Readonly<Record<string, JsonSchema>>;
  /** _oembed_rest_pre_serve_request(): this route's refusals go out as XML when `format=xml` asked for it. */
  readonly xmlErrors?: boolean;
  /**
   * The controller's own validate_callbacks beyond a schema (the posts controller's check_template()): run in the
   * validate pass on the raw values, before any permission check; the errors it gives are reported with the pass's.
   */
  readonly validate?: (raw: Readonly<Record<string, unknown>>, at: { store: Store; pathParams: Readonly<Record<string, string>> }) => Record<string, WpError> | undefined;
  /**
   * The args a validate_callback of the controller's own takes where the schema would not (the posts controller's
   * check_status(): the record's current status, `trash` on a trashed record): their schema issues are dropped.
   */
  readonly accepts?: (raw: Readonly<Record<string, unknown>>, at: { store: Store; pathParams: Readonly<Record<string, string>> }) => readonly string[];
}
