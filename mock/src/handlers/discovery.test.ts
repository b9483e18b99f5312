// The root descriptor and namespace indexes, generated from the contract in WordPress's format (samples 01-03).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from '../index.ts';
import { call, freshMock, ORIGIN, sharedContract } from '../testing/harness.ts';

let mock: Mock;
beforeAll(async () => {
  mock = await freshMock();
});

describe('GET /wp-json/', () => {
  it('has the documented fields, the namespaces and the application-passwords entry', () => {
    const res = call(mock, 'GET', '/wp-json/');
    expect(res.status).toBe(200);
    expect(res.headers.Allow).toBe('GET');
    const d = res.json;
    for (const k of ['name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string', 'namespaces', 'authentication', 'routes']) expect(d).toHaveProperty(k);
    expect(d.timezone_string).toBe('Europe/Kyiv');
    expect(d.authentication).toEqual({ 'application-passwords': { endpoints: { authorization: `${ORIGIN}/wp-admin/authorize-application.php` } } });
    expect(d.namespaces).toEqual(sharedContract().namespaces.filter((n) => n !== '' && n !== 'batch/v1'));
    expect(d._links).toEqual({ help: [{ href: 'https://developer.wordpress.org/rest-api/' }] });
  });

  it('lists every route of the contract with methods, endpoints and args in WordPress format', () => {
    const routes = call(mock, 'GET', '/wp-json/').json.routes as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- descriptor JSON
    const templates = new Set(sharedContract().operations.map((o) => o.path));
    expect(Object.keys(routes)).toHaveLength(templates.size);
    expect(routes['/']).toEqual({
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: expect.objectContaining({ context: expect.objectContaining({ required: false }) }) }],
      _links: { self: [{ href: `${ORIGIN}/wp-json/` }] },
    });
    const item = routes['/cal/v1/events/(?P<id>[0-9]+)'];
    expect(item.namespace).toBe('cal/v1');
    expect(item.methods).toEqual(['GET', 'PUT', 'PATCH', 'DELETE']);
    expect(item.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['PUT', 'PATCH'], ['DELETE']]);
    expect(item.endpoints[0].allow_batch).toEqual({ v1: true });
    expect(item._links).toBeUndefined();
    const del = item.endpoints[2].args;
    expect(del.force).toEqual({ type: 'boolean', default: false, required: false });
    const list = routes['/cal/v1/events'].endpoints[0].args;
    expect(list.per_page).toEqual({ type: 'integer', default: 10, minimum: 1, maximum: 100, required: false });
    expect(list.status).toMatchObject({ type: 'array', items: { type: 'string', enum: ['publish', 'pending', 'draft', 'future', 'private'] }, default: ['publish'] });
    expect(routes['/cal/v1/events']._links).toEqual({ self: [{ href: `${ORIGIN}/wp-json/cal/v1/events` }] });
    const create = routes['/cal/events/v1/events'].endpoints[1].args;
    expect(create.title.required).toBe(true);
    // Defaults on the create, none on the update (EDITABLE endpoints; x-defaults-apply: create).
    expect(routes['/cal/v1/events'].endpoints[1].args.status.default).toBe('publish');
    expect(item.endpoints[1].args.status).toEqual({ type: 'string', enum: ['publish', 'pending', 'draft', 'future', 'private'], required: false });
    expect(routes['/batch/v1'].endpoints[0].args.requests.maxItems).toBe(25);
  });

  it('answers the same through ?rest_route=/ and under the language root (02)', () => {
    const plain = call(mock, 'GET', '/wp-json/').json;
    expect(call(mock, 'GET', '/?rest_route=/').json).toEqual(plain);
    expect(call(mock, 'GET', '/uk/wp-json/').json.routes['/cal/v1']._links.self[0].href).toBe(`${ORIGIN}/uk/wp-json/cal/v1`);
  });
});

describe('namespace index', () => {
  it('GET /wp-json/cal/v1 lists the namespace routes with _links.up (03)', () => {
    const res = call(mock, 'GET', '/wp-json/cal/v1');
    expect(res.json.namespace).toBe('cal/v1');
    expect(res.json._links).toEqual({ up: [{ href: `${ORIGIN}/wp-json/` }] });
    expect(Object.keys(res.json.routes)).toContain('/cal/v1/events/(?P<id>[0-9]+)');
    expect(res.json.routes['/cal/v1'].endpoints[0].args.namespace).toEqual({ default: 'cal/v1', required: false });
  });

  it('a namespace index reads ?namespace= before its own (get_namespace_index(), GET before URL); an unknown one is 404', () => {
    expect(call(mock, 'GET', '/wp-json/cal/events/v1?namespace=cal/v1').json).toEqual(call(mock, 'GET', '/wp-json/cal/v1').json);
    for (const asked of ['site-contracts-none', 'batch/v1', '']) {
      const res = call(mock, 'GET', `/wp-json/cal/v1?namespace=${encodeURIComponent(asked)}`);
      expect([asked, res.status, res.json.code]).toEqual([asked, 404, 'rest_invalid_namespace']);
    }
  });

  it('the documentation routes describe their namespace', () => {
    const doc = call(mock, 'GET', '/wp-json/cal/events/v1/doc').json;
    expect(Object.keys(doc.paths).every((p: string) => p.startsWith('/cal/events/v1'))).toBe(true);
    expect(doc.servers).toEqual([{ url: `${ORIGIN}/wp-json` }]);
  });
});
