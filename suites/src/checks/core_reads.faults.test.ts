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

  // A route matched case-sensitively, ?namespace= ignored, ?_pretty=1 ignored and JSON_UNESCAPED_SLASHES are proven in
  // wire.faults.test.ts (the rest_route_equivalence case form, namespace_index, pretty, wire_bytes).

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
