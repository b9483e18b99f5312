// The semantic oracles proven both ways: each passes on the mock, and fails on the mock with one fault in front of
// it (an in-process server on 127.0.0.1 that rewrites one request or one answer), at the edge of what it checks: a
// filter that keeps one record too many or drops one, a bound off by four hours, an order off by one pair, an
// update that loses one field. The same selection runs on the unbroken mock first, so only what the fault changed
// counts, and only the oracle aimed at is expected to notice.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { RunResult } from '../report/model.ts';
import { bodyText, harnessForFile, parse, plain, withQuery, type Fault, type MockResponse } from '../testing/faulty-mock.ts';
import { dateOrder, judgeOrder, textOrder } from './list_order.ts';
import { lostFields, namedKeys } from './update_keeps.ts';

const h = harnessForFile({ createMock, listen });

/** The answer with its JSON list rewritten; the cached bytes dropped so the adapter sends the new body. */
function withList(res: MockResponse, edit: (list: unknown[]) => unknown[]): MockResponse {
  const rest = plain(res);
  const body = JSON.parse(res.body) as unknown;
  return Array.isArray(body) ? { ...rest, body: JSON.stringify(edit(body)) } : rest;
}

/** A GET of `route` with `param` in its query: handled by `fault`; anything else goes to the mock as it is. */
function onList(route: string, param: string, fault: Fault): Fault {
  return (req, next) => {
    const { route: r, query } = parse(req);
    const has = query.has(param) || query.has(`${param}[]`);
    return req.method === 'GET' && r === route && has ? fault(req, next) : next(req);
  };
}

const dropLast: Fault = (req, next) => withList(next(req), (l) => l.slice(0, -1));

const runSuite = async (fault: Fault | undefined, only: string): Promise<RunResult> => (await h.run(fault, only)).run;

const bad = (r: RunResult): Set<string> => new Set(r.cases.filter((c) => c.status === 'failed' || c.status === 'errored' || c.status === 'warned').map((c) => c.id));

/** The cases the fault made fail; the clean run must pass every case of the selection and judge at least one. */
async function failedBy(fault: Fault, only: string): Promise<RunResult['cases']> {
  const clean = await runSuite(undefined, only);
  expect([...bad(clean)], 'the unbroken mock fails these').toEqual([]);
  expect(clean.cases.filter((c) => c.status === 'passed').length).toBeGreaterThan(0);
  const broken = await runSuite(fault, only);
  return broken.cases.filter((c) => bad(broken).has(c.id));
}


