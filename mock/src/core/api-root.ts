// Where a request URL lands: a REST route under one of the three API-root styles the contract names
// (`/wp-json/<route>`, `/<lang>/wp-json/<route>`, `/?rest_route=<route>`), the mock's own control routes
// (outside /wp-json, so they can never shadow a contract route), or nothing the mock serves.
//
// WordPress reaches the REST server through a rewrite rule `^wp-json/(.*)?` → `index.php?rest_route=/$1`, and
// parse_str() decodes that value once; rest_api_loaded() then strips the trailing slash (`/` stays `/`).
import { phpParseStr, phpUrlDecode } from '../wire/php.ts';

export type Resolved =
  | {
      kind: 'rest';
      /** The route under the API root, decoded once, no trailing slash: `/cal/v1/events/5`, `/` for the root. */
      route: string;
      /** The query string as sent (without `?`); `rest_route` stays in it, as in PHP's $_GET. */
      rawQuery: string;
      /** The language path segment, when the URL carried one. */
      lang?: string;
      /** Path of the API root that links in answers use: `/wp-json/` or `/uk/wp-json/`. */
      rootPath: string;
    }
  | { kind: 'control'; action: string }
  | { kind: 'other' };

export const CONTROL_PREFIX = '/__mock/';

function decodeRoute(raw: string): string {
  // parse_str() decodes `%XX` and `+`; most routes have neither, so skip the byte-level decoder for them.
  const decoded = raw.includes('%') || raw.includes('+') ? phpUrlDecode(raw) : raw;
  return untrailingslash(decoded);
}

function untrailingslash(route: string): string {
  let r = route;
  while (r.length > 1 && (r.endsWith('/') || r.endsWith('\\'))) r = r.slice(0, -1);
  if (r === '' || r === '/') return '/';
  return r.startsWith('/') ? r : `/${r}`;
}

/** Resolves a request URL (path and query). `languages` are the language segments the site serves. */
export function resolveUrl(url: string, languages: ReadonlySet<string>): Resolved {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const rawQuery = q < 0 ? '' : url.slice(q + 1);

  if (path.startsWith(CONTROL_PREFIX)) return { kind: 'control', action: path.slice(CONTROL_PREFIX.length).replace(/\/+$/, '') };

  let rest = path;
  let lang: string | undefined;
  const m = /^\/([A-Za-z]{2}(?:-[A-Za-z]{2})?)(\/.*|)$/.exec(path);
  if (m && languages.has(m[1]!.toLowerCase())) {
    lang = m[1]!.toLowerCase();
    rest = m[2] === '' ? '/' : m[2]!;
  }
  const rootPath = lang ? `/${lang}/wp-json/` : '/wp-json/';

  if (rest === '/wp-json' || rest.startsWith('/wp-json/')) {
    return { kind: 'rest', route: decodeRoute(rest.slice('/wp-json'.length)), rawQuery, ...(lang ? { lang } : {}), rootPath };
  }
  if ((rest === '/' || rest === '/index.php') && /(?:^|&)rest_route=/.test(rawQuery)) {
    const value = phpParseStr(rawQuery).get('rest_route');
    if (typeof value === 'string') {
      return { kind: 'rest', route: untrailingslash(value), rawQuery, ...(lang ? { lang } : {}), rootPath };
    }
  }
  return { kind: 'other' };
}
