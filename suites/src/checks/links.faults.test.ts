// Links, embedding and the root's images proven both ways (issue 25's links_resolve, links, embed and response_shape
// rows): each passes against the mock, and fails against the mock with one fault in front of it, at the edge of what
// the check looks for (one character off a route, one link too few, an integer written as a string).

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { RunResult } from '../report/model.ts';
import { failedBy, harnessForFile, json, parse, withJson, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const routeOf = (req: MockRequest): string => parse(req).route;
type Case = RunResult['cases'][number];
const failing = (c: Case): boolean => c.status === 'failed' || c.status === 'errored' || c.status === 'warned';

/** The cases the fault makes fail (or warn) that did not without it; the clean run's cases of `check` all pass. */
async function faulted(fault: Fault, only: string, check: string): Promise<{ failed: Case[]; clean: Case[] }> {
  const clean = (await h.run(undefined, only)).run;
  const before = new Set(clean.cases.filter(failing).map((c) => c.id));
  const broken = (await h.run(fault, only)).run;
  const mine = clean.cases.filter((c) => c.check === check);
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  return { failed: broken.cases.filter((c) => failing(c) && !before.has(c.id)), clean: mine };
}

/** The root's index with `edit` applied. */
const rootEdited = (edit: (index: Record<string, unknown>) => Record<string, unknown>): Fault => (req, next) => {
  const res = next(req);
  return req.method === 'GET' && routeOf(req) === '/' && res.status === 200 ? withJson(res, edit(json(res))) : res;
};

describe("response_shape: the root's site logo and icon", () => {
  it('response_shape: a site icon set (12) without its featuredmedia link', async () => {
    const { failed } = await faulted(rootEdited((i) => ({ ...i, site_icon: 12, site_icon_url: 'http://127.0.0.1/icon.png' })), 'root,response_shape', 'response_shape');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['response_shape:getRoot:index-images failed']);
    expect(failed[0]!.message).toMatch(/; site_icon is 12 but 0 wp:featuredmedia links of type site_icon come with it \(one expected\)$/);
  });

  it('response_shape: site_logo written "0", a string', async () => {
    const { failed } = await faulted(rootEdited((i) => ({ ...i, site_logo: '0' })), 'root,response_shape', 'response_shape');
    expect(failed.map((c) => c.id)).toContain('response_shape:getRoot:index-images');
    expect(failed.find((c) => c.id === 'response_shape:getRoot:index-images')!.message).toMatch(/site_logo is "0", not an integer$/);
  });

  it('response_shape: a site icon set with its featuredmedia link passes', async () => {
    const fault = rootEdited((i) => ({ ...i, site_icon: 12, _links: { ...(i['_links'] as object), 'wp:featuredmedia': [{ embeddable: true, type: 'site_icon', href: 'http://127.0.0.1/wp-json/wp/v2/media/12' }] } }));
    const { run } = await h.run(fault, 'root,response_shape');
    expect(run.cases.filter((c) => c.id === 'response_shape:getRoot:index-images').map((c) => c.status)).toEqual(['passed']);
  });
});

/** Each cal/v1 record (read by id or listed) with `edit` applied to it. */
const calRecords = (edit: (r: Record<string, unknown>) => Record<string, unknown>): Fault => (req, next) => {
  const res = next(req);
  if (req.method !== 'GET' || !/^\/cal\/v1\/(events|venues|organizers)(\/\d+)?$/.test(routeOf(req)) || res.status !== 200) return res;
  const body = JSON.parse(res.body) as unknown;
  return withJson(res, Array.isArray(body) ? body.map((r) => edit(r as Record<string, unknown>)) : edit(body as Record<string, unknown>));
};

/** The links WordPress adds into wp/v2 for a record, as the calendar CI site answers them (about, author, replies, attachment). */
const wpV2Links = (r: Record<string, unknown>, origin: string): Record<string, unknown> => ({
  ...r,
  _links: {
    ...(r['_links'] as object),
    about: [{ href: `${origin}/wp-json/wp/v2/types/${String(r['type'])}` }],
    author: [{ embeddable: true, href: `${origin}/wp-json/wp/v2/users/${String(r['author'])}` }],
    replies: [{ embeddable: true, href: `${origin}/wp-json/wp/v2/comments?post=${String(r['id'])}` }],
    'wp:attachment': [{ href: `${origin}/wp-json/wp/v2/media?parent=${String(r['id'])}` }],
  },
});

