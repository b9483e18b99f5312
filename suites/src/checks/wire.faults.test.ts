// The wire checks of issue 18 proven both ways: each passes against the mock, and fails against the mock with
// one fault injected in front of it, at the edge of what the check looks for (X-WP-TotalPages exposed but not
// X-WP-Total, a 404 whose message is "", OPTIONS without its schema, a forced DELETE without previous, ...).
// The faulty server is the mock's public handler wrapped by the fault, served on 127.0.0.1 (as in faults.test.ts).

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { RunResult } from '../report/model.ts';
import { headProblems, languageRoot } from './address_forms.ts';
import { expectedTypes, mediaType } from './content_type.ts';
import { anonymous, bodyText, harnessForFile, json, parse, plain, withHeader, withJson, wpError, type Fault, type MockRequest } from '../testing/faulty-mock.ts';
import { jsonSpellingProblem, wireHeaderProblems } from './wire.ts';
import { fieldsProblems, fieldsToAsk } from './fields_filter.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';

const h = harnessForFile({ createMock, listen });

const routeOf = (req: MockRequest): string => parse(req).route;
const queryOf = (req: MockRequest): URLSearchParams => parse(req).query;
const run = async (fault: Fault | undefined, only: string): Promise<RunResult> => (await h.run(fault, only)).run;

type Case = RunResult['cases'][number];
const failing = (c: Case): boolean => c.status === 'failed' || c.status === 'errored' || c.status === 'warned';

/** The cases the fault makes fail (or warn) that did not without it; and the clean run's cases of `check`. */
async function faulted(fault: Fault, only: string, check: string): Promise<{ failed: Case[]; clean: Case[] }> {
  const clean = await run(undefined, only);
  const before = new Set(clean.cases.filter(failing).map((c) => c.id));
  const broken = await run(fault, only);
  const mine = clean.cases.filter((c) => c.check === check);
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  return { failed: broken.cases.filter((c) => failing(c) && !before.has(c.id)), clean: mine };
}

const checksOf = (cs: Case[]): string[] => [...new Set(cs.map((c) => c.check))].sort();


describe('the pure parts', () => {
  it('expects the content type the request asked for', () => {
    expect(expectedTypes('http://x/wp-json/cal/v1/events?_jsonp=cb')).toEqual(['application/javascript']);
    // PHP holds "0" false: no callback, JSON.
    expect(expectedTypes('http://x/wp-json/cal/v1/events?_jsonp=0')).toEqual(['application/json']);
    expect(expectedTypes('http://x/wp-json/oembed/1.0/embed?url=u&format=xml')).toEqual(['text/xml', 'application/xml']);
    expect(expectedTypes('http://x/?rest_route=/oembed/1.0/embed&url=u&format=xml')).toEqual(['text/xml', 'application/xml']);
    // Exactly as WordPress compares: XML is not xml; the proxy and HEAD answer JSON; a refusal may come either way.
    expect(expectedTypes('http://x/wp-json/oembed/1.0/embed?url=u&format=XML')).toEqual(['application/json']);
    expect(expectedTypes('http://x/wp-json/oembed/1.0/proxy?url=u&format=xml')).toEqual(['application/json']);
    expect(expectedTypes('http://x/wp-json/oembed/1.0/embed?url=u&format=xml', 'HEAD')).toEqual(['application/json']);
    expect(expectedTypes('http://x/wp-json/oembed/1.0/embed?url=u&format=xml', 'GET', 404)).toContain('application/json');
    expect(expectedTypes('http://x/wp-json/cal/v1/events?format=xml')).toEqual(['application/json']);
    expect(mediaType('Application/JSON; charset=UTF-8')).toBe('application/json');
  });

  it('puts the language segment before /wp-json, and nowhere without one', () => {
    expect(languageRoot('/wp-json', 'uk')).toBe('/uk/wp-json');
    expect(languageRoot('/blog/wp-json', 'uk')).toBe('/blog/uk/wp-json');
    expect(languageRoot('/en/wp-json', 'uk')).toBe('/uk/wp-json');
    expect(languageRoot('rest_route', 'uk')).toBeUndefined();
  });

  it('compares a HEAD with its GET header by header, and names both sides', () => {
    const get = { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8', 'x-wp-total': '5', 'x-wp-totalpages': '3', link: '<a>; rel="next"', allow: 'GET', vary: 'Origin' }, body: '[]' };
    expect(headProblems(get, { ...get, headers: { ...get.headers, vary: 'Accept' }, body: '' })).toEqual([]);
    expect(headProblems(get, { ...get, headers: { ...get.headers, 'x-wp-total': '4' }, body: '' })).toEqual(['x-wp-total "4" where GET sent "5"']);
    expect(headProblems(get, { ...get, body: '[]' })).toEqual(['a body of 2 bytes ("[]")']);
  });
});

describe('answers read exactly', () => {
  it('cors: Access-Control-Expose-Headers naming X-WP-TotalPages and Link, but not X-WP-Total', async () => {
    const fault: Fault = (req, next) => withHeader(next(req), 'Access-Control-Expose-Headers', 'X-WP-TotalPages, Link');
    const { failed } = await faulted(fault, 'root,cors', 'cors');
    expect(checksOf(failed)).toEqual(['cors']);
    expect(failed[0]!.message).toMatch(/Access-Control-Expose-Headers is "X-WP-TotalPages, Link": it does not name X-WP-Total$/);
  });

  it('error_envelope: a 404 whose message is ""', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return res.status === 404 && res.body.startsWith('{') && json(res)['code'] === 'rest_post_invalid_id' ? withJson(res, { ...json(res), message: '' }) : res;
    };
    const { failed } = await faulted(fault, '/cal/v1/venues', 'error_envelope');
    expect(checksOf(failed)).toEqual(['error_envelope']);
    expect(failed[0]!.message).toMatch(/the 404 rest_post_invalid_id has an empty message \(""\)/);
  });

  it('content_type: legacy answers served as text/html', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return routeOf(req).startsWith('/cal/events/v1/organizers') ? withHeader(res, 'Content-Type', 'text/html; charset=UTF-8') : res;
    };
    const { failed } = await faulted(fault, '/cal/events/v1/organizers', 'content_type');
    expect(checksOf(failed)).toContain('content_type');
    expect(failed.find((c) => c.check === 'content_type')!.message).toMatch(/with Content-Type "text\/html; charset=UTF-8", not application\/json/);
    // No check passes an answer it describes as text/html.
    const broken = await run(fault, '/cal/events/v1/organizers');
    expect(broken.cases.filter((c) => c.status === 'passed' && /text\/html/.test(c.message ?? '')).map((c) => `${c.id}: ${c.message}`)).toEqual([]);
  });

  it('forced_delete: DELETE ?force=true answers {"deleted": true} without previous', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'DELETE' || !/^(true|1)$/.test(queryOf(req).get('force') ?? '') || res.status !== 200) return res;
      const { previous: _p, ...rest } = json(res);
      return withJson(res, rest);
    };
    const { failed } = await faulted(fault, '/cal/v1/venues', 'forced_delete');
    // Besides the shape the contract assumes for the answer (a warning), its own failure.
    expect(failed.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['forced_delete:deleteCalV1VenuesById:cal/v1/venue/purge']);
    expect(failed.filter((c) => c.status === 'failed')[0]!.message).toMatch(/got 200 where previous is "\(absent\)", not the record as it was$/);
  });
});

