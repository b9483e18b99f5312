// Who is asking, and may they. Mirrors WordPress's permission_callbacks: they run after parameter validation, an
// item route's callback first looks the item up (so an unknown ID is 404 before any 401), and the same callbacks
// decide the Allow header (rest_send_allow_header()). Open by default: without --auth every callback passes.
import type { Operation } from '../../../contracts/lib/types.ts';
import type { PostType } from '../../../contracts/model/records.ts';
import type { Store } from '../store/store.ts';
import { cannotCreate, cannotDelete, cannotEdit, forbidden, invalidId, notAllowed, wpError, type WpErrorResponse } from '../wire/errors.ts';
import type { ContractRoute } from '../../../contracts/lib/loader.ts';
import { basicCredentials } from '../wire/request.ts';
import { canDeletePost, canEditPost, canReadPost, userCan, type PostFacts, type User } from './capabilities.ts';
import { needsAdministrator } from './addon-capabilities.ts';

export type { User } from './capabilities.ts';

/**
 * Application-password Basic credentials. As on the reference site (sample 31), credentials that do not check out
 * leave the request anonymous rather than failing it. WordPress ignores the spaces it shows passwords with.
 */
export function authenticate(authorization: string | undefined, store: Store): User | undefined {
  const credentials = basicCredentials(authorization);
  if (!credentials) return undefined;
  const login = credentials.login;
  const password = credentials.password.replace(/\s+/g, '');
  const users = store.table('users');
  const user = users.find((u) => u.username === login || u.email.toLowerCase() === login.toLowerCase());
  if (!user) return undefined;
  return user.application_passwords.some((ap) => ap.password.replace(/\s+/g, '') === password) ? user : undefined;
}

export const POST_RESOURCES: ReadonlySet<string> = new Set(['event', 'venue', 'organizer']);

/** current_user_can( 'edit_posts' ) for the calendar's post types (contributors too: they may edit their drafts). */
export function canEditPosts(user: User | undefined): boolean {
  return userCan(user, 'edit_posts');
}
const TERM_RESOURCES: ReadonlySet<string> = new Set(['category', 'tag']);

/** Who asks, as the read rules need it: under --auth the user's capabilities decide, in open mode everything is readable. */
export interface Reader {
  user: User | undefined;
  authRequired: boolean;
}

/**
 * check_read_permission() for a post the request would show: read by ID, listed, nested in another record or embedded.
 * One rule for all of them, so a record never shows up somewhere its own route would refuse it.
 */
