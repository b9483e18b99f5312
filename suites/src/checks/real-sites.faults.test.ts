// Issue 26, proven both ways against the mock behind a fault that behaves as a real plugin site does: each false
// failure a real site showed is a fault a conformant site has (the check must pass it), each missed deviation a
// fault the check must now fail. The faults follow the plugins' own code where it differs from core (The Events
// Calendar's REST controllers: structured data derived from a record's fields, its own error codes).

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { createClient } from '../http/client.ts';
import { jsonBody, type Exchange } from '../http/types.ts';
import type { CaseResult } from '../report/model.ts';
import { contentTypeProblem } from './content_type.ts';
import { derivedChange, lostFields } from './update_keeps.ts';
import { anonymous, bodyText, harnessForFile, json, parse, withJson, withQuery, wpError, type Fault, type MockRequest, type MockResponse } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const T = 120_000;

const routeOf = (req: MockRequest): string => parse(req).route;

/** The case ids of `check` in a run, with their status: `id status`. */
const statuses = (cases: readonly CaseResult[], check: string): string[] => cases.filter((c) => c.check === check).map((c) => `${c.id} ${c.status}`);

/** The mock behind `fault`, served, and a read of `path` (under /wp-json) by the suite's own client, as a check reads it. */
async function served(fault: Fault | undefined): Promise<(path: string, method?: 'GET' | 'HEAD') => Promise<Exchange>> {
  const url = await h.serve(fault);
  const client = createClient({ target: { baseUrl: url, apiRoot: '/wp-json' }, timeoutMs: 10_000, maxRequests: 20, writes: 'none' });
  return (path, method = 'GET') => {
    const [route, query] = path.split('?') as [string, string | undefined];
    return client.send({ method, route, ...(query ? { rawQuery: query } : {}) });
  };
}

/** A WordPress error as serve_request() sends it, wrapped for `_jsonp` when the request asks for a callback. */
function wpAnswer(req: MockRequest, status: number, code: string): MockResponse {
  const body = JSON.stringify({ code, message: `${code} (a plugin's refusal)`, data: { status } });
  const cb = parse(req).query.get('_jsonp');
  if (cb) return { status, headers: { 'Content-Type': 'application/javascript; charset=UTF-8' }, body: `/**/${cb}(${body})` };
  return { status, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body };
}

