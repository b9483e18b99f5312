// slugs and duplicate_term proven both ways: each passes on the mock, and fails on the mock with one fault in front
// of it, at the edge of what it checks: a second same-slug venue that keeps "s" instead of "s-2", `embed` kept as it
// is, a second draft that keeps "d", two spaces of a given slug kept as two dashes, a draft given its title's slug, a
// trashed record that keeps its slug, a name's "ï" dropped from a tag's slug, a taken category slug made "-2" instead
// of "-<parent>", a duplicate tag name accepted (or only one differing in case), the additional_data left out, a taken
// slug accepted on update.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { RunResult } from '../report/model.ts';
import { bodyText, harnessForFile, json, parse, withJson, type Fault, type MockRequest, type MockResponse } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const bad = (r: RunResult): Set<string> => new Set(r.cases.filter((c) => c.status === 'failed' || c.status === 'errored' || c.status === 'warned').map((c) => c.id));

/** The cases the fault made fail; the clean run must pass every case of the selection and judge at least one. */
async function failedBy(fault: Fault, only: string): Promise<RunResult['cases']> {
  const clean = (await h.run(undefined, only)).run;
  expect([...bad(clean)], 'the unbroken mock fails these').toEqual([]);
  expect(clean.cases.filter((c) => c.status === 'passed').length).toBeGreaterThan(0);
  const broken = (await h.run(fault, only)).run;
  return broken.cases.filter((c) => bad(broken).has(c.id));
}

