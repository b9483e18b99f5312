// Where a route lives on a target. WordPress serves its REST root at `/wp-json` with pretty permalinks,
// and always at `/?rest_route=/<route>`; the suite speaks either, and checks that both agree.

/** Marks the `?rest_route=` style API root of sites without pretty permalinks. */
export const REST_ROUTE_ROOT = '/?rest_route=';

export type RouteStyle = 'pretty' | 'rest_route';

export interface Target {
  /** `http://host:port` or `https://host/sub`, no trailing slash. */
  baseUrl: string;
  /** `/wp-json` (or another path), or REST_ROUTE_ROOT. */
  apiRoot: string;
}

export function configuredStyle(target: Target): RouteStyle {
  return target.apiRoot === REST_ROUTE_ROOT ? 'rest_route' : 'pretty';
}

/**
 * `/cal/v1/events` under the target, in the given style. The route's segments are already
 * percent-encoded (fillTemplate), and PHP decodes the rest_route query variable once just as it decodes a
 * pretty path once, so the route goes into either form unchanged. `query` is encoded, without `?`.
 */
export function routeUrl(target: Target, route: string, query: string, style: RouteStyle = configuredStyle(target)): string {
  const r = route.startsWith('/') ? route : `/${route}`;
  if (style === 'rest_route') {
    return `${target.baseUrl}/?rest_route=${r}${query ? `&${query}` : ''}`;
  }
  const root = target.apiRoot === REST_ROUTE_ROOT ? '/wp-json' : target.apiRoot;
  return `${target.baseUrl}${root}${r === '/' ? '/' : r}${query ? `?${query}` : ''}`;
}

/** `{id}`-style template with its values filled in (values are URL-encoded as one segment). */
export function fillTemplate(template: string, values: Record<string, unknown>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined || v === null) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(String(v));
  });
}