describe('one reading of an answer for every check', () => {
  // A page-builder suite whose plugin list needs credentials (it checks install_plugins): anonymous reads are 401, and
  // WordPress wraps that error for `_jsonp` like any other answer.
  const privatePlugins: Fault = (req, next) => (routeOf(req) === '/pagebuilder-one/v1/plugins' && req.method === 'GET' && anonymous(req) ? wpAnswer(req, 401, 'rest_forbidden') : next(req));

  it('a 401 wrapped by _jsonp is read as the error it wraps: error_envelope and jsonp both pass it', async () => {
    const { run } = await h.run(privatePlugins, '/pagebuilder-one/v1/plugins');
    const jsonp = run.cases.find((c) => c.id === 'jsonp:getPagebuilderOneV1Plugins:valid')!;
    // The wrapped answer really was the 401 (the fault took effect), and jsonp passes it.
    expect(`${jsonp.status} ${jsonp.response?.status} ${jsonp.message}`).toBe('passed 401 application/javascript /**/siteContracts.cb(...) around the plain answer');
    expect(statuses(run.cases, 'error_envelope').filter((c) => !c.endsWith(' passed'))).toEqual([]);
    expect(statuses(run.cases, 'error_envelope')).toContain('error_envelope:getPagebuilderOneV1Plugins:errors:jsonp:getPagebuilderOneV1Plugins passed');
  }, T);

  it('a wrapped error that is not the envelope still fails error_envelope', async () => {
    const bare: Fault = (req, next) => {
      if (routeOf(req) !== '/pagebuilder-one/v1/plugins' || !anonymous(req)) return next(req);
      const cb = parse(req).query.get('_jsonp');
      return { status: 401, headers: { 'Content-Type': `application/${cb ? 'javascript' : 'json'}; charset=UTF-8` }, body: cb ? `/**/${cb}("Unauthorized")` : '"Unauthorized"' };
    };
    const { run } = await h.run(bare, '/pagebuilder-one/v1/plugins');
    const env = run.cases.find((c) => c.id === 'error_envelope:getPagebuilderOneV1Plugins:errors:jsonp:getPagebuilderOneV1Plugins')!;
    expect(env.status).toBe('failed');
    expect(env.message).toMatch(/the 401 body is not WordPress's error object/);
  }, T);
});

describe('content_type: oEmbed format compared exactly, XML expected of an accepted request', () => {
  it('format=XML (not xml) is JSON: the proxy refuses it with a JSON 400, the embed route answers JSON', async () => {
    const read = await served(undefined);
    const proxy = await read('/oembed/1.0/proxy?url=https%3A%2F%2Fexample.org%2Fx&format=XML');
    expect(proxy.response?.status).toBe(400);
    expect(contentTypeProblem(proxy)).toBeUndefined();
    const embed = await read('/oembed/1.0/embed?url=https%3A%2F%2Fexample.org%2Fnothing-here&format=XML');
    expect(contentTypeProblem(embed)).toBeUndefined();
  }, T);

  it('an accepted embed with format=xml answered as JSON fails', async () => {
    const jsonEmbed: Fault = (req, next) => {
      if (routeOf(req) !== '/oembed/1.0/embed' || parse(req).query.get('format') !== 'xml') return next(req);
      const u = new URL(req.url, 'http://x');
      u.searchParams.set('format', 'json');
      return next({ ...req, url: u.pathname + u.search });
    };
    const read = await served(jsonEmbed);
    const list = jsonBody((await read('/cal/v1/events?per_page=1')).response) as { link: string }[];
    const e = await read(`/oembed/1.0/embed?url=${encodeURIComponent(list[0]!.link)}&format=xml`);
    expect(e.response?.status).toBe(200);
    expect(contentTypeProblem(e)).toMatch(/answered 200 with Content-Type "application\/json; charset=UTF-8", not text\/xml$/);
  }, T);
});



describe('options: a route without arguments', () => {
  /** OPTIONS on the contact-form list (a route whose parameters the documents do not show) with each endpoint's args as `args`. */
  const argsAs = (args: unknown): Fault => (req, next) => {
    const res = next(req);
    if (req.method !== 'OPTIONS' || routeOf(req) !== '/forms/v1/contact-forms' || res.status !== 200) return res;
    const b = json(res);
    return withJson(res, { ...b, endpoints: (b['endpoints'] as Record<string, unknown>[]).map((e) => ({ ...e, args })) });
  };

  it('answers "args": [] as WordPress core does for a route without arguments: passed', async () => {
    const { run } = await h.run(argsAs([]), '/forms/v1/contact-forms,options');
    expect(statuses(run.cases, 'options')).toEqual(['options:getFormsV1ContactForms:route passed']);
  }, T);

  it('args that are no map at all ("none") still fail', async () => {
    const { run } = await h.run(argsAs('none'), '/forms/v1/contact-forms,options');
    expect(statuses(run.cases, 'options')).toEqual(['options:getFormsV1ContactForms:route failed']);
    expect(run.cases.find((c) => c.check === 'options')!.message).toMatch(/endpoints\[0\] is not \{methods, args\}/);
  }, T);
});

type Routes = Record<string, { endpoints: { methods: string[]; args: Record<string, Record<string, unknown>> }[] }>;

/** The descriptor (GET {api_root}/) with the args of `route`'s `method` endpoint edited; every other answer as the mock gives it. */
function descriptorArgs(edits: [route: string, method: string, edit: (args: Record<string, Record<string, unknown>>) => void][]): Fault {
  return (req, next) => {
    const res = next(req);
    if (req.method !== 'GET' || routeOf(req) !== '/' || res.status !== 200) return res;
    const d = json(res);
    const routes = structuredClone(d['routes']) as Routes;
    for (const [route, method, edit] of edits) edit(routes[route]!.endpoints.find((e) => e.methods.includes(method))!.args);
    return withJson(res, { ...d, routes });
  };
}

/** A field as core's posts controller lists it (title, content, excerpt): an object of raw and a read-only rendered. */
const coreRendered = (rawType: string): Record<string, unknown> => ({
  description: 'The title for the post.',
  type: 'object',
  properties: { raw: { type: rawType, context: ['edit'] }, rendered: { type: 'string', context: ['view', 'edit', 'embed'], readonly: true } },
  required: false,
});

const DATE_DIGITS = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01]) ([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$';

describe('descriptor_routes: what a client relies on, not what the documents cannot express', () => {
  // As The Events Calendar and core's posts controller list their args: per_page's default from get_option() (a
  // string), body fields without the defaults the handler applies, a by-slug route's slug without the path's pattern,
  // a search argument without a type, a date checked by a pattern of its own, core's status list default a string.
  const likeRealSites = descriptorArgs([
    ['/cal/events/v1/events', 'GET', (a) => { a['per_page']!['default'] = '10'; delete a['search']!['type']; }],
    ['/cal/events/v1/events', 'POST', (a) => { delete a['all_day']!['default']; delete a['website']!['default']; a['start_date']!['pattern'] = DATE_DIGITS; }],
    ['/cal/events/v1/venues/by-slug/(?P<slug>[^/]+)', 'POST', (a) => { delete a['slug']!['pattern']; a['slug']!['required'] = false; }],
    ['/cal/v1/events', 'GET', (a) => { a['status']!['default'] = 'publish'; }],
    ['/cal/v1/events', 'POST', (a) => { a['title'] = coreRendered('string'); a['content'] = coreRendered('string'); }],
    // Core's terms controller: slug an array of strings, which reads a documented string as a one-item list.
    ['/cal/events/v1/categories', 'GET', (a) => { a['slug'] = { type: 'array', items: { type: 'string' }, required: false }; }],
  ]);

  it('no documented failure for a default read through its type, a keyword left out, a body default, a path argument, a pattern that takes the documented values', async () => {
    const { run } = await h.run(likeRealSites, 'cal/events/v1,cal/v1,descriptor_routes');
    const ids = ['getCalEventsV1Events', 'postCalEventsV1Events', 'postCalEventsV1VenuesBySlugBySlug', 'getCalV1Events', 'postCalV1Events', 'getCalEventsV1Categories'].map((o) => `descriptor_routes:${o}:args`);
    const mine = run.cases.filter((c) => ids.includes(c.id));
    expect(mine.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(mine.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    // What differs only in form is no difference at all; what the documents allow is said, at assumed severity.
    expect(mine.find((c) => c.id === 'descriptor_routes:getCalV1Events:args')!.status).toBe('passed');
    const post = mine.find((c) => c.id === 'descriptor_routes:postCalEventsV1Events:args')!;
    expect(post.status).toBe('warned');
    expect(post.message).toMatch(/all_day: default false documented, - listed \(assumed: left out, which the documents allow: an argument "may carry" default \(001 §2\)\)/);
    expect(post.message).toMatch(/start_date: pattern - documented, .* listed \(assumed: the documents give it no pattern\)|start_date: pattern .* \(assumed: the documents give the form in words; the listed pattern takes each of the \d+ documented value\(s\) tried\)/);
    expect(mine.find((c) => c.id === 'descriptor_routes:getCalEventsV1Events:args')!.message).not.toMatch(/per_page/);
    // Core's title and content (raw and rendered) take the documented string as the raw value.
    const rendered = mine.find((c) => c.id === 'descriptor_routes:postCalV1Events:args')!;
    expect(`${rendered.status} ${rendered.severity}`).toBe('warned assumed');
    expect(rendered.message).toMatch(/title: type "string" documented, "object" listed \(assumed: core's rendered field \(raw and rendered\), which takes a "string" as its raw value/);
    expect(mine.find((c) => c.id === 'descriptor_routes:getCalEventsV1Categories:args')!.message).toMatch(/slug: type "string" documented, "array" listed \(assumed: the listed type takes each of the \d+ documented value\(s\) tried/);
  }, T);

  it('a listed pattern that refuses a documented value, and a listed enum without a documented value, still fail as documented', async () => {
    const strict = descriptorArgs([
      ['/cal/v1/events', 'POST', (a) => { a['start_date']!['pattern'] = '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d$'; }],
      ['/cal/v1/events', 'GET', (a) => { (a['status']!['items'] as { enum: string[] }).enum = ['publish', 'pending', 'draft', 'future']; }],
      // The same raw-and-rendered form, but its raw value is no string: a documented title is refused.
      ['/cal/v1/venues', 'POST', (a) => { a['title'] = coreRendered('integer'); }],
      // An array of integers refuses a documented slug.
      ['/cal/events/v1/categories', 'GET', (a) => { a['slug'] = { type: 'array', items: { type: 'integer' }, required: false }; }],
    ]);
    const { run } = await h.run(strict, 'cal/v1,cal/events/v1,descriptor_routes');
    const post = run.cases.find((c) => c.id === 'descriptor_routes:postCalV1Events:args')!;
    expect(`${post.status} ${post.severity}`).toBe('failed documented');
    expect(post.message).toMatch(/start_date: pattern .* listed \(the listed pattern refuses "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", a value the documents allow\)/);
    const list = run.cases.find((c) => c.id === 'descriptor_routes:getCalV1Events:args')!;
    expect(`${list.status} ${list.severity}`).toBe('failed documented');
    expect(list.message).toMatch(/status: items\.enum \["draft","future","pending","private","publish"\] documented, \["draft","future","pending","publish"\] listed/);
    const venue = run.cases.find((c) => c.id === 'descriptor_routes:postCalV1Venues:args')!;
    expect(`${venue.status} ${venue.severity}`).toBe('failed documented');
    expect(venue.message).toMatch(/title: type "string" documented, "object" listed(?! \(assumed)/);
    const slug = run.cases.find((c) => c.id === 'descriptor_routes:getCalEventsV1Categories:args')!;
    expect(`${slug.status} ${slug.severity}`).toBe('failed documented');
    expect(slug.message).toMatch(/slug: type "string" documented, "array" listed(?! \(assumed)/);
  }, T);
});

describe('filter_strict_dates: only what the documents say', () => {
  // A calendar whose non-strict "starts after" bound covers the whole day from its end: events after that day only.
  const endOfDay: Fault = (req, next) => {
    const { route, query } = parse(req);
    const bound = query.get('starts_after');
    if (req.method !== 'GET' || route !== '/cal/events/v1/events' || !bound || /^(1|true)$/i.test(query.get('strict_dates') ?? '')) return next(req);
    return next(withQuery(req, (q) => {
      q.set('starts_after', `${bound.slice(0, 10)} 23:59:59`);
      q.set('strict_dates', 'true');
    }));
  };

  it('a whole day taken from its end (the day\'s events out, the next day\'s in) passes', async () => {
    const { run } = await h.run(endOfDay, 'cal/events/v1,filter_strict_dates');
    expect(statuses(run.cases, 'filter_strict_dates').sort()).toEqual(['default', 'false', 'true'].map((v) => `filter_strict_dates:getCalEventsV1Events:${v} passed`));
    expect(run.cases.find((c) => c.id === 'filter_strict_dates:getCalEventsV1Events:false')!.message).toMatch(/both out \(the bound taken from the end of the day\), the next day's in$/);
  }, T);

  it('the day split at the given time still fails', async () => {
    const split: Fault = (req, next) => {
      const { route, query } = parse(req);
      if (req.method !== 'GET' || route !== '/cal/events/v1/events' || !query.get('starts_after')) return next(req);
      // strict_dates=false read as true: the morning event out, the afternoon one in.
      return next(withQuery(req, (q) => q.set('strict_dates', 'true')));
    };
    const { run } = await h.run(split, 'cal/events/v1,filter_strict_dates');
    expect(statuses(run.cases, 'filter_strict_dates').sort()).toEqual(['filter_strict_dates:getCalEventsV1Events:default failed', 'filter_strict_dates:getCalEventsV1Events:false failed', 'filter_strict_dates:getCalEventsV1Events:true passed']);
    expect(run.cases.find((c) => c.id === 'filter_strict_dates:getCalEventsV1Events:false')!.message).toMatch(/it kept #\d+ ".*afternoon.*" and left out #\d+ ".*morning.*": the time was used as given, not the whole day/);
  }, T);
});

describe('positive_acceptance: "valid" means the documents say so', () => {
  // As Rank Math answers: a module it does not have, refused naming the parameter.
  const knownOnly: Fault = (req, next) => {
    const route = routeOf(req);
    const body = (() => {
      try {
        return JSON.parse(bodyText(req) || '{}') as Record<string, unknown>;
      } catch {
        return Object.fromEntries(new URLSearchParams(bodyText(req)));
      }
    })();
    if (route === '/seo/v1/saveModule' && typeof body['module'] === 'string' && !['sitemap', 'local-seo', 'redirections'].includes(body['module'])) return wpError(400, 'rest_invalid_param', { params: { module: 'Invalid parameter.' } });
    return next(req);
  };

  it('with --disposable-target, a module the site does not have, refused, is held as assumed with the reason', async () => {
    const { run } = await h.run(knownOnly, '/seo/v1/saveModule,positive_acceptance', ['--disposable-target']);
    const refused = run.cases.filter((c) => c.check === 'positive_acceptance' && /naming module/.test(c.message ?? ''));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((c) => c.status !== 'warned').map((c) => `${c.id} ${c.status}`)).toEqual([]);
    expect(refused[0]!.message).toMatch(/held as assumed because the documents give module as a string without listing its values, and its name says it names one of the site's own \(a module\)/);
  }, T);

  it('a title refused (free text the documents call valid) still fails as documented', async () => {
    const noTitles: Fault = (req, next) => (routeOf(req) === '/cal/v1/venues' && req.method === 'POST' && /"title"/.test(bodyText(req)) ? wpError(400, 'rest_invalid_param', { params: { title: 'Invalid parameter.' } }) : next(req));
    const { run } = await h.run(noTitles, '/cal/v1/venues,positive_acceptance');
    const title = run.cases.find((c) => c.id === 'positive_acceptance:postCalV1Venues:body.title')!;
    expect(`${title.status} ${title.severity}`).toBe('failed documented');
  }, T);
});

/** PHP's urlencode(): spaces as `+`, everything but letters, digits and `-_.` encoded. */
const phpUrlencode = (s: string): string => encodeURIComponent(s).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');

/**
 * The Events Calendar's single reads: the record with its structured data (`json_ld`, Tribe__JSON_LD__*): the event's
 * name from its title and its offer's price from its cost, a venue's postal address and a map link made of it, an
 * organizer's e-mail address hidden by antispambot() (a different mix of character references on every read).
 * `lose`: a venue's locality dropped from the structured data once the venue has been updated (a fault of its own).
 */
function tecJsonLd(lose = false): Fault {
  let reads = 0;
  const updated = new Set<string>();
  return (req, next) => {
    const route = routeOf(req);
    const m = /^\/cal\/(?:events\/v1|v1)\/(events|venues|organizers)\/(\d+)$/.exec(route);
    if (m && req.method !== 'GET') updated.add(`${m[1]}/${m[2]}`);
    const res = next(req);
    if (req.method !== 'GET' || !m || !route.startsWith('/cal/events/v1/') || res.status !== 200) return res;
    const rec = json(res);
    const text = (v: unknown): string => (typeof v === 'string' ? v.replace(/<[^>]*>/g, '').trim() : '');
    const antispambot = (email: string): string => [...email].map((c, i) => ((i + ++reads) % 2 ? `&#${c.charCodeAt(0)};` : c)).join('');
    let jsonLd: Record<string, unknown>;
    if (m[1] === 'events') jsonLd = { '@type': 'Event', name: text(rec['title']), description: text(rec['excerpt']), url: rec['url'], ...(text(rec['cost']) ? { offers: { '@type': 'Offer', price: text(rec['cost']).replace(/[^\d]/g, ''), url: rec['url'] } } : {}) };
    else if (m[1] === 'venues') {
      const locality = lose && updated.has(`venues/${m[2]}`) ? '' : text(rec['city']);
      jsonLd = { '@type': 'Place', name: text(rec['venue']), address: { streetAddress: text(rec['address']), addressLocality: locality, postalCode: text(rec['zip']) }, hasMap: `https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=${phpUrlencode([rec['address'], rec['city'], rec['zip']].map(text).join(' '))}` };
    } else jsonLd = { '@type': 'Person', name: text(rec['organizer']), email: antispambot(text(rec['email'])) };
    return withJson(res, { ...rec, json_ld: jsonLd });
  };
}

describe('update_keeps_fields: a field derived from the one an update names changes with it', () => {
  it('tells a derived change from a loss', () => {
    const title = { from: 'Old name', to: 'New name' };
    expect(derivedChange('Old name', 'New name', title)).toBe(true);
    expect(derivedChange('https://maps.example/?q=1+Old+name+Town', 'https://maps.example/?q=1+New+name+Town', title)).toBe(true);
    expect(derivedChange('q=Old%20name', 'q=New%20name', title)).toBe(true);
    expect(derivedChange(12, 34, { from: '12', to: '34' })).toBe(true);
    // Changed, but not by its source: a loss.
    expect(derivedChange('Old name', '', title)).toBe(false);
    expect(derivedChange('Town', 'New name', title)).toBe(false);
    expect(derivedChange('Old name, Town', 'New name, City', title)).toBe(false);
    // Character references are how HTML writes the same text: no change at all.
    expect(lostFields({ email: 'a@b.org' }, { email: '&#97;@b&#46;org' }, new Set())).toEqual([]);
    expect(lostFields({ ld: { name: 'Old name', locality: 'Town' } }, { ld: { name: 'New name', locality: '' } }, new Set(['title']), title)).toEqual(['ld.locality "Town" → ""']);
  });

  it('structured data made of the title, the cost, the address and the e-mail follows them: passed', async () => {
    const { run } = await h.run(tecJsonLd(), 'update_keeps_fields');
    const legacy = run.cases.filter((c) => c.check === 'update_keeps_fields' && /CalEventsV1(Events|Venues|Organizers)ById/.test(c.id));
    expect(legacy.length).toBeGreaterThanOrEqual(9);
    expect(legacy.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status}: ${c.message}`)).toEqual([]);
  }, T);

  it('a derived field that changes other than its source (the locality dropped on a rename) still fails', async () => {
    const { run } = await h.run(tecJsonLd(true), 'update_keeps_fields');
    const venue = run.cases.find((c) => c.id === 'update_keeps_fields:patchCalEventsV1VenuesById:PATCH')!;
    expect(venue.status).toBe('failed');
    expect(venue.message).toMatch(/fields it did not name changed: json_ld\.address\.addressLocality "Keptown" → ""/);
  }, T);
});

describe('positive_acceptance: a valid value refused where nothing else explains it', () => {
  // The Events Calendar's legacy create refusing a venue by ID with its own code (Tribe__Events__REST__V1__Messages).
  const venueRefused: Fault = (req, next) => {
    if (req.method !== 'POST' || routeOf(req) !== '/cal/events/v1/events') return next(req);
    const body = JSON.parse(bodyText(req) || '{}') as Record<string, unknown>;
    return body['venue'] !== undefined ? wpError(400, 'invalid-linked-post-id') : next(req);
  };

  it('the minimal create plus a venue, refused with the site\'s own code, fails naming the venue sent', async () => {
    const { run } = await h.run(venueRefused, '/cal/events/v1/events,positive_acceptance');
    const alone = run.cases.find((c) => c.id === 'positive_acceptance:postCalEventsV1Events:edge:body.venue alone')!;
    const sent = (JSON.parse(alone.request!.body!) as { venue: number[] }).venue;
    expect(`${alone.status} ${alone.severity}`).toBe('failed documented');
    expect(alone.message).toContain(`expected venue=${JSON.stringify(sent)} alone (the alone case) to be accepted`);
    expect(alone.message).toMatch(/got 400 invalid-linked-post-id: .*; the minimal request without it was accepted \(201\), and nothing else sets this one apart from it, so the refusal is of venue$/);
    // The minimal request itself passes.
    expect(run.cases.find((c) => c.id === 'positive_acceptance:postCalEventsV1Events:edge:minimal')!.status).toBe('passed');
  }, T);

  it('a 404 for an id the suite never saw listed says the value names nothing here: inconclusive, not failed', async () => {
    const { run } = await h.run(undefined, '/seo/v1/an/getDesktopPagespeed,positive_acceptance');
    const id = run.cases.find((c) => c.id === 'positive_acceptance:postSeoV1AnGetDesktopPagespeed:edge:body.id alone')!;
    expect(`${id.status} ${id.response?.status}`).toBe('inconclusive 404');
  }, T);

  it('where the minimal request is refused too, nothing is shown about the venue: inconclusive', async () => {
    const allRefused: Fault = (req, next) => (req.method === 'POST' && routeOf(req) === '/cal/events/v1/events' ? wpError(400, 'could-not-create-event') : next(req));
    const { run } = await h.run(allRefused, '/cal/events/v1/events,positive_acceptance');
    const alone = run.cases.find((c) => c.id === 'positive_acceptance:postCalEventsV1Events:edge:body.venue alone')!;
    expect(alone.status).toBe('inconclusive');
  }, T);
});

describe('positive_acceptance: actions the documents describe as reads are sent signed in', () => {
  // An SEO add-on whose page-score action refuses anonymous requests and fails for a signed-in user.
  const brokenForUsers: Fault = (req, next) => {
    if (routeOf(req) !== '/seo/v1/an/getPageSEOScore' || req.method !== 'POST') return next(req);
    return anonymous(req) ? wpError(401, 'rest_forbidden') : { status: 500, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ code: 'internal_server_error', message: 'There has been a critical error on this website.', data: { status: 500 } }) };
  };

  it('POST getPageSEOScore goes with credentials by default, so its 500 for a signed-in user is seen', async () => {
    const { run } = await h.run(brokenForUsers, '/seo/v1/an/getPageSEOScore');
    const fives = run.cases.filter((c) => c.check === 'not_a_server_error' && c.status === 'failed');
    expect(fives.map((c) => c.id)).toContain('not_a_server_error:postSeoV1AnGetPageSEOScore:positive_acceptance:postSeoV1AnGetPageSEOScore');
    expect(run.cases.filter((c) => c.check === 'positive_acceptance' && c.status === 'skipped')).toEqual([]);
  }, T);

  it('a write the suite cannot undo (saving a module) is still not sent by default', async () => {
    const seen: string[] = [];
    await h.run(undefined, '/seo/v1/saveModule,positive_acceptance', [], { seen: (req) => void (!anonymous(req) && req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS' && seen.push(`${req.method} ${routeOf(req)}`)) });
    expect(seen).toEqual([]);
  }, T);
});

describe('trash: judged in the default run, whatever came before the delete', () => {
  // A site whose venue search finds nothing (lifecycle's "listed" fails) and whose DELETE without force trashes the
  // record but answers [] instead of it.
  const searchless: Fault = (req, next) => {
    const { route, query } = parse(req);
    if (req.method === 'GET' && route === '/cal/v1/venues' && query.has('search')) return withJson(next(req), []);
    const res = next(req);
    if (req.method === 'DELETE' && /^\/cal\/v1\/venues\/\d+$/.test(route) && !/^(1|true)$/.test(query.get('force') ?? '') && res.status === 200) return withJson(res, []);
    return res;
  };

  it('a trash answered [] is judged (failed) although lifecycle broke at "listed"', async () => {
    const { run } = await h.run(searchless, '/cal/v1/venues,/cal/v1/venues/{id},lifecycle,trash,forced_delete');
    const byId = (id: string): string => { const c = run.cases.find((x) => x.id === id); return c ? `${c.status}: ${c.message}` : '(absent)'; };
    expect(byId('lifecycle:getCalV1Venues:cal/v1/venue/listed')).toMatch(/^failed/);
    expect(byId('trash:deleteCalV1VenuesById:cal/v1/venue/delete_answer')).toMatch(/^failed: expected a DELETE without force to answer the trashed record with status "trash" .*; got 200 \[\]$/);
    expect(byId('trash:getCalV1VenuesById:cal/v1/venue/read_trashed')).toMatch(/^passed/);
    expect(byId('trash:deleteCalV1VenuesById:cal/v1/venue/second_delete')).toMatch(/^passed/);
  }, T);
});

describe('comparisons of two reads do not race the run\'s own writes', () => {
  // A lax calendar (as The Events Calendar's legacy create is): a create the suite sends to be refused is taken anyway.
  const lax: Fault = (req, next) => {
    const res = next(req);
    if (req.method !== 'POST' || routeOf(req) !== '/cal/events/v1/events' || res.status !== 400) return res;
    const body = JSON.stringify({ title: `site-contracts lax ${Date.now()}`, start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' });
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== 'content-type' && k.toLowerCase() !== 'content-length'));
    return next({ ...req, headers: { ...headers, 'content-type': 'application/json' }, body });
  };

  it('with 4 workers, no write to events reaches the site between the two reads of a comparison of the event list', async () => {
    const log: { at: number; line: string }[] = [];
    let n = 0;
    const { run } = await h.run(lax, '/cal/events/v1/events', ['--workers', '4'], { seen: (req) => void log.push({ at: n++, line: `${anonymous(req) ? 'anon' : 'auth'} ${req.method} ${routeOf(req)}${parse(req).query.toString() ? `?${parse(req).query.toString()}` : ''}` }) });
    // The lax site really took probes: writes to events reached it while reads ran.
    expect(log.filter((l) => /^\w+ POST \/cal\/events\/v1\/events$/.test(l.line)).length).toBeGreaterThan(5);
    // Each HEAD of the list and the GET it is compared with (the last anonymous plain GET before it): no event write between.
    const writes = (from: number, to: number): string[] => log.filter((l) => l.at > from && l.at < to && /^\w+ (POST|PUT|PATCH|DELETE) \/cal\/(events\/)?v1\/events/.test(l.line)).map((l) => l.line);
    for (const head of log.filter((l) => l.line === 'anon HEAD /cal/events/v1/events')) {
      const get = [...log].reverse().find((l) => l.at < head.at && l.line === 'anon GET /cal/events/v1/events')!;
      expect(writes(get.at, head.at)).toEqual([]);
    }
    const failed = run.cases.filter((c) => ['head', 'pagination', 'defaults', 'trailing_slash', 'rest_route_equivalence', 'envelope', 'jsonp'].includes(c.check) && c.status === 'failed');
    expect(failed.map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  }, T);
});
