// What a user may do with a post, as WordPress 6.1 decides it: the default roles' primitive capabilities
// (wp-admin/includes/schema.php, populate_roles()) and map_meta_cap()'s read_post / edit_post / delete_post
// (wp-includes/capabilities.php). The calendar's post types map their meta capabilities as `post` does, so one
// table serves events, venues and organizers. Pure: no store, no request.
import type { PostStatus, UserRecord } from '../../../contracts/model/records.ts';
import type { DeepReadonly } from '../store/table.ts';

export type Capability =
  | 'read'
  | 'edit_posts'
  | 'edit_others_posts'
  | 'edit_published_posts'
  | 'edit_private_posts'
  | 'publish_posts'
  | 'delete_posts'
  | 'delete_others_posts'
  | 'delete_published_posts'
  | 'delete_private_posts'
  | 'read_private_posts'
  | 'manage_categories'
  | 'unfiltered_html'
  | 'manage_options';

const SUBSCRIBER: readonly Capability[] = ['read'];
const CONTRIBUTOR: readonly Capability[] = [...SUBSCRIBER, 'edit_posts', 'delete_posts'];
const AUTHOR: readonly Capability[] = [...CONTRIBUTOR, 'edit_published_posts', 'publish_posts', 'delete_published_posts'];
const EDITOR: readonly Capability[] = [
  ...AUTHOR, 'edit_others_posts', 'edit_private_posts', 'read_private_posts', 'delete_others_posts', 'delete_private_posts', 'manage_categories',
  // A single site's editors and administrators may post unfiltered HTML (map_meta_cap() refuses it only on multisite).
  'unfiltered_html',
];
const ADMINISTRATOR: readonly Capability[] = [...EDITOR, 'manage_options'];

const ROLE_CAPS: Readonly<Record<string, ReadonlySet<Capability>>> = {
  administrator: new Set(ADMINISTRATOR),
  editor: new Set(EDITOR),
  author: new Set(AUTHOR),
  contributor: new Set(CONTRIBUTOR),
  subscriber: new Set(SUBSCRIBER),
};

export type User = DeepReadonly<UserRecord>;

/** current_user_can( $cap ) for a primitive capability; nobody (no user) holds none. */
export function userCan(user: User | undefined, cap: Capability): boolean {
  return user !== undefined && user.roles.some((role) => ROLE_CAPS[role]?.has(cap) === true);
}

/** The facts of a post map_meta_cap() reads (a stored post is one). */
export interface PostFacts {
  readonly author: number;
  readonly status: PostStatus | string;
  /** `_wp_trash_meta_status`: what a trashed post was before. */
  readonly meta?: { readonly trashedStatus?: string | undefined };
}

const PUBLISHED = new Set(['publish', 'future']);

/** map_meta_cap( 'edit_post' | 'delete_post' ): the primitive capabilities the user needs for this post. */
function metaCaps(meta: 'edit' | 'delete', userId: number | undefined, post: PostFacts): Capability[] {
  const own = post.author !== 0 && userId === post.author;
  if (own) {
    const published = PUBLISHED.has(post.status) || (post.status === 'trash' && PUBLISHED.has(post.meta?.trashedStatus ?? ''));
    return [published ? (`${meta}_published_posts` as const) : (`${meta}_posts` as const)];
  }
  const caps: Capability[] = [`${meta}_others_posts` as const];
  if (PUBLISHED.has(post.status)) caps.push(`${meta}_published_posts` as const);
  else if (post.status === 'private') caps.push(`${meta}_private_posts` as const);
  return caps;
}

/** current_user_can( 'edit_post', $id ). */
export function canEditPost(user: User | undefined, post: PostFacts): boolean {
  return user !== undefined && metaCaps('edit', user.id, post).every((c) => userCan(user, c));
}

/** current_user_can( 'delete_post', $id ). */
export function canDeletePost(user: User | undefined, post: PostFacts): boolean {
  return user !== undefined && metaCaps('delete', user.id, post).every((c) => userCan(user, c));
}

/**
 * WP_REST_Posts_Controller::check_read_permission(): a published post is public; otherwise read_post, which map_meta_cap()
 * grants an author for their own posts, read_private_posts for someone else's private one, and edit_post for the rest
 * (drafts, pending, scheduled and trashed posts of others).
 */
export function canReadPost(user: User | undefined, post: PostFacts): boolean {
  if (post.status === 'publish') return true;
  if (!user) return false;
  if (post.author !== 0 && user.id === post.author) return userCan(user, 'read');
  if (post.status === 'private') return userCan(user, 'read_private_posts');
  return canEditPost(user, post);
}
