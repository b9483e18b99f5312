import { describe, expect, it } from 'vitest';
import type { JsonSchema, ValidationIssue } from '../../../contracts/lib/types.ts';
import {
  alreadyTrashed,
  cannotCreate,
  cannotDelete,
  criticalError,
  forbidden,
  forbiddenContext,
  invalidId,
  invalidJson,
  jsonpCallbackInvalid,
  missingParams,
  noRoute,
  pageBeyond,
  payloadTooLarge,
  prefer,
  wpError,
} from './errors.ts';
import { defaultWpPhase, invalidParams, isEnforcedByWordPress, phaseOfFor } from './invalid-params.ts';
import { phpJsonDecode, phpParseStr, wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';

// Bodies below are the raw bodies of the WordPress 6.1.9 samples (samples.json), transcribed.

function issue(over: Partial<ValidationIssue> & Pick<ValidationIssue, 'param' | 'keyword'>): ValidationIssue {
  const location = over.location ?? 'query';
  return {
    location,
    instancePath: `/${location}/${over.param}`,
    wpParam: over.param,
    message: 'contract says no',
    params: {},
    ...over,
  };
}

const postsQuery: Record<string, JsonSchema> = {
  context: { type: 'string', enum: ['view', 'embed', 'edit'], default: 'view' },
  page: { type: 'integer', default: 1, minimum: 1 },
  per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
  search: { type: 'string' },
  include: { type: 'array', items: { type: 'integer' }, default: [] },
  order: { type: 'string', default: 'desc', enum: ['asc', 'desc'] },
  orderby: { type: 'string', default: 'date', enum: ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'] },
  status: {
    type: 'array',
    items: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit', 'request-pending', 'request-confirmed', 'request-failed', 'request-completed', 'any'] },
  },
  sticky: { type: 'boolean' },
};

describe('fixed errors (samples 08, 23, 25, 36, 30, 17, 39, 55)', () => {
  it('rest_no_route', () => {
    expect(wpJsonEncode(noRoute().body)).toBe('{"code":"rest_no_route","message":"No route was found matching the URL and request method.","data":{"status":404}}');
    expect(noRoute().status).toBe(404);
  });
  it('invalid id and page beyond', () => {
    expect(invalidId('rest_post_invalid_id')).toEqual({ status: 404, body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } } });
    expect(invalidId('rest_event_invalid_id').body.message).toBe('Invalid event ID.');
    expect(invalidId('rest_term_invalid', 'Term does not exist.').body.message).toBe('Term does not exist.');
    expect(wpJsonEncode(pageBeyond().body)).toBe(
      '{"code":"rest_post_invalid_page_number","message":"The page number requested is larger than the number of pages available.","data":{"status":400}}',
    );
  });
  it('already trashed, 410', () => {
    expect(alreadyTrashed()).toEqual({ status: 410, body: { code: 'rest_already_trashed', message: 'The post has already been deleted.', data: { status: 410 } } });
  });
  it('permission errors are 401 anonymous, 403 logged in', () => {
    expect(wpJsonEncode(cannotCreate(false).body)).toBe('{"code":"rest_cannot_create","message":"Sorry, you are not allowed to create posts as this user.","data":{"status":401}}');
    expect(cannotCreate(true).status).toBe(403);
    expect(wpJsonEncode(forbiddenContext(false).body)).toBe('{"code":"rest_forbidden_context","message":"Sorry, you are not allowed to edit posts in this post type.","data":{"status":401}}');
    expect(cannotDelete(false).body.message).toBe('Sorry, you are not allowed to delete this post.');
    expect(forbidden(true)).toEqual({ status: 403, body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 403 } } });
  });
  it('missing params list the names as an array', () => {
    expect(wpJsonEncode(missingParams(['name']).body)).toBe('{"code":"rest_missing_callback_param","message":"Missing parameter(s): name","data":{"status":400,"params":["name"]}}');
    expect(missingParams(['a', 'b']).body.message).toBe('Missing parameter(s): a, b');
  });
  it('invalid JSON carries PHP json_last_error() and its message', () => {
    const expected = '{"code":"rest_invalid_json","message":"Invalid JSON body passed.","data":{"status":400,"json_error_code":4,"json_error_message":"Syntax error"}}';
    expect(wpJsonEncode(invalidJson('Syntax error').body)).toBe(expected);
    const decoded = phpJsonDecode('{"title": "broken",');
    if (decoded.ok) throw new Error('should fail');
    expect(wpJsonEncode(invalidJson(decoded).body)).toBe(expected);
    expect(invalidJson('Control character error, possibly incorrectly encoded').body.data).toMatchObject({ json_error_code: 3 });
  });
  it('JSONP errors have no data; the status comes from serve_request()', () => {
    expect(jsonpCallbackInvalid()).toEqual({ status: 400, body: { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' } });
  });
});

describe('wpError', () => {
  it('defaults to 500 and keeps additional data in order (sample 40, term_exists)', () => {
    expect(wpError('x', 'y').status).toBe(500);
    const r = wpError('term_exists', 'A term with the name provided already exists with this parent.', { status: 400, term_id: 2 }, { additionalData: [2, 2] });
    expect(wpJsonEncode(r.body)).toBe('{"code":"term_exists","message":"A term with the name provided already exists with this parent.","data":{"status":400,"term_id":2},"additional_data":[2,2]}');
    expect(r.status).toBe(400);
  });
  it('takes the last status across all error data', () => {
    const r = wpError('a', 'A', { status: 400 }, { additionalErrors: [{ code: 'b', message: 'B', data: { status: 409 } }] });
    expect(r.status).toBe(409);
    expect(r.body.additional_errors).toEqual([{ code: 'b', message: 'B', data: { status: 409 } }]);
  });
});

describe('other statuses', () => {
  it('prefer() gives a WordPress-shaped error per status', () => {
    expect(prefer(200)).toBeNull();
    expect(prefer(404)).toEqual(noRoute());
    expect(prefer(401)?.body).toEqual({ code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } });
    expect(prefer(403)?.status).toBe(403);
    expect(prefer(429)?.body).toEqual({ code: 'rest_too_many_requests', message: 'Too many requests.', data: { status: 429 } });
    expect(prefer(418)?.body).toEqual({ code: 'rest_client_error', message: 'HTTP 418.', data: { status: 418 } });
    expect(prefer(500)).toEqual(criticalError());
    expect(wpJsonEncode(criticalError().body)).toBe(
      '{"code":"internal_server_error","message":"<p>There has been a critical error on this website.<\\/p><p><a href=\\"https:\\/\\/wordpress.org\\/support\\/article\\/faq-troubleshooting\\/\\">Learn more about troubleshooting WordPress.<\\/a><\\/p>","data":{"status":500},"additional_errors":[]}',
    );
  });
  it('payloadTooLarge is 413 with the limit', () => {
    expect(payloadTooLarge(1024)).toEqual({
      status: 413,
      body: { code: 'rest_payload_too_large', message: 'The request body is larger than the 1,024 bytes allowed.', data: { status: 413, max_body_bytes: 1024 } },
    });
  });
});

