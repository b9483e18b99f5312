// GET /__mock/ through the mock's core: a page for people with what the mock has seen and holds. Its rendering
// escapes whatever a client sent; under --auth it opens to the administrator only, and the browser is asked.
import { describe, expect, it } from 'vitest';
import { renderControlPage } from './control-page.ts';
import { call, freshMock } from './testing/harness.ts';

describe('GET /__mock/', () => {
  it('is an HTML page with the recent requests, the store counts and the routes by namespace', async () => {
    const mock = await freshMock();
    call(mock, 'GET', '/wp-json/cal/v1/events?per_page=101');
    call(mock, 'GET', '/wp-json/cal/v1/venues?per_page=2');
    const page = call(mock, 'GET', '/__mock/');
    expect(page.status).toBe(200);
    expect(page.headers['Content-Type']).toBe('text/html; charset=UTF-8');
    expect(page.headers['Content-Security-Policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<title>site-contracts mock</title>');
    // Recent requests, newest first, with status, code and the parameter named.
    const recent = page.body.slice(page.body.indexOf('id="recent"'), page.body.indexOf('id="store"'));
    expect(recent.indexOf('/wp-json/cal/v1/venues?per_page=2')).toBeLessThan(recent.indexOf('/wp-json/cal/v1/events?per_page=101'));
    expect(recent).toContain('400 <code>rest_invalid_param</code> (per_page)');
    expect(recent).not.toContain('/__mock/');
    // Counts per table, as the store has them.
    expect(page.body).toContain(`<li><span>event</span> <b>${mock.store.events.size}</b></li>`);
    expect(page.body).toContain(`<li><span>contactForms</span> <b>${mock.store.table('contactForms').size}</b></li>`);
    // Routes: a collection is a link, a route with a path parameter is not.
    expect(page.body).toContain('<a href="/wp-json/cal/v1/events">/cal/v1/events</a>');
    expect(page.body).toMatch(/<code>\/cal\/v1\/events\/\{id\}<\/code><\/td><td><code>GET (POST |PUT |PATCH |DELETE )+/);
    expect(page.body).toContain('<form method="post" action="/__mock/reset"');
    for (const asset of ['/__mock/page.js', '/__mock/page.css']) expect(call(mock, 'GET', asset).status).toBe(200);
  });

  it('counts what was written: after a create the page shows one event more, after reset the fixtures again', async () => {
    const mock = await freshMock();
    const before = mock.store.events.size;
    expect(call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'Counted', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' } }).status).toBe(201);
    expect(call(mock, 'GET', '/__mock/').body).toContain(`<li><span>event</span> <b>${before + 1}</b></li>`);
    expect(call(mock, 'POST', '/__mock/reset').status).toBe(200);
    expect(call(mock, 'GET', '/__mock/').body).toContain(`<li><span>event</span> <b>${before}</b></li>`);
  });

  it('under --auth: asks the browser for credentials, refuses an editor, and opens to the administrator', async () => {
    const mock = await freshMock({ auth: true });
    const none = call(mock, 'GET', '/__mock/');
    expect(none.status).toBe(401);
    expect(none.headers['WWW-Authenticate']).toBe('Basic realm="site-contracts mock"');
    expect(call(mock, 'POST', '/__mock/reset').status).toBe(401);
    const admin = mock.credentials()!;
    const page = call(mock, 'GET', '/__mock/', { auth: admin });
    expect(page.status).toBe(200);
    expect(page.body).toContain('--auth: writes need credentials');
    expect(call(mock, 'POST', '/__mock/reset', { auth: admin }).status).toBe(200);
  });

  it('escapes what a client sent', () => {
    const html = renderControlPage({
      routes: [{ namespace: 'cal/v1', path: '/cal/v1/events', methods: ['GET'] }],
      recent: [{ at: '2026-11-22T12:00:00.000Z', method: 'GET', path: '/wp-json/x?q=<script>alert(1)</script>', status: 400, code: '<b>', params: ['"><img>'], ms: 1 }],
      counts: { event: 1 },
      auth: false,
      apiRoot: '/wp-json',
    });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('"><img>');
    expect(html.match(/<script/g)).toHaveLength(1);
  });
});
