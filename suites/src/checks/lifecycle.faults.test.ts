// lifecycle's reads and deletes, each proven both ways against the mock with one fault at the edge: a record that
// reads by its id but not by its slug (000 §1: "addressable by numeric ID and, in the legacy namespace, also by
// slug"), and a delete that is acknowledged once but not done, so that the record still reads 200 afterwards (the
// legacy delete of each resource, and cal/v1's purge with force=true). The faulty delete is undone by the run's own
// cleanup: only the first DELETE of a record is faked, the cleanup's next one reaches the mock, and the file's later
// runs meet the mock as it was.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { CaseResult } from '../report/model.ts';
import { failedBy, harnessForFile, json, parse, withJson, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

/** The legacy `by-slug/{slug}` read of `resource` answers as for a slug nobody has: the mock's own 404. */
const bySlugUnknown = (resource: string): Fault => (req, next) => {
  const m = new RegExp(`^/cal/events/v1/${resource}/by-slug/([^/]+)$`).exec(parse(req).route);
  if (req.method !== 'GET' || !m) return next(req);
  return next({ ...req, url: req.url.replace(`/by-slug/${m[1]}`, `/by-slug/${m[1]}-nobody-has-it`) });
};

/**
 * The first DELETE of each record under `base` (with force=true when `forced`) answers 200 as if done, and is not:
 * the legacy routes answer the record (as The Events Calendar's delete does), cal/v1's purge WordPress's
 * `{deleted: true, previous}`. Every later DELETE reaches the mock, so the run's cleanup still removes the record.
 */
function deleteAcknowledgedNotDone(base: string, forced: boolean): Fault {
  const faked = new Set<string>();
  return (req, next) => {
    const { route, query } = parse(req);
    if (req.method !== 'DELETE' || !new RegExp(`^${base}/\\d+$`).test(route) || (query.get('force') === 'true') !== forced || faked.has(route)) return next(req);
    const { body: _body, ...rest } = req;
    const read = next({ ...rest, method: 'GET', url: `${req.url.split('?')[0]!}?context=edit` });
    if (read.status !== 200) return next(req);
    faked.add(route);
    return forced ? withJson(read, { deleted: true, previous: json(read) }) : read;
  };
}

const ids = (cases: readonly CaseResult[]): string[] => cases.map((c) => c.id);

describe('lifecycle: a record reads by its slug in the legacy namespace, not only by its id', () => {
  const slugFails = async (resource: string, op: string, variant: string): Promise<void> => {
    const failed = await failedBy(h, bySlugUnknown(`${resource}s`), `/cal/events/v1/${resource}s,lifecycle`);
    expect(ids(failed)).toEqual([`lifecycle:${op}:cal/events/v1/${variant}/read_by_slug`]);
    expect(failed[0]!.message).toMatch(/^expected the new record to read back by its slug \(000 §4\.1.*\); got: by-slug read of ".+" answered 404 .*, not record \d+$/);
  };

  it("an event's by-slug read answers 404 while its read by id works", async () => {
    await slugFails('event', 'getCalEventsV1EventsBySlugBySlug', 'event');
  });

  it("a venue's by-slug read answers 404 while its read by id works", async () => {
    await slugFails('venue', 'getCalEventsV1VenuesBySlugBySlug', 'venue');
  });

  it("an organizer's by-slug read answers 404 while its read by id works", async () => {
    await slugFails('organizer', 'getCalEventsV1OrganizersBySlugBySlug', 'organizer');
  });
});

describe('lifecycle: a deleted record is gone, not still readable', () => {
  const keptFails = async (resource: string, op: string): Promise<CaseResult> => {
    const plural = resource === 'category' ? 'categories' : `${resource}s`;
    const failed = await failedBy(h, deleteAcknowledgedNotDone(`/cal/events/v1/${plural}`, false), `/cal/events/v1/${plural},lifecycle`);
    expect(ids(failed)).toEqual([`lifecycle:${op}:cal/events/v1/${resource}/gone`]);
    expect(failed[0]!.message).toMatch(/^expected the record gone \(404\/410, or 401\/403 for a record the user may no longer read\)( or in the trash)? after the delete; got 200 .*: it is still there$/);
    return failed[0]!;
  };

  it("a legacy event's DELETE answers 200 and the event still reads 200, published", async () => {
    expect((await keptFails('event', 'getCalEventsV1EventsById')).message).toMatch(/with status "publish": it is still there$/);
  });

  it("a legacy venue's DELETE by id answers 200 and the venue still reads 200", async () => {
    await keptFails('venue', 'getCalEventsV1VenuesById');
  });

  it("a legacy category's DELETE by term id answers 200 and the category still reads 200", async () => {
    await keptFails('category', 'getCalEventsV1CategoriesById');
  });

  it("a legacy tag's DELETE by term id answers 200 and the tag still reads 200", async () => {
    await keptFails('tag', 'getCalEventsV1TagsById');
  });

  // Before the purge, trash's steps take the record out of the trash again (untrash), so it reads back published.
  it('a cal/v1 purge (force=true) answers {deleted: true} and the record still reads 200', async () => {
    const failed = await failedBy(h, deleteAcknowledgedNotDone('/cal/v1/venues', true), '/cal/v1/venues,lifecycle');
    expect(ids(failed)).toEqual(['lifecycle:getCalV1VenuesById:cal/v1/venue/purged']);
    expect(failed[0]!.message).toMatch(/^expected the record gone \(404\/410, or 401\/403 for a record the user may no longer read\) after the delete; got 200 .* with status "publish": it is still there$/);
  });

  it('passes on the unbroken mock: every legacy record reads by id and slug and is gone after its delete, and a cal/v1 purge leaves nothing', async () => {
    const { run } = await h.run(undefined, '/cal/events/v1/venues,/cal/v1/venues,lifecycle');
    const steps = run.cases.filter((c) => c.check === 'lifecycle' && /\/(read_by_slug|gone|purged)$/.test(c.variant ?? ''));
    expect(steps.map((c) => `${c.variant} ${c.status}`).sort()).toEqual(['cal/events/v1/venue/gone passed', 'cal/events/v1/venue/read_by_slug passed', 'cal/v1/venue/purged passed']);
  });
});
