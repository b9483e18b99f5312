// Who is asking, and may they. Mirrors WordPress's permission_callbacks: they run after parameter validation, an
// item route's callback first looks the item up (so an unknown ID is 404 before any 401), and the same callbacks
// decide the Allow header (rest_send_allow_header()). Each operation's permission is a value in its row of the
// operation table (handlers/operations.ts), as Prism reads security off the matched operation: this module holds
// the vocabulary of those values and what each one lets through. Open by default: without --auth only the item
// lookups refuse.
import type { PostType, TermType } from '../../../contracts/model/records.ts';
import type { Store } from '../store/store.ts';
import { cannotCreate, cannotDelete, cannotEdit, forbidden, forbiddenContext, invalidId, notAllowed, wpError, type WpErrorResponse } from '../wire/errors.ts';
import type { ContractRoute } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { basicCredentials } from '../wire/request.ts';
import { phpEmpty } from '../../../contracts/wordpress/php/index.ts';
import type { WpError } from '../../../contracts/wordpress/schema/index.ts';
import { canDeletePost, canEditPost, canReadPost, userCan, type Capability, type PostFacts, type User } from './capabilities.ts';

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

// ---- the vocabulary of the operation table's permissions --------------------------------------------------------

/** What an operation does to the records of a controller. */
export type RecordAction = 'list' | 'read' | 'create' | 'update' | 'delete';

/** An operation's permission callback, as its row of the operation table states it. */
export type Permission =
  /** Anyone: `__return_true`. A write that is public says why (`publicWrite()`); a read is `PUBLIC_READ`. */
  | { readonly rule: 'public'; readonly why?: string }
  /**
   * WP_REST_Posts_Controller's callbacks for a post type: reads by ID check_read_permission(), writes
   * create/update/delete_item_permissions_check(). `core`: the routes are core's controller itself (cal/v1), so its own
   * checks apply too: the `context` arg, whose `edit` needs edit_posts on a list and edit_post on an item
   * (rest_forbidden_context), and a create naming an `id` (rest_post_exists); false for a plugin's own controllers
   * (the legacy namespace), which share the capability rules only.
   */
  | { readonly rule: 'posts'; readonly type: PostType; readonly action: RecordAction; readonly core: boolean }
  /** WP_REST_Terms_Controller's writes (manage_categories, with the terms' own wording); reads are public. */
  | { readonly rule: 'terms'; readonly type: TermType; readonly action: RecordAction }
  /** current_user_can( capability ), refused as rest_forbidden unless the plugin words it otherwise. */
  | { readonly rule: 'capability'; readonly capability: Capability; readonly refusal?: Refusal };

/** The code and message a plugin refuses with instead of the server's rest_forbidden. */
type Refusal = Readonly<Pick<WpError, 'code' | 'message'>>;

/** A read anyone may send. */
export const PUBLIC_READ: Permission = { rule: 'public' };

/** A write anyone may send even with --auth, and why (each must say). */
export function publicWrite(why: string): Permission {
  return { rule: 'public', why };
}

/** A write editors and administrators may send (manage_categories): what the add-ons' plugins give editors. */
export const EDITORS: Permission = { rule: 'capability', capability: 'manage_categories' };

/** A write only administrators may send (manage_options, or install/activate/switch capabilities they alone hold). */
export const ADMINISTRATORS: Permission = { rule: 'capability', capability: 'manage_options' };

export function posts(type: PostType, action: RecordAction, opts: { core: boolean }): Permission {
  return { rule: 'posts', type, action, core: opts.core };
}

export function terms(type: TermType, action: RecordAction): Permission {
  return { rule: 'terms', type, action };
}

/** A permission that needs `capability`, refused with the plugin's own code and message. */
export function needs(capability: Capability, refusal: Refusal): Permission {
  return { rule: 'capability', capability, refusal };
}

// ---- the rules -----------------------------------------------------------------------------------------------

/** current_user_can( 'edit_posts' ) for the calendar's post types (contributors too: they may edit their drafts). */
export function canEditPosts(user: User | undefined): boolean {
  return userCan(user, 'edit_posts');
}

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

function itemId(pathParams: Readonly<Record<string, string>>): number | undefined {
  const id = pathParams.id;
  return id !== undefined && /^\d+$/.test(id) ? Number(id) : undefined;
}

const isItemAction = (action: RecordAction) => action === 'read' || action === 'update' || action === 'delete';

