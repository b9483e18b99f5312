// views proven both ways: the unbroken mock renders the suite's running published event and leaves out its draft and
// its hidden one; a mock that files the draft as published (so the view lists it), or drops hide_from_listings on the
// way in (so the view lists the hidden event), fails that case only.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyText, failedBy, harnessForFile, parse, type Fault } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const ONLY = 'views';
const variants = async (fault: Fault): Promise<string[]> => (await failedBy(h, fault, ONLY)).map((c) => `${c.check}:${c.variant}`);

/** A legacy event create with its JSON body edited. */
const onLegacyCreate = (edit: (b: Record<string, unknown>) => Record<string, unknown>): Fault => (req, next) => {
  if (req.method !== 'POST' || parse(req).route !== '/cal/events/v1/events') return next(req);
  return next({ ...req, body: JSON.stringify(edit(JSON.parse(bodyText(req)) as Record<string, unknown>)) });
};

describe('views: the rendered calendar view', () => {
  it('passes on the mock: the running published event named, the draft and the hidden one left out', async () => {
    const { run } = await h.run(undefined, ONLY);
    expect(run.cases.filter((c) => c.check === 'views').map((c) => [c.variant, c.status, c.severity])).toEqual([
      ['render', 'passed', 'documented'],
      ['hide_from_listings', 'passed', 'documented'],
    ]);
  });

  it('views: a draft event shows in the rendered list', async () => {
    expect(await variants(onLegacyCreate((b) => (b['status'] === 'draft' ? { ...b, status: 'publish' } : b)))).toEqual(['views:render']);
  });

  it('views: an event created with hide_from_listings shows in the rendered list', async () => {
    expect(await variants(onLegacyCreate((b) => ({ ...b, hide_from_listings: false })))).toEqual(['views:hide_from_listings']);
  });
});

// The events' end is written as the site's wall-clock time: "two hours from now" in UTC was already over on a site
// at +9, and ended at that very second on the mock's Kyiv (+2), which failed the unbroken mock under load.
describe('views on a site east of UTC (Asia/Tokyo, +9)', () => {
  const fixtures = () => {
    const read = (name: string) => JSON.parse(readFileSync(new URL(`../../../fixtures/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
    const calendar = read('calendar') as { settings: { timezone: string } };
    calendar.settings.timezone = 'Asia/Tokyo';
    return { calendar, addons: read('addons'), users: read('users') } as unknown as NonNullable<Parameters<typeof createMock>[0]>['fixtures'];
  };
  const east = harnessForFile({ createMock: (o) => createMock({ ...o, fixtures: fixtures() }), listen });

  it('passes: the running published event named, the draft and the hidden one left out', async () => {
    const { run } = await east.run(undefined, ONLY);
    expect(run.cases.filter((c) => c.check === 'views').map((c) => [c.variant, c.status])).toEqual([
      ['render', 'passed'],
      ['hide_from_listings', 'passed'],
    ]);
  });
});
