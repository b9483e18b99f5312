// The posts controller's `context` on cal/v1 reads (issue 27: an anonymous `?context=edit` answered 200, and an
// administrator's edit context showed no raw field). WP_REST_Posts_Controller (6.1): get_items_permissions_check()
// refuses `edit` without edit_posts, get_item_permissions_check() without edit_post on that post, both as
// rest_forbidden_context with rest_authorization_required_code() (401 logged out, 403 logged in), after the post
// lookup (404 first); the arg is validated (view, embed, edit) in the validate pass; the edit context shows the raw
// fields a create answer shows (title.raw, content.raw and block_version, excerpt.raw, guid.raw, password,
// permalink_template, generated_slug) and the `wp:action-*` links open to the user; embed keeps the embeddable
// fields, and `_embed` asks for it. The legacy namespace's controllers (the calendar plugin's own) take no context.
import { guidAfterUpdate } from '../../../../contracts/wordpress/post-dates.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../index.ts';
import { call, freshMock } from '../../testing/harness.ts';
import { ADMIN, AUTHOR, EDITOR, givePassword, SUBSCRIBER } from '../../testing/users.ts';

/** Published events: the administrator's (with a venue), the author's own, and the editor's password-protected one. */
const ADMINS_EVENT = 106;
const AUTHORS_EVENT = 92;
const PROTECTED_EVENT = 220;

const err = (code: string, message: string, status: number) => ({ code, message, data: { status } });
const LIST_REFUSED = 'Sorry, you are not allowed to edit posts in this post type.';
const ITEM_REFUSED = 'Sorry, you are not allowed to edit this post.';

async function authMock(): Promise<Mock> {
  const mock = await freshMock({ auth: true });
  givePassword(mock, AUTHOR);
  return mock;
}

