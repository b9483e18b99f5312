// Add-on state where the documents make it obvious (001 §4): contact forms, redirections, module and mode
// settings, theme and plugin activation, import state callbacks, string lists with limit/offset.
import { absint } from '../../../../contracts/wordpress/php/index.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../../index.ts';
import { call, freshMock } from '../../testing/harness.ts';

let mock: Mock;
beforeEach(async () => {
  mock = await freshMock();
});

describe('forms/v1', () => {
  it('lists, creates, reads, updates and deletes contact forms', () => {
    const list = call(mock, 'GET', '/wp-json/forms/v1/contact-forms');
    expect(list.json.length).toBe(4);
    const created = call(mock, 'POST', '/wp-json/forms/v1/contact-forms', { body: { title: 'Volunteer sign-up', form: '[text* your-name] [email* your-email] [submit "Send"]' } });
    expect(created.status).toBe(201);
    const id = created.json.id;
    expect(call(mock, 'GET', `/wp-json/forms/v1/contact-forms/${id}`).json).toMatchObject({ id, title: 'Volunteer sign-up', properties: { form: '[text* your-name] [email* your-email] [submit "Send"]' } });
    expect(call(mock, 'PATCH', `/wp-json/forms/v1/contact-forms/${id}`, { body: { title: 'Volunteers' } }).json.title).toBe('Volunteers');
    expect(call(mock, 'DELETE', `/wp-json/forms/v1/contact-forms/${id}`).json.deleted).toBe(true);
    expect(call(mock, 'GET', `/wp-json/forms/v1/contact-forms/${id}`).json.code).toBe('wpcf7_not_found');
  });

  it('a submission is validated against the form tags and stored', () => {
    const before = mock.store.table('feedback').size;
    const bad = call(mock, 'POST', '/wp-json/forms/v1/contact-forms/5/feedback', { body: { 'your-name': 'Ann', 'your-email': 'not-an-address' } });
    expect(bad.json.status).toBe('validation_failed');
    expect(bad.json.invalid_fields.map((f: { field: string }) => f.field)).toEqual(['your-email', 'your-subject']);
    const good = call(mock, 'POST', '/wp-json/forms/v1/contact-forms/5/feedback', { body: { 'your-name': 'Ann', 'your-email': 'ann@example.com', 'your-subject': 'Hello' } });
    expect(good.json).toMatchObject({ contact_form_id: 5, status: 'mail_sent', invalid_fields: [] });
    expect(mock.store.table('feedback').size).toBe(before + 2);
    const schema = call(mock, 'GET', '/wp-json/forms/v1/contact-forms/5/feedback/schema').json;
    expect(schema.rules).toContainEqual({ rule: 'required', field: 'your-name', error: 'Please fill out this field.' });
  });
});

describe('seo/v1', () => {
  it('module state and mode', () => {
    call(mock, 'POST', '/wp-json/seo/v1/saveModule', { body: { module: '404-monitor', state: 'on' } });
    expect(mock.store.get('seoModules')['404-monitor']).toBe('on');
    expect(call(mock, 'PUT', '/wp-json/seo/v1/updateMode', { body: { mode: 'custom' } }).json.mode).toBe('custom');
    expect(call(mock, 'POST', '/wp-json/seo/v1/updateMode', { body: { mode: 'expert' } }).status).toBe(400);
  });

  it('redirections are set, changed and removed per object', () => {
    const set = call(mock, 'POST', '/wp-json/seo/v1/updateRedirection', { body: { objectID: 92, objectType: 'post', hasRedirect: true, redirectionUrl: 'https://example.org/new', redirectionType: '302' } });
    expect(set.json).toMatchObject({ success: true, objectID: 92, redirectionType: '302', redirectionUrl: 'https://example.org/new' });
    expect(mock.store.table('seoRedirections').get('post:92')?.redirectionType).toBe('302');
    call(mock, 'POST', '/wp-json/seo/v1/updateRedirection', { body: { objectID: 92, hasRedirect: false } });
    expect(mock.store.table('seoRedirections').get('post:92')).toBeUndefined();
  });

  it('tracked keywords are added and listed', () => {
    call(mock, 'POST', '/wp-json/seo/v1/an/addTrackKeyword', { body: { keyword: 'jazz kyiv' } });
    const rows = call(mock, 'GET', '/wp-json/seo/v1/an/getTrackedKeywordsRows?search=jazz%20kyiv').json;
    expect(rows.rows.map((r: { keyword: string }) => r.keyword)).toContain('jazz kyiv');
  });
});

