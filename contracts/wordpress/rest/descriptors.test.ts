import { describe, expect, it } from 'vitest';
import { wpJsonEncode } from '../php/index.ts';
import { toWpArg, toWpItemSchema } from '../schema/convert.ts';
import type { WpSchema } from '../schema/types.ts';
import { BATCH_REQUESTS } from './batch-requests.cases.ts';
import { restUrl, routeDescriptor, routesIndex, type RouteDescription } from './descriptors.ts';
import { RouteMatcher } from './routes.ts';

// Expected JSON is transcribed from the samples' raw bodies: 71 (OPTIONS /batch/v1), 51 (OPTIONS /wp/v2/posts),
// 01 (root index) and 03 (namespace index). Inputs are written the way the contract states them (JSON Schema 2020-12).

const ROOT = 'http://127.0.0.1:8089/wp-json/';


const batchRoute: RouteDescription = {
  route: '/batch/v1',
  namespace: '',
  endpoints: [
    {
      methods: ['POST'],
      args: {
        validation: toWpArg({ type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' }, false),
        requests: toWpArg(BATCH_REQUESTS, true),
      },
    },
  ],
};

describe('routeDescriptor', () => {
  it('71: OPTIONS /batch/v1, byte for byte', () => {
    // rest_handle_options_request(): the first route matching the path, described in the help context.
    const m = new RouteMatcher([{ ...batchRoute, methods: ['POST'] }]).matching('/batch/v1');
    expect(m?.route.route).toBe('/batch/v1');
    expect(wpJsonEncode(routeDescriptor(batchRoute, { apiRoot: ROOT, context: 'help' }))).toBe(
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
  it('restUrl(): the API root plus the route without its leading slash', () => {
    expect(restUrl(ROOT, '/wp/v2/posts')).toBe('http://127.0.0.1:8089/wp-json/wp/v2/posts');
    expect(restUrl('http://h/wp-json', '/')).toBe('http://h/wp-json/');
  });
  it('prints only allowed keywords of an arg, and required as a boolean', () => {
    const d = routeDescriptor({ route: '/a', namespace: 'a', endpoints: [{ methods: ['GET'], args: { x: { type: 'string', sanitize_callback: 'f', required: 1, context: ['view'] }, y: 'type' as unknown as WpSchema } }] }, { apiRoot: ROOT });
    expect(d?.endpoints[0]?.args).toEqual({ x: { type: 'string', required: true }, y: { type: 0, required: false } });
  });
});

