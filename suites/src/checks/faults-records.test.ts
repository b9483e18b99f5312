// Issue 17's checks on the records a site keeps, each proven both ways against the mock with one fault injected at
// the edge: the unknown-id code of a plugin's own controllers, the defaults of created records, the language a
// write is filed in, and one finding for a namespace the site does not serve.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, json, parse, withJson, wpError, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

/** A 404 for an unknown record that names another code than WordPress's. */
const codeOn404 = (route: RegExp, code: string): Fault => (req, next) => {
  const res = next(req);
  if (res.status !== 404 || !route.test(parse(req).route)) return res;
  return withJson(res, { ...json(res), code });
};

describe('unknown_id: the code of a 404 counts only on routes built on core controllers', () => {
  it("a legacy route (the plugin's own controller) answering rest-event-not-found is a warning, not a failure", async () => {
    const fault = codeOn404(/^\/cal\/events\/v1\/events\/\d+$/, 'rest-event-not-found');
    expect(await failedBy(h, fault, '/cal/events/v1/events,unknown_id')).toEqual([]);
    const { run } = await h.run(fault, '/cal/events/v1/events,unknown_id');
    const c = run.cases.find((x) => x.id === 'unknown_id:getCalEventsV1EventsById:id')!;
    expect(c.status).toBe('warned');
    expect(c.message).toMatch(/got 404 with code rest-event-not-found; held as assumed because the route is the plugin's own controller/);
  });

  it('a cal/v1 route (built on the posts controller) answering another code fails', async () => {
    const failed = await failedBy(h, codeOn404(/^\/cal\/v1\/venues\/\d+$/, 'rest-venue-not-found'), '/cal/v1/venues,unknown_id');
    // Id 0 on the digits-only {id} routes is an unknown id too (variant id-0), answered with the same wrong code.
    const ids = ['deleteCalV1VenuesById', 'getCalV1VenuesById', 'patchCalV1VenuesById', 'putCalV1VenuesById'].flatMap((op) => [`unknown_id:${op}:id`, `unknown_id:${op}:id-0`]);
    expect(failed.map((c) => c.id).sort()).toEqual(ids.sort());
  });
});

describe('create_defaults: a record created without a defaulted field reads back with the documented default', () => {
  it('passes on the mock: every documented default of the calendar creates, each judged', async () => {
    const { run } = await h.run(undefined, 'create_defaults');
    const cases = run.cases.filter((c) => c.check === 'create_defaults');
    expect(cases.map((c) => c.id).sort()).toEqual([
      'create_defaults:postCalEventsV1Events:all_day',
      ...['postCalV1Events', 'postCalV1Organizers', 'postCalV1Venues'].flatMap((op) => ['comment_status', 'format', 'ping_status', ...(op === 'postCalV1Events' ? [] : ['sticky']), 'status'].map((f) => `create_defaults:${op}:${f}`)),
    ].sort());
    expect(cases.filter((c) => c.status !== 'passed')).toEqual([]);
  });

  it("fails when a venue created without comment_status reads back 'closed', and only that", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || !/^\/cal\/v1\/venues\/\d+$/.test(parse(req).route) || res.status !== 200) return res;
      return withJson(res, { ...json(res), comment_status: 'closed' });
    };
    const failed = await failedBy(h, fault, 'create_defaults');
    expect(failed.map((c) => c.id)).toEqual(['create_defaults:postCalV1Venues:comment_status']);
    expect(failed[0]!.message).toMatch(/^expected a record created without comment_status to read back with comment_status "open", its documented default \(000 §2\.5.*\); it reads back "closed"$/);
  });
});

describe('language: a write with i18n_language=uk is filed in Ukrainian', () => {
  it('passes on the mock, which has the translation add-on, for every calendar resource', async () => {
    const { run } = await h.run(undefined, 'language');
    const cases = run.cases.filter((c) => c.check === 'language');
    expect(cases.length).toBe(8);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.message}`)).toEqual([]);
  });

  it('fails where the site files a cal/v1 venue written with i18n_language=uk in English', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/cal/v1/venues') return next(req);
      return next({ ...req, url: req.url.replace(/i18n_language=uk/, 'i18n_language=en') });
    };
    const failed = await failedBy(h, fault, 'language');
    expect(failed.map((c) => c.id)).toEqual([]);
    const { run } = await h.run(fault, 'language');
    const bad = run.cases.filter((c) => c.status === 'warned');
    expect(bad.map((c) => c.id)).toEqual(['language:postCalV1Venues:uk']);
    expect(bad[0]!.message).toMatch(/to be filed in Ukrainian.*the list with i18n_language=uk does not show it/);
    expect(run.cases.filter((c) => c.check === 'language' && c.status === 'passed')).toHaveLength(7);
  });

  it('is inconclusive, never failed, on a site whose descriptor shows no translation add-on', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || parse(req).route !== '/' || res.status !== 200) return res;
      const body = json(res);
      return withJson(res, { ...body, namespaces: (body['namespaces'] as string[]).filter((n) => !n.startsWith('i18n')) });
    };
    const { run } = await h.run(fault, 'language');
    const cases = run.cases.filter((c) => c.check === 'language');
    expect(cases.map((c) => c.status)).toEqual(Array(8).fill('inconclusive'));
    expect(cases[0]!.message).toMatch(/lists no translation namespace/);
  });
});

describe('one cause, one finding: a namespace the site does not serve', () => {
  /** The site without forms/v1: not in its descriptor, and no route of it answers. */
  const noForms: Fault = (req, next) => {
    const { route } = parse(req);
    if (route === '/forms/v1' || route.startsWith('/forms/v1/')) return wpError(404, 'rest_no_route');
    const res = next(req);
    if (req.method !== 'GET' || route !== '/' || res.status !== 200) return res;
    const body = json(res);
    const routes = Object.fromEntries(Object.entries(body['routes'] as Record<string, unknown>).filter(([k]) => !k.startsWith('/forms/v1')));
    return withJson(res, { ...body, namespaces: (body['namespaces'] as string[]).filter((n) => n !== 'forms/v1'), routes });
  };

  it('is one route_presence failure naming the namespace and its operations, and nothing else fails', async () => {
    const failed = await failedBy(h, noForms, 'forms/v1');
    expect(failed.map((c) => c.id)).toEqual(['route_presence:getFormsV1:namespace:forms/v1']);
    expect(failed[0]!.message).toMatch(/^forms\/v1 not served: 11 operations \(001 §4; 001 §4\.4\);.*GET \/forms\/v1 answered 404 rest_no_route/);
    const { run } = await h.run(noForms, 'forms/v1');
    const notRun = run.cases.filter((c) => c.status === 'skipped' && /not served by the site/.test(c.message ?? ''));
    expect(notRun.length).toBeGreaterThan(11);
  });

  it('passes on the mock for every namespace, batch/v1 too (a route of the root in WordPress, not among its namespaces)', async () => {
    const { run } = await h.run(undefined, 'route_presence');
    const namespaces = run.cases.filter((c) => c.variant?.startsWith('namespace:'));
    expect(namespaces.map((c) => c.variant)).toEqual(expect.arrayContaining(['namespace:forms/v1', 'namespace:batch/v1']));
    expect(namespaces.filter((c) => c.status !== 'passed')).toEqual([]);
  });
});
