// post_flags and post_terms proven both ways: each passes on the unbroken mock (every case judged, none vacuous),
// and fails on the mock with one fault in front of it, at the edge of what it checks: an unstick that is ignored, a
// format read back standard to anonymous readers only, a featured_media that names no attachment refused, the
// featured image kept after featured_media=0, an id that names no term kept in the tags, a PATCH without tags that
// empties them, a count one too high once the event is in the trash, a category allowed to be its own parent, and a
// deleted category's child moved to the top instead of to its grandparent. Only the check under test is selected,
// and every case that fails must be one the fault explains.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { anonymous, bodyText, failedBy, harnessForFile, json, parse, withJson, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const ids = (cases: { id: string }[]): string[] => cases.map((c) => c.id).sort();

/** The JSON body of a write to a route matching `route`, rewritten by `edit` before the mock sees it. */
const onWrite = (method: string, route: RegExp, edit: (b: Record<string, unknown>) => void): Fault => (req, next) => {
  if (req.method !== method || !route.test(parse(req).route)) return next(req);
  const body = JSON.parse(bodyText(req) || '{}') as Record<string, unknown>;
  edit(body);
  return next({ ...req, body: JSON.stringify(body) } satisfies MockRequest);
};

describe('post_flags', () => {
  const ONLY = 'post_flags';

  it('passes on the unbroken mock, judging every case', async () => {
    const { run } = await h.run(undefined, ONLY);
    const cases = run.cases.filter((c) => c.check === ONLY);
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status}: ${c.message}`)).toEqual([]);
    // sticky and format on the venue and the organizer; featured_media (no attachment, an image) on the venue.
    expect(ids(cases)).toEqual([
      'post_flags:patchCalV1OrganizersById:format', 'post_flags:patchCalV1OrganizersById:sticky',
      'post_flags:patchCalV1VenuesById:featured_media:image', 'post_flags:patchCalV1VenuesById:format', 'post_flags:patchCalV1VenuesById:sticky',
      'post_flags:postCalV1Venues:featured_media:unknown',
    ]);
  });

  it('post_flags: sticky=false ignored on update (the organizer stays sticky)', async () => {
    const failed = await failedBy(h, onWrite('PATCH', /^\/cal\/v1\/organizers\/\d+$/, (b) => void delete b['sticky']), ONLY);
    expect(ids(failed)).toEqual(['post_flags:patchCalV1OrganizersById:sticky']);
    expect(failed[0]!.message).toMatch(/PATCH sticky=false answers true and reads back true/);
  });

  it('post_flags: format aside shown to the administrator but standard to an anonymous reader', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || !anonymous(req) || !/^\/cal\/v1\/venues\/\d+$/.test(parse(req).route) || res.status !== 200) return res;
      const b = json(res);
      return b['format'] === 'aside' ? withJson(res, { ...b, format: 'standard' }) : res;
    };
    const failed = await failedBy(h, fault, ONLY);
    expect(ids(failed)).toEqual(['post_flags:patchCalV1VenuesById:format']);
    expect(failed[0]!.message).toMatch(/an anonymous read shows format "standard", not "aside"/);
  });

  it('post_flags: a featured_media one past the ids that exist refused with 400 instead of ignored', async () => {
    const fault: Fault = (req, next) => {
      if (req.method === 'POST' && parse(req).route === '/cal/v1/venues' && (JSON.parse(bodyText(req)) as Record<string, unknown>)['featured_media'] === 2000000001) {
        return { status: 400, headers: { 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ code: 'rest_invalid_featured_media', message: 'Invalid featured media ID.', data: { status: 400 } }) };
      }
      return next(req);
    };
    const failed = await failedBy(h, fault, ONLY);
    expect(ids(failed)).toEqual(['post_flags:postCalV1Venues:featured_media:unknown']);
  });

  it('post_flags: featured_media=0 ignored (the featured image kept)', async () => {
    const failed = await failedBy(h, onWrite('PATCH', /^\/cal\/v1\/venues\/\d+$/, (b) => void (b['featured_media'] === 0 && delete b['featured_media'])), ONLY);
    expect(ids(failed)).toEqual(['post_flags:patchCalV1VenuesById:featured_media:image']);
    expect(failed[0]!.message).toMatch(/PATCH featured_media=0 reads back \d+, not 0/);
  });
});

describe('post_terms', () => {
  const ONLY = 'post_terms';

  it('passes on the unbroken mock, judging every case', async () => {
    const { run } = await h.run(undefined, ONLY);
    // The category given by name is sent only on --disposable-target (the test below).
    const cases = run.cases.filter((c) => c.check === ONLY && c.variant !== 'names');
    expect(cases.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status}: ${c.message}`)).toEqual([]);
    expect(ids(cases)).toEqual(['post_terms:deleteCalEventsV1CategoriesById:delete', 'post_terms:getCalEventsV1TagsById:count', 'post_terms:patchCalEventsV1CategoriesById:parent_loop', 'post_terms:patchCalV1EventsById:set']);
  });

  it('post_terms: an id that names no term shown among the tags', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!/^\/cal\/v1\/events(\/\d+)?$/.test(parse(req).route) || res.status >= 300) return res;
      const b = json(res);
      return Array.isArray(b['tags']) && b['tags'].length === 2 ? withJson(res, { ...b, tags: [...(b['tags'] as number[]), 2000000001] }) : res;
    };
    const failed = await failedBy(h, fault, ONLY);
    expect(ids(failed)).toEqual(['post_terms:patchCalV1EventsById:set']);
    expect(failed[0]!.message).toMatch(/the last names no term\) answered \[\d+,\d+,2000000001\]/);
  });

  it('post_terms: a PATCH without tags that empties them', async () => {
    const failed = await failedBy(h, onWrite('PATCH', /^\/cal\/v1\/events\/\d+$/, (b) => void (b['tags'] === undefined && (b['tags'] = []))), ONLY);
    expect(ids(failed)).toContain('post_terms:patchCalV1EventsById:set');
    expect(failed.find((c) => c.variant === 'set')!.message).toMatch(/a PATCH without tags answered tags \[\]/);
  });

  it('post_terms: a tag still counted once the event that used it is in the trash', async () => {
    // The mock recounts on every change; the fault shows count 1 on a tag no published event uses any more, once a trash happened.
    let trashed = false;
    const fault: Fault = (req, next) => {
      if (req.method === 'DELETE' && /^\/cal\/v1\/events\/\d+$/.test(parse(req).route)) trashed = true;
      const res = next(req);
      if (!trashed || req.method !== 'GET' || !/^\/cal\/events\/v1\/tags\/\d+$/.test(parse(req).route) || res.status !== 200) return res;
      const b = json(res);
      return b['count'] === 0 ? withJson(res, { ...b, count: 1 }) : res;
    };
    const failed = await failedBy(h, fault, ONLY);
    expect(ids(failed)).toEqual(['post_terms:getCalEventsV1TagsById:count']);
    expect(failed[0]!.message).toMatch(/reads count 1 once the event that used it is in the trash, not 0/);
  });

  it('post_terms: a category allowed to be its own parent', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const m = /^\/cal\/events\/v1\/categories\/(\d+)$/.exec(parse(req).route);
      if (!m || req.method !== 'PATCH' || res.status !== 200) return res;
      const sent = JSON.parse(bodyText(req)) as Record<string, unknown>;
      return sent['parent'] === Number(m[1]) ? withJson(res, { ...json(res), parent: sent['parent'] }) : res;
    };
    const failed = await failedBy(h, fault, ONLY);
    expect(ids(failed)).toEqual(['post_terms:patchCalEventsV1CategoriesById:parent_loop']);
  });

  it('post_terms: a deleted category\'s child moved to the top, not to its grandparent', async () => {
    let deleted = false;
    const fault: Fault = (req, next) => {
      if (req.method === 'DELETE' && /^\/cal\/events\/v1\/categories\/\d+$/.test(parse(req).route)) deleted = true;
      const res = next(req);
      if (!deleted || req.method !== 'GET' || !/^\/cal\/events\/v1\/categories\/\d+$/.test(parse(req).route) || res.status !== 200) return res;
      return withJson(res, { ...json(res), parent: 0 });
    };
    const failed = await failedBy(h, fault, ONLY);
    expect(ids(failed)).toEqual(['post_terms:deleteCalEventsV1CategoriesById:delete']);
    expect(failed[0]!.message).toMatch(/reads parent 0, not \d+/);
  });

  /** A site that takes a category by name, as The Events Calendar does: the name becomes a category first; `link` false forgets to link it. */
  const byName = (link: boolean): Fault => (req, next) => {
    if (req.method !== 'POST' || parse(req).route !== '/cal/events/v1/events') return next(req);
    const body = JSON.parse(bodyText(req)) as Record<string, unknown>;
    const named = Array.isArray(body['categories']) ? body['categories'].filter((c): c is string => typeof c === 'string') : [];
    if (named.length === 0) return next(req);
    const made = named.map((name) => json(next({ ...req, url: req.url.replace('/cal/events/v1/events', '/cal/events/v1/categories'), body: JSON.stringify({ name }) }))['id'] as number);
    const { categories: _names, ...rest } = body;
    return next({ ...req, body: JSON.stringify(link ? { ...rest, categories: made } : rest) });
  };

  it('post_terms: a category given by name is judged only on --disposable-target, inconclusive where the site takes IDs only', async () => {
    const plain = (await h.run(undefined, ONLY)).run.cases.find((c) => c.variant === 'names');
    expect([plain?.status, plain?.message]).toEqual(['skipped', expect.stringMatching(/needs --disposable-target/)]);
    const mock = (await h.run(undefined, ONLY, ['--disposable-target'])).run.cases.find((c) => c.variant === 'names');
    expect([mock?.status, mock?.message]).toEqual(['inconclusive', expect.stringMatching(/was refused \("rest_invalid_param"\): the site takes category IDs only/)]);
    const takes = (await h.run(byName(true), ONLY, ['--disposable-target'])).run.cases.filter((c) => c.check === ONLY);
    expect(takes.filter((c) => c.status !== 'passed').map((c) => `${c.id} ${c.status}: ${c.message}`)).toEqual([]);
    expect(takes.find((c) => c.variant === 'names')?.message).toMatch(/a category given by name is linked; and exists in the categories/);
  });

  it('post_terms: a category given by name created but not linked to the event', async () => {
    // An assumed promise broken is a warning (the documents leave the reading open), not a failure.
    const bad = (c: { status: string }): boolean => c.status === 'failed' || c.status === 'errored' || c.status === 'warned';
    const failed = (await h.run(byName(false), ONLY, ['--disposable-target'])).run.cases.filter(bad);
    expect(ids(failed)).toEqual(['post_terms:postCalEventsV1Events:names']);
    expect(failed[0]!.status).toBe('warned');
    expect(failed[0]!.message).toMatch(/answers categories \[\]: none of that name/);
  });
});

