import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../../contracts/lib/types.ts';
import {
  argsFromParams,
  displayRoute,
  optionsResponse,
  restUrl,
  routeDescriptor,
  routeMatches,
  routesIndex,
  toWpItemSchema,
  wpRouteFromTemplate,
  type RouteDescription,
} from './options.ts';
import { toWpArg, toWpSchema } from '../../../contracts/wordpress/schema/convert.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';

// Expected JSON is transcribed from the samples' raw bodies: 71 (OPTIONS /batch/v1), 51 (OPTIONS /wp/v2/posts),
// 01 (root index) and 03 (namespace index). Inputs are written the way the contract states them (JSON Schema 2020-12).

const ROOT = 'http://127.0.0.1:8089/wp-json/';

const batchRequests: JsonSchema = {
  type: 'array',
  maxItems: 25,
  items: {
    type: 'object',
    properties: {
      method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
      path: { type: 'string' },
      body: { type: 'object', properties: {}, additionalProperties: true },
      headers: { type: 'object', properties: {}, additionalProperties: { type: ['string', 'array'], items: { type: 'string' } } },
    },
    required: ['path'],
  },
};

const batchRoute: RouteDescription = {
  route: '/batch/v1',
  namespace: '',
  endpoints: [
    {
      methods: ['POST'],
      args: argsFromParams([
        { name: 'validation', required: false, schema: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' } },
        { name: 'requests', required: true, schema: batchRequests },
      ]),
    },
  ],
};

describe('routeDescriptor', () => {
  it('71: OPTIONS /batch/v1, byte for byte', () => {
    const { route, body } = optionsResponse([batchRoute], '/batch/v1', { apiRoot: ROOT });
    expect(route).toBe(batchRoute);
    expect(wpJsonEncode(body)).toBe(
      '{"namespace":"","methods":["POST"],"endpoints":[{"methods":["POST"],"args":{"validation":{"type":"string","enum":["require-all-validate","normal"],"default":"normal","required":false},"requests":{"type":"array","maxItems":25,"items":{"type":"object","properties":{"method":{"type":"string","enum":["POST","PUT","PATCH","DELETE"],"default":"POST"},"path":{"type":"string","required":true},"body":{"type":"object","properties":[],"additionalProperties":true},"headers":{"type":"object","properties":[],"additionalProperties":{"type":["string","array"],"items":{"type":"string"}}}}},"required":true}}}],"_links":{"self":[{"href":"http:\\/\\/127.0.0.1:8089\\/wp-json\\/batch\\/v1"}]}}',
    );
  });
  it('01: the root route, args with only a default', () => {
    const d = routeDescriptor({ route: '/', namespace: '', endpoints: [{ methods: ['GET'], args: { context: { default: 'view' } } }] }, { apiRoot: ROOT });
    expect(wpJsonEncode(d)).toBe('{"namespace":"","methods":["GET"],"endpoints":[{"methods":["GET"],"args":{"context":{"default":"view","required":false}}}],"_links":{"self":[{"href":"http:\\/\\/127.0.0.1:8089\\/wp-json\\/"}]}}');
  });
  it('51: key order namespace, methods, endpoints (methods, allow_batch, args), schema, _links', () => {
    const d = routeDescriptor(
      {
        route: '/wp/v2/posts',
        namespace: 'wp/v2',
        allow_batch: { v1: true },
        schema: toWpItemSchema({ title: 'post', type: 'object', properties: { id: { description: 'Unique identifier for the post.', type: 'integer', 'x-wp-context': ['view', 'edit', 'embed'], readOnly: true } } }),
        endpoints: [
          { methods: ['GET'], args: { page: toWpArg({ description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 }, false) } },
          { methods: ['POST'], args: {} },
        ],
      },
      { apiRoot: ROOT, context: 'help' },
    );
    expect(wpJsonEncode(d)).toBe(
      '{"namespace":"wp\\/v2","methods":["GET","POST"],"endpoints":[{"methods":["GET"],"allow_batch":{"v1":true},"args":{"page":{"description":"Current page of the collection.","type":"integer","default":1,"minimum":1,"required":false}}},{"methods":["POST"],"allow_batch":{"v1":true},"args":[]}],"schema":{"$schema":"http:\\/\\/json-schema.org\\/draft-04\\/schema#","title":"post","type":"object","properties":{"id":{"description":"Unique identifier for the post.","type":"integer","context":["view","edit","embed"],"readonly":true}}},"_links":{"self":[{"href":"http:\\/\\/127.0.0.1:8089\\/wp-json\\/wp\\/v2\\/posts"}]}}',
    );
    expect(routeDescriptor({ route: '/wp/v2/posts', namespace: 'wp/v2', schema: { type: 'object' }, endpoints: [{ methods: ['GET'] }] }, { apiRoot: ROOT })).not.toHaveProperty('schema');
  });
  it('variable routes have no _links; hidden handlers vanish; a route with none is dropped', () => {
    const item: RouteDescription = {
      route: '/wp/v2/posts/(?P<id>[\\d]+)',
      namespace: 'wp/v2',
      endpoints: [
        { methods: ['GET'], args: {} },
        { methods: ['POST', 'PUT', 'PATCH'], show_in_index: false },
        { methods: ['DELETE'], allow_batch: { v1: true } },
      ],
    };
    expect(routeDescriptor(item, { apiRoot: ROOT })).toEqual({
      namespace: 'wp/v2',
      methods: ['GET', 'DELETE'],
      endpoints: [
        { methods: ['GET'], args: [] },
        { methods: ['DELETE'], allow_batch: { v1: true }, args: [] },
      ],
    });
    expect(routeDescriptor({ route: '/x', namespace: 'x', endpoints: [{ methods: ['GET'], show_in_index: false }] }, { apiRoot: ROOT })).toBeNull();
    const index = routesIndex([item, batchRoute, { route: '/hidden', namespace: '', endpoints: [] }], { apiRoot: ROOT });
    expect(Object.keys(index)).toEqual(['/wp/v2/posts/(?P<id>[\\d]+)', '/batch/v1']);
  });
  it('prints only allowed keywords of an arg, and required as a boolean', () => {
    const d = routeDescriptor({ route: '/a', namespace: 'a', endpoints: [{ methods: ['GET'], args: { x: { type: 'string', sanitize_callback: 'f', required: 1, context: ['view'] }, y: 'type' as unknown as JsonSchema } }] }, { apiRoot: ROOT });
    expect(d?.endpoints[0]?.args).toEqual({ x: { type: 'string', required: true }, y: { type: 0, required: false } });
  });
});

describe('OPTIONS matching', () => {
  it('matches routes case-insensitively, first registered wins, [] when none', () => {
    const routes: RouteDescription[] = [{ route: '/wp/v2/posts/(?P<id>[\\d]+)', namespace: 'wp/v2', endpoints: [{ methods: ['GET'] }] }, batchRoute];
    expect(optionsResponse(routes, '/WP/V2/POSTS/5', { apiRoot: ROOT }).route).toBe(routes[0]);
    expect(optionsResponse(routes, '/wp/v2/posts/abc', { apiRoot: ROOT })).toEqual({ route: null, body: [] });
    expect(routeMatches('/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/(?P<uuid>[\\w\\-]+)', '/wp/v2/users/me/application-passwords/ab-1')).toBe(true);
  });
});

describe('routes from the contract', () => {
  it('turns path templates into WordPress routes and back', () => {
    expect(wpRouteFromTemplate('/cal/v1/events/{id}', { id: { type: 'integer' } })).toBe('/cal/v1/events/(?P<id>[\\d]+)');
    expect(wpRouteFromTemplate('/cal/v1/venues/{slug}', { slug: { type: 'string', pattern: '^[a-z-]+$' } })).toBe('/cal/v1/venues/(?P<slug>[a-z-]+)');
    expect(wpRouteFromTemplate('/x/{a}/{b}', { b: '[\\w-]+' })).toBe('/x/(?P<a>[^/]+)/(?P<b>[\\w-]+)');
    expect(displayRoute('/wp/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)')).toBe('/wp/v2/posts/{parent}/revisions/{id}');
    expect(restUrl(ROOT, '/wp/v2/posts')).toBe('http://127.0.0.1:8089/wp-json/wp/v2/posts');
    expect(restUrl('http://h/wp-json', '/')).toBe('http://h/wp-json/');
  });
});

describe('toWpArg / toWpSchema (JSON Schema 2020-12 → WordPress draft-04 args)', () => {
  it('51: posts collection args as WordPress prints them', () => {
    expect(
      toWpArg({ description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 }, false),
    ).toEqual({ description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100, required: false });
    expect(
      wpJsonEncode(
        toWpArg(
          {
            default: 'publish',
            description: 'Limit result set to posts assigned one or more statuses.',
            type: 'array',
            items: { enum: ['publish', 'future', 'draft'], type: 'string' },
          },
          false,
        ),
      ),
    ).toBe('{"default":"publish","description":"Limit result set to posts assigned one or more statuses.","type":"array","items":{"enum":["publish","future","draft"],"type":"string"},"required":false}');
    expect(wpJsonEncode(toWpArg({ description: 'The date the post was published, in the site\'s timezone.', type: ['string', 'null'], format: 'date-time' }, false))).toBe(
      '{"description":"The date the post was published, in the site\'s timezone.","type":["string","null"],"format":"date-time","required":false}',
    );
  });
  it('51: nested annotations stay, the top level is filtered', () => {
    const title: JsonSchema = {
      description: 'The title for the post.',
      type: 'object',
      'x-wp-context': ['view', 'edit', 'embed'],
      properties: {
        raw: { description: 'Title for the post, as it exists in the database.', type: 'string', 'x-wp-context': ['edit'] },
        rendered: { description: 'HTML title for the post, transformed for display.', type: 'string', 'x-wp-context': ['view', 'edit', 'embed'], readOnly: true },
      },
    };
    expect(wpJsonEncode(toWpArg(title, false))).toBe(
      '{"description":"The title for the post.","type":"object","properties":{"raw":{"description":"Title for the post, as it exists in the database.","type":"string","context":["edit"]},"rendered":{"description":"HTML title for the post, transformed for display.","type":"string","context":["view","edit","embed"],"readonly":true}},"required":false}',
    );
    expect(wpJsonEncode(toWpArg({ description: 'Meta fields.', type: 'object', properties: {} }, false))).toBe('{"description":"Meta fields.","type":"object","properties":[],"required":false}');
  });
  it('rewrites 2020-12 keywords', () => {
    expect(toWpSchema({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true });
    expect(toWpSchema({ type: 'number', minimum: 1, exclusiveMinimum: 0 })).toEqual({ type: 'number', minimum: 1 });
    expect(toWpSchema({ type: 'number', minimum: 0, exclusiveMinimum: 0 })).toEqual({ type: 'number', minimum: 0, exclusiveMinimum: true });
    expect(toWpSchema({ const: 'x' })).toEqual({ enum: ['x'] });
    expect(toWpSchema({ type: 'string', nullable: true })).toEqual({ type: ['string', 'null'] });
    expect(toWpSchema({ type: 'string', format: 'ipv4' })).toEqual({ type: 'string', format: 'ip' });
    expect(toWpSchema({ $schema: 'x', $id: 'y', examples: [1], type: 'string', deprecated: true, 'x-other': 1 })).toEqual({ type: 'string' });
    expect(toWpSchema({ anyOf: [{ type: 'string', const: 'a' }, { type: 'null' }] })).toEqual({ anyOf: [{ type: 'string', enum: ['a'] }, { type: 'null' }] });
    expect(toWpSchema({ type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'string', required: true } },
      required: ['a', 'b'],
    });
  });
  it('gives schemas the WordPress validator reads the same way', async () => {
    const { wpValidateValue } = await import('../../../contracts/wordpress/schema/index.ts');
    const requests = toWpArg(batchRequests, true);
    expect(wpValidateValue([{ method: 'POST' }], requests, 'requests')?.message).toBe('path is a required property of requests[0].');
    expect(wpValidateValue('0', toWpSchema({ type: 'integer', exclusiveMinimum: 0 }), 'n')?.message).toBe('n must be greater than 0');
  });
});