describe('pagebuilder-one/v1', () => {
  it('one theme is active at a time; plugins activate, deactivate and migrate', () => {
    call(mock, 'POST', '/wp-json/pagebuilder-one/v1/themes/neutral-blocks/activate');
    const active = mock.store.table('pbThemes').values().filter((t) => t.status === 'active').map((t) => t.slug);
    expect(active).toEqual(['neutral-blocks']);
    expect(call(mock, 'POST', '/wp-json/pagebuilder-one/v1/plugins/pagebuilder-one-addon-f/activate').json.status).toBe('active');
    expect(call(mock, 'POST', '/wp-json/pagebuilder-one/v1/plugins/pagebuilder-one-addon-a/deactivate').json.status).toBe('inactive');
    expect(call(mock, 'GET', '/wp-json/pagebuilder-one/v1/plugins?status=inactive').json.map((p: { slug: string }) => p.slug)).toContain('pagebuilder-one-addon-a');
    expect(call(mock, 'POST', '/wp-json/pagebuilder-one/v1/plugins/pagebuilder-one-addon-c/migration/run').json.migration_state).toBe('migrated');
    expect(call(mock, 'POST', '/wp-json/pagebuilder-one/v1/plugins/pagebuilder-one-addon-c/migration/rollback').json.migration_state).toBe('rolled_back');
    expect(call(mock, 'POST', '/wp-json/pagebuilder-one/v1/plugins/no-such-plugin/activate').status).toBe(404);
  });
});

describe('cal/importer/v1', () => {
  it('the batch callback checks the expected hash and hands out the next one; the state callback records the outcome', () => {
    const job = mock.store.table('importJobs').values()[0]!;
    const wrong = call(mock, 'POST', `/wp-json/cal/importer/v1/import/${job.import_id}/batch`, { body: { batch_hash: 'nope', status: {}, percentage_complete: 10 } });
    expect(wrong.status).toBe(409);
    const next = call(mock, 'POST', `/wp-json/cal/importer/v1/import/${job.import_id}/batch`, { body: { batch_hash: job.batch_hash, status: { done: 10 }, percentage_complete: 40 } });
    expect(next.json).toMatchObject({ status: 'success', percentage_complete: 40 });
    const state = call(mock, 'POST', `/wp-json/cal/importer/v1/import/${job.import_id}/state`, {
      body: { batch_hash: next.json.next_batch_hash, status: 'failed', message: 'Feed unreachable', message_slug: 'feed-unreachable', percentage_complete: 40 },
    });
    expect(state.json.state).toBe('failed');
    expect(mock.store.table('importJobs').get(job.import_id)).toMatchObject({ status: 'failed', message: 'Feed unreachable' });
    expect(call(mock, 'POST', '/wp-json/cal/importer/v1/import/unknown_job/state', { body: { batch_hash: 'x', status: 'success', message: 'm', message_slug: 's', percentage_complete: 1 } }).status).toBe(404);
  });
});

describe('i18n/st/v1', () => {
  it('string lists page with limit and offset, and count with the same filters', () => {
    const all = call(mock, 'GET', '/wp-json/i18n/st/v1/strings?limit=1000').json;
    const page = call(mock, 'GET', '/wp-json/i18n/st/v1/strings?limit=5&offset=3').json;
    expect(page).toEqual(all.slice(3, 8));
    expect(call(mock, 'GET', '/wp-json/i18n/st/v1/strings/itemscount').json.count).toBe(all.length);
    const cal = call(mock, 'GET', '/wp-json/i18n/st/v1/strings?domain=cal&limit=1000').json;
    expect(cal.every((s: { domain: string }) => s.domain === 'cal')).toBe(true);
  });

  it('string settings: a POST sets the flags (unsent ones take their documented default 0)', () => {
    const res = call(mock, 'POST', '/wp-json/i18n/st/v1/strings/settings', { body: { autoregisterType: 2 } });
    expect(res.json).toEqual({ autoregisterType: 2, shouldRegisterBackendStrings: 0, setNoticeThatCachePluginCanBlockAutoregisterAsDismissed: 0, setDetectStringsInJS: 0 });
  });
});