describe('context=edit under --auth: who may, as WP_REST_Posts_Controller decides', () => {
  let mock: Mock;
  beforeEach(async () => {
    mock = await authMock();
  });

  it('a list in the edit context: 401 logged out, 403 for a subscriber, as on a live 6.1 (sample 17); edit_posts may', () => {
    for (const type of ['events', 'venues', 'organizers']) {
      const anon = call(mock, 'GET', `/wp-json/cal/v1/${type}?context=edit&per_page=1`);
      expect([type, anon.status, anon.json]).toEqual([type, 401, err('rest_forbidden_context', LIST_REFUSED, 401)]);
      // rest_send_allow_header() asks each callback about this request: neither GET (edit) nor POST lets nobody in.
      expect(anon.headers.Allow).toBeUndefined();
      expect(call(mock, 'GET', `/wp-json/cal/v1/${type}?context=edit`, { auth: SUBSCRIBER }).json).toEqual(err('rest_forbidden_context', LIST_REFUSED, 403));
      for (const who of [AUTHOR, EDITOR, ADMIN]) expect(call(mock, 'GET', `/wp-json/cal/v1/${type}?context=edit&per_page=2`, { auth: who }).status, `${type} ${who.username}`).toBe(200);
    }
    // The view and embed contexts stay public.
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?context=view&per_page=1').status).toBe(200);
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?context=embed&per_page=1').status).toBe(200);
  });

  it('an item in the edit context needs edit_post on that post: the author edits their own, not the administrator\'s', () => {
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?context=edit`).json).toEqual(err('rest_forbidden_context', ITEM_REFUSED, 401));
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?context=edit`, { auth: SUBSCRIBER }).json).toEqual(err('rest_forbidden_context', ITEM_REFUSED, 403));
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?context=edit`, { auth: AUTHOR }).json).toEqual(err('rest_forbidden_context', ITEM_REFUSED, 403));
    const own = call(mock, 'GET', `/wp-json/cal/v1/events/${AUTHORS_EVENT}?context=edit`, { auth: AUTHOR });
    expect(own.status).toBe(200);
    expect(own.json.title.raw).toBe(mock.store.events.get(AUTHORS_EVENT)!.title);
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?context=edit`, { auth: EDITOR }).status).toBe(200);
    // The lookup comes first: an unknown ID is 404, not 401.
    expect(call(mock, 'GET', '/wp-json/cal/v1/events/999999?context=edit').json).toEqual(err('rest_post_invalid_id', 'Invalid post ID.', 404));
    // The same for venues and organizers.
    const venue = mock.store.venues.values().find((v) => v.status === 'publish' && v.author !== 3)!;
    expect(call(mock, 'GET', `/wp-json/cal/v1/venues/${venue.id}?context=edit`, { auth: AUTHOR }).status).toBe(403);
    expect(call(mock, 'GET', `/wp-json/cal/v1/venues/${venue.id}?context=edit`, { auth: ADMIN }).json.title.raw).toBe(venue.title);
  });

  it('the edit read shows what the write answers show: the same fields and links as an update in the same state', () => {
    const read = call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?context=edit`, { auth: ADMIN });
    expect(read.status).toBe(200);
    const e = mock.store.events.get(ADMINS_EVENT)!;
    expect(read.json.title).toEqual({ raw: e.title, rendered: expect.any(String) });
    expect(read.json.content).toEqual({ raw: e.content, rendered: expect.any(String), protected: false, block_version: e.content.includes('<!-- wp:') ? 1 : 0 });
    expect(read.json.excerpt).toEqual({ raw: e.excerpt, rendered: expect.any(String), protected: false });
    expect(read.json.guid.raw).toBe(read.json.guid.rendered);
    expect(read.json.password).toBe('');
    expect(read.json.permalink_template).toBe('http://127.0.0.1:4010/event/%pagename%/');
    expect(read.json.generated_slug).toBe(e.slug);
    const actions = Object.keys(read.json._links).filter((rel) => rel.startsWith('wp:action-'));
    expect(actions).toEqual([
      'wp:action-publish', 'wp:action-unfiltered-html', 'wp:action-assign-author', 'wp:action-create-tags', 'wp:action-assign-tags',
      'wp:action-create-cal_events_cat', 'wp:action-assign-cal_events_cat',
    ]);
    for (const rel of actions) expect(read.json._links[rel]).toEqual([{ href: `http://127.0.0.1:4010/wp-json/cal/v1/events/${ADMINS_EVENT}` }]);
    // A PUT that changes nothing answers in the edit context (update_item()): the same keys, and the same body but
    // for the modification time.
    const put = call(mock, 'PUT', `/wp-json/cal/v1/events/${ADMINS_EVENT}`, { auth: ADMIN, body: {} });
    expect(put.status).toBe(200);
    expect(Object.keys(put.json)).toEqual(Object.keys(read.json));
    // ...and the guid stored again through pre_post_guid (an & reads &#038; after an update, live 6.1.9 on :8090).
    expect({ ...put.json, modified: 0, modified_gmt: 0, guid: 0 }).toEqual({ ...read.json, modified: 0, modified_gmt: 0, guid: 0 });
    expect(put.json.guid).toEqual({ raw: guidAfterUpdate(read.json.guid.raw), rendered: guidAfterUpdate(read.json.guid.raw) });
    // The view context shows none of it.
    const view = call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}`, { auth: ADMIN }).json;
    for (const k of ['password', 'permalink_template', 'generated_slug']) expect(view).not.toHaveProperty(k);
    expect(view.title).not.toHaveProperty('raw');
    expect(Object.keys(view._links).some((rel) => rel.startsWith('wp:action-'))).toBe(false);
  });

  it("the actions follow the user's capabilities: an author gets no assign-author nor category creation", () => {
    const own = call(mock, 'GET', `/wp-json/cal/v1/events/${AUTHORS_EVENT}?context=edit`, { auth: AUTHOR }).json;
    expect(Object.keys(own._links).filter((rel) => rel.startsWith('wp:action-'))).toEqual([
      'wp:action-publish', 'wp:action-create-tags', 'wp:action-assign-tags', 'wp:action-assign-cal_events_cat',
    ]);
    const venue = call(mock, 'GET', '/wp-json/cal/v1/venues?context=edit&per_page=1', { auth: EDITOR }).json[0];
    expect(Object.keys(venue._links).filter((rel) => rel.startsWith('wp:action-'))).toEqual([
      'wp:action-publish', 'wp:action-unfiltered-html', 'wp:action-assign-author', 'wp:action-create-tags', 'wp:action-assign-tags',
    ]);
  });

  it("a password-protected post's content shows in the edit context to someone who may edit it, and stays '' in view", () => {
    const edit = call(mock, 'GET', `/wp-json/cal/v1/events/${PROTECTED_EVENT}?context=edit`, { auth: EDITOR }).json;
    expect(edit.password).toBe('press-preview');
    expect(edit.content.rendered).toContain('Piano Trio in Concert');
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${PROTECTED_EVENT}`, { auth: EDITOR }).json.content.rendered).toBe('');
  });

  it("the `password` parameter: the right one shows a protected post's content in view, a wrong one is 403 (measured on :8090)", () => {
    const url = `/wp-json/cal/v1/events/${PROTECTED_EVENT}`;
    const anon = call(mock, 'GET', url).json;
    expect([anon.content, anon.excerpt.rendered, 'password' in anon]).toEqual([{ rendered: '', protected: true }, '', false]);
    expect(call(mock, 'GET', `${url}?password=press-preview`).json.content.rendered).toContain('Piano Trio in Concert');
    expect(call(mock, 'GET', `${url}?password=press-previeW`).json).toEqual(err('rest_post_incorrect_password', 'Incorrect post password.', 403));
    // Any password on a post without one is wrong too (hash_equals('', ...)).
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?password=x`).json).toEqual(err('rest_post_incorrect_password', 'Incorrect post password.', 403));
    // The legacy namespace (The Events Calendar's own controller) hides the text from who neither edits nor brings it.
    expect(call(mock, 'GET', `/wp-json/cal/events/v1/events/${PROTECTED_EVENT}`, { auth: SUBSCRIBER }).json.description).toBe('');
    expect(call(mock, 'GET', `/wp-json/cal/events/v1/events/${PROTECTED_EVENT}`, { auth: EDITOR }).json.description).toContain('Piano Trio in Concert');
  });

  it('a post never keeps a feed name or `embed` as its slug: it reads back `<slug>-2` (wp_unique_post_slug, live 6.1.9)', () => {
    for (const slug of ['embed', 'feed', 'rss2']) {
      expect(call(mock, 'POST', '/wp-json/cal/v1/venues', { auth: ADMIN, body: { title: `Reserved ${slug}`, slug, status: 'publish' } }).json.slug).toBe(`${slug}-2`);
    }
    expect(call(mock, 'POST', '/wp-json/cal/events/v1/tags', { auth: ADMIN, body: { name: 'Reserved tag', slug: 'embed' } }).json.slug).toBe('embed');
  });

  it("a draft's generated_slug is the slug its title would be published under, unique among the others", () => {
    const a = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: ADMIN, body: { title: 'Context Draft', status: 'draft' } });
    expect(a.json.slug).toBe('');
    expect(a.json.generated_slug).toBe('context-draft');
    const taken = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: ADMIN, body: { title: 'Context Draft', status: 'publish' } });
    expect(taken.json.slug).toBe('context-draft');
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${a.json.id}?context=edit`, { auth: ADMIN }).json.generated_slug).toBe('context-draft-2');
    const untitled = call(mock, 'POST', '/wp-json/cal/v1/events', { auth: ADMIN, body: { content: 'no title', status: 'draft' } });
    expect(untitled.json.generated_slug).toBe(String(untitled.json.id));
  });
});

