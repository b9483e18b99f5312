// Collection pagination as WordPress core controllers send it (WP_REST_Posts_Controller::get_items() and the terms,
// users and comments controllers): X-WP-Total, X-WP-TotalPages and a Link header with rel="prev"/"next" rebuilt
// from the request's query parameters by add_query_arg( urlencode_deep( $request->get_query_params() ), rest_url() ).

import { pageBeyond, type WpErrorResponse } from './errors.ts';
import { addQueryArg, jsToPhpArray, phpArrayKey, urlencodeDeep, type PhpKey } from '../../../contracts/wordpress/php/index.ts';
import { linkHeaderValue } from './headers.ts';
import { windowOf } from '../../../contracts/wordpress/list-window.ts';

/**
 * The query parameters as WordPress holds them when the controller builds its links: $_GET in its own order, with
 * each declared arg replaced in place by its sanitized value (sanitize_params() writes back into params['GET']) -
 * so `author=1` becomes [1] and prints as `author%5B0%5D=1`, `sticky=false` becomes false and prints as `sticky`.
 * Undeclared params (`_fields`, `_jsonp`, `rest_route`...) stay the strings they were.
 */
export function sanitizedQuery(query: Map<PhpKey, unknown> | Readonly<Record<string, unknown>>, sanitized: Readonly<Record<string, unknown>>): Map<PhpKey, unknown> {
  const out = new Map(jsToPhpArray(query) ?? []);
  for (const [k, v] of Object.entries(sanitized)) {
    const key = phpArrayKey(k);
    if (out.has(key)) out.set(key, v);
  }
  return out;
}

/** One page of a list, and the figures X-WP-Total and X-WP-TotalPages report. */
interface PageOf<T> {
  items: T[];
  pagination: { total: number; totalPages: number; page: number };
  /** `page` is past the last page while there are items (posts controllers answer 400 then, terms an empty page). */
  beyond: boolean;
}

/** Page `page` (from 1) of `perPage` items of a sorted list, cut by the one page slicer (windowOf()). Values below 1 count as 1. */
export function pageOf<T>(all: readonly T[], page: number, perPage: number): PageOf<T> {
  const p = Math.max(1, Math.trunc(page) || 1);
  const per = Math.max(1, Math.trunc(perPage) || 1);
  const total = all.length;
  const totalPages = Math.ceil(total / per);
  return { items: windowOf(all, (p - 1) * per, per), pagination: { total, totalPages, page: p }, beyond: total > 0 && p > totalPages };
}

/** How a controller reacts to a page past the last one. */
type BeyondLastPage =
  /** posts, pages, custom post types, revisions, search: 400 with this code, but only when there are items at all */
  | { error: string }
  /** terms, users, comments: an empty page, with a rel="prev" link to the last page */
  | 'empty-page';

interface PaginationInput {
  /** rest_url() of the collection route, e.g. `http://127.0.0.1:8089/wp-json/wp/v2/posts` (also for `?rest_route=` requests). */
  collectionUrl: string;
  /** see sanitizedQuery() */
  query: Map<PhpKey, unknown> | Readonly<Record<string, unknown>>;
  page: number;
  perPage: number;
  total: number;
  /** default: the posts controller's `rest_post_invalid_page_number` */
  beyondLastPage?: BeyondLastPage;
}

interface PaginationResult {
  /** The posts controller's 400 for a page past the end; when set, send it instead of the list (no pagination headers). */
  error: WpErrorResponse | null;
  /** X-WP-Total, X-WP-TotalPages as integers, then Link when there is a prev or next page. */
  headers: [string, string | number][];
  totalPages: number;
}

/** One rebuilt link: add_query_arg( 'page', $n, add_query_arg( urlencode_deep( $params ), $collection_url ) ). */
export function pageLink(collectionUrl: string, query: Map<PhpKey, unknown> | Readonly<Record<string, unknown>>, page: number): string {
  const base = addQueryArg(urlencodeDeep(query) as Map<PhpKey, unknown>, collectionUrl);
  return addQueryArg(new Map<PhpKey, unknown>([['page', page]]), base);
}

export function paginate(input: PaginationInput): PaginationResult {
  const { page, total } = input;
  const totalPages = Math.ceil(total / input.perPage);
  const beyond = input.beyondLastPage ?? { error: 'rest_post_invalid_page_number' };
  if (beyond !== 'empty-page' && page > totalPages && total > 0) {
    return { error: pageBeyond(beyond.error), headers: [], totalPages };
  }
  const headers: [string, string | number][] = [
    ['X-WP-Total', total],
    ['X-WP-TotalPages', totalPages],
  ];
  const links: string[] = [];
  if (page > 1) {
    // Past the end, prev points at the last page - page 0 when the collection is empty.
    const prev = Math.min(page - 1, totalPages);
    links.push(linkHeaderValue('prev', pageLink(input.collectionUrl, input.query, prev)));
  }
  if (totalPages > page) links.push(linkHeaderValue('next', pageLink(input.collectionUrl, input.query, page + 1)));
  if (links.length > 0) headers.push(['Link', links.join(', ')]);
  return { error: null, headers, totalPages };
}