/** The descriptor (GET {api_root}/ in either form), edited; every other answer as the mock gives it. */
function descriptorFault(edit: (d: Record<string, unknown>) => Record<string, unknown>): Fault {
  return (req, next) => {
    const res = next(req);
    if (req.method !== 'GET' || routeOf(req) !== '/' || res.status !== 200) return res;
    return withJson(res, edit(json(res)));
  };
}

type Routes = Record<string, { namespace?: string; methods: string[]; endpoints: { methods: string[]; args: Record<string, Record<string, unknown>> }[] }>;

function editRoute(pattern: string, edit: (r: Routes[string]) => void): (d: Record<string, unknown>) => Record<string, unknown> {
  return (d) => {
    const routes = structuredClone(d['routes']) as Routes;
    edit(routes[pattern]!);
    return { ...d, routes };
  };
}

describe('descriptor_routes and descriptor_auth: the descriptor as a check of the run', () => {
  it('an argument the documents name, left out of the descriptor, fails at documented severity', async () => {
    const fault = descriptorFault(editRoute('/cal/v1/events', (r) => delete r.endpoints.find((e) => e.methods.includes('GET'))!.args['per_page']));
    const { failed } = await faulted(fault, '/cal/v1/events,descriptor_routes', 'descriptor_routes');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['descriptor_routes:getCalV1Events:args failed']);
    expect(failed[0]!.message).toMatch(/per_page: documented \(type="integer" default=10 optional minimum=1 maximum=100\), not listed by the target/);
  });

  it('i18n_language, which every route accepts, left out of one route only warns', async () => {
    const fault = descriptorFault(editRoute('/cal/v1/events', (r) => delete r.endpoints.find((e) => e.methods.includes('GET'))!.args['i18n_language']));
    const { failed } = await faulted(fault, '/cal/v1/events,descriptor_routes', 'descriptor_routes');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['descriptor_routes:getCalV1Events:args warned']);
    expect(failed[0]!.message).toMatch(/i18n_language: documented for every route .*, not listed by the target \(assumed: the documents say every route accepts it, not that each declares it\)$/);
  });

  it('a documented maximum one above (101) fails, showing both sides', async () => {
    const fault = descriptorFault(editRoute('/cal/v1/events', (r) => (r.endpoints.find((e) => e.methods.includes('GET'))!.args['per_page']!['maximum'] = 101)));
    const { failed } = await faulted(fault, '/cal/v1/events,descriptor_routes', 'descriptor_routes');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['descriptor_routes:getCalV1Events:args failed']);
    expect(failed[0]!.message).toMatch(/per_page: maximum 100 documented, 101 listed$/);
  });

  it('a keyword the documents leave readable two ways only warns, with the mark named', async () => {
    const fault = descriptorFault(editRoute('/cal/events/v1/events', (r) => (r.endpoints.find((e) => e.methods.includes('GET'))!.args['categories']!['items'] = { type: ['integer', 'string'] })));
    const { failed } = await faulted(fault, '/cal/events/v1/events,descriptor_routes', 'descriptor_routes');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['descriptor_routes:getCalEventsV1Events:args warned']);
    expect(failed[0]!.message).toMatch(/categories: items\.type "integer" documented, \["integer","string"\] listed \(assumed: the documents can be read two ways here \(type-vs-description, 000 §4\.1\.1\)\)/);
  });

  it('a method the documents deny (POST on a cal/v1 {id} route) listed by the descriptor fails', async () => {
    const fault = descriptorFault(editRoute('/cal/v1/venues/(?P<id>[0-9]+)', (r) => {
      r.methods.push('POST');
      r.endpoints.push({ methods: ['POST'], args: {} });
    }));
    const { failed } = await faulted(fault, 'cal/v1,descriptor_routes', 'descriptor_routes');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['descriptor_routes:-:extras:cal/v1 failed']);
    expect(failed[0]!.message).toMatch(/it lists methods POST \/cal\/v1\/venues\/\{id\} \(the documents deny it: 000 §4\.2/);
  });

  it('a route the documents deny (a cal/v1 category route) listed by the descriptor fails', async () => {
    const fault = descriptorFault((d) => ({ ...d, routes: { ...(d['routes'] as Routes), '/cal/v1/categories': { namespace: 'cal/v1', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] } } }));
    const { failed } = await faulted(fault, 'cal/v1,descriptor_routes', 'descriptor_routes');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['descriptor_routes:-:extras:cal/v1 failed']);
    expect(failed[0]!.message).toMatch(/route GET \/cal\/v1\/categories \(the documents deny it: 000 §4\.2 "no by-slug, category or tag routes"\)$/);
  });

  it('a missing route fails; a route beyond the documents only warns', async () => {
    const fault = descriptorFault((d) => {
      const routes = { ...(d['routes'] as Routes) };
      delete routes['/cal/v1/organizers'];
      routes['/cal/v1/widgets'] = { namespace: 'cal/v1', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] };
      return { ...d, routes };
    });
    const { failed } = await faulted(fault, 'cal/v1,descriptor_routes', 'descriptor_routes');
    expect(failed.map((c) => `${c.id} ${c.status}`).sort()).toEqual(['descriptor_routes:-:extras:cal/v1 warned', 'descriptor_routes:getCalV1Organizers:route failed', 'descriptor_routes:postCalV1Organizers:route failed']);
  });

  it('descriptor_auth: authentication without application-passwords', async () => {
    const fault = descriptorFault((d) => ({ ...d, authentication: {} }));
    const { failed } = await faulted(fault, 'root,descriptor_auth', 'descriptor_auth');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['descriptor_auth:getRoot:application-passwords failed']);
    expect(failed[0]!.message).toMatch(/authentication is \{\}: no application-passwords$/);
  });
});

