// REST discovery: the site's pages say where the API is, as WordPress's do (rest_output_link_header(),
// rest_output_link_wp_head()), so a client given only the site's address finds it. The live WordPress 6.1.9 of the
// reference stack answers `curl -sI http://127.0.0.1:8089/` with
//   HTTP/1.1 200 OK / Link: <http://127.0.0.1:8089/wp-json/>; rel="https://api.w.org/" / Content-Type: text/html; charset=UTF-8
// and an unknown page with 404, `Expires: Wed, 11 Jan 1984 05:00:00 GMT`, `Cache-Control: no-cache, must-revalidate,
// max-age=0`, the same Link header, text/html; its front page's <head> holds
// `<link rel="https://api.w.org/" href="http://127.0.0.1:8089/wp-json/" />`.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WPAPI from 'wpapi';
import type { Mock } from '../index.ts';
import { listen, type Listening } from '../adapters/node-http.ts';
import { call, freshMock, ORIGIN } from '../testing/harness.ts';

const API_LINK = `<${ORIGIN}/wp-json/>; rel="https://api.w.org/"`;

describe('front-end pages carry the API address', () => {
  let mock: Mock;
  beforeAll(async () => {
    mock = await freshMock();
  });

  it('GET / answers 200 with the Link header and the <link> element; HEAD / the same headers without a body', () => {
    const get = call(mock, 'GET', '/');
    expect(get.status).toBe(200);
    expect(get.headers).toEqual({ Link: API_LINK, 'Content-Type': 'text/html; charset=UTF-8' });
    expect(get.body).toContain(`<link rel="https://api.w.org/" href="${ORIGIN}/wp-json/" />`);
    expect(get.body.startsWith('<!DOCTYPE html>')).toBe(true);
    const head = call(mock, 'HEAD', '/');
    expect(head.status).toBe(200);
    expect(head.headers).toEqual(get.headers);
    expect(head.body).toBe('');
    // A query string, index.php, another method, an empty rest_route: still the front page.
    for (const [method, url] of [['GET', '/?s=jazz'], ['GET', '/index.php'], ['POST', '/'], ['GET', '/?rest_route=']]) {
      expect(call(mock, method!, url!).status, `${method} ${url}`).toBe(200);
    }
  });

  it('the Ukrainian front page points at the Ukrainian API root', () => {
    const res = call(mock, 'GET', '/uk/');
    expect(res.status).toBe(200);
    expect(res.headers.Link).toBe(`<${ORIGIN}/uk/wp-json/>; rel="https://api.w.org/"`);
    expect(res.body).toContain('<html lang="uk">');
  });

  it("a published event's page adds its REST URL as the alternate; a draft's or an unknown page is WordPress's 404", () => {
    const event = mock.store.events.values().find((e) => e.status === 'publish' && e.lang === 'en' && e.slug !== '')!;
    const page = call(mock, 'GET', `/event/${event.slug}/`);
    expect(page.status).toBe(200);
    expect(page.headers.Link).toBe(`${API_LINK}, <${ORIGIN}/wp-json/cal/v1/events/${event.id}>; rel="alternate"; type="application/json"`);
    expect(page.body).toContain(`<link rel="alternate" type="application/json" href="${ORIGIN}/wp-json/cal/v1/events/${event.id}" />`);
    const draft = mock.store.events.values().find((e) => e.status === 'draft' && e.slug !== '');
    if (draft) expect(call(mock, 'GET', `/event/${draft.slug}/`).status).toBe(404);
    const missing = call(mock, 'GET', '/no-such-page/');
    expect(missing.status).toBe(404);
    expect(missing.headers).toEqual({ Expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'Cache-Control': 'no-cache, must-revalidate, max-age=0', Link: API_LINK, 'Content-Type': 'text/html; charset=UTF-8' });
    expect(call(mock, 'GET', '/event/toString/').status).toBe(404);
    expect(call(mock, 'GET', '/__proto__/x/').status).toBe(404);
  });

  it('the REST API itself is unchanged', () => {
    expect(call(mock, 'GET', '/wp-json/').headers['Content-Type']).toBe('application/json; charset=UTF-8');
    expect(call(mock, 'GET', '/?rest_route=/').status).toBe(200);
  });
});

describe('WPAPI.discover() of the wpapi package, over HTTP', () => {
  let mock: Mock;
  let server: Listening;
  beforeAll(async () => {
    mock = await freshMock();
    server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('finds the API from the site address, learns its routes, and lists events', async () => {
    const problems = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const site = await WPAPI.discover(server.url);
    // discover() falls back to default routes (logging why) when anything after the Link header fails: it did not.
    expect(problems).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
    problems.mockRestore();
    warnings.mockRestore();
    expect((site as unknown as { _options: { endpoint: string } })._options.endpoint).toBe(`${server.url}/wp-json/`);
    // Handlers of the site's own routes are made from the descriptor at run time, so @types/wpapi cannot name them.
    const ns = (name: string) => site.namespace(name) as unknown as { events(): WPAPI.WPRequest };
    const events: { id: number }[] & { _paging: { total: number } } = await ns('cal/v1').events().perPage(2).get();
    expect(events).toHaveLength(2);
    expect(events._paging.total).toBe(Number(call(mock, 'HEAD', '/wp-json/cal/v1/events').headers['X-WP-Total']));
    const one: { id: number } = await ns('cal/v1').events().id(events[0]!.id).get();
    expect(one.id).toBe(events[0]!.id);
    const legacy: unknown = await ns('cal/events/v1').events().get();
    expect(Array.isArray(legacy)).toBe(true);
  });
});
