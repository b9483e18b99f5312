// Reads whose answer WordPress's REST machinery fixes, whatever the plugin: each proven both ways with a fault one
// step off WordPress (a record of another type served through a route, ...). The unbroken mock passes each; the
// broken one fails exactly the check that judges it.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { failedBy, harnessForFile, parse, plain, withQuery, wpError, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

describe('reads WordPress answers the same way on every site', () => {
  it('unknown_id: a venue or organizer id read through /cal/v1/events/{id} is served as an event', async () => {
    // The controller looks the id up without comparing the post type (get_post() does): one type's record, another's route.
    const fault: Fault = (req, next) => {
      const m = req.method === 'GET' ? /^\/cal\/v1\/events\/(\d+)$/.exec(parse(req).route) : null;
      const res = next(req);
      if (!m || res.status !== 404) return res;
      for (const type of ['venues', 'organizers']) {
        const other = next({ ...req, url: req.url.replace(/\/cal\/v1\/events\//, `/cal/v1/${type}/`) });
        if (other.status === 200) return other;
      }
      return res;
    };
    const failed = await failedBy(h, fault, 'cal/v1,unknown_id');
    expect(failed.map((c) => c.id)).toEqual(['unknown_id:getCalV1EventsById:other-type']);
    expect(failed[0]!.message).toMatch(/of another type \((venue|organizer) \d+, which \/cal\/v1\/(venues|organizers) lists\).*got 200.*, served through the event route/);
  });

  it('rest_route_equivalence: a route matched case-sensitively (/CAL/V1/EVENTS is no route)', async () => {
    const fault: Fault = (req, next) => (/[A-Z]/.test(parse(req).route) ? wpError(404, 'rest_no_route') : next(req));
    const failed = await failedBy(h, fault, 'cal/v1,rest_route_equivalence');
    expect(failed.map((c) => c.id)).toEqual([expect.stringMatching(/^rest_route_equivalence:getCalV1\w+:route-case$/)]);
    expect(failed[0]!.message).toMatch(/ignoring case.*status 404 instead of 200/);
  });

  it('rest_route_equivalence: a namespace index that ignores ?namespace=', async () => {
    // The index answers its own namespace whatever the query names: the route's match read before the query.
    const fault: Fault = (req, next) => (/^\/cal(\/events)?\/v1$/.test(parse(req).route) ? next(withQuery(req, (q) => q.delete('namespace'))) : next(req));
    const failed = await failedBy(h, fault, 'cal/v1,cal/events/v1,rest_route_equivalence');
    expect(failed.map((c) => c.id).sort()).toEqual(['rest_route_equivalence:getCalEventsV1:namespace-param', 'rest_route_equivalence:getCalEventsV1:namespace-unknown']);
  });

  it('rest_route_equivalence: ?_pretty=1 ignored (the same JSON on one line)', async () => {
    const fault: Fault = (req, next) => (parse(req).query.has('_pretty') ? next(withQuery(req, (q) => q.delete('_pretty'))) : next(req));
    const failed = await failedBy(h, fault, 'cal/v1,rest_route_equivalence');
    expect(failed.map((c) => c.id)).toEqual([expect.stringMatching(/^rest_route_equivalence:getCalV1\w+:pretty$/)]);
    expect(failed[0]!.message).toMatch(/hold no line break/);
  });

  it('rest_route_equivalence: JSON written with JSON_UNESCAPED_SLASHES (a bare / in a list)', async () => {
    // One flag off WordPress's: the same value, its slashes unescaped (the characters beyond ASCII still escaped).
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || parse(req).route !== '/cal/v1/events' || parse(req).query.has('_pretty') || res.status !== 200) return res;
      return plain({ ...res, body: res.body.replace(/\\\//g, '/') });
    };
    const failed = await failedBy(h, fault, '/cal/v1/events,rest_route_equivalence');
    expect(failed.map((c) => c.id)).toEqual(['rest_route_equivalence:getCalV1Events:json-escapes']);
    expect(failed[0]!.message).toMatch(/escapes \/ and every character beyond ASCII/);
  });

  it('filter_search: search=<b>word</b> read as sent (the tags not stripped), so it finds nothing', async () => {
    // What LIKE '%<b>word</b>%' finds: no record holds the tags in its text.
    const fault: Fault = (req, next) =>
      req.method === 'GET' && parse(req).route === '/cal/v1/venues' && (parse(req).query.get('search') ?? '').includes('<') ? next(withQuery(req, (q) => q.set('search', 'site-contracts-nothing-has-this'))) : next(req);
    const failed = await failedBy(h, fault, '/cal/v1/venues,filter_search');
    expect(failed.map((c) => c.id)).toEqual(['filter_search:getCalV1Venues:tags']);
    expect(failed[0]!.message).toMatch(/sanitize_text_field\(\).*only search=\S+ finds/);
  });

  it("filter_event_links: featured=TRUE read as false (compared with 'true' case-sensitively)", async () => {
    const fault: Fault = (req, next) =>
      req.method === 'GET' && parse(req).route === '/cal/v1/events' && parse(req).query.get('featured') === 'TRUE' ? next(withQuery(req, (q) => q.set('featured', 'false'))) : next(req);
    const failed = await failedBy(h, fault, 'cal/v1,cal/events/v1,filter_event_links');
    expect(failed.map((c) => c.id)).toEqual(['filter_event_links:getCalV1Events:featured=TRUE']);
    expect([failed[0]!.severity, failed[0]!.message]).toEqual(['convention', expect.stringMatching(/rest_sanitize_boolean\(\)/)]);
  });

  it('filter_parent: parent=0 read as no parent filter (a falsy 0), so the children are listed too', async () => {
    const fault: Fault = (req, next) =>
      req.method === 'GET' && parse(req).route === '/cal/events/v1/categories' && parse(req).query.get('parent') === '0' ? next(withQuery(req, (q) => q.delete('parent'))) : next(req);
    const failed = await failedBy(h, fault, 'cal/events/v1,filter_parent');
    expect(failed.map((c) => c.id)).toEqual(['filter_parent:getCalEventsV1Categories:parent=0']);
    expect(failed[0]!.message).toMatch(/none of the children/);
  });

  it('filter_event_links: ticketed=true ignored on the legacy event list (events without tickets listed)', async () => {
    const fault: Fault = (req, next) =>
      req.method === 'GET' && parse(req).route === '/cal/events/v1/events' && parse(req).query.get('ticketed') === 'true' ? next(withQuery(req, (q) => q.delete('ticketed'))) : next(req);
    const failed = await failedBy(h, fault, 'cal/v1,cal/events/v1,filter_event_links');
    expect(failed.map((c) => c.id)).toEqual(['filter_event_links:getCalEventsV1Events:ticketed=true']);
    expect([failed[0]!.severity, failed[0]!.message]).toEqual(['documented', expect.stringMatching(/000 §4\.1\.1: ticketed.*kept what it should have left out/)]);
  });
});
