// The addresses a WordPress site writes into its answers (the API root's Link header, Location, `_links.*.href`, the
// descriptor's `_links.self`) are get_rest_url() of a route: home URL + `/wp-json/<route>` with pretty permalinks, or
// home URL + `/index.php?rest_route=/<route>` without them (rest-api.php get_rest_url()). This module reads such an
// address back into the route it names, under the API root the suite was given (--base-url, --api-root), so that a
// check can compare it with the route it expects and send a GET of it through the run's client.

import { REST_ROUTE_ROOT } from '../../http/target.ts';
import type { UnitEnv } from './unit.ts';

/** What an address of the site names under its REST root. */
interface RestAddress {
  /** The route, still percent-encoded as it stood in the address: `/cal/v1/events/12`, `/` for the root. */
  route: string;
  /** The query without `rest_route` and without `?` (`post=12`), '' when there is none. */
  query: string;
  /** Whether the address is on the origin (scheme, host, port) the suite reaches the site by. */
  sameOrigin: boolean;
  form: 'pretty' | 'rest_route';
}

type Where = Pick<UnitEnv, 'baseUrl' | 'apiRoot'>;

const LANGUAGE_ROOT = /^(.*)\/[a-z]{2}(\/wp-json)$/;

/**
 * The pretty REST roots an address may sit under, as paths after the base URL's: the configured root, and that root
 * without its language segment (`/uk/wp-json` → `/wp-json`: a translation add-on may or may not write the language
 * into the addresses); `/wp-json` for a site reached through `?rest_route=`, whose pretty permalinks may be on.
 */
function prettyRoots(apiRoot: string | undefined): string[] {
  if (apiRoot === undefined || apiRoot === REST_ROUTE_ROOT) return ['/wp-json'];
  const roots = [apiRoot.replace(/\/+$/, '')];
  const lang = LANGUAGE_ROOT.exec(roots[0]!);
  if (lang) roots.push(`${lang[1]}${lang[2]}`);
  return roots;
}

/** The route an absolute address of the site names under its REST root; undefined when it is no REST address. */
export function restAddress(address: string, where: Where): RestAddress | undefined {
  let u: URL;
  let base: URL;
  try {
    u = new URL(address);
    base = new URL(where.baseUrl ?? 'http://localhost');
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const sameOrigin = u.origin === base.origin;
  const basePath = base.pathname.replace(/\/+$/, '');
  const restRoute = u.searchParams.get('rest_route');
  if (restRoute !== null && (u.pathname === `${basePath}/` || u.pathname === `${basePath}/index.php`)) {
    const q = new URLSearchParams(u.search);
    q.delete('rest_route');
    return { route: restRoute === '' ? '/' : restRoute, query: q.toString(), sameOrigin, form: 'rest_route' };
  }
  for (const root of prettyRoots(where.apiRoot)) {
    const prefix = `${basePath}${root}`;
    if (u.pathname !== prefix && !u.pathname.startsWith(`${prefix}/`)) continue;
    return { route: u.pathname.slice(prefix.length) || '/', query: u.search.replace(/^\?/, ''), sameOrigin, form: 'pretty' };
  }
  return undefined;
}

/** The API root as the suite reaches it, for messages: `http://host/wp-json/`, `http://host/?rest_route=/`. */
export function apiRootShown(where: Where): string {
  const base = (where.baseUrl ?? '').replace(/\/+$/, '');
  return where.apiRoot === REST_ROUTE_ROOT ? `${base}/?rest_route=/` : `${base}${where.apiRoot ?? '/wp-json'}/`;
}
