// Route keys and matching as WP_REST_Server::match_request_to_handler() does them (WordPress 6.1.9, checked on the
// reference server where a comment says so).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRoute, displayRoute, RouteMatcher, routeKey, routePatternOf, routeTemplate, type RegisteredRoute } from './routes.ts';

const r = (route: string, namespace: string, ...methods: string[]): RegisteredRoute => ({ route, namespace, methods });

describe('route keys', () => {
  it('turn path templates into WordPress routes and back', () => {
    expect(routeKey('/cal/v1/events/{id}', () => '[0-9]+')).toBe('/cal/v1/events/(?P<id>[0-9]+)');
    expect(routeKey('/x/{a}/{b}', (n) => (n === 'a' ? '[^/]+' : '[\\w-]+'))).toBe('/x/(?P<a>[^/]+)/(?P<b>[\\w-]+)');
    expect(routePatternOf('^[a-z-]+$')).toBe('[a-z-]+');
    expect(routePatternOf('[a-z-]+')).toBeUndefined();
    expect(routeTemplate('/cal/v1/events/(?P<id>[\\d]+)')).toBe('/cal/v1/events/{id}');
    expect(routeTemplate('/wp/v2/templates/(?P<id>([^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)[\\/\\w-]+)')).toBe('/wp/v2/templates/{id}');
    expect(routeTemplate('/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords')).toBe('/wp/v2/users/{user_id}/application-passwords');
  });
  it('routeTemplate() undoes routeKey() for any pattern without a named group of its own', () => {
    const segment = fc.stringMatching(/^[a-z0-9.-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(segment, segment.map((s) => `{${s.replace(/[^a-z]/g, '') || 'p'}}`)), { minLength: 1, maxLength: 5 }), (parts) => {
        const template = `/${parts.join('/')}`;
        expect(routeTemplate(routeKey(template, () => '(?:[\\d]+|me)'))).toBe(template);
      }),
    );
  });
  it("get_data_for_route()'s display cuts a nested group short, as WordPress's lazy pattern does", () => {
    expect(displayRoute('/wp/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)')).toBe('/wp/v2/posts/{parent}/revisions/{id}');
    expect(displayRoute('/wp/v2/users/(?P<user_id>(?:[\\d]+|me))')).toBe('/wp/v2/users/{user_id})');
  });
});

describe('RouteMatcher', () => {
  const routes = [
    r('/', '', 'GET'),
    r('/wp/v2/posts', 'wp/v2', 'GET', 'POST'),
    r('/wp/v2/posts/(?P<id>[\\d]+)', 'wp/v2', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'),
    r('/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/(?P<uuid>[\\w\\-]+)', 'wp/v2', 'GET'),
    r('/batch/v1', '', 'POST'),
    r('/oembed/1.0/embed', 'oembed/1.0', 'GET'),
  ];
  const m = new RouteMatcher(routes);

  it('matches case-insensitively, with the named groups as path parameters', () => {
    expect(m.match('GET', '/WP/V2/POSTS/5')).toEqual({ kind: 'match', route: routes[2], method: 'GET', pathParams: { id: '5' } });
    expect(m.match('GET', '/wp/v2/users/me/application-passwords/ab-1')).toMatchObject({ kind: 'match', pathParams: { user_id: 'me', uuid: 'ab-1' } });
  });
  it('a method the route lacks is no-method (WordPress: 404 rest_no_route), an unknown path no-route', () => {
    expect(m.match('DELETE', '/wp/v2/posts')).toEqual({ kind: 'no-method', route: routes[1], pathParams: {} });
    expect(m.match('GET', '/batch/v1')).toMatchObject({ kind: 'no-method', route: routes[4] });
    expect(m.match('GET', '/wp/v2/posts/abc')).toEqual({ kind: 'no-route' });
    expect(m.matching('/wp/v2/posts/abc')).toBeUndefined();
  });
  it('HEAD is served by the GET handler', () => {
    expect(m.match('HEAD', '/wp/v2/posts')).toMatchObject({ kind: 'match', method: 'GET' });
    expect(new RouteMatcher([r('/a', 'a', 'POST')]).match('HEAD', '/a').kind).toBe('no-method');
  });
  it('a dot in a route is a regex dot, as in preg_match (WordPress 6.1.9 serves /wp-json/oembed/1x0/embed)', () => {
    expect(m.match('GET', '/oembed/1x0/embed')).toMatchObject({ kind: 'match', route: routes[5] });
    expect(compileRoute('/oembed/1.0/embed').test('/oembed/1.0/embed/')).toBe(false);
  });
  it('tries the routes of every namespace the path starts with (strpos() === 0, no boundary), in namespace order', () => {
    const nested = [r('/seo/v1/an/(?P<x>.+)', 'seo/v1/an', 'GET'), r('/seo/v1/(?P<y>.+)', 'seo/v1', 'GET')];
    // seo/v1/an registered first: its routes come first, though both namespaces' routes match.
    expect(new RouteMatcher(nested).match('GET', '/seo/v1/an/z')).toMatchObject({ route: nested[0], pathParams: { x: 'z' } });
    expect(new RouteMatcher([...nested].reverse()).match('GET', '/seo/v1/an/z')).toMatchObject({ route: nested[1], pathParams: { y: 'an/z' } });
    // No namespace prefix (case differs): every route, in registration order.
    expect(new RouteMatcher(nested).match('GET', '/SEO/v1/an/z')).toMatchObject({ route: nested[0] });
  });
  it('with a namespace prefix, routes outside it are not tried (WordPress narrows the list first)', () => {
    const m2 = new RouteMatcher([r('/(?P<any>.+)', 'other', 'GET'), r('/ns/a', 'ns', 'POST')]);
    expect(m2.match('GET', '/ns/a')).toMatchObject({ kind: 'no-method', route: { route: '/ns/a' } });
    expect(m2.match('GET', '/elsewhere')).toMatchObject({ kind: 'match', route: { route: '/(?P<any>.+)' } });
  });
});
