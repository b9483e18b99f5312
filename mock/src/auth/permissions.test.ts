// Permissions as WordPress 6.1 has them under --auth (WP_REST_Posts_Controller: get_items() with
// check_read_permission(), create/update/delete_item_permissions_check(), handle_status_param(); map_meta_cap()'s
// read_post/edit_post/delete_post; the default roles of populate_roles()). Each rule is shown at its edge: the
// author's own post against another user's, `publish` against every other status, the author asked for against
// the one logged in, a contributor (edit_posts without publish_posts) against an author.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import type { UserRecord } from '../../../contracts/model/records.ts';
import { call, freshMock } from '../testing/harness.ts';
import { ADMINISTRATORS } from './permissions.ts';
import { operationTable } from '../handlers/operations.ts';
import { Discovery } from '../handlers/discovery.ts';
import fc from 'fast-check';
import { encodeBody, toUrl, validRequest } from '../../../contracts/lib/arbitraries/index.ts';

const ADMIN = { username: 'admin', password: 'ACk6 qp4z jfOW 6dsy HMWV G0x1' };
const EDITOR = { username: 'olena.kovalenko', password: 'wUMD HQOr sjrb fVae VcAH d7tB' };
const AUTHOR = { username: 'james.whitfield', password: 'AUTH orpw ord1 2345 6789 abcd' };
const CONTRIBUTOR = { username: 'iryna.contrib', password: 'CONT ribu tor1 2345 6789 abcd' };
const SUBSCRIBER = { username: 'reader', password: 'SUBS crib erpw 1234 5678 abcd' };
const AUTHOR_ID = 3;
const CONTRIBUTOR_ID = 5;

