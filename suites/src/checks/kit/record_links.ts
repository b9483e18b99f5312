// The links a record of WordPress's controllers carries in `_links` (WP_REST_Response::add_link(), compacted by
// WP_REST_Server::get_compact_response_links(): `https://api.w.org/term` is `wp:term`), read the same way by the checks
// that judge what they say (links) and where they lead (links_resolve).

import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';

/** A record's field holding term ids, by the taxonomy whose terms they are (000 §2.5; WordPress's own two). */
export const TAXONOMY_FIELDS: Readonly<Record<string, string>> = { tags: 'post_tag', categories: 'category', cal_events_cat: 'cal_events_cat' };

/** The links of `rel` a record carries, compacted or not. */
export function linksOf(record: unknown, rel: string): Record<string, unknown>[] {
  const links = isPlainObject(record) && isPlainObject(record['_links']) ? record['_links'] : {};
  const full = rel.startsWith('wp:') ? `https://api.w.org/${rel.slice(3)}` : rel;
  return [...(Array.isArray(links[rel]) ? links[rel] : []), ...(full !== rel && Array.isArray(links[full]) ? links[full] : [])].filter(isPlainObject);
}

/** The href of a record's first link of `rel`; undefined when there is none. */
export function firstHref(record: unknown, rel: string): string | undefined {
  const href = linksOf(record, rel)[0]?.['href'];
  return typeof href === 'string' ? href : undefined;
}

/** Every href of a record's `_links` but the templated ones (curies), with its rel. */
export function allHrefs(record: unknown): { rel: string; href: string }[] {
  const links = isPlainObject(record) && isPlainObject(record['_links']) ? record['_links'] : {};
  return Object.entries(links).flatMap(([rel, list]) =>
    (Array.isArray(list) ? list : []).flatMap((l) => (isPlainObject(l) && typeof l['href'] === 'string' && l['templated'] !== true ? [{ rel, href: l['href'] }] : [])),
  );
}
