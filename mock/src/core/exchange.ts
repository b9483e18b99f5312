// What the stages of one request hand each other (pipeline.ts): the environment a request is dispatched in, what
// route + validate prepare, and what run gives respond. In WordPress these are one PHP request's globals and the
// WP_REST_Request / WP_REST_Response objects; here they are plain values passed from stage to stage.
import type { Contract, ContractRoute } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Lang } from '../../../contracts/model/records.ts';
import type { Store } from '../store/store.ts';
import type { WpErrorResponse } from '../wire/errors.ts';
import type { HeaderList } from '../wire/headers.ts';
import type { HandlerMemos, LinkBase, OperationRow, Rng } from '../handlers/context.ts';
import { allowedMethods, type Permission, type User } from '../auth/permissions.ts';
import type { ParamReader } from './params.ts';

/** What dispatch produces before respond turns it into bytes. */
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

/** The route stage's answer: the contract's match, or why there is none. */
export type Routed =
  | { kind: 'match'; route: ContractRoute; op: Operation; pathParams: Record<string, string> }
  | { kind: 'error'; error: WpErrorResponse; route?: ContractRoute; op?: Operation; pathParams?: Record<string, string> };

/** Route + validate: ready to authorize and run, or the error to answer (with what was matched, for Allow). */
export type Prepared =
  | { kind: 'ready'; route: ContractRoute; op: Operation; pathParams: Record<string, string>; params: Record<string, unknown>; lang: Lang }
  | { kind: 'error'; error: WpErrorResponse; route?: ContractRoute; op?: Operation; pathParams?: Record<string, string>; lang: Lang };

/** Everything a dispatch depends on besides the request: built once per top-level request (stages/read.ts). */
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
  /** The operation table: operationId → its row, handler and permission (handlers/operations.ts). */
  operations: Readonly<Record<string, OperationRow>>;
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

/** The matched operation's row of the operation table (one for each of the contract's operations: operations.test.ts). */
export function rowOf(env: DispatchEnv, op: Operation): OperationRow | undefined {
  return env.operations[op.id];
}

/** rest_send_allow_header(): each method's permission callback asked about this very request, parameters included. */
export function allowFor(route: ContractRoute | undefined, pathParams: Record<string, string> | undefined, lang: Lang, env: DispatchEnv, params?: Record<string, unknown>): string[] | null {
  if (!route) return null;
  const permissionOf = (op: Operation): Permission | undefined => rowOf(env, op)?.permission;
  return allowedMethods(route, permissionOf, { store: env.store, pathParams: pathParams ?? {}, lang, user: env.user, authRequired: env.authRequired, ...(params ? { params } : {}) });
}

export function withAllow(headers: HeaderList, allow: string[] | null): HeaderList {
  if (allow && allow.length) headers.push(['Allow', [...new Set(allow)].join(', ')]);
  return headers;
}