describe('every address form answers as WordPress does', () => {
  it('head: HEAD without X-WP-TotalPages', async () => {
    const fault: Fault = (req, next) => (req.method === 'HEAD' ? withHeader(next(req), 'X-WP-TotalPages', undefined) : next(req));
    const { failed, clean } = await faulted(fault, 'head', 'head');
    expect(clean.map((c) => c.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed']);
    // The root and the unauthorised page-builder list send no totals: only the three lists that do fail.
    expect(failed.map((c) => c.id).sort()).toEqual(['head:getCalEventsV1Events:get', 'head:getCalV1Events:get', 'head:getFormsV1ContactForms:get']);
    expect(failed[0]!.message).toMatch(/HEAD answered x-wp-totalpages \(absent\) where GET sent "\d+"$/);
  });

  it('head: HEAD not routed to the GET handler (404 rest_no_route)', async () => {
    const fault: Fault = (req, next) => (req.method === 'HEAD' && routeOf(req) === '/cal/v1/events' ? next({ ...req, method: 'DELETE', url: '/wp-json/cal/v1/events' }) : next(req));
    const { failed } = await faulted(fault, 'head', 'head');
    expect(failed.map((c) => c.id)).toEqual(['head:getCalV1Events:get']);
    expect(failed[0]!.message).toMatch(/status 404 where GET answered 200/);
  });

  it('trailing_slash: /cal/v1/events/ answered rest_no_route', async () => {
    const fault: Fault = (req, next) => (/\/cal\/v1\/events\/(\?|$)/.test(req.url) ? next({ ...req, url: '/wp-json/site-contracts/none' }) : next(req));
    const { failed } = await faulted(fault, 'trailing_slash', 'trailing_slash');
    expect(failed.map((c) => c.id)).toEqual(['trailing_slash:getCalV1Events:slash']);
    expect(failed[0]!.message).toMatch(/answered with status 404 instead of 200/);
  });

  it('envelope: an enveloped error keeps its 404 as the HTTP status', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!queryOf(req).has('_envelope') || res.status !== 200) return res;
      const status = json(res)['status'];
      return typeof status === 'number' && status >= 400 ? { ...res, status } : res;
    };
    const { failed } = await faulted(fault, 'envelope', 'envelope');
    expect(failed.map((c) => c.id)).toEqual(['envelope:getRoot:error']);
    expect(failed.find((c) => c.id === 'envelope:getRoot:error')!.message).toMatch(/got HTTP status 404, not 200 \(the real status goes into the body\)$/);
  });

  it('jsonp: a valid callback answered as application/json', async () => {
    const fault: Fault = (req, next) => (queryOf(req).has('_jsonp') ? withHeader(next(req), 'Content-Type', 'application/json; charset=UTF-8') : next(req));
    const { failed } = await faulted(fault, 'root,jsonp', 'jsonp');
    expect(failed.map((c) => c.id)).toEqual(['jsonp:getRoot:valid']);
    expect(failed[0]!.message).toMatch(/Content-Type "application\/json; charset=UTF-8", not application\/javascript$/);
  });

  it('jsonp: an invalid callback is run instead of refused', async () => {
    const fault: Fault = (req, next) => {
      const cb = queryOf(req).get('_jsonp');
      return cb && cb.includes('-') ? next({ ...req, url: req.url.replace(/_jsonp=[^&]*/, `_jsonp=${cb.replace(/-/g, '_')}`) }) : next(req);
    };
    const { failed } = await faulted(fault, 'root,jsonp', 'jsonp');
    expect(failed.map((c) => c.id)).toEqual(['jsonp:getRoot:invalid']);
    expect(failed[0]!.message).toMatch(/expected 400 rest_callback_invalid for the callback site-contracts-cb .*; got 200 \(application\/javascript\): the callback was run$/);
  });

  it('language_prefix: /uk/wp-json/ answered by the front end (a text/html 404)', async () => {
    const fault: Fault = (req, next) => (req.url.startsWith('/uk/') ? { status: 404, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: '<h1>Not Found</h1>' } : next(req));
    const { failed } = await faulted(fault, 'language_prefix', 'language_prefix');
    expect(failed.map((c) => c.id).sort()).toEqual(['language_prefix:getCalEventsV1Events:uk', 'language_prefix:getCalV1Events:uk', 'language_prefix:getRoot:uk']);
    expect(failed[0]!.message).toMatch(/got status 404 where the unprefixed root answered 200; Content-Type "text\/html; charset=UTF-8": not a REST answer/);
  });

  it('language_prefix: inconclusive, with the reason, where the descriptor shows no translation add-on', async () => {
    const fault = descriptorFault((d) => ({ ...d, namespaces: (d['namespaces'] as string[]).filter((n) => !n.startsWith('i18n/')) }));
    const broken = await run(fault, 'root,language_prefix');
    expect(broken.cases.map((c) => `${c.id} ${c.status}`)).toEqual(['language_prefix:getRoot:uk inconclusive']);
    expect(broken.cases[0]!.message).toMatch(/lists no translation namespace/);
  });

  it('options: OPTIONS on a cal/v1 record route without the item schema', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'OPTIONS' || routeOf(req) !== '/cal/v1/venues') return res;
      const { schema: _s, ...rest } = json(res);
      return withJson(res, rest);
    };
    const { failed } = await faulted(fault, 'options', 'options');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['options:getCalV1Venues:route failed']);
    expect(failed[0]!.message).toMatch(/got there is no item schema \(schema is "\(absent\)"\)$/);
  });

  it('options: OPTIONS listing a route without a documented method', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'OPTIONS' || !/^\/cal\/v1\/events\/\d+$/.test(routeOf(req))) return res;
      const body = json(res);
      return withJson(res, { ...body, methods: (body['methods'] as string[]).filter((m) => m !== 'DELETE') });
    };
    const { failed } = await faulted(fault, 'options', 'options');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['options:getCalV1EventsById:route failed']);
    expect(failed[0]!.message).toMatch(/methods \[GET, PUT, PATCH\] lack the documented DELETE; methods \[GET, PUT, PATCH\] where the descriptor lists \[GET, PUT, PATCH, DELETE\]$/);
  });

  it('undocumented_method: POST on a cal/v1 {id} route served as PATCH', async () => {
    const fault: Fault = (req, next) => (req.method === 'POST' && /^\/cal\/v1\/venues\/\d+$/.test(routeOf(req)) ? next({ ...req, method: 'PATCH' }) : next(req));
    const { failed } = await faulted(fault, 'cal/v1,undocumented_method', 'undocumented_method');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['undocumented_method:getCalV1VenuesById:POST failed']);
    expect(failed[0]!.message).toMatch(/^expected 404 rest_no_route for POST \/cal\/v1\/venues\/\{id\} .*; got 40[14] rest_/);
  });
});