/** A site that serves wp/v2 (its root lists the namespace) and whose records carry `links` of each. */
const servingWpV2 = (links: (r: Record<string, unknown>, origin: string) => Record<string, unknown>): Fault => (req, next) => {
  const origin = `http://${req.headers['host'] ?? '127.0.0.1'}`;
  const root = rootEdited((i) => ({ ...i, namespaces: [...(i['namespaces'] as string[]), 'wp/v2'] }));
  return routeOf(req) === '/' ? root(req, next) : calRecords((r) => links(r, origin))(req, next);
};

describe("links: the rels of a posts controller's record, a term's up link", () => {
  it('links: a venue without the wp:term link of its tags', async () => {
    const fault = calRecords((r) => (r['type'] === 'cal_venue' ? { ...r, _links: { ...(r['_links'] as object), 'wp:term': [] } } : r));
    const { failed } = await faulted(fault, 'links', 'links');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links:getCalV1VenuesById:rels failed']);
    expect(failed[0]!.message).toMatch(/; the record shows tags but carries 0 wp:term links of taxonomy post_tag \(one expected\)$/);
  });

  it('links: a site serving wp/v2 passes with the about, author, replies and attachment links', async () => {
    const { run } = await h.run(servingWpV2(wpV2Links), 'links');
    const rels = run.cases.filter((c) => c.variant === 'rels');
    expect(rels.map((c) => `${c.id} ${c.status}`)).toEqual(['links:getCalV1EventsById:rels passed', 'links:getCalV1OrganizersById:rels passed', 'links:getCalV1VenuesById:rels passed']);
    expect(rels[0]!.message).toMatch(/and about, author, replies and wp:attachment into wp\/v2$/);
  });

  it("links: a site serving wp/v2 whose events' replies link names the next post", async () => {
    const fault = servingWpV2((r, origin) => {
      const out = wpV2Links(r, origin);
      if (r['type'] === 'cal_event') (out['_links'] as Record<string, unknown>)['replies'] = [{ embeddable: true, href: `${origin}/wp-json/wp/v2/comments?post=${Number(r['id']) + 1}` }];
      return out;
    });
    const { failed } = await faulted(fault, 'links', 'links');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links:getCalV1EventsById:rels failed']);
    expect(failed[0]!.message).toMatch(/_links\.replies\[0\]\.href "http:\/\/127\.0\.0\.1:\d+\/wp-json\/wp\/v2\/comments\?post=\d+" does not name \/wp\/v2\/comments\?post=\d+ under the API root$/);
  });

  it("links: a child category whose up link names its own id, not its parent's", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const m = /^\/cal\/events\/v1\/categories\/(\d+)$/.exec(routeOf(req));
      if (req.method !== 'GET' || !m || res.status !== 200) return res;
      const term = json(res);
      const urls = term['urls'] as Record<string, string> | undefined;
      return urls?.['up'] ? withJson(res, { ...term, urls: { ...urls, up: urls['up'].replace(/\d+$/, m[1]!) } }) : res;
    };
    const { failed } = await faulted(fault, 'links', 'links');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links:getCalEventsV1CategoriesById:up failed']);
    expect(failed[0]!.message).toMatch(/^expected the up link of category (\d+) to name \/cal\/events\/v1\/categories\/\d+ under the API root, the route of its own record with the parent's id .*; it is "http:\/\/127\.0\.0\.1:\d+\/wp-json\/cal\/events\/v1\/categories\/\1"$/);
  });
});

/** The types WordPress's post types controller answers for the calendar's three (as the calendar CI site does). */
const TYPES: Record<string, Record<string, unknown>> = {
  cal_event: { slug: 'cal_event', rest_base: 'events', rest_namespace: 'cal/v1', taxonomies: ['post_tag', 'cal_events_cat'] },
  cal_venue: { slug: 'cal_venue', rest_base: 'venues', rest_namespace: 'cal/v1', taxonomies: ['post_tag'] },
  cal_organizer: { slug: 'cal_organizer', rest_base: 'organizers', rest_namespace: 'cal/v1', taxonomies: ['post_tag'] },
};