function withPassword(mock: Mock, username: string, password: string): void {
  const u = mock.store.table('users').find((x) => x.username === username)! as UserRecord;
  mock.store.put('users', { ...u, application_passwords: [{ uuid: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5', name: 'test', password, created: '2026-01-01 00:00:00' }] });
}

async function authMock(): Promise<Mock> {
  const mock = await freshMock({ auth: true });
  mock.store.put('users', { id: CONTRIBUTOR_ID, username: CONTRIBUTOR.username, name: 'Iryna Contributor', email: 'iryna@example.com', roles: ['contributor'], application_passwords: [] });
  for (const u of [AUTHOR, CONTRIBUTOR, SUBSCRIBER]) withPassword(mock, u.username, u.password);
  return mock;
}

const err = (code: string, message: string, status: number) => ({ code, message, data: { status } });

describe('lists: check_read_permission() for every listed post', () => {
  let mock: Mock;
  beforeEach(async () => {
    mock = await authMock();
  });

  it("an author's list of drafts and private posts holds only the author's own, with the query's X-WP-Total (found_posts)", () => {
    const all = mock.store.events.values().filter((e) => e.lang === 'en' && (e.status === 'draft' || e.status === 'private'));
    const own = all.filter((e) => e.author === AUTHOR_ID).map((e) => e.id).sort((a, b) => a - b);
    expect(all.length).toBeGreaterThan(own.length);
    for (const ns of ['cal/v1', 'cal/events/v1']) {
      const q = ns === 'cal/v1' ? 'status=draft,private&per_page=100' : 'status=draft&per_page=100&start_date=2000-01-01';
      const res = call(mock, 'GET', `/wp-json/${ns}/events?${q}`, { auth: AUTHOR });
      expect(res.status, ns).toBe(200);
      const ids = (res.json as { id: number; author: number | string }[]).map((e) => e.id).sort((a, b) => a - b);
      const expected = ns === 'cal/v1' ? own : mock.store.events.values().filter((e) => e.lang === 'en' && e.status === 'draft' && e.author === AUTHOR_ID).map((e) => e.id);
      expect(ids, ns).toEqual(expected.sort((a, b) => a - b));
      expect((res.json as { author: number | string }[]).every((e) => Number(e.author) === AUTHOR_ID), ns).toBe(true);
    }
    // WordPress counts what the query found, before the per-post check: the total still counts the others' drafts.
    const res = call(mock, 'GET', '/wp-json/cal/v1/events?status=draft,private&per_page=100', { auth: AUTHOR });
    expect(Number(res.headers['X-WP-Total'])).toBe(all.length);
    // Another user's private post leaks nothing of itself, not even its content.
    const secret = all.find((e) => e.author !== AUTHOR_ID && e.status === 'private')!;
    expect(res.body).not.toContain(`"id":${secret.id},`);
  });

  it('an editor (read_private_posts, edit_others_posts) and an administrator list them all', () => {
    const all = mock.store.events.values().filter((e) => e.lang === 'en' && (e.status === 'draft' || e.status === 'private'));
    for (const who of [EDITOR, ADMIN]) {
      const res = call(mock, 'GET', '/wp-json/cal/v1/events?status=draft,private&per_page=100', { auth: who });
      expect(res.json.length, who.username).toBe(all.length);
    }
  });

  it('venues and organizers too: a pending organizer of another user is not listed for the author', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1/organizers?status=pending,private&per_page=100', { auth: AUTHOR });
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
    expect(Number(res.headers['X-WP-Total'])).toBe(2);
    expect(call(mock, 'GET', '/wp-json/cal/v1/organizers?status=pending,private&per_page=100', { auth: EDITOR }).json.map((o: { id: number }) => o.id).sort()).toEqual([86, 89]);
  });
});

describe('reads by ID: the same rule', () => {
  it("an author reads their own draft, not another user's draft or private post; an editor reads both", async () => {
    const mock = await authMock();
    const own = mock.store.events.values().find((e) => e.author === AUTHOR_ID && e.status === 'draft')!;
    const othersDraft = mock.store.events.values().find((e) => e.author !== AUTHOR_ID && e.status === 'draft')!;
    const othersPrivate = mock.store.events.values().find((e) => e.author !== AUTHOR_ID && e.status === 'private')!;
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${own.id}`, { auth: AUTHOR }).status).toBe(200);
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${othersDraft.id}`, { auth: AUTHOR }).json).toEqual(err('rest_forbidden', 'Sorry, you are not allowed to do that.', 403));
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${othersPrivate.id}`, { auth: AUTHOR }).status).toBe(403);
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${othersPrivate.id}`, { auth: EDITOR }).status).toBe(200);
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${othersDraft.id}`, { auth: SUBSCRIBER }).status).toBe(403);
  });
});

describe('nested and embedded records: the read rule of their own route', () => {
  let mock: Mock;
  let eventId: number;
  beforeEach(async () => {
    mock = await authMock();
    // A published event at a draft venue (36) with a pending organizer (86) and a published one (79).
    const created = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: ADMIN, body: { title: 'Rooftop jazz', start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 21:00:00', venues: [36], organizers: [86, 79] } });
    expect(created.status).toBe(201);
    eventId = created.json.id;
  });

  it('a legacy event nests a draft venue and a pending organizer only for someone who may read them', () => {
    const anonymous = call(mock, 'GET', `/wp-json/cal/events/v1/events/${eventId}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.json.venue).toEqual([]);
    expect(anonymous.json.organizer.map((o: { id: number }) => o.id)).toEqual([79]);
    expect(anonymous.body).not.toContain(mock.store.venues.get(36)!.address);
    const author = call(mock, 'GET', `/wp-json/cal/events/v1/events/${eventId}`, { auth: AUTHOR });
    expect(author.json.venue).toEqual([]);
    const editor = call(mock, 'GET', `/wp-json/cal/events/v1/events/${eventId}`, { auth: EDITOR });
    expect(editor.json.venue.id).toBe(36);
    expect(editor.json.organizer.map((o: { id: number }) => o.id)).toEqual([86, 79]);
    // And the anonymous rendering was not served from the editor's (or the other way round).
    expect(call(mock, 'GET', `/wp-json/cal/events/v1/events/${eventId}`).json.venue).toEqual([]);
    // In lists too.
    const list = call(mock, 'GET', `/wp-json/cal/events/v1/events?include=${eventId}`);
    expect(list.json[0].venue).toEqual([]);
  });

  it('open mode shows them, as it serves the draft venue itself', async () => {
    const open = await freshMock();
    const created = call(open, 'POST', '/wp-json/cal/v1/events', { body: { title: 'Open jazz', venues: [36] } });
    expect(call(open, 'GET', '/wp-json/cal/v1/venues/36').status).toBe(200);
    expect(call(open, 'GET', `/wp-json/cal/events/v1/events/${created.json.id}`).json.venue.id).toBe(36);
  });

  it("cal/v1 _embed embeds the venue route's own refusal for an anonymous reader", () => {
    const res = call(mock, 'GET', `/wp-json/cal/v1/events/${eventId}?_embed=venue`);
    expect(res.json._embedded.venue).toEqual([err('rest_forbidden', 'Sorry, you are not allowed to do that.', 401)]);
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${eventId}?_embed=venue`, { auth: EDITOR }).json._embedded.venue[0].id).toBe(36);
  });

  it("the calendar view's HTML names the draft venue only for someone who may read it", () => {
    // Starting in half an hour (the site's wall clock is 14:00), so the view's first twelve events hold it.
    const soon = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: ADMIN, body: { title: 'Soon', start_date: '2026-11-22 14:30:00', end_date: '2026-11-22 16:00:00', venues: [36] } });
    const title = mock.store.venues.get(36)!.title;
    const view = (auth?: typeof EDITOR) => JSON.parse(call(mock, 'GET', '/wp-json/cal/views/v2/html?u=%2Fevents%2F&view=list', auth ? { auth } : {}).body) as string;
    expect(view()).toContain(`data-event-id="${soon.json.id}"`);
    expect(view()).not.toContain(title);
    expect(view(EDITOR)).toContain(`<address>${title}</address>`);
  });
});

describe('writes: as whom, sticky, publishing', () => {
  let mock: Mock;
  beforeEach(async () => {
    mock = await authMock();
  });

  it("an author may not create as another user (rest_cannot_edit_others), nor may anyone logged out; their own ID or 0 is fine", () => {
    const as1 = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: AUTHOR, body: { title: 'x', author: 1 } });
    expect(as1.status).toBe(403);
    expect(as1.json).toEqual(err('rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.', 403));
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'x', author: 1 } }).json).toEqual(err('rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.', 401));
    expect(call(mock, 'POST', '/wp-json/cal/events/v1/venues', { auth: AUTHOR, body: { venue: 'x', author: 2 } }).json.code).toBe('rest_cannot_edit_others');
    const self = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: AUTHOR, body: { title: 'mine', author: AUTHOR_ID } });
    expect(self.status).toBe(201);
    expect(self.json.author).toBe(AUTHOR_ID);
    const zero = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: AUTHOR, body: { title: 'mine too', author: 0 } });
    expect(zero.status).toBe(201);
    expect(zero.json.author).toBe(AUTHOR_ID);
    // edit_others_posts may.
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { auth: EDITOR, body: { title: 'for James', author: AUTHOR_ID } }).json.author).toBe(AUTHOR_ID);
    expect(mock.store.events.values().filter((e) => e.title === 'x')).toEqual([]);
  });

  it('an author may not hand their own post to another user; the edit check comes first on a post not theirs', () => {
    const handOver = call(mock, 'PUT', '/wp-json/cal/v1/events/92', { auth: AUTHOR, body: { author: 1 } });
    expect(handOver.json).toEqual(err('rest_cannot_edit_others', 'Sorry, you are not allowed to update posts as this user.', 403));
    expect(mock.store.events.get(92)!.author).toBe(AUTHOR_ID);
    expect(call(mock, 'PATCH', '/wp-json/cal/events/v1/events/92', { auth: AUTHOR, body: { author: 2 } }).json.code).toBe('rest_cannot_edit_others');
    expect(call(mock, 'PUT', '/wp-json/cal/v1/events/95', { auth: AUTHOR, body: { author: AUTHOR_ID } }).json).toEqual(err('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', 403));
    expect(call(mock, 'PUT', '/wp-json/cal/v1/events/92', { auth: EDITOR, body: { author: 2 } }).json.author).toBe(2);
  });

  it("Allow follows the request's own author, as rest_send_allow_header() asks each callback about it", () => {
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=1', { auth: AUTHOR }).headers.Allow).toBe('GET, POST');
    // The list's `author` filter is an array, never the user's ID: WordPress's strict comparison leaves POST out.
    expect(call(mock, 'GET', `/wp-json/cal/v1/events?per_page=1&author=${AUTHOR_ID}`, { auth: AUTHOR }).headers.Allow).toBe('GET');
    expect(call(mock, 'GET', `/wp-json/cal/v1/events?per_page=1&author=${AUTHOR_ID}`, { auth: EDITOR }).headers.Allow).toBe('GET, POST');
  });

  it('inside a batch each item gets the same answer', () => {
    const res = call(mock, 'POST', '/wp-json/batch/v1', { auth: AUTHOR, body: { requests: [{ path: '/cal/v1/events', body: { title: 'b', author: 1 } }, { path: '/cal/v1/events', body: { title: 'b' } }] } });
    expect(res.json.responses.map((r: { status: number }) => r.status)).toEqual([403, 201]);
    expect(res.json.responses[0].body.code).toBe('rest_cannot_edit_others');
  });

  it('a contributor: drafts yes; publishing, private, scheduling and sticky no; own drafts editable, own published posts not', () => {
    const publish = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: CONTRIBUTOR, body: { title: 'c' } });
    // cal/v1 applies the documented default status `publish`; handle_status_param() refuses it.
    expect(publish.json).toEqual(err('rest_cannot_publish', 'Sorry, you are not allowed to publish posts in this post type.', 403));
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { auth: CONTRIBUTOR, body: { title: 'c', status: 'future', date: '2027-01-01T00:00:00' } }).json.code).toBe('rest_cannot_publish');
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { auth: CONTRIBUTOR, body: { title: 'c', status: 'private' } }).json).toEqual(
      err('rest_cannot_publish', 'Sorry, you are not allowed to create private posts in this post type.', 403),
    );
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { auth: CONTRIBUTOR, body: { title: 'c', status: 'draft', sticky: true } }).json).toEqual(
      err('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', 403),
    );
    const draft = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: CONTRIBUTOR, body: { title: 'c', status: 'draft' } });
    expect(draft.status).toBe(201);
    expect(draft.json.author).toBe(CONTRIBUTOR_ID);
    expect(call(mock, 'PUT', `/wp-json/cal/v1/events/${draft.json.id}`, { auth: CONTRIBUTOR, body: { title: 'c2', status: 'pending' } }).status).toBe(200);
    expect(call(mock, 'PUT', `/wp-json/cal/v1/events/${draft.json.id}`, { auth: CONTRIBUTOR, body: { status: 'publish' } }).json.code).toBe('rest_cannot_publish');
    // The legacy namespace names no default status; a create without one would be published, and is refused too.
    expect(call(mock, 'POST', '/wp-json/cal/events/v1/venues', { auth: CONTRIBUTOR, body: { venue: 'v' } }).json.code).toBe('rest_cannot_publish');
    expect(call(mock, 'POST', '/wp-json/cal/events/v1/venues', { auth: CONTRIBUTOR, body: { venue: 'v', status: 'draft' } }).status).toBe(201);
    // An author may publish.
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { auth: AUTHOR, body: { title: 'a' } }).status).toBe(201);
    // Once published (by an editor), the contributor may neither edit nor delete it (edit_published_posts, delete_published_posts).
    expect(call(mock, 'PUT', `/wp-json/cal/v1/events/${draft.json.id}`, { auth: EDITOR, body: { status: 'publish' } }).status).toBe(200);
    expect(call(mock, 'PUT', `/wp-json/cal/v1/events/${draft.json.id}`, { auth: CONTRIBUTOR, body: { title: 'c3' } }).json.code).toBe('rest_cannot_edit');
    expect(call(mock, 'DELETE', `/wp-json/cal/v1/events/${draft.json.id}`, { auth: CONTRIBUTOR }).json.code).toBe('rest_cannot_delete');
    const second = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: CONTRIBUTOR, body: { title: 'd', status: 'draft' } });
    expect(call(mock, 'DELETE', `/wp-json/cal/v1/events/${second.json.id}`, { auth: CONTRIBUTOR }).status).toBe(200);
  });

  it("a trashed post keeps the capability of the status it had: an author restores their trashed published post, not another's", () => {
    const trashed = call(mock, 'DELETE', '/wp-json/cal/v1/events/92', { auth: AUTHOR });
    expect(trashed.json.status).toBe('trash');
    expect(call(mock, 'PUT', '/wp-json/cal/v1/events/92', { auth: AUTHOR, body: { status: 'publish' } }).status).toBe(200);
    const others = mock.store.events.values().find((e) => e.author !== AUTHOR_ID && e.status === 'trash')!;
    expect(call(mock, 'PUT', `/wp-json/cal/v1/events/${others.id}`, { auth: AUTHOR, body: { status: 'draft' } }).status).toBe(403);
  });
});

describe('no secret in any answer', () => {
  it("the import callbacks' 409 says the hash does not match, never which hash was expected", async () => {
    const mock = await freshMock({ auth: true });
    const job = mock.store.table('importJobs').values()[0]!;
    for (const step of ['batch', 'state']) {
      const res = call(mock, 'POST', `/wp-json/cal/importer/v1/import/${job.import_id}/${step}`, { body: { batch_hash: 'nope', status: step === 'batch' ? {} : 'success', message: 'm', message_slug: 's', percentage_complete: 10 } });
      expect(res.status, step).toBe(409);
      expect(res.json, step).toEqual(err('cal_import_batch_hash_mismatch', 'The batch hash does not match the batch this import expects.', 409));
      expect(res.body, step).not.toContain(job.batch_hash);
    }
  });
});

describe("add-on settings and administrator-only actions (ADMINISTRATORS in the operation table's rows)", () => {
  let mock: Mock;
  beforeEach(async () => {
    mock = await authMock();
  });

  it('every administrator-only path names operations of the contract; an editor is refused each of them (403), an administrator is not', () => {
    const discovery = new Discovery(mock.contract, { name: 'x', description: 'x', theme: 'x', timezone: 'UTC', gmtOffset: () => 0 }, { enabled: false, maxBytes: 0 });
    const table = operationTable({ contract: mock.contract, discovery });
    const ops = mock.contract.operations.filter((op) => table[op.id]?.permission === ADMINISTRATORS);
    const paths = new Set(ops.map((o) => o.path));
    // 29 paths, each with at least one write: a path that matches nothing would be a rule that never applies.
    expect(paths.size).toBe(29);
    for (const op of ops) {
      // A valid request (permission callbacks run after validation), on an item that exists.
      const [wire] = fc.sample(validRequest(mock.contract, op.id), { numRuns: 1, seed: 7 });
      const url = toUrl('', '/wp-json/', { ...wire!, path: op.path.replace('{slug}', 'pagebuilder-one-addon-a') });
      const encoded = encodeBody(wire!);
      const send = (auth?: typeof ADMIN) => call(mock, op.method, url, { ...(auth ? { auth } : {}), ...(encoded ? { body: encoded.payload, headers: { 'content-type': encoded.contentType } } : {}) });
      const editor = send(EDITOR);
      expect([op.method, op.path, editor.status, editor.json?.code]).toEqual([op.method, op.path, 403, 'rest_forbidden']);
      const anonymous = send();
      expect(anonymous.status, `${op.method} ${op.path}`).toBe(401);
      const admin = send(ADMIN);
      expect(admin.status === 401 || admin.status === 403, `${op.method} ${op.path}: ${admin.status} ${admin.body.slice(0, 200)}`).toBe(false);
    }
    // Settings saves among them (modules, modes, settings, search page, wizards, configuration): 21 operations.
    const settings = ops.filter((o) => /saveModule|updateMode|updateSettings|searchPage|setupWizard|\/settings$|custom-xml-config$|onboarding/.test(o.path));
    expect(settings).toHaveLength(21);
  });

  it('what editors keep: post meta, redirections, keywords and contact forms', () => {
    expect(call(mock, 'POST', '/wp-json/seo/v1/updateMeta', { auth: EDITOR, body: { objectType: 'post', objectID: 92, meta: {} } }).status).not.toBe(403);
    expect(call(mock, 'POST', '/wp-json/seo/v1/an/addTrackKeyword', { auth: EDITOR, body: { keyword: 'kyiv events' } }).status).not.toBe(403);
    expect(call(mock, 'POST', '/wp-json/forms/v1/contact-forms', { auth: EDITOR, body: { title: 'Editor form' } }).status).toBe(201);
    expect(call(mock, 'POST', '/wp-json/seo/v1/updateMeta', { auth: AUTHOR, body: { objectType: 'post', objectID: 92, meta: {} } }).status).toBe(403);
  });

  it('an author who may publish may make a post sticky, as WordPress 6.1.9 lets them; a contributor may not', () => {
    // WP_REST_Posts_Controller::create_item_permissions_check(): refused only without edit_others_posts AND publish_posts.
    const own = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: AUTHOR, body: { title: 'pinned', sticky: true } });
    expect(own.status).toBe(201);
    expect(own.json.sticky).toBe(true);
    const mine = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: AUTHOR, body: { title: 'not pinned', sticky: false } });
    expect(mine.status).toBe(201);
    expect(call(mock, 'PUT', `/wp-json/cal/v1/events/${mine.json.id}`, { auth: AUTHOR, body: { sticky: true } }).json.sticky).toBe(true);
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { auth: CONTRIBUTOR, body: { title: 'c', status: 'draft', sticky: true } }).json.code).toBe('rest_cannot_assign_sticky');
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { auth: EDITOR, body: { title: 'pinned', sticky: true } }).json.sticky).toBe(true);
  });
});