describe('a type the documents state for one resource is documented for it', () => {
  it('legacy venues refusing a string show_map fail at documented severity, not as a contradiction', async () => {
    const fault: Fault = (req, next) => {
      const text = bodyText(req);
      if (!/^\/cal\/events\/v1\/venues/.test(routeOf(req)) || req.method === 'GET' || !text.startsWith('{') || !text.includes('"show_map"')) return next(req);
      const sent = (JSON.parse(text) as Record<string, unknown>)['show_map'];
      if (typeof sent !== 'string') return next(req);
      return { status: 400, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ code: 'rest_invalid_param', message: 'Invalid parameter(s): show_map', data: { status: 400, params: { show_map: 'show_map is not of type boolean.' } } }) };
    };
    const clean = await run(undefined, '/cal/events/v1/venues');
    expect(clean.cases.filter((c) => /show_map/.test(c.variant ?? '') && c.status !== 'passed' && c.status !== 'skipped').map((c) => `${c.id} ${c.status}`)).toEqual([]);
    const broken = await run(fault, '/cal/events/v1/venues');
    const refused = broken.cases.filter((c) => c.check === 'positive_acceptance' && /show_map$/.test(c.variant ?? ''));
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((c) => c.status))).toEqual(new Set(['failed']));
    for (const c of refused) expect(c.message).not.toMatch(/read another way/);
  });

  it('legacy venues taking a non-string show_map fail negative_rejection at documented severity', async () => {
    const fault: Fault = (req, next) => {
      const text = bodyText(req);
      if (!/^\/cal\/events\/v1\/venues/.test(routeOf(req)) || req.method === 'GET' || !text.startsWith('{')) return next(req);
      const body = JSON.parse(text) as Record<string, unknown>;
      if (!('show_map' in body) || typeof body['show_map'] === 'string') return next(req);
      // A site that coerces what it is given: 1, true, [] all become strings.
      return next({ ...req, body: JSON.stringify({ ...body, show_map: JSON.stringify(body['show_map']) }) });
    };
    const broken = await run(fault, '/cal/events/v1/venues');
    const sentShowMap = (c: Case): unknown => {
      const body = c.request?.body;
      return body?.startsWith('{') ? (JSON.parse(body) as Record<string, unknown>)['show_map'] : undefined;
    };
    const cases = broken.cases.filter((c) => c.check === 'negative_rejection' && /show_map\b/.test(c.variant ?? ''));
    // null is another matter: the documents' default null for a string is marked (default-outside-type), so it only warns.
    const taken = cases.filter((c) => c.status !== 'passed' && c.status !== 'skipped' && sentShowMap(c) !== null);
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.map((c) => `${c.id} ${c.status}`)).toEqual(taken.map((c) => `${c.id} failed`));
    // Taken, then answered as the route answers (an id no site has: 404 after validation).
    // An anonymous write refused with 401 is sent again with credentials (anonymous_refusal.ts): accepted there, the
    // finding is the documented one and says so.
    for (const c of taken) expect(c.message).toMatch(/^expected 400 naming show_map for a request that breaks type of show_map \(type, 000 §[^)]*\); (got (20\d: it was accepted|404 rest_post_invalid_id)|with credentials the same request was accepted \(20\d\); without them it got 401 \S+, a refusal for who asked, not for the value)$/);
  });
});

