// low_rights (checks/low_rights.ts) proven both ways: it passes on the mock as a contributor (--low-auth-env), and
// each fault opens or closes exactly one door of core's posts controller for that user, at its edge (one field, one
// link, one method, one character). Each run selects one case id: the unit runs whole, and that case is reported.

import { beforeAll, describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { basicAuth, bodyText, harnessForFile, json, parse, withHeader, withJson, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });
const CONTRIBUTOR = { username: 'iryna.contrib', password: 'CONT ribu tor1 2345 6789 abcd' };
const LOW = ['--low-auth-env', 'MOCK_CONTRIBUTOR'];
const ENV = { env: { MOCK_CONTRIBUTOR: `${CONTRIBUTOR.username}:${CONTRIBUTOR.password}` } };

const CASES = {
  adminKses: 'write_read_back:postCalV1Events:admin-kses',
  ksesPre: 'write_read_back:postCalV1Events:low-kses-pre',
  kses: 'write_read_back:postCalV1Events:low-kses',
  linksAdmin: 'permissions:getCalV1EventsById:action-links:admin',
  linksLow: 'permissions:getCalV1EventsById:action-links:low',
  publish: 'permissions:postCalV1Venues:publish:low',
  pendingSlug: 'slugs:postCalV1Venues:pending-slug:low',
  sticky: 'permissions:postCalV1Venues:create-sticky:low',
  asOther: 'permissions:postCalV1Venues:create-as-other:low',
  terms: 'permissions:postCalV1Events:assign-terms:low',
  allow: 'allow_header:getCalV1VenuesById:allow:low',
} as const;