/** A site serving wp/v2/types/<type> (answered by `types`) whose records link their type as about. */
const servingTypes = (types: Record<string, Record<string, unknown>>): Fault => (req, next) => {
  const m = /^\/wp\/v2\/types\/(\w+)$/.exec(routeOf(req));
  if (req.method === 'GET' && m && types[m[1]!]) return { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify(types[m[1]!]) };
  const origin = `http://${req.headers['host'] ?? '127.0.0.1'}`;
  const root = rootEdited((i) => ({ ...i, namespaces: [...(i['namespaces'] as string[]), 'wp/v2'] }));
  if (routeOf(req) === '/') return root(req, next);
  return calRecords((r) => ({ ...r, _links: { ...(r['_links'] as object), about: [{ href: `${origin}/wp-json/wp/v2/types/${String(r['type'])}` }] } }))(req, next);
};

describe('links_resolve: the addresses a site writes lead somewhere', () => {
  const ONLY = 'links_resolve';

  it('links_resolve: passes on the mock (the about links skipped: it serves no wp/v2)', async () => {
    const { run } = await h.run(undefined, ONLY);
    const mine = run.cases.filter((c) => c.check === 'links_resolve');
    expect(mine.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status}`)).toEqual(['links_resolve:getCalV1EventsById:about skipped', 'links_resolve:getCalV1OrganizersById:about skipped', 'links_resolve:getCalV1VenuesById:about skipped']);
    expect(mine.length).toBe(19);
  });

  it("links_resolve: the descriptor's /cal/v1/events links itself one letter short", async () => {
    const fault = rootEdited((i) => {
      const routes = i['routes'] as Record<string, Record<string, unknown>>;
      const self = (routes['/cal/v1/events']!['_links'] as { self: { href: string }[] }).self[0]!.href.replace(/events$/, 'event');
      return { ...i, routes: { ...routes, '/cal/v1/events': { ...routes['/cal/v1/events'], _links: { self: [{ href: self }] } } } };
    });
    const { failed } = await faulted(fault, `root,${ONLY}`, 'links_resolve');
    expect(failed.map((c) => `${c.id} ${c.status} ${c.severity}`)).toEqual(['links_resolve:getRoot:self-links failed documented']);
    expect(failed[0]!.message).toMatch(/; \/cal\/v1\/events's _links\.self\[0\]\.href "http:\/\/127\.0\.0\.1:\d+\/wp-json\/cal\/v1\/event" does not name it under the API root http:\/\/127\.0\.0\.1:\d+\/wp-json\/$/);
  });

  it("links_resolve: an event's venue link naming /cal/v1/venue/{id}, a route no site has", async () => {
    const fault = calRecords((r) => {
      const links = r['_links'] as Record<string, { href: string }[]>;
      return links['venue'] ? { ...r, _links: { ...links, venue: links['venue'].map((l) => ({ ...l, href: l.href.replace('/cal/v1/venues/', '/cal/v1/venue/') })) } } : r;
    });
    const { failed } = await faulted(fault, ONLY, 'links_resolve');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links_resolve:getCalV1Events:rest-url failed']);
    expect(failed[0]!.message).toMatch(/; GET http:\/\/127\.0\.0\.1:\d+\/wp-json\/cal\/v1\/venue\/\d+ answered 404 rest_no_route$/);
  });

  it('links_resolve: a wp:term link of tags listing one tag more than the record has', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || routeOf(req) !== '/cal/events/v1/tags' || !parse(req).query.has('event') || res.status !== 200) return res;
      const list = JSON.parse(res.body) as Record<string, unknown>[];
      const other = JSON.parse(next({ ...req, url: '/wp-json/cal/events/v1/tags?per_page=50&hide_empty=0' }).body) as Record<string, unknown>[];
      const extra = other.find((t) => !list.some((x) => x['id'] === t['id']));
      return withJson(res, extra ? [...list, extra] : list);
    };
    const { failed } = await faulted(fault, ONLY, 'links_resolve');
    expect(failed.map((c) => `${c.id} ${c.status}`).sort()).toEqual(['links_resolve:getCalV1EventsById:terms failed', 'links_resolve:getCalV1OrganizersById:terms failed', 'links_resolve:getCalV1VenuesById:terms failed']);
    expect(failed.find((c) => c.id.includes('Events'))!.message).toMatch(/its wp:term link of post_tag \(.*\) lists terms \[\d+(,\d+)*\], the record's tags is \[\d*(,\d+)*\]$/);
  });

  it('links_resolve: a site serving wp/v2 passes with the types its about links answer', async () => {
    const { run } = await h.run(servingTypes(TYPES), ONLY);
    expect(run.cases.filter((c) => c.variant === 'about').map((c) => `${c.id} ${c.status}`)).toEqual(['links_resolve:getCalV1EventsById:about passed', 'links_resolve:getCalV1OrganizersById:about passed', 'links_resolve:getCalV1VenuesById:about passed']);
  });

  it("links_resolve: an event's about link answering rest_base event, not events", async () => {
    const { failed } = await faulted(servingTypes({ ...TYPES, cal_event: { ...TYPES['cal_event'], rest_base: 'event' } }), ONLY, 'links_resolve');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links_resolve:getCalV1EventsById:about failed']);
    expect(failed[0]!.message).toMatch(/; rest_base is "event", not "events"$/);
  });

  /** The front end answering 404 for the pages under `prefix` (and for the home page too, with `home`). */
  const pagesGone = (prefix: string, home = false): Fault => (req, next) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (req.method === 'GET' && !path.startsWith('/wp-json') && (path.startsWith(prefix) || (home && path === '/'))) return { status: 404, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: '<!DOCTYPE html><title>Not found</title>' };
    return next(req);
  };

  it("links_resolve: a venue's page answering 404 while the home page answers", async () => {
    const { failed } = await faulted(pagesGone('/venue/'), ONLY, 'links_resolve');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links_resolve:getCalV1VenuesById:page failed']);
    expect(failed[0]!.message).toMatch(/^expected record \d+'s link http:\/\/127\.0\.0\.1:\d+\/venue\/[^ ]+\/ to answer its page, 200 text\/html, to an anonymous client .*; it answered 404/);
  });

  it('links_resolve: pages answering 404 on a site whose home page does too are inconclusive, not failed', async () => {
    const { run } = await h.run(pagesGone('/venue/', true), ONLY);
    const page = run.cases.find((c) => c.id === 'links_resolve:getCalV1VenuesById:page')!;
    expect(page.status).toBe('inconclusive');
    expect(page.message).toMatch(/answered 404 .*, but the site's front end is not served here \(GET http:\/\/127\.0\.0\.1:\d+\/ answered 404/);
  });

  it("links_resolve: an event's link kept as it was after its slug changed", async () => {
    const first = new Map<string, string>();
    const fault: Fault = (req, next) => {
      const res = next(req);
      const m = /^\/cal\/v1\/events(?:\/(\d+))?$/.exec(routeOf(req));
      if (!m || res.status >= 300 || !['POST', 'PATCH', 'PUT'].includes(req.method)) return res;
      const body = json(res);
      const id = String(body['id']);
      if (req.method === 'POST' && !m[1]) first.set(id, String(body['link']));
      return first.has(id) && req.method !== 'POST' ? withJson(res, { ...body, link: first.get(id) }) : res;
    };
    const { failed } = await faulted(fault, ONLY, 'links_resolve');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links_resolve:patchCalV1EventsById:permalink failed']);
    expect(failed[0]!.message).toMatch(/^expected record \d+'s link to change when its slug became site-contracts-[a-z0-9-]+-moved-\d+ \(WordPress convention, get_permalink\(\)/);
  });
});

describe('embed: ?_embed follows the embeddable links', () => {
  it('embed: passes on the mock', async () => {
    const { run } = await h.run(undefined, 'embed');
    expect(run.cases.filter((c) => c.check === 'embed').map((c) => `${c.id} ${c.status}`)).toEqual([
      'embed:getCalV1EventsById:embedded passed', 'embed:getCalV1EventsById:filter passed',
      'embed:getCalV1OrganizersById:embedded passed', 'embed:getCalV1OrganizersById:filter passed',
      'embed:getCalV1VenuesById:embedded passed', 'embed:getCalV1VenuesById:filter passed',
    ]);
  });

  it("embed: an event's embedded venue showing its status, a field of the view context", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || !/^\/cal\/v1\/events\/\d+$/.test(routeOf(req)) || !parse(req).query.has('_embed') || res.status !== 200) return res;
      const body = json(res);
      const embedded = body['_embedded'] as Record<string, Record<string, unknown>[]> | undefined;
      if (!embedded?.['venue']) return res;
      return withJson(res, { ...body, _embedded: { ...embedded, venue: embedded['venue'].map((v, i) => (i === 0 ? { ...v, status: 'publish' } : v)) } });
    };
    const { failed } = await faulted(fault, 'embed', 'embed');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['embed:getCalV1EventsById:embedded failed']);
    expect(failed[0]!.message).toMatch(/; _embedded\.venue\[0\] holds status "publish", which GET of its link in the embed context does not$/);
  });

  it('embed: _embed=<a rel no record has> read as _embed (every rel embedded)', async () => {
    const fault: Fault = (req, next) => {
      const url = new URL(req.url, 'http://x');
      const e = url.searchParams.get('_embed');
      if (e === null || e === '1' || e === 'true' || e === '') return next(req);
      url.searchParams.set('_embed', '1');
      return next({ ...req, url: url.pathname + url.search });
    };
    const { failed } = await faulted(fault, 'embed', 'embed');
    // The mock's first venue and organizer have no tags: their one embeddable rel embeds nothing, so does everything.
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['embed:getCalV1EventsById:filter failed']);
    expect(failed[0]!.message).toMatch(/to embed venue alone \(WordPress convention, rest_parse_embed_param\(\)/);
  });
});

describe("list_order: the posts controller's default order of cal/v1 venues", () => {
  it('list_order: venues listed oldest first when neither orderby nor order is given', async () => {
    const fault: Fault = (req, next) => {
      const q = parse(req).query;
      if (req.method !== 'GET' || routeOf(req) !== '/cal/v1/venues' || q.has('order')) return next(req);
      const url = new URL(req.url, 'http://x');
      url.searchParams.set('order', 'asc');
      return next({ ...req, url: url.pathname + url.search });
    };
    const clean = (await h.run(undefined, 'list_order,cal/v1')).run.cases.filter((c) => c.id.includes(':core-'));
    expect(clean.map((c) => `${c.id} ${c.status}`)).toEqual(['list_order:getCalV1Venues:core-default passed', 'list_order:getCalV1Venues:core-asc passed', 'list_order:getCalV1Venues:core-ASC skipped']);
    const failed = await failedBy(h, fault, 'list_order,cal/v1');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['list_order:getCalV1Venues:core-default failed']);
    expect(failed[0]!.message).toMatch(/^expected the list newest first when neither orderby nor order is given \(WordPress convention, .*\), descending; compared search=scx\w+: 3 record\(s\), 1 pair\(s\) ordered by date: record 1 #\d+ ".* alpha .*" \(date "2020-01-02T10:00:00"\) comes before record 2 #\d+ ".* bravo .*" \(date "2020-01-02T10:00:01"\)/);
  });
});

describe("core_list_params: core's collection params on cal/v1 venues", () => {
  it('core_list_params: passes on the mock', async () => {
    const { run } = await h.run(undefined, 'core_list_params');
    expect(run.cases.filter((c) => c.check === 'core_list_params').map((c) => `${c.id} ${c.status}`)).toEqual(
      [...['include', 'exclude', 'offset', 'slug', 'author', 'after'].map((v) => `core_list_params:getCalV1Venues:${v} passed`), 'core_list_params:getCalV1Events:tags_exclude passed',
        // The legacy term lists' pages (gaps.faults.test.ts); offset is not judged where the descriptor does not declare it.
        ...['Categories', 'Tags'].flatMap((t) => [`core_list_params:getCalEventsV1${t}:offset skipped`, `core_list_params:getCalEventsV1${t}:page passed`])],
    );
  });

  it('core_list_params: exclude= on the venues list ignored', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'GET' || routeOf(req) !== '/cal/v1/venues' || !parse(req).query.has('exclude')) return next(req);
      const url = new URL(req.url, 'http://x');
      url.searchParams.delete('exclude');
      return next({ ...req, url: url.pathname + url.search });
    };
    const failed = await failedBy(h, fault, 'core_list_params');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['core_list_params:getCalV1Venues:exclude failed']);
    expect(failed[0]!.message).toMatch(/^expected GET \/cal\/v1\/venues\?search=<own word>&exclude=(\d+) to list #(\d+) alone of the two venues of its own .*; it listed #\d+, #\d+$/);
  });

  it('core_list_params: include= of two venues listing the first alone', async () => {
    const fault: Fault = (req, next) => {
      const inc = parse(req).query.get('include');
      if (req.method !== 'GET' || routeOf(req) !== '/cal/v1/venues' || !inc?.includes(',')) return next(req);
      const url = new URL(req.url, 'http://x');
      url.searchParams.set('include', inc.split(',')[0]!);
      return next({ ...req, url: url.pathname + url.search });
    };
    const failed = await failedBy(h, fault, 'core_list_params');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['core_list_params:getCalV1Venues:include failed']);
  });

  /** The list at `route` (the venues') with `param` taken off the query (read as if it were not sent). */
  const ignoring = (param: string, route = '/cal/v1/venues'): Fault => (req, next) => {
    if (req.method !== 'GET' || routeOf(req) !== route || !parse(req).query.has(param)) return next(req);
    const url = new URL(req.url, 'http://x');
    url.searchParams.delete(param);
    return next({ ...req, url: url.pathname + url.search });
  };

  it('core_list_params: offset=1 on the venues list ignored (the first record listed again)', async () => {
    const failed = await failedBy(h, ignoring('offset'), 'core_list_params');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['core_list_params:getCalV1Venues:offset failed']);
  });

  it('core_list_params: author_exclude on the venues list ignored', async () => {
    const failed = await failedBy(h, ignoring('author_exclude'), 'core_list_params');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['core_list_params:getCalV1Venues:author failed']);
    expect(failed[0]!.message).toMatch(/author_exclude=\d+ to list none of the two venues of its own .*; it listed #\d+, #\d+$/);
  });

  it('core_list_params: slug= on the venues list ignored', async () => {
    const failed = await failedBy(h, ignoring('slug'), 'core_list_params');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['core_list_params:getCalV1Venues:slug failed']);
  });

  it('core_list_params: after= read as inclusive (the venue dated at the bound listed too)', async () => {
    const fault: Fault = (req, next) => {
      const after = parse(req).query.get('after');
      if (req.method !== 'GET' || routeOf(req) !== '/cal/v1/venues' || !after || !/^\d{4}-/.test(after)) return next(req);
      const url = new URL(req.url, 'http://x');
      url.searchParams.set('after', after.replace(/:01$/, ':00').replace(/T10:00:00$/, 'T09:59:59'));
      return next({ ...req, url: url.pathname + url.search });
    };
    const failed = await failedBy(h, fault, 'core_list_params');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['core_list_params:getCalV1Venues:after failed']);
  });

  it('core_list_params: a malformed after= on the venues list ignored', async () => {
    const failed = await failedBy(h, (req, next) => (parse(req).query.get('after') === 'site-contracts-no-date' ? ignoring('after')(req, next) : next(req)), 'core_list_params');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['core_list_params:getCalV1Venues:after failed']);
    expect(failed[0]!.message).toMatch(/^expected after=site-contracts-no-date to be refused 400 rest_invalid_param naming after .*; got 200/);
  });

  it('core_list_params: tags_exclude on the events list ignored', async () => {
    const failed = await failedBy(h, ignoring('tags_exclude', '/cal/v1/events'), 'core_list_params');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['core_list_params:getCalV1Events:tags_exclude failed']);
    expect(failed[0]!.message).toMatch(/to list #\d+ alone of its two events \(#\d+ carries tag \d+\) .*; it listed #\d+, #\d+$/);
  });
});