describe('what every REST answer carries (wire_headers, wire_bytes)', () => {
  const venue = (req: MockRequest): boolean => /^\/cal\/v1\/venues\/\d+$/.test(routeOf(req));
  const root = 'http://127.0.0.1:1';
  const fixed = { 'x-content-type-options': 'nosniff', 'x-robots-tag': 'noindex', link: `<${root}/wp-json/>; rel="https://api.w.org/"` };

  it('reads the API root Link against the root the suite reaches, and the spelling of json_encode()', () => {
    const answer = (headers: Record<string, string>) => ({ status: 200, headers, body: '{}' });
    expect(wireHeaderProblems(answer(fixed), { baseUrl: root, apiRoot: '/wp-json' }, false)).toEqual([]);
    // An answer's own Link (rel=next) replaces the root's; a Link to a namespace under the api.w.org rel does not.
    expect(wireHeaderProblems(answer({ ...fixed, link: `<${root}/wp-json/cal/v1/events?page=2>; rel="next"` }), { baseUrl: root }, false)).toEqual([]);
    expect(wireHeaderProblems(answer({ ...fixed, link: `<${root}/wp-json/cal/v1/>; rel="https://api.w.org/"` }), { baseUrl: root }, false)).toEqual([
      `Link's rel="https://api.w.org/" points at "${root}/wp-json/cal/v1/", not the API root ${root}/wp-json/`,
    ]);
    expect(wireHeaderProblems(answer({ ...fixed, link: `<${root}/?rest_route=/>; rel="https://api.w.org/"` }), { baseUrl: root, apiRoot: 'rest_route' }, false)).toEqual([]);
    expect(wireHeaderProblems(answer({ ...fixed, 'cache-control': 'no-cache, must-revalidate, max-age=0', expires: 'Wed, 11 Jan 1984 05:00:00 GMT' }), { baseUrl: root }, true)).toEqual([]);
    expect(jsonSpellingProblem('{"a":"http:\\/\\/x","b":"caf\\u00e9"}')).toBeUndefined();
    expect(jsonSpellingProblem('{"a":"x/y"}')).toMatch(/^a "\/" inside a string is written without its backslash/);
    expect(jsonSpellingProblem('{"b":"café"}')).toMatch(/^the character U\+00E9 is written as itself, not as \\u00e9/);
  });

  it('wire_headers: a venue answered X-Content-Type-Options: nosnif', async () => {
    const fault: Fault = (req, next) => (venue(req) ? withHeader(next(req), 'X-Content-Type-Options', 'nosnif') : next(req));
    const { failed } = await faulted(fault, 'getCalV1VenuesById,wire_headers', 'wire_headers');
    expect(checksOf(failed)).toEqual(['wire_headers']);
    expect(failed[0]!.message).toMatch(/X-Content-Type-Options is "nosnif", not nosniff/);
  });

  it('wire_headers: errors answered X-Robots-Tag: nofollow', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return res.status >= 400 ? withHeader(res, 'X-Robots-Tag', 'nofollow') : res;
    };
    const { failed } = await faulted(fault, 'getCalV1VenuesById,wire_headers', 'wire_headers');
    expect(checksOf(failed)).toEqual(['wire_headers']);
    expect(failed[0]!.message).toMatch(/answered 4\d\d .* where X-Robots-Tag is "nofollow": it does not name noindex/);
  });

  it("wire_headers: a 404 answered without the API root's Link", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return res.status === 404 ? withHeader(res, 'Link', undefined) : res;
    };
    const { failed } = await faulted(fault, 'getCalV1VenuesById,wire_headers', 'wire_headers');
    expect(checksOf(failed)).toEqual(['wire_headers']);
    expect(failed[0]!.message).toMatch(/answered 404 .* where there is no Link header \(WordPress sends <http:\/\/127\.0\.0\.1:\d+\/wp-json\/>; rel="https:\/\/api\.w\.org\/"/);
  });

  it('wire_headers: Cache-Control without must-revalidate to a signed-in user', async () => {
    const fault: Fault = (req, next) => (anonymous(req) ? next(req) : withHeader(next(req), 'Cache-Control', 'no-cache, max-age=0'));
    const { failed } = await faulted(fault, 'getCalV1VenuesById,wire_headers', 'wire_headers');
    expect(checksOf(failed)).toEqual(['wire_headers']);
    expect(failed[0]!.message).toMatch(/answered to a signed-in user: Cache-Control "no-cache, max-age=0" does not name must-revalidate$/);
  });

  it('wire_headers: a 4xx to a POST with X-HTTP-Method-Override without the no-cache headers', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return req.headers['x-http-method-override'] === undefined ? res : withHeader(withHeader(res, 'Expires', undefined), 'Cache-Control', undefined);
    };
    const { failed } = await faulted(fault, 'wire_headers:getRoot:override-4xx', 'wire_headers');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['wire_headers:getRoot:override-4xx failed']);
    expect(failed[0]!.message).toMatch(/where Cache-Control \(absent\) does not name no-cache, must-revalidate, max-age=0; Expires \(absent\) is not a date in the past$/);
  });

  it('wire_bytes: one "/" of a venue written without its backslash', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return venue(req) && res.status === 200 ? plain({ ...res, body: res.body.replace('\\/', '/') }) : res;
    };
    const { failed } = await faulted(fault, 'getCalV1VenuesById,wire_bytes', 'wire_bytes');
    expect(checksOf(failed)).toEqual(['wire_bytes']);
    expect(failed[0]!.message).toMatch(/a "\/" inside a string is written without its backslash, not \\\/ \(at /);
  });

  it('wire_bytes: one é of an event list written as itself', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return req.method === 'GET' && routeOf(req) === '/cal/v1/events' && res.status === 200 ? plain({ ...res, body: res.body.replace('\\u00e9', 'é') }) : res;
    };
    const { failed } = await faulted(fault, 'getCalV1Events,wire_bytes', 'wire_bytes');
    expect(checksOf(failed)).toEqual(['wire_bytes']);
    expect(failed.some((c) => /the character U\+00E9 is written as itself, not as \\u00e9/.test(c.message ?? ''))).toBe(true);
  });
});

