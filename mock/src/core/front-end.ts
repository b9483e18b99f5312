// The site's front end, as far as a REST client looks at it: every page WordPress serves carries the API's address,
// in a `Link: <…/wp-json/>; rel="https://api.w.org/"` header (rest_output_link_header()) and a
// `<link rel="https://api.w.org/" href="…/wp-json/" />` element (rest_output_link_wp_head()); a post's page adds the
// post's own REST URL as `rel="alternate"; type="application/json"`. That is how clients such as wpapi's
// WPAPI.discover(url) find the API from the site's address. The front page answers 200, a published event, venue or
// organizer page 200 with its alternate link, anything else WordPress's 404 (with its no-cache headers); every
// method gets the page, HEAD without a body. The pages themselves are a few lines of HTML, not a theme.
import type { Lang, PostType } from '../../../contracts/model/records.ts';
import type { MockResponse } from './types.ts';

export interface FrontEndSite {
  name: string;
  description: string;
  defaultLang(): Lang;
  /** The published record a permalink names (`event`, `some-slug`, `uk`), for its REST route; undefined when none. */
  published(type: PostType, slug: string, lang: Lang): { id: number; title: string } | undefined;
}

const PERMALINK_BASES: Readonly<Record<string, PostType>> = { event: 'event', venue: 'venue', organizer: 'organizer' };
const REST_COLLECTION: Readonly<Record<PostType, string>> = { event: 'cal/v1/events', venue: 'cal/v1/venues', organizer: 'cal/v1/organizers' };
const NO_CACHE = { Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0' };

/** esc_html() / esc_attr() for the few values these pages print. */
function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

interface Page {
  status: 200 | 404;
  lang: Lang;
  title: string;
  /** The queried resource's REST route (rest_get_queried_resource_route()). */
  resource?: string;
}

/** What a front-end path shows: `/`, `/uk/`, `/uk/event/<slug>/`…; the path is split on `/`, not matched by a regex. */
function pageOf(path: string, site: FrontEndSite): Page {
  const segments = path.split('/').filter((s) => s !== '');
  let lang = site.defaultLang();
  if (segments[0] === 'en' || segments[0] === 'uk') lang = segments.shift() as Lang;
  if (segments[0] === 'index.php') segments.shift();
  if (segments.length === 0) return { status: 200, lang, title: site.name };
  const type = segments.length === 2 ? PERMALINK_BASES[segments[0]!] : undefined;
  if (type && Object.hasOwn(PERMALINK_BASES, segments[0]!)) {
    const record = site.published(type, segments[1]!, lang);
    if (record) return { status: 200, lang, title: `${record.title} – ${site.name}`, resource: `${REST_COLLECTION[type]}/${record.id}` };
  }
  return { status: 404, lang, title: `Page not found – ${site.name}` };
}

/** The front end's answer for a request outside the REST API. `origin` is the site's address, without a slash. */
export function frontEndAnswer(method: string, url: string, origin: string, site: FrontEndSite): MockResponse {
  const q = url.indexOf('?');
  const page = pageOf(q < 0 ? url : url.slice(0, q), site);
  const home = page.lang === site.defaultLang() ? origin : `${origin}/${page.lang}`;
  const apiRoot = `${home}/wp-json/`;
  const links = [`<${apiRoot}>; rel="https://api.w.org/"`];
  const heads = [`<link rel="https://api.w.org/" href="${esc(apiRoot)}" />`];
  if (page.resource) {
    links.push(`<${apiRoot}${page.resource}>; rel="alternate"; type="application/json"`);
    heads.push(`<link rel="alternate" type="application/json" href="${esc(apiRoot + page.resource)}" />`);
  }
  const body =
    `<!DOCTYPE html>\n<html lang="${page.lang === 'uk' ? 'uk' : 'en-US'}">\n<head>\n<meta charset="UTF-8" />\n<title>${esc(page.title)}</title>\n${heads.join('\n')}\n</head>\n` +
    `<body>\n<h1>${esc(page.status === 200 ? page.title : 'Page not found')}</h1>\n<p>${esc(site.description)}. This mock serves the site's REST API at <a href="${esc(apiRoot)}">${esc(apiRoot)}</a>.</p>\n</body>\n</html>\n`;
  return {
    status: page.status,
    // As WordPress sends them: nocache_headers() for a 404, then the API's Link headers, then the content type.
    headers: { ...(page.status === 404 ? NO_CACHE : {}), Link: links.join(', '), 'Content-Type': 'text/html; charset=UTF-8' },
    body: method.toUpperCase() === 'HEAD' ? '' : body,
  };
}