describe('the context arg itself', () => {
  let mock: Mock;
  beforeEach(async () => {
    mock = await authMock();
  });

  it('a value outside view, embed, edit is 400 rest_invalid_param in the validate pass, context named first', () => {
    const notOne = { code: 'rest_not_in_enum', message: 'context is not one of view, embed, and edit.', data: null };
    const one = call(mock, 'GET', '/wp-json/cal/v1/events?context=bogus');
    expect(one.status).toBe(400);
    expect(one.json).toEqual({ code: 'rest_invalid_param', message: 'Invalid parameter(s): context', data: { status: 400, params: { context: notOne.message }, details: { context: notOne } } });
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?context=EDIT').json.data.params).toEqual({ context: notOne.message });
    // get_collection_params() registers context before page and per_page: both validate-pass failures, context first.
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?per_page=abc&context=bogus').json.message).toBe('Invalid parameter(s): context, per_page');
    expect(call(mock, 'GET', `/wp-json/cal/v1/venues/${mock.store.venues.values()[0]!.id}?context=1`).json.message).toBe('Invalid parameter(s): context');
    // Validation before the permission: an anonymous bad context is 400, not 401.
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?context=bogus`).status).toBe(400);
  });

  it('the embed context keeps the embeddable fields, in the controller\'s order', () => {
    const list = call(mock, 'GET', '/wp-json/cal/v1/events?context=embed&per_page=2').json;
    for (const item of list) expect(Object.keys(item)).toEqual(['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links']);
    const one = call(mock, 'GET', `/wp-json/cal/v1/organizers/${mock.store.organizers.values().find((o) => o.status === 'publish')!.id}?context=embed`).json;
    expect(Object.keys(one)).toEqual(['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links']);
    expect(Object.keys(one.title)).toEqual(['rendered']);
  });

  it('_embed asks for the embed context, as embed_links() does', () => {
    const e = call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?_embed=venue`).json;
    const venue = e._embedded.venue[0];
    expect(Object.keys(venue)).toEqual(['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media', '_links']);
    expect(venue.id).toBe(mock.store.events.get(ADMINS_EVENT)!.venues[0]);
  });

  it("the legacy namespace's controllers take no context: edit is neither refused nor shown", () => {
    const plain = call(mock, 'GET', `/wp-json/cal/events/v1/events/${ADMINS_EVENT}`);
    const edit = call(mock, 'GET', `/wp-json/cal/events/v1/events/${ADMINS_EVENT}?context=edit`);
    expect(edit.status).toBe(200);
    expect(edit.body).toBe(plain.body);
    expect(call(mock, 'GET', '/wp-json/cal/events/v1/categories?context=edit').status).toBe(200);
    expect(call(mock, 'GET', '/wp-json/cal/events/v1/events?context=bogus').status).toBe(200);
  });
});

describe('open mode', () => {
  it('lets every permission callback through, the edit context too (as it serves drafts and writes to anyone)', async () => {
    const mock = await freshMock();
    const res = call(mock, 'GET', `/wp-json/cal/v1/events/${ADMINS_EVENT}?context=edit`);
    expect(res.status).toBe(200);
    expect(res.json.title.raw).toBe(mock.store.events.get(ADMINS_EVENT)!.title);
    // Nobody is asking: no action is open to them.
    expect(Object.keys(res.json._links).some((rel) => rel.startsWith('wp:action-'))).toBe(false);
    expect(call(mock, 'GET', '/wp-json/cal/v1/events?context=bogus').status).toBe(400);
  });
});