describe('cors, options, address forms: what WordPress does beside the usual', () => {
  it('cors: an anonymous answer without an Origin that does not say Vary: Origin', async () => {
    const fault: Fault = (req, next) => (anonymous(req) && req.headers['origin'] === undefined ? withHeader(next(req), 'Vary', 'Accept-Encoding') : next(req));
    const { failed } = await faulted(fault, 'root,cors', 'cors');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['cors:getRoot:vary failed']);
    expect(failed[0]!.message).toMatch(/Vary: Origin .*; Vary is "Accept-Encoding"$/);
  });

  it('cors: Origin: null answered without Access-Control-Allow-Origin', async () => {
    const fault: Fault = (req, next) => (req.headers['origin'] === 'null' ? withHeader(next(req), 'Access-Control-Allow-Origin', undefined) : next(req));
    const { failed } = await faulted(fault, 'root,cors', 'cors');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['cors:getRoot:null failed']);
    expect(failed[0]!.message).toMatch(/got Access-Control-Allow-Origin is null, not "null"$/);
  });

  it('options: OPTIONS on a path with no route answered 404 rest_no_route', async () => {
    const fault: Fault = (req, next) => (req.method === 'OPTIONS' && routeOf(req).startsWith('/site-contracts-') ? wpError(404, 'rest_no_route') : next(req));
    const { failed } = await faulted(fault, 'options', 'options');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['options:getRoot:no_route failed']);
    expect(failed[0]!.message).toMatch(/got status 404 \(404 rest_no_route\), not 200; the body is .*, not \[\]$/);
  });

  it("options: the publish action's target schema without future", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'OPTIONS' || routeOf(req) !== '/cal/v1/events') return res;
      const body = json(res);
      const schema = body['schema'] as { links: { rel: string; targetSchema: { properties: { status: { enum: string[] } } } }[] };
      const links = schema.links.map((l) => (l.rel.endsWith('action-publish') ? { ...l, targetSchema: { properties: { status: { type: 'string', enum: ['publish'] } } } } : l));
      return withJson(res, { ...body, schema: { ...schema, links } });
    };
    const { failed } = await faulted(fault, 'options', 'options');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['options:getCalV1Events:route failed']);
    expect(failed[0]!.message).toMatch(/the action-publish link's targetSchema\.properties\.status\.enum is \["publish"\], not \["publish","future"\]$/);
  });

  it('rest_route_equivalence: /index.php/wp-json/cal/v1/events not routed', async () => {
    const fault: Fault = (req, next) => (req.url.startsWith('/index.php/wp-json/cal/v1/events') ? wpError(404, 'rest_no_route') : next(req));
    const { failed } = await faulted(fault, 'getCalV1Events,rest_route_equivalence', 'rest_route_equivalence');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['rest_route_equivalence:getCalV1Events:same-answer:index_php failed']);
    expect(failed[0]!.message).toMatch(/^expected \/index\.php\/wp-json\/cal\/v1\/events to answer as \/wp-json\/cal\/v1\/events \(WordPress convention, rest_api_register_rewrites\(\): the index\.php rule\)/);
  });

  it('rest_route_equivalence: /Cal/V1/Events matched case-sensitively', async () => {
    const fault: Fault = (req, next) => (/[A-Z]/.test(new URL(req.url, 'http://x').pathname) ? wpError(404, 'rest_no_route') : next(req));
    const { failed } = await faulted(fault, 'getCalV1Events,rest_route_equivalence', 'rest_route_equivalence');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['rest_route_equivalence:getCalV1Events:same-answer:case failed']);
    expect(failed[0]!.message).toMatch(/match_request_to_handler\(\) matches routes case-insensitively\).* it answered with status 404 instead of 200/);
  });

  it('method_override: ?_method=get in lower case not read', async () => {
    const fault: Fault = (req, next) => (queryOf(req).get('_method') === 'get' ? next({ ...req, url: req.url.replace(/[?&]_method=get/, '') }) : next(req));
    const { failed } = await faulted(fault, 'root,method_override', 'method_override');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['method_override:getRoot:query-lower failed']);
    expect(failed[0]!.message).toMatch(/^expected POST with \?_method=get to be served as GET \(WordPress convention, WP_REST_Request::set_method\(\) upper-cases the method\)/);
  });
});