describe('invalidParams: samples, phrased from the contract issues alone', () => {
  it('09/10: per_page out of bounds names both bounds', () => {
    const r = invalidParams([issue({ param: 'per_page', keyword: 'minimum', params: { limit: 1, comparison: '>=' } })], postsQuery);
    expect(wpJsonEncode(r!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): per_page","data":{"status":400,"params":{"per_page":"per_page must be between 1 (inclusive) and 100 (inclusive)"},"details":{"per_page":{"code":"rest_out_of_bounds","message":"per_page must be between 1 (inclusive) and 100 (inclusive)","data":null}}}}',
    );
    expect(r!.status).toBe(400);
  });
  it('11: type error carries data.param', () => {
    const r = invalidParams([issue({ param: 'per_page', keyword: 'type', params: { type: 'integer' } })], postsQuery);
    expect(wpJsonEncode(r!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): per_page","data":{"status":400,"params":{"per_page":"per_page is not of type integer."},"details":{"per_page":{"code":"rest_invalid_type","message":"per_page is not of type integer.","data":{"param":"per_page"}}}}}',
    );
  });
  it('12: only a minimum', () => {
    const r = invalidParams([issue({ param: 'page', keyword: 'minimum', params: { limit: 1 } })], postsQuery);
    expect(r!.body.data).toMatchObject({ params: { page: 'page must be greater than or equal to 1' } });
  });
  it('13 and 15: enums use the %l list', () => {
    const r = invalidParams([issue({ param: 'orderby', keyword: 'enum', params: { allowedValues: postsQuery.orderby!.enum } })], postsQuery);
    expect(wpJsonEncode(r!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): orderby","data":{"status":400,"params":{"orderby":"orderby is not one of author, date, id, include, modified, parent, relevance, slug, include_slugs, and title."},"details":{"orderby":{"code":"rest_not_in_enum","message":"orderby is not one of author, date, id, include, modified, parent, relevance, slug, include_slugs, and title.","data":null}}}}',
    );
    const r15 = invalidParams([issue({ param: 'status', keyword: 'enum', instancePath: '/query/status/0', wpParam: 'status[0]', params: { allowedValues: [] } })], postsQuery);
    expect((r15!.body.data as { params: Record<string, string> }).params.status).toBe(
      'status[0] is not one of publish, future, draft, pending, private, trash, auto-draft, inherit, request-pending, request-confirmed, request-failed, request-completed, and any.',
    );
  });
  it('18: a validate-pass failure hides sanitize-pass failures', () => {
    const r = invalidParams(
      [issue({ param: 'per_page', keyword: 'type', params: { type: 'integer' } }), issue({ param: 'order', keyword: 'enum', params: { allowedValues: ['asc', 'desc'] } })],
      postsQuery,
    );
    expect(r!.body.message).toBe('Invalid parameter(s): per_page');
    expect(Object.keys((r!.body.data as { params: object }).params)).toEqual(['per_page']);
  });
  it('reports every failure of the same pass, in args order for the validate pass', () => {
    const r = invalidParams(
      [issue({ param: 'per_page', keyword: 'type', params: { type: 'integer' } }), issue({ param: 'page', keyword: 'minimum', params: { limit: 1 } })],
      postsQuery,
    );
    expect(r!.body.message).toBe('Invalid parameter(s): page, per_page');
  });
  it('orders the sanitize pass by where the params appear in the request', () => {
    const issues = [issue({ param: 'order', keyword: 'enum' }), issue({ param: 'orderby', keyword: 'enum' })];
    expect(invalidParams(issues, postsQuery)!.body.message).toBe('Invalid parameter(s): order, orderby');
    expect(invalidParams(issues, postsQuery, { requestOrder: ['orderby', 'x', 'order'] })!.body.message).toBe('Invalid parameter(s): orderby, order');
  });
  it('69, 70, 59, 63: body args', () => {
    const body: Record<string, JsonSchema> = {
      date: { type: ['string', 'null'], format: 'date-time' },
      status: { type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private'] },
      author: { type: 'integer' },
      sticky: { type: 'boolean' },
    };
    const at = (param: string, keyword: string, params: Record<string, unknown> = {}) => issue({ param, keyword, location: 'body', params });
    expect((invalidParams([at('status', 'enum')], body)!.body.data as { params: object }).params).toEqual({ status: 'status is not one of publish, future, draft, pending, and private.' });
    expect(wpJsonEncode(invalidParams([at('date', 'format', { format: 'date-time' })], body)!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): date","data":{"status":400,"params":{"date":"Invalid date."},"details":{"date":{"code":"rest_invalid_date","message":"Invalid date.","data":null}}}}',
    );
    expect((invalidParams([at('author', 'type', { type: 'integer' })], body)!.body.data as { details: object }).details).toEqual({
      author: { code: 'rest_invalid_type', message: 'author is not of type integer.', data: { param: 'author' } },
    });
    expect((invalidParams([at('sticky', 'type', { type: 'boolean' })], body)!.body.data as { params: object }).params).toEqual({ sticky: 'sticky is not of type boolean.' });
  });
  it('39/81: a missing required arg is rest_missing_callback_param', () => {
    const schemas = { validation: { type: 'string' }, requests: { type: 'array' } };
    const r = invalidParams([issue({ param: 'requests', keyword: 'required', location: 'body', instancePath: '/body', params: { missingProperty: 'requests' } })], schemas);
    expect(wpJsonEncode(r!.body)).toBe('{"code":"rest_missing_callback_param","message":"Missing parameter(s): requests","data":{"status":400,"params":["requests"]}}');
  });
  it('74 and 77: batch limits and nested enum names', () => {
    const batch: Record<string, JsonSchema> = {
      validation: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' },
      requests: {
        type: 'array',
        maxItems: 25,
        items: {
          type: 'object',
          properties: { method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' }, path: { type: 'string' } },
          required: ['path'],
        },
      },
    };
    const r74 = invalidParams([issue({ param: 'requests', keyword: 'maxItems', location: 'body', params: { limit: 25 } })], batch);
    expect(wpJsonEncode(r74!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): requests","data":{"status":400,"params":{"requests":"requests must contain at most 25 items."},"details":{"requests":{"code":"rest_too_many_items","message":"requests must contain at most 25 items.","data":null}}}}',
    );
    const r77 = invalidParams(
      [issue({ param: 'requests', keyword: 'enum', location: 'body', instancePath: '/body/requests/0/method', wpParam: 'requests[0][method]', params: { allowedValues: ['POST', 'PUT', 'PATCH', 'DELETE'] } })],
      batch,
    );
    expect(wpJsonEncode(r77!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): requests","data":{"status":400,"params":{"requests":"requests[0][method] is not one of POST, PUT, PATCH, and DELETE."},"details":{"requests":{"code":"rest_not_in_enum","message":"requests[0][method] is not one of POST, PUT, PATCH, and DELETE.","data":null}}}}',
    );
    const nested = invalidParams([issue({ param: 'requests', keyword: 'required', location: 'body', instancePath: '/body/requests/0', params: { missingProperty: 'path' } })], batch);
    expect((nested!.body.data as { params: object }).params).toEqual({ requests: 'path is a required property of requests[0].' });
  });
  it('picks the issue WordPress meets first: items before maxItems, bounds before the integer check', () => {
    const schemas: Record<string, JsonSchema> = { ids: { type: 'array', maxItems: 1, items: { type: 'integer', minimum: 5 } }, n: { type: 'integer', minimum: 2 } };
    const r = invalidParams(
      [
        issue({ param: 'ids', keyword: 'maxItems', location: 'body', params: { limit: 1 } }),
        issue({ param: 'ids', keyword: 'minimum', location: 'body', instancePath: '/body/ids/1', params: { limit: 5 } }),
        issue({ param: 'ids', keyword: 'minimum', location: 'body', instancePath: '/body/ids/0', params: { limit: 5 } }),
        issue({ param: 'n', keyword: 'type', location: 'body', params: { type: 'integer' } }),
        issue({ param: 'n', keyword: 'minimum', location: 'body', params: { limit: 2 } }),
      ],
      schemas,
    );
    expect((r!.body.data as { params: object }).params).toEqual({ ids: 'ids[0] must be greater than or equal to 5', n: 'n must be greater than or equal to 2' });
  });
  it('turns 2020-12 exclusive bounds into WordPress wording', () => {
    const r = invalidParams([issue({ param: 'x', keyword: 'exclusiveMinimum', params: { limit: 0 } })], { x: { type: 'number', exclusiveMinimum: 0, maximum: 10 } });
    expect((r!.body.data as { params: object }).params).toEqual({ x: 'x must be between 0 (exclusive) and 10 (inclusive)' });
  });
  it('reports what WordPress cannot check as a failed validate_callback', () => {
    const u = issue({ param: 'link', keyword: 'format', location: 'body', params: { format: 'uri' } });
    expect(isEnforcedByWordPress(u)).toBe(false);
    expect(isEnforcedByWordPress(issue({ param: 'e', keyword: 'format', params: { format: 'email' } }))).toBe(true);
    const r = invalidParams([u], { link: { type: 'string', format: 'uri' } });
    expect(wpJsonEncode(r!.body)).toBe('{"code":"rest_invalid_param","message":"Invalid parameter(s): link","data":{"status":400,"params":{"link":"Invalid parameter."},"details":[]}}');
  });
  it('passes through a WordPress error the mock supplies (sample 14, rest_forbidden_status)', () => {
    const r = invalidParams(
      [issue({ param: 'status', keyword: 'wp', params: { wpError: { code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 401 } } } })],
      postsQuery,
    );
    expect(wpJsonEncode(r!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): status","data":{"status":400,"params":{"status":"Status is forbidden."},"details":{"status":{"code":"rest_forbidden_status","message":"Status is forbidden.","data":{"status":401}}}}}',
    );
    expect(r!.status).toBe(400);
  });
  it('returns null when nothing is left to report', () => {
    expect(invalidParams([], postsQuery)).toBeNull();
  });
});

describe('invalidParams with raw values: WordPress decides the wording', () => {
  it('67: include=1,abc is a list to WordPress', () => {
    const q = phpParseStr('include=1,abc');
    const r = invalidParams([issue({ param: 'include', keyword: 'type', params: { type: 'array' } })], postsQuery, { values: { include: q.get('include') } });
    expect(wpJsonEncode(r!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): include","data":{"status":400,"params":{"include":"include[1] is not of type integer."},"details":{"include":{"code":"rest_invalid_type","message":"include[1] is not of type integer.","data":{"param":"include[1]"}}}}}',
    );
  });
  it('80: a string `requests` is split like a list', () => {
    const batch = { requests: { type: 'array', maxItems: 25, items: { type: 'object', properties: { path: { type: 'string' } } } } };
    const r = invalidParams([issue({ param: 'requests', keyword: 'type', location: 'body', params: { type: 'array' } })], batch, { values: { requests: 'not-an-array' } });
    expect(wpJsonEncode(r!.body)).toBe(
      '{"code":"rest_invalid_param","message":"Invalid parameter(s): requests","data":{"status":400,"params":{"requests":"requests[0] is not of type object."},"details":{"requests":{"code":"rest_invalid_type","message":"requests[0] is not of type object.","data":{"param":"requests[0]"}}}}}',
    );
  });
  it('18 again with values', () => {
    const r = invalidParams(
      [issue({ param: 'per_page', keyword: 'type' }), issue({ param: 'order', keyword: 'enum' })],
      postsQuery,
      { values: { per_page: 'abc', order: 'sideways' } },
    );
    expect(r!.body.message).toBe('Invalid parameter(s): per_page');
    expect((r!.body.data as { params: object }).params).toEqual({ per_page: 'per_page is not of type integer.' });
  });
  it('a JSON null for a body arg is skipped by has_valid_params()', () => {
    const r = invalidParams([issue({ param: 'title', keyword: 'type', location: 'body', params: { type: 'string' } })], { title: { type: 'string' } }, { values: { title: null } });
    expect(r).toBeNull();
  });
  it('a JSON null for a required arg is a missing parameter', () => {
    const r = invalidParams([issue({ param: 'name', keyword: 'type', location: 'body', params: { type: 'string' } })], { name: { type: 'string' } }, { values: { name: null }, required: ['name'] });
    expect(r?.body).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): name', data: { status: 400, params: ['name'] } });
  });
  it('falls back to the issue when WordPress would accept the value', () => {
    const r = invalidParams([issue({ param: 'sticky', keyword: 'type', params: { type: 'boolean' } })], postsQuery, { values: { sticky: '1' } });
    expect((r!.body.data as { params: object }).params).toEqual({ sticky: 'sticky is not of type boolean.' });
  });
});

describe('defaultWpPhase', () => {
  it('follows how core registers args', () => {
    expect(defaultWpPhase('per_page', 'query')).toBe('validate');
    expect(defaultWpPhase('order', 'query')).toBe('sanitize');
    expect(defaultWpPhase('title', 'body')).toBe('validate');
    expect(defaultWpPhase('id', 'path')).toBe('sanitize');
    expect(defaultWpPhase('order', 'query', { 'x-wp-validate-callback': true })).toBe('validate');
    expect(phaseOfFor('create')('status', 'query')).toBe('validate');
    expect(phaseOfFor('update')('id', 'path')).toBe('sanitize');
    expect(phaseOfFor('batch')('requests', 'body')).toBe('sanitize');
    expect(phaseOfFor('list')('per_page', 'query')).toBe('validate');
    expect(phaseOfFor('list')('orderby', 'query')).toBe('sanitize');
  });
});
