// The last gaps of the catalogue closed, each proven both ways: the check passes on the mock (which does what The
// Events Calendar and WordPress do) and notices a mock broken in exactly the way it looks for, at the edge.
// - filter_event_links, categories=<slug>: a legacy list that ignores a slug it cannot read as an id, and one that
//   refuses it (both assumed: 000 §4.1.1 says "slugs or IDs" and types the list as integers);
// - filter_event_links, post_parent: the mock's series (fixtures: occurrences with a post_parent) shown in the legacy
//   list's answers, as a site whose events show their parent does; then a post_parent that is ignored (the parent
//   itself listed beside its child). Without a shown parent the case stays inconclusive, never passed;
// - core_list_params, legacy term pages: a tag list whose page=2 answers page 1; and offset, judged only where the
//   site's descriptor declares it: a site declaring it and taking it passes, one declaring it and ignoring it fails.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { RunResult } from '../report/model.ts';
import { harnessForFile, json, parse, withJson, withQuery, wpError, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const flagged = (r: RunResult): RunResult['cases'] => r.cases.filter((c) => c.status === 'failed' || c.status === 'errored' || c.status === 'warned');

/** The cases the fault made fail or warn; the unbroken run of the selection flags none and passes `passes`. */
async function flaggedBy(fault: Fault, only: string, passes: readonly string[]): Promise<RunResult['cases']> {
  const clean = (await h.run(undefined, only)).run;
  expect(flagged(clean).map((c) => c.id), 'the unbroken mock flags these').toEqual([]);
  for (const id of passes) expect(clean.cases.find((c) => c.id === id)?.status, id).toBe('passed');
  return flagged((await h.run(fault, only)).run);
}

/** A legacy event list whose `param` holds an item that is not a number. */
function onSlug(param: string, fault: Fault): Fault {
  return (req, next) => {
    const { route, query } = parse(req);
    const items = [...query.getAll(param), ...query.getAll(`${param}[]`)].flatMap((v) => v.split(','));
    return req.method === 'GET' && route === '/cal/events/v1/events' && items.some((v) => !/^\d+$/.test(v)) ? fault(req, next) : next(req);
  };
}

describe('the gaps of the catalogue, closed', () => {
  it('filter_event_links: a legacy category slug ignored, and a tag slug refused', async () => {
    const only = 'cal/events/v1,filter_event_links';
    const passes = ['filter_event_links:getCalEventsV1Events:categories=slug', 'filter_event_links:getCalEventsV1Events:tags=slug'];
    const ignored: Fault = (req, next) => next(withQuery(req, (q) => (q.delete('categories'), q.delete('categories[]'))));
    const a = await flaggedBy(onSlug('categories', ignored), only, passes);
    expect(a.map((c) => [c.id, c.status, c.severity])).toEqual([['filter_event_links:getCalEventsV1Events:categories=slug', 'warned', 'assumed']]);
    expect(a[0]!.message).toMatch(/kept what it should have left out: #\d+ "site-contracts .* plain/);
    const refused: Fault = () => wpError(400, 'rest_invalid_param', { params: { tags: 'Invalid parameter.' } });
    const b = await flaggedBy(onSlug('tags', refused), only, passes);
    expect(b.map((c) => [c.id, c.status])).toEqual([['filter_event_links:getCalEventsV1Events:tags=slug', 'warned']]);
    expect(b[0]!.message).toMatch(/answered 400 .*the site takes ids only; 000 §4\.1\.1 describes tags as "slugs or IDs"/);
  });

  it('core_list_params: a legacy tag list whose page 2 is page 1; offset declared and taken, declared and ignored', async () => {
    const only = 'cal/events/v1,core_list_params';
    const page = 'core_list_params:getCalEventsV1Tags:page';
    const onTags = (req: MockRequest): URLSearchParams | undefined => {
      const { route, query } = parse(req);
      return req.method === 'GET' && route === '/cal/events/v1/tags' && query.get('per_page') === '1' ? query : undefined;
    };
    const pageOne: Fault = (req, next) => (onTags(req)?.get('page') === '2' ? next(withQuery(req, (q) => q.set('page', '1'))) : next(req));
    const a = await flaggedBy(pageOne, only, [page, 'core_list_params:getCalEventsV1Categories:page']);
    expect(a.map((c) => c.id)).toEqual([page]);
    expect(a[0]!.message).toMatch(/page=2 to list #\d+ alone, record 2 of per_page=2's/);
    // The root descriptor declaring offset on the tag list (the mock's does not: the documents do not list it).
    const declares: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || parse(req).route !== '/') return res;
      const body = json(res) as { routes: Record<string, { endpoints: { methods: string[]; args: Record<string, unknown> }[] }> };
      for (const ep of body.routes['/cal/events/v1/tags']!.endpoints) if (ep.methods.includes('GET')) ep.args['offset'] = { type: 'integer', required: false };
      return withJson(res, body);
    };
    // A site that takes offset as core's terms controller does (offset=1 of per_page=1 is page 2), and one that ignores it.
    const takes: Fault = (req, next) => declares(req, (r) => (onTags(r)?.get('offset') === '1' ? next(withQuery(r, (q) => (q.delete('offset'), q.set('page', '2')))) : next(r)));
    const takenRun = (await h.run(takes, only)).run;
    expect(takenRun.cases.find((c) => c.id === 'core_list_params:getCalEventsV1Tags:offset')?.status).toBe('passed');
    expect(flagged(takenRun)).toEqual([]);
    const ignored = (await h.run(declares, only)).run;
    expect(flagged(ignored).map((c) => c.id)).toEqual(['core_list_params:getCalEventsV1Tags:offset']);
    expect(flagged(ignored)[0]!.message).toMatch(/offset=1 to list #\d+ alone, record 2 of per_page=2's/);
    // Where the descriptor does not declare it, offset is not judged.
    expect((await h.run(undefined, only)).run.cases.find((c) => c.id === 'core_list_params:getCalEventsV1Tags:offset')?.status).toBe('skipped');
  });

  it('filter_event_links: post_parent judged where events show their parent; a post_parent ignored keeps the parent', async () => {
    const only = 'cal/events/v1,filter_event_links';
    const id = 'filter_event_links:getCalEventsV1Events:post_parent';
    const clean = (await h.run(undefined, only)).run;
    expect(clean.cases.find((c) => c.id === id)?.status, 'the mock shows no parent: nothing to compare').toBe('inconclusive');
    // The fixtures' series: each occurrence's parent, which the mock stores and filters by but does not show.
    const fixtures = JSON.parse(readFileSync(new URL('../../../fixtures/calendar.json', import.meta.url), 'utf8')) as { events: { id: number; post_parent?: number }[] };
    const parents = new Map(fixtures.events.filter((e) => e.post_parent).map((e) => [e.id, e.post_parent!]));
    expect(parents.size).toBeGreaterThan(0);
    const shows: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || parse(req).route !== '/cal/events/v1/events' || res.status !== 200) return res;
      const body = JSON.parse(res.body) as unknown;
      const withParent = (e: { id: number }) => ({ ...e, post_parent: parents.get(e.id) ?? 0 });
      return withJson(res, Array.isArray(body) ? body.map(withParent) : body);
    };
    const shown = (await h.run(shows, only)).run;
    expect(shown.cases.find((c) => c.id === id)?.status).toBe('passed');
    expect(flagged(shown)).toEqual([]);
    const ignored: Fault = (req, next) => shows(req, (r) => next(withQuery(r, (q) => q.delete('post_parent'))));
    const broken = flagged((await h.run(ignored, only)).run);
    expect(broken.map((c) => c.id)).toEqual([id]);
    expect(broken[0]!.message).toMatch(/expected #\d+ and not #\d+ .*kept #\d+, the parent itself/);
  });
});