describe('fields_filter: ?_fields= as rest_filter_response_fields() applies it', () => {
  it('reads the fields to ask from the plain answer and judges extra, missing and changed fields', () => {
    expect(fieldsToAsk([{ id: 1, date: 'x', slug: 's' }])).toEqual(['id', 'slug']);
    expect(fieldsToAsk({ name: 'n', description: 'd', routes: {} })).toEqual(['name', 'description']);
    expect(fieldsProblems([{ id: 1, slug: 's', x: 1 }], [{ id: 1, slug: 's' }], ['id', 'slug'])).toEqual([]);
    expect(fieldsProblems([{ id: 1, slug: 's' }], [{ id: 1, slug: 't' }], ['id', 'slug'])).toEqual(['record 1\'s slug is "t" where it is "s" without _fields']);
    expect(fieldsProblems({ name: 'n', url: 'u' }, { name: 'n', _links: {} }, ['name'])).toEqual([]);
  });

  it('fields_filter: a venue list keeping one field more than asked', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const fields = queryOf(req).get('_fields');
      if (!fields || routeOf(req) !== '/cal/v1/venues' || res.status !== 200) return res;
      const full = json(next({ ...req, url: req.url.replace(/([?&])_fields=[^&]*/, '$1') })) as unknown as Record<string, unknown>[];
      return withJson(res, (json(res) as unknown as Record<string, unknown>[]).map((r, i) => ({ ...r, link: full[i]!['link'] })));
    };
    const { failed } = await faulted(fault, 'fields_filter', 'fields_filter');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['fields_filter:getCalV1Venues:success failed']);
    expect(failed[0]!.message).toMatch(/; record \d+ holds link besides the fields asked for/);
  });

  it('fields_filter: an error filtered down to {code, message}', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!queryOf(req).has('_fields') || res.status < 400) return res;
      const { data: _d, ...rest } = json(res);
      return withJson(res, rest);
    };
    const { failed } = await faulted(fault, 'fields_filter', 'fields_filter');
    expect(failed.map((c) => `${c.id} ${c.status}`).sort()).toEqual(['fields_filter:getCalEventsV1EventsById:error failed', 'fields_filter:getCalV1EventsById:error failed']);
    expect(failed[0]!.message).toMatch(/to keep its whole envelope \{code, message, data\}.*; it answered 404 \{"code":"rest_post_invalid_id","message":"Invalid post ID\."\}$/);
  });
});

describe('namespace_index: ?namespace= as get_namespace_index() reads it', () => {
  it('namespace_index: the index ignores ?namespace= and answers its own namespace', async () => {
    const fault: Fault = (req, next) => (/^\/cal\/(v1|events\/v1)$/.test(routeOf(req)) && queryOf(req).has('namespace') ? next({ ...req, url: req.url.replace(/[?&]namespace=[^&]*/, '') }) : next(req));
    const { failed } = await faulted(fault, 'namespace_index', 'namespace_index');
    expect(failed.map((c) => `${c.id} ${c.status}`).sort()).toEqual([
      'namespace_index:getCalEventsV1:none failed',
      'namespace_index:getCalEventsV1:other failed',
      'namespace_index:getCalV1:none failed',
      'namespace_index:getCalV1:other failed',
    ]);
    expect(failed.find((c) => c.id === 'namespace_index:getCalV1:other')!.message).toMatch(/\?namespace=oembed\/1\.0 to answer the index of oembed\/1\.0.*\(namespace "cal\/v1"\)$/);
    expect(failed.find((c) => c.id === 'namespace_index:getCalV1:none')!.message).toMatch(/to answer 404 rest_invalid_namespace .*; it answered 200 \(application\/json\)$/);
  });
});

describe("pagination on core's posts controller: an empty search and the next link's query", () => {
  it('pagination: page 2 of an empty search refused as past the end', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return routeOf(req) === '/cal/v1/venues' && queryOf(req).get('page') === '2' && res.headers['X-WP-Total'] === '0' ? wpError(400, 'rest_post_invalid_page_number') : res;
    };
    const { failed } = await faulted(fault, '/cal/v1/venues,pagination', 'pagination');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['pagination:getCalV1Venues:empty_page failed']);
    expect(failed[0]!.message).toMatch(/; it answered 400 rest_post_invalid_page_number$/);
  });

  it("pagination: rel=next built from page and per_page only, without the request's orderby", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const link = res.headers['Link'];
      return routeOf(req) === '/cal/v1/events' && link ? withHeader(res, 'Link', link.replace(/([?&])orderby=[^&>]*&?/g, '$1').replace(/[?&]>/g, '>')) : res;
    };
    const { failed } = await faulted(fault, '/cal/v1/events,pagination', 'pagination');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['pagination:getCalV1Events:link_query failed']);
    expect(failed[0]!.message).toMatch(/per_page=1&page=2 lacks orderby=title \(it has none\)$/);
  });
});

describe('pretty: ?_pretty as get_json_encode_options() reads it', () => {
  it('pretty: ?_pretty=1 ignored, the same value on one line', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return queryOf(req).has('_pretty') && routeOf(req) === '/cal/v1/events' ? plain({ ...res, body: wpJsonEncode(JSON.parse(res.body)) }) : res;
    };
    const { failed } = await faulted(fault, 'pretty', 'pretty');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['pretty:getCalV1Events:pretty failed']);
    expect(failed[0]!.message).toMatch(/JSON_PRETTY_PRINT\); the body is on one line, not pretty-printed$/);
  });
});

