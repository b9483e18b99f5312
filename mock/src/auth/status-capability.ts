// sanitize_post_statuses() (WP_REST_Posts_Controller, the `status` collection arg): every status other than
// `publish` needs the post type's edit_posts capability, and the check runs before the enum check, so an anonymous
// `status=bogus` is "Status is forbidden." (sample 14), not "not one of". It runs in the sanitize pass: a failure in
// the validate pass (per_page=abc) hides it, and it is reported beside the pass's other failures.
import type { Operation } from '../../../contracts/lib/types.ts';
import type { WpError } from '../../../contracts/wordpress/schema/index.ts';
import { canEditPosts, type Permission, type User } from './permissions.ts';

/** The statuses as wp_parse_slug_list() reads them: a list, or a string split on commas and spaces. */
function requestedStatuses(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [value];
  return list.filter((s) => s !== '' && s !== undefined && s !== null).map((s) => String(s).trim().toLowerCase());
}

/** Undefined when the request may list what it asks for; else the `status` error WordPress reports. */
export function forbiddenStatusErrors(
  op: Operation,
  permission: Permission,
  raw: Readonly<Record<string, unknown>>,
  who: { user: User | undefined; authRequired: boolean },
): Record<string, WpError> | undefined {
  // The posts controllers' lists: the operations whose row says they list posts.
  if (!who.authRequired || permission.rule !== 'posts' || permission.action !== 'list') return undefined;
  if (raw.status === undefined || !op.params.some((p) => p.name === 'status' && p.in === 'query')) return undefined;
  if (canEditPosts(who.user)) return undefined;
  if (requestedStatuses(raw.status).every((s) => s === 'publish')) return undefined;
  // rest_authorization_required_code(): 401 for nobody, 403 for a user without the capability.
  return { status: { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: who.user ? 403 : 401 } } };
}