/** The stored item an item route names, or the 404 its permission callback answers; undefined when there is none to look up. */
function lookup(permission: Permission, store: Store, pathParams: Readonly<Record<string, string>>, lang: string): PostFacts | Record<string, never> | WpErrorResponse | undefined {
  const isItem = pathParams.id !== undefined || pathParams.slug !== undefined;
  if (!isItem) return undefined;
  if (permission.rule === 'posts' && isItemAction(permission.action)) {
    const { type } = permission;
    const id = itemId(pathParams);
    const rec =
      id !== undefined
        ? store.posts(type).get(id)
        : pathParams.slug !== undefined
          ? (store.bySlug(type, pathParams.slug, lang as 'en' | 'uk') ?? store.bySlug(type, pathParams.slug, lang === 'en' ? 'uk' : 'en'))
          : undefined;
    return rec ?? invalidId('rest_post_invalid_id', 'Invalid post ID.');
  }
  if (permission.rule === 'terms' && isItemAction(permission.action)) {
    const id = itemId(pathParams);
    const rec = id === undefined ? undefined : store.terms(permission.type).get(id);
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
  return !phpEmpty(a) && a !== (user?.id ?? 0);
}

/**
 * get_items_permissions_check() / get_item_permissions_check() of WP_REST_Posts_Controller (6.1): the edit context
 * needs edit_posts for a list and edit_post for the post read (rest_forbidden_context, in their wording); then a post
 * read by ID must pass check_read_permission(), which refuses as the server's generic rest_forbidden.
 */
function postReadRefusal(action: 'list' | 'read', context: boolean, user: User | undefined, item: PostFacts | undefined, params: Readonly<Record<string, unknown>> | undefined): WpErrorResponse | null {
  const loggedIn = user !== undefined;
  if (context && params?.context === 'edit') {
    if (action === 'list' && !canEditPosts(user)) return forbiddenContext(loggedIn);
    if (action === 'read' && item && !canEditPost(user, item)) return notAllowed('rest_forbidden_context', 'Sorry, you are not allowed to edit this post.', loggedIn);
  }
  return action === 'read' && item && !canReadPost(user, item) ? forbidden(loggedIn) : null;
}

/**
 * create_item_permissions_check() / update_item_permissions_check() / delete_item_permissions_check() of
 * WP_REST_Posts_Controller (6.1), in their order: for a create, writing as someone else (rest_cannot_edit_others),
 * then stickiness, then create_posts; for an update, edit_post on the stored post first, then the same author and
 * sticky rules; for a delete, delete_post.
 */
function postWriteRefusal(action: 'create' | 'update' | 'delete', user: User | undefined, item: PostFacts | undefined, params: Readonly<Record<string, unknown>> | undefined): WpErrorResponse | null {
  const loggedIn = user !== undefined;
  if (action === 'delete') return item && canDeletePost(user, item) ? null : cannotDelete(loggedIn);
  if (action === 'update' && !(item && canEditPost(user, item))) return cannotEdit(loggedIn);
  if (asksForAnotherAuthor(params, user) && !userCan(user, 'edit_others_posts')) {
    return notAllowed('rest_cannot_edit_others', `Sorry, you are not allowed to ${action === 'create' ? 'create' : 'update'} posts as this user.`, loggedIn);
  }
  // WP_REST_Posts_Controller 6.1.9 refuses stickiness only to a user with neither edit_others_posts nor
  // publish_posts: an author's sticky create answers 201 on WordPress 6.1.9 (measured), a contributor's 403.
  if (params?.sticky === true && !userCan(user, 'edit_others_posts') && !userCan(user, 'publish_posts')) {
    return notAllowed('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', loggedIn);
  }
  if (action === 'create' && !userCan(user, 'edit_posts')) return cannotCreate(loggedIn);
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

/** WP_REST_Terms_Controller's write checks: manage_categories (the taxonomies' edit/delete_terms), in their words. */
function termRefusal(action: RecordAction, user: User | undefined): WpErrorResponse | null {
  if (action === 'list' || action === 'read' || userCan(user, 'manage_categories')) return null;
  const loggedIn = user !== undefined;
  if (action === 'create') return notAllowed('rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.', loggedIn);
  if (action === 'update') return notAllowed('rest_cannot_update', 'Sorry, you are not allowed to edit this term.', loggedIn);
  return notAllowed('rest_cannot_delete', 'Sorry, you are not allowed to delete this term.', loggedIn);
}

/** What a permission callback reads of the request and the site. */
interface PermissionInput {
  store: Store;
  pathParams: Readonly<Record<string, string>>;
  lang: string;
  user: User | undefined;
  authRequired: boolean;
  /** The request's parameters, when known: the author, sticky and context rules read them (as WordPress reads `$request`). */
  params?: Readonly<Record<string, unknown>>;
}

/** The request's parameters the permission callbacks read (PermissionInput.params): no others need be gathered. */
export const PERMISSION_PARAMS = ['author', 'sticky', 'context', 'id'] as const;

/**
 * create_item_permissions_check()'s first test, before it asks who is there: `! empty( $request['id'] )` on a create
 * is "Cannot create existing post." (400, whoever asks, in open mode too).
 */
function createsExisting(p: Permission, params: Readonly<Record<string, unknown>> | undefined): WpErrorResponse | null {
  if (p.rule !== 'posts' || !p.core || p.action !== 'create' || phpEmpty(params?.id)) return null;
  return wpError('rest_post_exists', 'Cannot create existing post.', { status: 400 });
}


/** The permission callback of one operation: null when the request may proceed. */
export function checkPermission(p: Permission, input: PermissionInput): WpErrorResponse | null {
  const { user, authRequired } = input;
  const item = lookup(p, input.store, input.pathParams, input.lang);
  if (isError(item)) return item;
  const exists = createsExisting(p, input.params);
  if (exists) return exists;
  if (!authRequired) return null;
  switch (p.rule) {
    case 'public':
      return null;
    case 'posts': {
      const post = isPost(item) ? item : undefined;
      if (p.action === 'list' || p.action === 'read') return postReadRefusal(p.action, p.core, user, post, input.params);
      return postWriteRefusal(p.action, user, post, input.params);
    }
    case 'terms':
      return termRefusal(p.action, user);
    case 'capability':
      if (userCan(user, p.capability)) return null;
      return p.refusal ? notAllowed(p.refusal.code, p.refusal.message, user !== undefined) : forbidden(user !== undefined);
  }
}

/** rest_send_allow_header(): the route's methods whose permission callback passes now (an operation with none has no handler). */
export function allowedMethods(route: ContractRoute, permissionOf: (op: Operation) => Permission | undefined, input: PermissionInput): string[] {
  const out: string[] = [];
  for (const op of route.operations) {
    const permission = permissionOf(op);
    if (permission && checkPermission(permission, input) === null) out.push(op.method);
  }
  return out;
}