beforeAll(() => {
  // The fixtures hold no contributor with an application password: one is added, with WordPress's default contributor
  // role (edit_posts, delete_posts; no publish_posts, edit_others_posts nor unfiltered_html).
  h.mock.store.put('users', { id: 5, username: CONTRIBUTOR.username, name: 'Iryna Contributor', email: 'iryna@example.com', roles: ['contributor'], application_passwords: [{ uuid: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5', name: 'site-contracts tests', password: CONTRIBUTOR.password, created: '2026-01-01 00:00:00' }] });
});

const asLow = (req: MockRequest): boolean => Object.entries(req.headers).some(([k, v]) => k.toLowerCase() === 'authorization' && v === basicAuth(CONTRIBUTOR));
const asAdmin = (req: MockRequest): boolean => Object.entries(req.headers).some(([k, v]) => k.toLowerCase() === 'authorization' && v === basicAuth(h.mock.credentials()!));
const body = (req: MockRequest): Record<string, unknown> => (bodyText(req) === '' ? {} : (JSON.parse(bodyText(req)) as Record<string, unknown>));
const withBody = (req: MockRequest, b: Record<string, unknown>): MockRequest => ({ ...req, body: JSON.stringify(b) });
const EVENT_ITEM = /^\/cal\/v1\/events\/\d+$/;
const VENUE_ITEM = /^\/cal\/v1\/venues\/\d+$/;

/** The one case `id` of a run against the mock behind `fault` (none: unbroken). */
async function one(id: string, fault?: Fault): Promise<{ status: string; message: string }> {
  const { run } = await h.run(fault, id, LOW, ENV);
  expect(run.cases.map((c) => c.id)).toEqual([id]);
  return { status: run.cases[0]!.status, message: run.cases[0]!.message ?? '' };
}

/** A contributor's read of its own event in the edit context, with `change` applied to the record. */
const lowEventRead = (change: (rec: Record<string, unknown>) => Record<string, unknown>, who: (req: MockRequest) => boolean = asLow): Fault => (req, next) => {
  const res = next(req);
  const { route, query } = parse(req);
  if (req.method !== 'GET' || !who(req) || !EVENT_ITEM.test(route) || query.get('context') !== 'edit' || res.status !== 200) return res;
  return withJson(res, change(json(res)));
};
const rawContent = (f: (raw: string) => string) => (rec: Record<string, unknown>): Record<string, unknown> => {
  const c = rec['content'] as Record<string, unknown>;
  return { ...rec, content: { ...c, raw: f(String(c['raw'])) } };
};
const links = (f: (l: Record<string, unknown>) => Record<string, unknown>) => (rec: Record<string, unknown>): Record<string, unknown> => ({ ...rec, _links: f(rec['_links'] as Record<string, unknown>) });
/** A contributor's POST of a venue whose body matches `when`, sent on with `change` made to the body. */
const lowVenueCreate = (when: (b: Record<string, unknown>) => boolean, change: (b: Record<string, unknown>) => Record<string, unknown>): Fault => (req, next) =>
  req.method === 'POST' && asLow(req) && parse(req).route === '/cal/v1/venues' && when(body(req)) ? next(withBody(req, change(body(req)))) : next(req);

describe('low_rights', () => {
  it('passes on the mock as its contributor: every row judged for that role, assign-terms inconclusive (a contributor may assign tags)', async () => {
    for (const id of Object.values(CASES)) {
      const c = await one(id);
      expect([id, c.status]).toEqual([id, id === CASES.terms ? 'inconclusive' : 'passed']);
    }
    expect((await one(CASES.terms)).message).toMatch(/may assign tags by the wp:action-\* links of the user's own record/);
  });

  it('is skipped, saying why, without --low-auth-env', async () => {
    const { run } = await h.run(undefined, CASES.publish);
    expect(run.cases.map((c) => [c.status, c.message])).toEqual([['skipped', expect.stringMatching(/^no --low-auth-env/)]]);
  });

  it("write_read_back fails when a contributor's lone < is stored as sent (no pre_kses)", async () => {
    const c = await one(CASES.ksesPre, lowEventRead(rawContent((raw) => raw.replace('&lt;', '<'))));
    expect(c).toMatchObject({ status: 'failed', message: expect.stringMatching(/to read back as content\.raw "a &lt; b" .*; got "a < b"/) });
  });

  it("write_read_back fails when a contributor's content keeps one attribute kses takes out (onclick)", async () => {
    const c = await one(CASES.kses, lowEventRead(rawContent((raw) => raw.replace('<p>', '<p onclick="x()">'))));
    expect(c).toMatchObject({ status: 'failed', message: expect.stringMatching(/"<p>a<\/p>b\(\)".*got "<p onclick=\\"x\(\)\\">a<\/p>b\(\)"/) });
  });

  it("write_read_back fails when the administrator's content is filtered as a contributor's", async () => {
    const c = await one(CASES.adminKses, lowEventRead(rawContent((raw) => raw.replace(/<\/?script>/g, '')), asAdmin));
    expect(c.status).toBe('failed');
  });

  it("permissions fails when the administrator's own event lacks one of its action links (wp:action-assign-tags)", async () => {
    const c = await one(CASES.linksAdmin, lowEventRead(links(({ 'wp:action-assign-tags': _gone, ...rest }) => rest), asAdmin));
    expect(c).toMatchObject({ status: 'failed', message: expect.stringMatching(/to hold wp:action-publish and wp:action-assign-tags/) });
  });

  it("permissions fails when the contributor's own event offers wp:action-publish", async () => {
    const href = 'http://example.org/wp-json/cal/v1/events/1';
    const c = await one(CASES.linksLow, lowEventRead(links((l) => ({ ...l, 'wp:action-publish': [{ href }] }))));
    expect(c).toMatchObject({ status: 'failed', message: expect.stringMatching(/not to offer wp:action-publish.*the user may not publish/) });
  });

  it('permissions fails when a contributor may publish (status=publish taken), and the pending half when pending is refused', async () => {
    // The contributor's publish goes through as a draft would: answered 201, the edge being that one status value.
    const published: Fault = (req, next) => {
      if (!(req.method === 'POST' && asLow(req) && parse(req).route === '/cal/v1/venues' && body(req)['status'] === 'publish')) return next(req);
      const res = next({ ...withBody(req, body(req)), headers: { ...req.headers, authorization: basicAuth(h.mock.credentials()!) } });
      return res;
    };
    expect(await one(CASES.publish, published)).toMatchObject({ status: 'failed', message: expect.stringMatching(/to be refused 403 rest_cannot_publish .*got 201/) });
    // The link agrees with the pending slug, not with the publish answer: one fault, one failure.
    expect((await one(CASES.linksLow, published)).status).toBe('inconclusive');
    const pendingRefused = lowVenueCreate((b) => b['status'] === 'pending', (b) => ({ ...b, status: 'publish' }));
    expect(await one(CASES.publish, pendingRefused)).toMatchObject({ status: 'failed', message: expect.stringMatching(/status=pending .* to answer 201 with status pending/) });
  });

  it("slugs fails when a contributor's pending venue keeps the slug it was sent", async () => {
    const kept: Fault = (req, next) => {
      const res = next(req);
      const b = req.method === 'POST' && asLow(req) && parse(req).route === '/cal/v1/venues' ? body(req) : {};
      return b['status'] === 'pending' && res.status === 201 ? withJson(res, { ...json(res), slug: b['slug'] }) : res;
    };
    expect(await one(CASES.pendingSlug, kept)).toMatchObject({ status: 'failed', message: expect.stringMatching(/to have slug "" whatever was sent.*got "site-contracts-.*-pending"/) });
  });

  it('permissions fails when a contributor may make a venue sticky', async () => {
    const c = await one(CASES.sticky, lowVenueCreate((b) => b['sticky'] === true, ({ sticky: _s, ...b }) => b));
    expect(c).toMatchObject({ status: 'failed', message: expect.stringMatching(/POST sticky=true to be refused 403 rest_cannot_assign_sticky .*got 201/) });
  });

  it("permissions fails when a contributor may make a venue as the administrator", async () => {
    const c = await one(CASES.asOther, lowVenueCreate((b) => typeof b['author'] === 'number', ({ author: _a, ...b }) => b));
    expect(c).toMatchObject({ status: 'failed', message: expect.stringMatching(/POST author=1 \(the administrator\) to be refused 403 rest_cannot_edit_others .*got 201/) });
  });

  it('permissions judges assign-terms for a user who may not assign tags: passes on a refusal, fails on a tag taken', async () => {
    // A user whose own records offer no wp:action-assign-tags (a role without the taxonomy's assign_terms).
    const noTagsLink = lowEventRead(links(({ 'wp:action-assign-tags': _gone, ...rest }) => rest));
    const tagged = (req: MockRequest): boolean => req.method === 'POST' && asLow(req) && parse(req).route === '/cal/v1/events' && Array.isArray(body(req)['tags']);
    const refusing: Fault = (req, next) => (tagged(req) ? { status: 403, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ code: 'rest_cannot_assign_term', message: 'Sorry, you are not allowed to assign the provided terms.', data: { status: 403 } }) } : noTagsLink(req, next));
    expect((await one(CASES.terms, refusing)).status).toBe('passed');
    const c = await one(CASES.terms, noTagsLink);
    expect(c).toMatchObject({ status: 'failed', message: expect.stringMatching(/POST tags=\[\d+\] to be refused 403 rest_cannot_assign_term .*got 201/) });
  });

  it("allow_header fails when the contributor's Allow on the administrator's venue lists PATCH, which it is refused", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      return req.method === 'GET' && asLow(req) && VENUE_ITEM.test(parse(req).route) && res.status === 200 ? withHeader(res, 'Allow', 'GET, PATCH') : res;
    };
    expect(await one(CASES.allow, fault)).toMatchObject({ status: 'failed', message: expect.stringMatching(/to leave out PATCH, which the same user was refused \(403\)/) });
  });
});
