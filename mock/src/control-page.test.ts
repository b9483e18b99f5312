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
    expect(recent).toContain('<span class="s4">400</span> <code>rest_invalid_param</code> (per_page)');
    // Each opens on its own page; the time taken with its precision, not 1.0 or 0.0.
    expect(recent).toContain('<a href="/__mock/requests/1" title="/wp-json/cal/v1/events?per_page=101">');
    expect(recent).toMatch(/<td class="num ms">\d+(\.\d+)? ms<\/td>/);
    expect(recent).not.toContain('<code>/__mock/');
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

  it('opens each recent request on its page: query, headers, bodies and the answer, every secret hidden as in the log', async () => {
    const mock = await freshMock({ auth: true });
    const admin = mock.credentials()!;
    const password = admin.password;
    call(mock, 'GET', `/wp-json/cal/v1/events?per_page=2&password=${encodeURIComponent(password)}&api_key=k-123&_wpnonce=n-456&keyword=jazz`, { auth: admin });
    const created = call(mock, 'POST', '/wp-json/lms/v1/token', { body: { username: 'student.anna', password: 'lantern-99b13b', nested: { access_token: 't-789' } } });
    call(mock, 'POST', '/wp-json/cal/v1/venues', { auth: admin, body: 'title=Form+hall&user_pass=p-000', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const list = call(mock, 'GET', '/__mock/', { auth: admin });
    for (const secret of [encodeURIComponent(password), 'k-123', 'n-456', 'lantern-99b13b', 't-789', 'p-000']) expect(list.body).not.toContain(secret);
    expect(list.body).toContain('per_page=2&amp;password=[hidden]&amp;api_key=[hidden]&amp;_wpnonce=[hidden]&amp;keyword=jazz');

    const read = call(mock, 'GET', '/__mock/requests/1', { auth: admin });
    expect(read.status).toBe(200);
    expect(read.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(read.body).toContain('<td class="value"><code>keyword</code></td><td class="value"><code>jazz</code></td>');
    expect(read.body).toContain('<td class="value"><code>password</code></td><td class="value"><code>[hidden]</code></td>');
    expect(read.body).toContain(`<td class="value"><code>authorization</code></td><td class="value"><code>Basic ${admin.username}:[hidden]</code></td>`);
    expect(read.body).toContain('<td class="value"><code>X-WP-Total</code></td>');
    expect(read.body).toContain('&quot;id&quot;:'); // the answer's body, pretty-printed JSON
    expect(read.body).not.toContain(encodeURIComponent(password));
    expect(read.body).not.toContain(Buffer.from(`${admin.username}:${password}`).toString('base64'));

    const token = call(mock, 'GET', '/__mock/requests/2', { auth: admin }).body;
    expect(token).toContain('&quot;password&quot;: &quot;[hidden]&quot;');
    expect(token).toContain('&quot;access_token&quot;: &quot;[hidden]&quot;');
    expect(token).toContain('&quot;username&quot;: &quot;student.anna&quot;');
    // The answer's token is a secret too.
    expect(created.json.token).toBeTypeOf('string');
    expect(token).not.toContain(created.json.token);
    const form = call(mock, 'GET', '/__mock/requests/3', { auth: admin }).body;
    expect(form).toContain('title=Form+hall&amp;user_pass=[hidden]');

    // Not kept (or never sent): a 404 page that says what the page keeps; a malformed number is no route.
    const gone = call(mock, 'GET', '/__mock/requests/99', { auth: admin });
    expect(gone.status).toBe(404);
    expect(gone.body).toContain('the page keeps the last 50 requests');
    expect(call(mock, 'GET', '/__mock/requests/01', { auth: admin }).status).toBe(404);
    expect(call(mock, 'GET', '/__mock/requests', { auth: admin }).json.code).toBe('mock_no_control_route');
    // Under --auth, the administrator's only, as every control route.
    expect(call(mock, 'GET', '/__mock/requests/1').status).toBe(401);
  });

  it('keeps large bodies by their size only, and says so', async () => {
    const mock = await freshMock();
    call(mock, 'POST', '/wp-json/cal/v1/events', { body: { title: 'Big', content: 'x'.repeat(70_000), start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' } });
    const page = call(mock, 'GET', '/__mock/requests/1').body;
    expect(page).toContain('Request body</h2><p class="lead">Over 64 KiB, not kept (the page keeps bodies up to 64 KiB).');
    expect(page).not.toContain('x'.repeat(1000));
  });

  it('escapes what a client sent', () => {
    const html = renderControlPage({
      routes: [{ namespace: 'cal/v1', path: '/cal/v1/events', methods: ['GET'] }],
      recent: [{ id: 1, at: '2026-11-22T12:00:00.000Z', method: 'GET', path: '/wp-json/x?q=<script>alert(1)</script>', status: 400, code: '<b>', params: ['"><img>'], ms: 1 }],
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