export function readsPost(reader: Reader, post: PostFacts): boolean {
  return !reader.authRequired || canReadPost(reader.user, post);
}

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
function lookup(op: Operation, store: Store, pathParams: Readonly<Record<string, string>>, lang: string): PostFacts | Record<string, never> | WpErrorResponse | undefined {
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
    return rec ?? invalidId('rest_post_invalid_id', 'Invalid post ID.');
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

function isPost(v: PostFacts | Record<string, never> | undefined): v is PostFacts {
  return v !== undefined && 'status' in v;
}

/**
 * `! empty( $request['author'] ) && get_current_user_id() !== $request['author']`: a request that names an author
 * other than the user. Strict, as in PHP: only a declared integer arg can equal the user's ID; a raw `?author=3` (a
 * string) or a list's array never does, so rest_send_allow_header() leaves POST out of an author's `?author=` list,
 * as WordPress does.
 */
function asksForAnotherAuthor(params: Readonly<Record<string, unknown>> | undefined, user: User | undefined): boolean {
  const a = params?.author;
  const empty = a === undefined || a === null || a === false || a === 0 || a === '' || a === '0' || (Array.isArray(a) && a.length === 0);
  return !empty && a !== (user?.id ?? 0);
}

/**
 * create_item_permissions_check() / update_item_permissions_check() / delete_item_permissions_check() of
 * WP_REST_Posts_Controller (6.1), in their order: for a create, writing as someone else (rest_cannot_edit_others),
 * then stickiness, then create_posts; for an update, edit_post on the stored post first, then the same author and
 * sticky rules; for a delete, delete_post.
 */
function postWriteRefusal(op: Operation, user: User | undefined, item: PostFacts | undefined, params: Readonly<Record<string, unknown>> | undefined): WpErrorResponse | null {
  const loggedIn = user !== undefined;
  if (op.kind === 'delete') return item && canDeletePost(user, item) ? null : cannotDelete(loggedIn);
  if (op.kind === 'update' && !(item && canEditPost(user, item))) return cannotEdit(loggedIn);
  if (asksForAnotherAuthor(params, user) && !userCan(user, 'edit_others_posts')) {
    return notAllowed('rest_cannot_edit_others', `Sorry, you are not allowed to ${op.kind === 'create' ? 'create' : 'update'} posts as this user.`, loggedIn);
  }
  // WP_REST_Posts_Controller 6.1.9 refuses stickiness only to a user with neither edit_others_posts nor
  // publish_posts: an author's sticky create answers 201 on WordPress 6.1.9 (measured), a contributor's 403.
  if (params?.sticky === true && !userCan(user, 'edit_others_posts') && !userCan(user, 'publish_posts')) {
    return notAllowed('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', loggedIn);
  }
  if (op.kind === 'create' && !userCan(user, 'edit_posts')) return cannotCreate(loggedIn);
  return null;
}

/**
 * handle_status_param(): run by the handler once the permission check passed, for the status a write asks for (a
 * create that names none is published, the store's default, so it counts as `publish`). Publishing, scheduling and
 * making private need publish_posts; anything else passes.
 */
export function statusRefusal(reader: Reader, status: string | undefined): WpErrorResponse | null {
  if (!reader.authRequired || status === undefined || userCan(reader.user, 'publish_posts')) return null;
  const loggedIn = reader.user !== undefined;
  if (status === 'private') return notAllowed('rest_cannot_publish', 'Sorry, you are not allowed to create private posts in this post type.', loggedIn);
  if (status === 'publish' || status === 'future') return notAllowed('rest_cannot_publish', 'Sorry, you are not allowed to publish posts in this post type.', loggedIn);
  return null;
}

/** Terms need manage_categories (editors and administrators); so does every add-on write that is not public. */
function mayManage(user: User | undefined): boolean {
  return userCan(user, 'manage_categories');
}

function termRefusal(op: Operation, loggedIn: boolean): WpErrorResponse {
  if (op.kind === 'create') return notAllowed('rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.', loggedIn);
  if (op.kind === 'update') return notAllowed('rest_cannot_update', 'Sorry, you are not allowed to edit this term.', loggedIn);
  if (op.kind === 'delete') return notAllowed('rest_cannot_delete', 'Sorry, you are not allowed to delete this term.', loggedIn);
  return forbidden(loggedIn);
}

interface PermissionInput {
  op: Operation;
  store: Store;
  pathParams: Readonly<Record<string, string>>;
  lang: string;
  user: User | undefined;
  authRequired: boolean;
  /** The request's parameters, when known: the author and sticky rules read them (as WordPress reads `$request`). */
  params?: Readonly<Record<string, unknown>>;
}

/** The request's parameters the permission callbacks read (PermissionInput.params): no others need be gathered. */
export const PERMISSION_PARAMS = ['author', 'sticky'] as const;

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
    // get_item_permissions_check() answers check_read_permission()'s false as the server's generic rest_forbidden.
    return isPost(item) && !canReadPost(user, item) ? forbidden(loggedIn) : null;
  }
  if (isPublicWrite(op)) return null;
  const resource = op.resource ?? '';
  if (POST_RESOURCES.has(resource) && (op.kind === 'create' || op.kind === 'update' || op.kind === 'delete')) {
    return postWriteRefusal(op, user, isPost(item) ? item : undefined, input.params);
  }
  if (TERM_RESOURCES.has(resource)) return mayManage(user) ? null : termRefusal(op, loggedIn);
  if (needsAdministrator(op)) return userCan(user, 'manage_options') ? null : forbidden(loggedIn);
  return mayManage(user) ? null : forbidden(loggedIn);
}

/** rest_send_allow_header(): the route's methods whose permission callback passes now. */
export function allowedMethods(route: ContractRoute, input: Omit<PermissionInput, 'op'>): string[] {
  if (!input.authRequired) {
    // Open mode: every callback passes once the item exists; the first op's lookup decides for all.
    const item = route.operations[0] ? lookup(route.operations.find((o) => o.kind === 'read' || o.kind === 'update' || o.kind === 'delete') ?? route.operations[0], input.store, input.pathParams, input.lang) : undefined;
    return isError(item) ? [] : [...route.methods];
  }
  const out: string[] = [];
  for (const op of route.operations) if (checkPermission({ ...input, op }) === null) out.push(op.method);
  return out;
}