describe('oembed/1.0', () => {
  it('embeds a published event page, at most 600 wide, as JSON or XML (84, 88, 89); others are oembed_invalid_url (86)', () => {
    const event = call(mock, 'GET', '/wp-json/cal/v1/events/92').json;
    const res = call(mock, 'GET', `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(event.link)}&maxwidth=300`);
    expect(res.json).toMatchObject({ version: '1.0', type: 'rich', width: 300, height: 169, title: event.title.rendered });
    const xml = call(mock, 'GET', `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(event.link)}&format=xml`);
    expect(xml.headers['Content-Type']).toBe('text/xml; charset=UTF-8');
    expect(xml.body).toMatch(/^<\?xml version="1.0"\?>\n<oembed><version>1.0<\/version>/);
    expect(call(mock, 'GET', '/wp-json/oembed/1.0/embed?url=not-a-url').json).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
    expect(call(mock, 'GET', '/wp-json/oembed/1.0/embed').json).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): url', data: { status: 400, params: ['url'] } });
  });

  it('with format=xml the embed route answers its refusals as XML too (_oembed_rest_pre_serve_request()); the proxy does not', () => {
    const missing = call(mock, 'GET', '/wp-json/oembed/1.0/embed?format=xml');
    expect([missing.status, missing.headers['Content-Type']]).toEqual([400, 'text/xml; charset=UTF-8']);
    expect(missing.body).toBe('<?xml version="1.0"?>\n<oembed><code>rest_missing_callback_param</code><message>Missing parameter(s): url</message><data><status>400</status><params><oembed>url</oembed></params></data></oembed>\n');
    const unknown = call(mock, 'GET', '/wp-json/oembed/1.0/embed?url=not-a-url&format=xml');
    expect([unknown.status, unknown.body]).toEqual([404, '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n']);
    expect(call(mock, 'GET', '/wp-json/oembed/1.0/proxy?format=xml').headers['Content-Type']).toBe('application/json; charset=UTF-8');
    // Its successes too: _oembed_rest_pre_serve_request() looks at the embed route alone.
    const event = call(mock, 'GET', '/wp-json/cal/v1/events/92').json;
    const proxied = call(mock, 'GET', `/wp-json/oembed/1.0/proxy?url=${encodeURIComponent(event.link)}&format=xml`);
    expect([proxied.status, proxied.headers['Content-Type']]).toEqual([200, 'application/json; charset=UTF-8']);
    expect(proxied.json).toMatchObject({ version: '1.0', type: 'rich', title: event.title.rendered });
  });

  it('the proxy cleans maxwidth and maxheight with absint() as WordPress registers them: abc is 0 (then the 200 floor), -300 is 300, 350px is 350; never a 400', () => {
    const event = call(mock, 'GET', '/wp-json/cal/v1/events/92').json;
    const proxy = (q: string) => call(mock, 'GET', `/wp-json/oembed/1.0/proxy?url=${encodeURIComponent(event.link)}&${q}`);
    for (const [q, width] of [['maxwidth=abc', 200], ['maxwidth=-300', 300], ['maxwidth=350px', 350], ['maxwidth=1e3', 600], ['maxwidth[]=5', 200], ['maxheight=abc', 600]] as const) {
      const res = proxy(q);
      expect(res.status, q).toBe(200);
      expect(res.json.width, q).toBe(width);
    }
    expect(absint('  42abc')).toBe(42);
    expect(absint('-7.9')).toBe(7);
    expect(absint(true)).toBe(1);
    expect(absint(null)).toBe(0);
  });

  it('html is get_post_embed_html(): the texturized title, an esc_attr() iframe title, then wp-embed.min.js (84)', () => {
    const created = call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'Curator\'s "Late" Tour & more', status: 'publish' } }).json;
    const res = call(mock, 'GET', `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(created.link)}`).json;
    expect(res.title).toBe('Curator&#8217;s &#8220;Late&#8221; Tour &#038; more');
    const secret = /data-secret="([A-Za-z0-9]{10})"/.exec(res.html)![1];
    expect(res.html).toContain(`<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${created.link}">Curator&#8217;s &#8220;Late&#8221; Tour &#038; more</a></blockquote>`);
    expect(res.html).toContain(' title="&#8220;Curator&#8217;s &#8220;Late&#8221; Tour &#038; more&#8221; &#8212; City Events" ');
    expect(res.html).toMatch(/<\/iframe><script>\n\/\*! This file is auto-generated \*\/\n!function\(c,d\)\{"use strict";[\s\S]*\}\(window,document\);\n<\/script>\n$/);
    // XML: libxml reads the entities and writes every non-ASCII character as a hexadecimal reference.
    const xml = call(mock, 'GET', `/wp-json/oembed/1.0/embed?url=${encodeURIComponent(created.link)}&format=xml`).body;
    expect(xml).toContain('<title>Curator&#x2019;s &#x201C;Late&#x201D; Tour &amp; more</title>');
    expect(xml).toContain('title="&#x201C;Curator&#x2019;s');
    expect(xml).toContain('&lt;/iframe&gt;&lt;script&gt;');
  });
});
