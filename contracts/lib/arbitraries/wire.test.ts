import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import type { WireRequest } from './model.ts';
import { encodeBody, fillPath, PLAIN_STYLE, render, toTyped, toUrl } from './wire.ts';

const contract = loadContractFile();
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const ints = { type: 'array', items: { type: 'integer' } };

describe('render: the spellings WordPress accepts', () => {
  it('writes integers and booleans as query strings carry them', () => {
    expect(render(int, 5, 'query', PLAIN_STYLE)).toBe('5');
    expect(render(int, -5, 'query', { ...PLAIN_STYLE, integers: 'decimal' })).toBe('-5.0');
    expect(render(bool, true, 'form', { ...PLAIN_STYLE, booleans: 'digit' })).toBe('1');
    expect(render(bool, false, 'query', { ...PLAIN_STYLE, booleans: 'mixed-case' })).toBe('False');
  });

  it('writes lists comma-separated or in brackets, and the empty list as ""', () => {
    expect(render(ints, [1, 2], 'query', PLAIN_STYLE)).toBe('1,2');
    expect(render(ints, [1, 2], 'query', { ...PLAIN_STYLE, arrays: 'brackets' })).toEqual(['1', '2']);
    expect(render(ints, [], 'query', PLAIN_STYLE)).toBe('');
    // An item with a comma or a space cannot be comma-joined (wp_parse_list would split it).
    expect(render({ type: 'array', items: { type: 'string' } }, ['a b', 'c'], 'query', PLAIN_STYLE)).toEqual(['a b', 'c']);
  });

  it('keeps JSON native, or as strings WordPress coerces alike', () => {
    expect(render(ints, [1, 2], 'json', PLAIN_STYLE)).toEqual([1, 2]);
    expect(render(ints, [1, 2], 'json', { ...PLAIN_STYLE, json: 'strings' })).toEqual(['1', '2']);
  });

  it('URL-encodes path values, keeping commas', () => {
    expect(fillPath('/a/{slug}/b/{id}', { slug: 'x y?#', id: '1,2' })).toBe('/a/x%20y%3F%23/b/1,2');
  });
});

function request(op: string, over: Partial<WireRequest>): WireRequest {
  const o = contract.operation(op);
  return { operationId: o.id, method: o.method, path: o.path, pathParams: {}, query: {}, headers: {}, ...over };
}

describe('toTyped: what WordPress validates', () => {
  it('coerces query strings by the parameter schemas', () => {
    const op = contract.operation('getCalV1Events');
    const typed = toTyped(op, request(op.id, { query: { per_page: '5.0', categories: '3,4', tags: ['5', '6'], featured: 'TRUE', search: '7' } }));
    expect(typed.query).toEqual({ per_page: 5, categories: [3, 4], tags: [5, 6], featured: true, search: '7' });
    expect(contract.validate(op, typed).valid).toBe(true);
  });

  it('parses a form body the PHP way', () => {
    const op = contract.operation('postBatchV1');
    const typed = toTyped(op, request(op.id, { body: { form: 'requests[0][method]=PUT&requests[0][path]=%2Fcal%2Fv1%2Fevents%2F5&requests[0][headers][X-A][]=1' } }));
    expect(typed.body).toEqual({ requests: [{ method: 'PUT', path: '/cal/v1/events/5', headers: { 'X-A': ['1'] } }] });
    expect(contract.validate(op, typed).valid).toBe(true);
  });

  it('leaves what WordPress refuses as it is, for the validator to report', () => {
    const op = contract.operation('getCalV1Events');
    const typed = toTyped(op, request(op.id, { query: { per_page: 'abc', featured: 'yes', search: ['x'] } }));
    expect(contract.validate(op, typed).issues.map((i) => `${i.keyword} ${i.instancePath}`).sort()).toEqual(['type /query/featured', 'type /query/per_page', 'type /query/search']);
  });
});

describe('toUrl and encodeBody', () => {
  const req: WireRequest = { operationId: 'getCalV1EventsById', method: 'GET', path: '/cal/v1/events/5', pathParams: { id: '5' }, query: { i18n_language: 'uk', status: ['publish', 'draft'] }, headers: {} };

  it('builds pretty-permalink URLs, with or without a language segment', () => {
    expect(toUrl('https://example.org/', '/wp-json', req)).toBe('https://example.org/wp-json/cal/v1/events/5?i18n_language=uk&status[]=publish&status[]=draft');
    expect(toUrl('https://example.org', 'uk/wp-json/', { ...req, query: {} })).toBe('https://example.org/uk/wp-json/cal/v1/events/5');
  });

  it('builds plain-permalink URLs with the route as rest_route', () => {
    expect(toUrl('https://example.org', '/?rest_route=', req)).toBe('https://example.org/?rest_route=/cal/v1/events/5&i18n_language=uk&status[]=publish&status[]=draft');
    expect(toUrl('https://example.org', '/uk/?rest_route=', { ...req, query: {} })).toBe('https://example.org/uk/?rest_route=/cal/v1/events/5');
  });

  it('gives the body with its content type', () => {
    expect(encodeBody({ ...req, body: { json: { a: 1 } } })).toEqual({ contentType: 'application/json', payload: '{"a":1}' });
    expect(encodeBody({ ...req, body: { form: 'a=1' } })).toEqual({ contentType: 'application/x-www-form-urlencoded', payload: 'a=1' });
    expect(encodeBody(req)).toBeUndefined();
  });
});