describe('each oracle catches a fault at the edge of what it checks, and only it', () => {
  it('filter_search: a search that drops the last record it found', async () => {
    const failed = await failedBy(onList('/cal/v1/venues', 'search', dropLast), 'cal/v1,filter_search');
    expect(failed.map((c) => c.id)).toContain('filter_search:getCalV1Venues:matches');
    expect(failed.find((c) => c.variant === 'matches')?.message).toMatch(/left out what it should have kept: #\d+ "site-contracts .* search/);
  });

  it('filter_search: a search that matches case-sensitively', async () => {
    const caseSensitive: Fault = (req, next) => {
      const term = parse(req).query.get('search') ?? '';
      return withList(next(req), (l) => l.filter((r) => JSON.stringify(r).includes(term)));
    };
    const failed = await failedBy(onList('/cal/events/v1/events', 'search', caseSensitive), 'cal/events/v1,filter_search');
    expect(failed.map((c) => c.id)).toEqual(['filter_search:getCalEventsV1Events:case']);
    expect(failed[0]!.message).toMatch(/only the stored case finds #\d+/);
  });

  it('filter_include: an include that drops one of the named records', async () => {
    const failed = await failedBy(onList('/cal/events/v1/tags', 'include', dropLast), 'cal/events/v1,filter_include');
    // orderby_include is then left with one record: no order to judge (inconclusive, not failed).
    expect(failed.map((c) => c.id)).toEqual(['filter_include:getCalEventsV1Tags:only']);
  });

  it('filter_include: the legacy event list applying date filters beside include', async () => {
    const datesWin: Fault = (req, next) => (parse(req).query.has('starts_after') ? withList(next(req), () => []) : next(req));
    const failed = await failedBy(onList('/cal/events/v1/events', 'include', datesWin), 'cal/events/v1,filter_include');
    expect(failed.map((c) => c.id)).toEqual(['filter_include:getCalEventsV1Events:ignores_dates']);
  });

  it('filter_exclude: an exclude that is ignored keeps the one record it should leave out', async () => {
    const ignore: Fault = (req, next) => next(withQuery(req, (q) => (q.delete('exclude[]'), q.delete('exclude'))));
    const failed = await failedBy(onList('/cal/events/v1/categories', 'exclude', ignore), 'cal/events/v1,filter_exclude');
    expect(failed.map((c) => c.id)).toEqual(['filter_exclude:getCalEventsV1Categories:exclude']);
    expect(failed[0]!.message).toMatch(/kept what it should have left out: #\d+ "site-contracts .* exclude b/);
  });

  it('filter_slug: a slug filter that also answers the term with the neighbouring slug', async () => {
    const neighbour: Fault = (req, next) => {
      const slug = parse(req).query.get('slug') ?? '';
      const other = next(withQuery(req, (q) => q.set('slug', slug.replace('-slug-a-', '-slug-b-'))));
      const extra = JSON.parse(other.body) as unknown[];
      return withList(next(req), (l) => [...l, ...extra]);
    };
    const failed = await failedBy(onList('/cal/events/v1/tags', 'slug', neighbour), 'cal/events/v1,filter_slug');
    expect(failed.map((c) => c.id)).toEqual(['filter_slug:getCalEventsV1Tags:slug']);
  });

  it('filter_parent: a parent filter that drops one child', async () => {
    const failed = await failedBy(onList('/cal/events/v1/categories', 'parent', dropLast), 'cal/events/v1,filter_parent');
    // The fault drops a child from every parent= list, so the parent=0 case (top-level categories only) sees it too.
    expect(failed.map((c) => c.id).sort()).toEqual(['filter_parent:getCalEventsV1Categories:parent', 'filter_parent:getCalEventsV1Categories:parent=0']);
  });

  it('filter_post: event= on venues answering nothing', async () => {
    const failed = await failedBy(onList('/cal/v1/venues', 'event', dropLast), 'cal/v1,filter_post');
    expect(failed.map((c) => c.id)).toEqual(['filter_post:getCalV1Venues:event']);
  });

  it('filter_has_events: only_with_upcoming read as has_events keeps the venue of a past event', async () => {
    const asHasEvents: Fault = (req, next) => next(withQuery(req, (q) => (q.delete('only_with_upcoming'), q.set('has_events', 'true'))));
    const failed = await failedBy(onList('/cal/events/v1/venues', 'only_with_upcoming', asHasEvents), 'filter_has_events');
    expect(failed.map((c) => c.id)).toEqual(['filter_has_events:getCalEventsV1Venues:only_with_upcoming']);
    expect(failed[0]!.message).toMatch(/kept what it should have left out: #\d+ "site-contracts .* past/);
  });

  it('filter_hide_empty: a default of false where the documents say true', async () => {
    const defaultFalse: Fault = (req, next) => {
      const { route, query } = parse(req);
      return req.method === 'GET' && route === '/cal/events/v1/tags' && !query.has('hide_empty') ? next(withQuery(req, (q) => q.set('hide_empty', 'false'))) : next(req);
    };
    const failed = await failedBy(defaultFalse, 'cal/events/v1,filter_hide_empty');
    expect(failed.map((c) => c.id)).toEqual(['filter_hide_empty:getCalEventsV1Tags:default']);
  });

  it('filter_dates: starts_after read four hours early', async () => {
    const early: Fault = (req, next) =>
      next(withQuery(req, (q) => q.set('starts_after', (q.get('starts_after') ?? '').replace('T12:00:00', 'T08:00:00'))));
    const failed = await failedBy(onList('/cal/v1/events', 'starts_after', early), 'cal/v1,filter_dates');
    expect(failed.map((c) => c.id)).toEqual(['filter_dates:getCalV1Events:starts_after']);
    expect(failed[0]!.message).toMatch(/kept what it should have left out: #\d+ "site-contracts .* morning/);
  });

  it('filter_dates: the legacy start_date ignored (the list starts today)', async () => {
    const ignore: Fault = (req, next) => next(withQuery(req, (q) => q.delete('start_date')));
    const failed = await failedBy(onList('/cal/events/v1/events', 'start_date', ignore), 'cal/events/v1,filter_dates');
    expect(failed.map((c) => c.id)).toEqual(['filter_dates:getCalEventsV1Events:start_date']);
    expect(failed[0]!.message).toMatch(/kept what it should have left out: #\d+ "site-contracts .* day before/);
  });

  it('filter_event_links: venue= that keeps the event at no venue, and featured= ignored', async () => {
    const venueLeaks: Fault = (req, next) => next(withQuery(req, (q) => (q.delete('venue[]'), q.delete('venue'))));
    const failed = await failedBy(onList('/cal/events/v1/events', 'venue', venueLeaks), 'filter_event_links');
    expect(failed.map((c) => c.id)).toEqual(['filter_event_links:getCalEventsV1Events:venue']);
    expect(failed[0]!.message).toMatch(/kept what it should have left out: #\d+ "site-contracts .* plain/);
    const featuredIgnored: Fault = (req, next) => next(withQuery(req, (q) => q.delete('featured')));
    // featured ignored in every spelling: the TRUE and 1 spellings (rest_sanitize_boolean()) fail with it.
    expect((await failedBy(onList('/cal/v1/events', 'featured', featuredIgnored), 'filter_event_links')).map((c) => c.id).sort()).toEqual(['filter_event_links:getCalV1Events:featured', 'filter_event_links:getCalV1Events:featured=1', 'filter_event_links:getCalV1Events:featured=TRUE']);
  });

  it('filter_strict_dates: a list that always uses the times as given', async () => {
    const alwaysStrict: Fault = (req, next) => next(withQuery(req, (q) => q.set('strict_dates', 'true')));
    const failed = await failedBy(onList('/cal/events/v1/events', 'starts_after', alwaysStrict), 'cal/events/v1,filter_strict_dates');
    expect(failed.map((c) => c.id).sort()).toEqual(['filter_strict_dates:getCalEventsV1Events:default', 'filter_strict_dates:getCalEventsV1Events:false']);
  });

  it('filter_limit and filter_offset: one record too many, and an offset off by one', async () => {
    const limit: Fault = (req, next) => next(withQuery(req, (q) => (q.get('limit') === '2' && q.get('offset') === '0' ? q.set('limit', '3') : undefined)));
    expect((await failedBy(onList('/i18n/st/v1/strings', 'limit', limit), 'i18n/st/v1,filter_limit,filter_offset')).map((c) => c.id)).toEqual(['filter_limit:getI18nStV1Strings:limit']);
    const offset: Fault = (req, next) => next(withQuery(req, (q) => (q.get('offset') === '1' ? q.set('offset', '2') : undefined)));
    expect((await failedBy(onList('/i18n/st/v1/string-packages', 'offset', offset), 'i18n/st/v1,filter_limit,filter_offset')).map((c) => c.id)).toEqual(['filter_offset:getI18nStV1StringPackages:offset']);
  });

  it('list_order: title DESC with its first two records swapped', async () => {
    const swap: Fault = (req, next) => {
      const q = parse(req).query;
      if (q.get('orderby') !== 'title' || q.get('order') !== 'DESC') return next(req);
      return withList(next(req), (l) => (l.length >= 2 ? [l[1], l[0], ...l.slice(2)] : l));
    };
    const failed = await failedBy(onList('/cal/v1/events', 'orderby', swap), 'cal/v1,list_order');
    expect(failed.map((c) => c.id)).toEqual(['list_order:getCalV1Events:title_DESC']);
    expect(failed[0]!.message).toMatch(/record 1 #\d+ "site-contracts .* bravo" \(title .*\) comes before record 2/);
  });

  it('update_keeps_fields: a PATCH that empties content when it does not name it', async () => {
    const losesContent: Fault = (req, next) => {
      const { route } = parse(req);
      if (req.method !== 'PATCH' || !/^\/cal\/v1\/events\/\d+$/.test(route)) return next(req);
      const body = JSON.parse(bodyText(req)) as Record<string, unknown>;
      return 'content' in body ? next(req) : next({ ...req, body: JSON.stringify({ ...body, content: '' }) });
    };
    const failed = await failedBy(losesContent, 'update_keeps_fields');
    expect(failed.map((c) => c.id)).toEqual(['update_keeps_fields:patchCalV1EventsById:PATCH']);
    expect(failed[0]!.message).toMatch(/through cal\/v1, fields it did not name changed: content.*Kept text/);
  });
});

describe('filter_event_links: the legacy venue and organizer lists by status (000 §4.1.2)', () => {
  it('passes on the mock: status=draft lists the draft venue and organizer of its own, not their published twins', async () => {
    const run = await runSuite(undefined, 'cal/events/v1,filter_event_links');
    expect(run.cases.filter((c) => /Venues|Organizers/.test(c.id)).map((c) => [c.id, c.status])).toEqual([
      ['filter_event_links:getCalEventsV1Venues:status', 'passed'],
      ['filter_event_links:getCalEventsV1Organizers:status', 'passed'],
    ]);
  });

  it('filter_event_links: the legacy venue list ignores status=draft', async () => {
    const ignores: Fault = (req, next) => (req.method === 'GET' && parse(req).route === '/cal/events/v1/venues' && parse(req).query.get('status') === 'draft' ? next(withQuery(req, (q) => q.delete('status'))) : next(req));
    const failed = await failedBy(ignores, 'cal/events/v1,filter_event_links');
    expect(failed.map((c) => c.id)).toEqual(['filter_event_links:getCalEventsV1Venues:status']);
  });
});

describe('update_keeps_fields by slug (000 §4.1)', () => {
  const bySlug = (resource: string, edit: (body: Record<string, unknown>) => Record<string, unknown>): Fault => (req, next) => {
    const { route } = parse(req);
    if (req.method !== 'PATCH' || !new RegExp(`^/cal/events/v1/${resource}/by-slug/[^/]+$`).test(route)) return next(req);
    return next({ ...req, body: JSON.stringify(edit(JSON.parse(bodyText(req)) as Record<string, unknown>)) });
  };

  it('passes on the mock: each legacy record renamed by PATCH .../by-slug/{its slug}, every other field kept', async () => {
    const run = await runSuite(undefined, 'update_keeps_fields');
    expect(run.cases.filter((c) => c.variant === 'by-slug:PATCH').map((c) => [c.id, c.status, c.severity])).toEqual([
      ['update_keeps_fields:patchCalEventsV1EventsBySlugBySlug:by-slug:PATCH', 'passed', 'documented'],
      ['update_keeps_fields:patchCalEventsV1VenuesBySlugBySlug:by-slug:PATCH', 'passed', 'documented'],
      ['update_keeps_fields:patchCalEventsV1OrganizersBySlugBySlug:by-slug:PATCH', 'passed', 'documented'],
    ]);
  });

  it("update_keeps_fields: a venue's update by slug that also empties its city", async () => {
    const failed = await failedBy(bySlug('venues', (b) => ({ ...b, city: '' })), 'update_keeps_fields');
    expect(failed.map((c) => c.id)).toEqual(['update_keeps_fields:patchCalEventsV1VenuesBySlugBySlug:by-slug:PATCH']);
    expect(failed[0]!.message).toMatch(/fields it did not name changed: city "Newtown [^"]*" → ""/);
  });

  it("update_keeps_fields: an event's update by slug acknowledged but its title not kept", async () => {
    const failed = await failedBy(bySlug('events', (b) => ({ ...b, title: undefined })), 'update_keeps_fields');
    expect(failed.map((c) => c.id)).toEqual(['update_keeps_fields:patchCalEventsV1EventsBySlugBySlug:by-slug:PATCH']);
    expect(failed[0]!.message).toMatch(/does not show the new value/);
  });
});

describe('the judges the oracles share', () => {
  it('orders text only where two collations agree, dates by their digits', () => {
    expect(textOrder('Site alpha', 'site bravo')).toBe(-1);
    expect(textOrder('Event 10', 'Event 9')).toBeUndefined();
    expect(textOrder('Caf\u00e9 b', 'Cafe a')).toBeUndefined();
    expect(textOrder('abc', 'abcd')).toBe(-1);
    expect(dateOrder('2026-01-02T10:00:00', '2026-01-02 09:00:00')).toBe(1);
    const key = { field: 'title', read: (r: unknown) => (r as { t: string }).t, cmp: (a: unknown, b: unknown) => textOrder(a as string, b as string) };
    expect(judgeOrder([{ t: 'Event 9' }, { t: 'Event 10' }, { t: 'f' }], key, 1)).toEqual({ pairs: 2 });
    expect(judgeOrder([{ t: 'b' }, { t: 'a' }], key, 1)).toEqual({ pairs: 1, wrong: [0, 1] });
    expect(judgeOrder([{ t: 'Event 9' }, { t: 'Event 10' }], key, 1)).toEqual({ pairs: 0 });
  });

  it('names the fields an update lost, clock and named fields aside', () => {
    const before = { title: 'a', content: 'kept', modified: '2026-01-01T10:00:00', cost: '1' };
    expect(lostFields(before, { ...before, title: 'b', modified: '2026-01-01T10:00:05' }, new Set(['title']))).toEqual([]);
    expect(lostFields(before, { ...before, title: 'b', content: '' }, new Set(['title']))).toEqual(['content "kept" → ""']);
    const { cost: _gone, ...without } = before;
    expect(lostFields(before, without, new Set(['title']))).toEqual(['cost "1" → (absent)']);
    // generated_slug is made from the title: it follows a renamed title, and nothing else may change it.
    const draft = { title: 'a', generated_slug: 'a', content: 'kept' };
    expect(lostFields(draft, { ...draft, title: 'b', generated_slug: 'b' }, namedKeys('title'))).toEqual([]);
    expect(lostFields(draft, { ...draft, content: 'new', generated_slug: 'b' }, namedKeys('content'))).toEqual(['generated_slug "a" → "b"']);
  });
});