describe('body_forms: a body as WP_REST_Request reads it', () => {
  it('body_forms: a venue create checks permission before it reads the broken JSON', async () => {
    const fault: Fault = (req, next) => (req.method === 'POST' && routeOf(req) === '/cal/v1/venues' && anonymous(req) ? wpError(401, 'rest_cannot_create') : next(req));
    const { failed } = await faulted(fault, 'body_forms', 'body_forms');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['body_forms:postCalV1Venues:invalid_json failed']);
    expect(failed[0]!.message).toMatch(/before any permission check\); got 401 rest_cannot_create$/);
  });

  const typeOf = (req: MockRequest): string => Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const withType = (req: MockRequest, type: string): MockRequest => ({ ...req, headers: { ...Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.toLowerCase() !== 'content-type')), 'content-type': type } });
  const venueWrite = (req: MockRequest): boolean => req.method !== 'GET' && /^\/cal\/v1\/venues(\/\d+)?$/.test(routeOf(req)) && !anonymous(req);
  const ownCases = async (fault: Fault): Promise<string[]> => (await faulted(fault, 'body_forms', 'body_forms')).failed.map((c) => `${c.id} ${c.status}`);

  it('body_forms: passes on the mock: a JSON body with a charset read, as text/plain not, the body before the query, a form-encoded update', async () => {
    const { run: r } = await h.run(undefined, 'body_forms');
    expect(r.cases.filter((c) => ['json-charset', 'precedence', 'form-body'].includes(c.variant ?? '')).map((c) => `${c.variant} ${c.status}`).sort()).toEqual(['form-body passed', 'json-charset passed', 'precedence passed']);
  });

  it('body_forms: application/json with a charset parameter is not read as JSON', async () => {
    const fault: Fault = (req, next) => (venueWrite(req) && /^application\/json\s*;/i.test(typeOf(req)) ? next(withType(req, 'text/plain')) : next(req));
    expect(await ownCases(fault)).toEqual(['body_forms:postCalV1Venues:json-charset failed']);
  });

  it('body_forms: a text/plain body is read as JSON', async () => {
    const fault: Fault = (req, next) => (venueWrite(req) && typeOf(req).startsWith('text/plain') ? next(withType(req, 'application/json')) : next(req));
    expect(await ownCases(fault)).toEqual(['body_forms:postCalV1Venues:json-charset failed']);
  });

  it("body_forms: the query's status wins over the JSON body's", async () => {
    const fault: Fault = (req, next) => {
      const q = queryOf(req).get('status');
      if (!venueWrite(req) || q === null || !typeOf(req).startsWith('application/json')) return next(req);
      return next({ ...req, body: JSON.stringify({ ...(JSON.parse(bodyText(req)) as object), status: q }) });
    };
    expect(await ownCases(fault)).toEqual(['body_forms:postCalV1Venues:precedence failed']);
  });

  it('body_forms: a form-encoded update body is not read', async () => {
    const fault: Fault = (req, next) => (venueWrite(req) && typeOf(req).startsWith('application/x-www-form-urlencoded') ? next({ ...req, body: '' }) : next(req));
    expect(await ownCases(fault)).toEqual(['body_forms:patchCalV1VenuesById:form-body failed']);
  });
});

describe("links: a posts controller record's _links and alternate Link", () => {
  /** Each record of the answer (one, or a list) with its _links edited. */
  const editLinks = (res: ReturnType<Fault>, edit: (links: Record<string, { href: string }[]>) => void): ReturnType<Fault> => {
    const body = JSON.parse(res.body) as unknown;
    const one = (r: Record<string, unknown>): void => {
      if (r['_links']) edit(r['_links'] as Record<string, { href: string }[]>);
    };
    if (Array.isArray(body)) body.forEach((r) => one(r as Record<string, unknown>));
    else one(body as Record<string, unknown>);
    return withJson(res, body);
  };

  it('links: a venue whose _links.self names its list', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return /^\/cal\/v1\/venues\/\d+$/.test(routeOf(req)) && res.status === 200 ? editLinks(res, (l) => (l['self'] = l['collection']!)) : res;
    };
    const { failed } = await faulted(fault, 'links', 'links');
    expect(failed.map((c) => `${c.id} ${c.status}`).sort()).toEqual(['links:getCalV1VenuesById:collection failed', 'links:getCalV1VenuesById:self failed']);
    expect(failed.find((c) => c.id.endsWith(':self'))!.message).toMatch(/_links\.self\[0\]\.href "http:\/\/127\.0\.0\.1:\d+\/wp-json\/cal\/v1\/venues" does not name \/cal\/v1\/venues\/\d+ under the API root$/);
  });

  it('links: the event list links each record with ?context=view added', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return routeOf(req) === '/cal/v1/events' && req.method === 'GET' && res.status === 200 ? editLinks(res, (l) => l['self']?.forEach((s) => (s.href = `${s.href}?context=view`))) : res;
    };
    const { failed } = await faulted(fault, 'links', 'links');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links:getCalV1EventsById:collection failed']);
    expect(failed[0]!.message).toMatch(/the list's is "http:\/\/127\.0\.0\.1:\d+\/wp-json\/cal\/v1\/events\/\d+\?context=view", by id "http:\/\/127\.0\.0\.1:\d+\/wp-json\/cal\/v1\/events\/\d+"$/);
  });

  it('links: an organizer answered rel="alternate" without type=text/html', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return /^\/cal\/v1\/organizers\/\d+$/.test(routeOf(req)) && res.headers['Link'] ? withHeader(res, 'Link', res.headers['Link'].replace(/; type=text\/html/, '')) : res;
    };
    const { failed } = await faulted(fault, 'links', 'links');
    expect(failed.map((c) => `${c.id} ${c.status}`)).toEqual(['links:getCalV1OrganizersById:alternate failed']);
    expect(failed[0]!.message).toMatch(/; Link is "<http:\/\/127\.0\.0\.1:\d+\/organizer\/[^>]+>; rel=\\"alternate\\""$/);
  });
});
