// What both calendar namespaces derive the same way from a stored post: its rendered HTML, permalink and
// date strings. The namespaces differ in names and nesting, not in these facts.
import type { Lang, PostBase } from '../../../../contracts/model/records.ts';
import type { DeepReadonly as R } from '../../store/table.ts';
import type { LinkBase } from '../context.ts';
import { guidAfterUpdate } from '../../../../contracts/wordpress/post-dates.ts';

/** The public post type names the records are stored under (WordPress post_type / taxonomy). */
export const POST_TYPE = { event: 'cal_event', venue: 'cal_venue', organizer: 'cal_organizer' } as const;
export const TAXONOMY = { category: 'cal_events_cat', tag: 'post_tag' } as const;
/** Rewrite bases of the permalinks. */
const PERMALINK_BASE = { event: 'event', venue: 'venue', organizer: 'organizer' } as const;

// the_title, the_content and the_excerpt as WordPress prints them (`rendered`): see contracts/wordpress/content/post-text.ts.
export { renderContent, renderExcerpt, renderTitle } from '../../../../contracts/wordpress/content/post-text.ts';

function langPrefix(lang: Lang, defaultLang: Lang): string {
  return lang === defaultLang ? '' : `/${lang}`;
}

/**
 * The post's public URL (get_post_permalink()): draft, pending, future and trashed posts have no pretty permalink, as
 * in WordPress (the CI calendar site: a future venue's link is ?post_type=cal_venue&p=<id>).
 */
export function permalink(base: LinkBase, type: keyof typeof PERMALINK_BASE, post: R<PostBase>, defaultLang: Lang): string {
  const pretty = post.slug !== '' && (post.status === 'publish' || post.status === 'private');
  if (!pretty) return `${base.home}/?post_type=${POST_TYPE[type]}&p=${post.id}`;
  return `${base.home}${langPrefix(post.lang, defaultLang)}/${PERMALINK_BASE[type]}/${post.slug}/`;
}

/**
 * The guid wp_insert_post() stored: the permalink the post had when it was created (pretty only for a published or
 * private one: get_post_permalink() gives a future, draft or pending post the plain form), stored again through
 * pre_post_guid by every update since (guidAfterUpdate). The home is the one the mock is reached at.
 */
export function storedGuid(base: LinkBase, type: keyof typeof PERMALINK_BASE, post: R<PostBase>, defaultLang: Lang): string {
  const slug = post.meta.guidSlug;
  const guid = slug ? `${base.home}${langPrefix(post.lang, defaultLang)}/${PERMALINK_BASE[type]}/${slug}/` : `${base.home}/?post_type=${POST_TYPE[type]}&p=${post.id}`;
  return post.meta.guidUpdated === true ? guidAfterUpdate(guid) : guid;
}

/**
 * get_sample_permalink()'s template (`permalink_template`, edit context): the pretty permalink with the custom post
 * type's token replaced by `%pagename%`, whatever the post's status.
 */
export function permalinkTemplate(base: LinkBase, type: keyof typeof PERMALINK_BASE, post: R<PostBase>, defaultLang: Lang): string {
  return `${base.home}${langPrefix(post.lang, defaultLang)}/${PERMALINK_BASE[type]}/%pagename%/`;
}

/** `YYYY-MM-DD HH:MM:SS` → `YYYY-MM-DDTHH:MM:SS` (mysql_to_rfc3339 without an offset, as wp/v2 prints dates). */
export function rfc3339(wall: string): string {
  return wall.replace(' ', 'T');
}

/** TEC's `*_details` object of a `YYYY-MM-DD HH:MM:SS` string. */
export function dateDetails(wall: string): { year: string; month: string; day: string; hour: string; minutes: string; seconds: string } {
  return {
    year: wall.slice(0, 4),
    month: wall.slice(5, 7),
    day: wall.slice(8, 10),
    hour: wall.slice(11, 13),
    minutes: wall.slice(14, 16),
    seconds: wall.slice(17, 19),
  };
}
