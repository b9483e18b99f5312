// Who is asking, and may they. Mirrors WordPress's permission_callbacks: they run after parameter validation, an
// item route's callback first looks the item up (so an unknown ID is 404 before any 401), and the same callbacks
// decide the Allow header (rest_send_allow_header()). Open by default: without --auth every callback passes.
import type { Operation } from '../../../contracts/src/types.ts';
import type { PostType, UserRecord } from '../store/model.ts';
import type { Store } from '../store/store.ts';
import type { DeepReadonly } from '../store/table.ts';
import { cannotCreate, cannotDelete, cannotEdit, forbidden, invalidId, notAllowed, wpError, type WpErrorResponse } from '../wire/errors.ts';
import type { RouteEntry } from './routes.ts';
import { base64Decode, utf8Decode } from '../bytes.ts';

export type User = DeepReadonly<UserRecord>;

/**
 * Application-password Basic credentials. As on the reference site (sample 31), credentials that do not check out
 * leave the request anonymous rather than failing it. WordPress ignores the spaces it shows passwords with.
 */
export function authenticate(authorization: string | undefined, store: Store): User | undefined {
  if (!authorization) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!m) return undefined;
  const decoded = utf8Decode(base64Decode(m[1]!));
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const login = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1).replace(/\s+/g, '');
  const users = store.table('users');
  const user = users.find((u) => u.username === login || u.email.toLowerCase() === login.toLowerCase());
  if (!user) return undefined;
  return user.application_passwords.some((ap) => ap.password.replace(/\s+/g, '') === password) ? user : undefined;
}

export const POST_RESOURCES: ReadonlySet<string> = new Set(['event', 'venue', 'organizer']);

/** Roles that hold edit_posts in a default WordPress (contributors too: they may not publish, but may edit drafts). */
const EDITS_POSTS: readonly string[] = ['administrator', 'editor', 'author', 'contributor'];

/** current_user_can( 'edit_posts' ) for the calendar's post types. */
export function canEditPosts(user: User | undefined): boolean {
  return user !== undefined && user.roles.some((r) => EDITS_POSTS.includes(r));
}
const TERM_RESOURCES: ReadonlySet<string> = new Set(['category', 'tag']);

/** Writes anyone may send even with --auth: batches, logging in, checking a token, registering, submitting a form, rendering a view, and the import service's callbacks. */
function isPublicWrite(op: Operation): boolean {
  return (
    // The batch route itself lets anyone in; each item is then checked on its own (sample 73).
    op.kind === 'batch' ||
    op.path.startsWith('/lms/v1/token') ||
    /\/contact-forms\/\{id\}\/feedback$/.test(op.path) ||
    op.path === '/cal/views/v2/html' ||
    op.path.startsWith('/cal/importer/v1/import/')
  );
}

function itemId(pathParams: Readonly<Record<string, string>>): number | undefined {
  const id = pathParams.id;
  return id !== undefined && /^\d+$/.test(id) ? Number(id) : undefined;
}

/** The stored item an item route names, or the 404 its permission callback answers. */
function lookup(op: Operation, store: Store, pathParams: Readonly<Record<string, string>>, lang: string): { author?: number; status?: string } | WpErrorResponse | undefined {
  const resource = op.resource ?? '';
  const isItem = op.path.includes('{id}') || op.path.includes('{slug}');
  if (!isItem || (op.kind !== 'read' && op.kind !== 'update' && op.kind !== 'delete')) return undefined;
  if (POST_RESOURCES.has(resource)) {
    const type = resource as PostType;
    const id = itemId(pathParams);
    const rec =
      id !== undefined
        ? store.posts(type).get(id)
        : pathParams.slug !== undefined
          ? (store.bySlug(type, pathParams.slug, lang as 'en' | 'uk') ?? store.bySlug(type, pathParams.slug, lang === 'en' ? 'uk' : 'en'))
          : undefined;
    return rec ? { author: rec.author, status: rec.status } : invalidId('rest_post_invalid_id', 'Invalid post ID.');
  }
  if (TERM_RESOURCES.has(resource)) {
    const id = itemId(pathParams);
    const rec = id === undefined ? undefined : store.terms(resource as 'category' | 'tag').get(id);
    return rec ? {} : invalidId('rest_term_invalid', 'Term does not exist.');
  }
  return undefined;
}

function isError(v: unknown): v is WpErrorResponse {
  return v !== null && typeof v === 'object' && 'body' in v && 'status' in v;
}

function may(user: User | undefined, op: Operation, item: { author?: number } | undefined): boolean {
  if (!user) return false;
  const roles = user.roles;
  if (roles.includes('administrator') || roles.includes('editor')) return true;
  if (!roles.includes('author')) return false;
  // Authors write their own calendar posts, nothing else (publish_posts / edit_posts, not edit_others_posts).
  if (!POST_RESOURCES.has(op.resource ?? '')) return false;
  return op.kind === 'create' || item?.author === user.id;
}

function denied(op: Operation, loggedIn: boolean): WpErrorResponse {
  const resource = op.resource ?? '';
  const isTerm = TERM_RESOURCES.has(resource);
  if (POST_RESOURCES.has(resource) || isTerm) {
    if (op.kind === 'create') return isTerm ? notAllowed('rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.', loggedIn) : cannotCreate(loggedIn);
    if (op.kind === 'update') return isTerm ? notAllowed('rest_cannot_update', 'Sorry, you are not allowed to edit this term.', loggedIn) : cannotEdit(loggedIn);
    if (op.kind === 'delete') return isTerm ? notAllowed('rest_cannot_delete', 'Sorry, you are not allowed to delete this term.', loggedIn) : cannotDelete(loggedIn);
  }
  return forbidden(loggedIn);
}

export interface PermissionInput {
  op: Operation;
  store: Store;
  pathParams: Readonly<Record<string, string>>;
  lang: string;
  user: User | undefined;
  authRequired: boolean;
}

/** The permission callback of one operation: null when the request may proceed. */
export function checkPermission(input: PermissionInput): WpErrorResponse | null {
  const { op, user, authRequired } = input;
  const item = lookup(op, input.store, input.pathParams, input.lang);
  if (isError(item)) return item;
  if (!authRequired) return null;
  const loggedIn = user !== undefined;
  if (op.method === 'GET') {
    if (op.path === '/oembed/1.0/proxy' && !loggedIn) {
      return wpError('rest_forbidden', 'Sorry, you are not allowed to make proxied oEmbed requests.', { status: 401 });
    }
    // Only published records are public; anything else needs someone who could edit it.
    if (item?.status !== undefined && item.status !== 'publish' && !may(user, { ...op, kind: 'update' }, item)) return forbidden(loggedIn);
    return null;
  }
  if (isPublicWrite(op)) return null;
  return may(user, op, item) ? null : denied(op, loggedIn);
}

/** rest_send_allow_header(): the route's methods whose permission callback passes now. */
export function allowedMethods(route: RouteEntry, input: Omit<PermissionInput, 'op'>): string[] {
  if (!input.authRequired) {
    // Open mode: every callback passes once the item exists; the first op's lookup decides for all.
    const item = route.ops[0] ? lookup(route.ops.find((o) => o.kind === 'read' || o.kind === 'update' || o.kind === 'delete') ?? route.ops[0], input.store, input.pathParams, input.lang) : undefined;
    return isError(item) ? [] : route.methods;
  }
  const out: string[] = [];
  for (const op of route.ops) if (checkPermission({ ...input, op }) === null) out.push(op.method);
  return out;
}