const body = (req: MockRequest): Record<string, unknown> => {
  try {
    return JSON.parse(bodyText(req)) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** A create of `route` whose answer's slug `edit` rewrites (the record stored as the mock made it). */
function createdSlug(route: string, edit: (slug: string, sent: Record<string, unknown>) => string): Fault {
  return (req, next) => {
    const res = next(req);
    if (req.method !== 'POST' || parse(req).route !== route || res.status !== 201) return res;
    const b = json(res);
    return typeof b.slug === 'string' ? withJson(res, { ...b, slug: edit(b.slug, body(req)) }) : res;
  };
}

const ids = (failed: RunResult['cases']) => failed.map((c) => c.id);
const SLUGS_CAL = 'cal/v1,cal/events/v1,slugs';
const DUP = 'cal/events/v1,duplicate_term';

describe('slugs and duplicate_term catch a fault at the edge of what they check, and only they', () => {
  it('slugs: a second venue given the same slug keeps "s" instead of "s-2"', async () => {
    const failed = await failedBy(createdSlug('/cal/v1/venues', (slug, sent) => (sent.status !== 'draft' && slug === `${String(sent.slug)}-2` ? String(sent.slug) : slug)), SLUGS_CAL);
    expect(ids(failed)).toEqual(['slugs:postCalV1Venues:post_unique']);
    expect(failed[0]!.message).toMatch(/a second venue given slug "sc\w+" reads back slug "sc\w+", not "sc\w+-2"/);
  });

  it('slugs: a venue given the slug embed keeps it', async () => {
    const failed = await failedBy(createdSlug('/cal/v1/venues', (slug) => (slug === 'embed-2' ? 'embed' : slug)), SLUGS_CAL);
    expect(ids(failed)).toEqual(['slugs:postCalV1Venues:post_unique']);
    expect(failed[0]!.message).toMatch(/given slug "embed" reads back "embed"/);
  });

  it('slugs: a second draft given the same slug keeps "d"', async () => {
    const failed = await failedBy(createdSlug('/cal/v1/venues', (slug, sent) => (sent.status === 'draft' && slug === `${String(sent.slug)}-2` ? String(sent.slug) : slug)), SLUGS_CAL);
    expect(ids(failed)).toEqual(['slugs:postCalV1Venues:draft_unique']);
  });

  it('slugs: a given slug whose two spaces stay two dashes', async () => {
    const failed = await failedBy(createdSlug('/cal/v1/venues', (slug) => slug.replace('-two-words-', '-two--words-')), SLUGS_CAL);
    expect(ids(failed)).toEqual(['slugs:postCalV1Venues:sanitized']);
    expect(failed[0]!.message).toMatch(/two--words-x", not ".*two-words-x" \(sanitize_title\(\)\)/);
  });

  it("slugs: a draft given its title's slug", async () => {
    const failed = await failedBy(createdSlug('/cal/v1/venues', (slug, sent) => (sent.status === 'draft' && slug === '' ? 'draft-slug' : slug)), SLUGS_CAL);
    expect(ids(failed)).toEqual(['slugs:postCalV1Venues:sanitized']);
    expect(failed[0]!.message).toMatch(/a draft without a slug reads back slug "draft-slug", not ""/);
  });

  it('slugs: a trashed venue that keeps its slug', async () => {
    const keeps: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || !/^\/cal\/v1\/venues\/\d+$/.test(parse(req).route) || res.status !== 200) return res;
      const b = json(res);
      return typeof b.slug === 'string' && b.slug.endsWith('__trashed') ? withJson(res, { ...b, slug: b.slug.slice(0, -'__trashed'.length) }) : res;
    };
    const failed = await failedBy(keeps, SLUGS_CAL);
    expect(ids(failed)).toEqual(['slugs:deleteCalV1VenuesById:trashed']);
  });

  it("slugs: a tag's slug made of its name without the ï", async () => {
    const failed = await failedBy(createdSlug('/cal/events/v1/tags', (slug) => slug.replace(/-uni$/, '-un')), SLUGS_CAL);
    expect(ids(failed)).toEqual(['slugs:postCalEventsV1Tags:term_sanitized']);
  });

  it('slugs: a taken category slug under a parent made "-2" instead of "-<parent slug>"', async () => {
    const failed = await failedBy(createdSlug('/cal/events/v1/categories', (slug, sent) => (typeof sent.parent === 'number' && sent.slug !== undefined && slug !== sent.slug ? `${String(sent.slug)}-2` : slug)), SLUGS_CAL);
    expect(ids(failed)).toEqual(['slugs:postCalEventsV1Categories:term_unique']);
    expect(failed[0]!.message).toMatch(/reads back "sc\w+-2", not "sc\w+-[a-z]/);
  });

  it('duplicate_term: a second tag with the same name is created', async () => {
    let n = 0;
    const accepts: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'POST' || parse(req).route !== '/cal/events/v1/tags' || json(res).code !== 'term_exists') return res;
      return next({ ...req, body: JSON.stringify({ ...body(req), slug: `dup-${++n}-${bodyText(req).length}` }) });
    };
    const failed = await failedBy(accepts, DUP);
    expect(ids(failed)).toEqual(['duplicate_term:postCalEventsV1Tags:tag_name']);
    expect(failed[0]!.message).toMatch(/a second tag named ".*" answered 201/);
  });

  it('duplicate_term: tag names compared case-sensitively (only the upper-case one is created)', async () => {
    const seen = new Set<string>();
    const caseSensitive: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'POST' || parse(req).route !== '/cal/events/v1/tags') return res;
      const name = String(body(req).name ?? '');
      if (res.status === 201) seen.add(name);
      if (json(res).code !== 'term_exists' || seen.has(name)) return res;
      return next({ ...req, body: JSON.stringify({ ...body(req), slug: `case-${seen.size}-${name.length}` }) });
    };
    const failed = await failedBy(caseSensitive, DUP);
    expect(ids(failed)).toEqual(['duplicate_term:postCalEventsV1Tags:tag_name']);
    expect(failed[0]!.message).toMatch(/\(the same in upper case\) answered 201/);
    expect(failed[0]!.message).not.toMatch(/a second tag named/);
  });

  it('duplicate_term: term_exists without the additional_data', async () => {
    const drops: Fault = (req, next) => {
      const res: MockResponse = next(req);
      if (req.method !== 'POST' || parse(req).route !== '/cal/events/v1/categories' || json(res).code !== 'term_exists') return res;
      const { additional_data: _dropped, ...rest } = json(res);
      return withJson(res, rest);
    };
    const failed = await failedBy(drops, DUP);
    expect(ids(failed)).toEqual(['duplicate_term:postCalEventsV1Categories:category_name']);
    expect(failed[0]!.message).toMatch(/its additional_data is undefined, not a list holding \d+/);
  });

  it("duplicate_term: an update to another tag's slug accepted", async () => {
    const accepts: Fault = (req, next) => {
      const res = next(req);
      if (req.method === 'GET' || !/^\/cal\/events\/v1\/tags\/\d+$/.test(parse(req).route) || json(res).code !== 'duplicate_term_slug') return res;
      return { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ id: Number(parse(req).route.split('/').pop()), slug: body(req).slug }) };
    };
    const failed = await failedBy(accepts, DUP);
    expect(ids(failed)).toEqual([expect.stringMatching(/^duplicate_term:\w+CalEventsV1TagsById:slug_update$/)]);
  });
});
