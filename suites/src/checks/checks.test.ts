import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import type { Exchange } from '../http/types.ts';
import { batchShapeProblems } from './batch.ts';
import { answerDifference, differOnlyByClock } from './kit/compare.ts';
import { corsProblems } from './conventions.ts';
import { constraints } from './kit/generate.ts';
import { judgeEnvelope, judgeRejection, samplesPerConstraint } from './negative_rejection.ts';
import { otherReadingAllows, readingCreatesRecords } from './kit/marks.ts';
import { linkPage } from './pagination.ts';
import { parseLink } from './kit/link_header.ts';
import { basisAt, severityOf, shapeFinding } from './response_shape.ts';
import { blamedParams, envelopeProblem, refusedForPermission, wpError } from './kit/wp.ts';

const contract = loadContractFile();

function exchange(status: number, body: unknown, headers: Record<string, string> = {}): Exchange {
  return { request: { method: 'GET', url: 'http://x/', headers: {} }, response: { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) }, durationMs: 1 };
}

describe('reading WordPress errors', () => {
  it('knows the error envelope in JSON and in oEmbed\'s XML, and says what is wrong with anything else', () => {
    expect(envelopeProblem(exchange(404, { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } }).response!)).toBeUndefined();
    const xml = '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n';
    expect(envelopeProblem(exchange(404, xml, { 'content-type': 'text/xml; charset=UTF-8' }).response!)).toBeUndefined();
    expect(envelopeProblem(exchange(404, '<h1>Not Found</h1>', { 'content-type': 'text/html' }).response!)).toMatch(/not WordPress's error object/);
    expect(envelopeProblem(exchange(404, { code: 'x', message: 'y', data: { status: 400 } }).response!)).toBe('the 404 x says data.status 400');
    expect(envelopeProblem(exchange(404, { code: 'x', message: 'y' }).response!)).toBe('the 404 x has no data.status');
  });

  it('names the parameters of both 400 shapes, cut to the top-level name', () => {
    expect(blamedParams(wpError(exchange(400, { code: 'rest_invalid_param', message: '', data: { status: 400, params: { 'requests[3][method]': 'x' } } }).response))).toEqual(['requests']);
    expect(blamedParams(wpError(exchange(400, { code: 'rest_missing_callback_param', message: '', data: { status: 400, params: ['url'] } }).response))).toEqual(['url']);
  });

  it('tells a value refused for who asks from a value refused for what it is', () => {
    const forbidden = wpError(exchange(400, { code: 'rest_invalid_param', message: '', data: { status: 400, params: { status: 'x' }, details: { status: { code: 'rest_forbidden_status', message: '', data: { status: 401 } } } } }).response);
    expect(refusedForPermission(forbidden, 'status')).toBe(true);
  });
});

describe('the contract\'s doubts about cal/v1 dates (CalDateTime, wire-looser)', () => {
  it('lowers an accepted date that only WordPress\'s looser date-time takes, not one nobody takes', () => {
    const op = contract.operations.find((o) => o.method === 'POST' && o.path === '/cal/v1/events')!;
    for (const loose of ['2026-12-01t10:00:00', '2026-12-01T10:00:00+02', '2026-12-01T24:17:33']) {
      expect(otherReadingAllows(contract, op, 'body', 'date', loose, false), loose).toMatch(/wire-looser/);
    }
    for (const wrong of ['2026-12-01', 'tomorrow', '2026-12-01T10:00:00+0200']) {
      expect(otherReadingAllows(contract, op, 'body', 'date', wrong, false), wrong).toBeUndefined();
    }
  });
});

describe('negative_rejection and error_envelope verdicts', () => {
  const perPageMax = constraints(contract, contract.operation('getCalV1Events')).find((c) => c.id === 'getCalV1Events query.per_page maximum')!;
  const urlRequired = constraints(contract, contract.operation('getOembed10Embed')).find((c) => c.keyword === 'required' && c.param === 'url')!;

  it('passes a 400 that names the parameter, fails an accepted value as documented and a 401 as convention', () => {
    const named = exchange(400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page', data: { status: 400, params: { per_page: 'too big' } } });
    expect(judgeRejection(perPageMax, named).outcome).toBe('pass');
    expect(judgeEnvelope(perPageMax, named)).toEqual({ outcome: 'pass', message: 'rest_invalid_param names per_page' });
    expect(judgeRejection(perPageMax, exchange(200, []))).toMatchObject({ outcome: 'fail', severity: 'documented' });
    expect(judgeRejection(perPageMax, exchange(401, { code: 'rest_forbidden', message: '', data: { status: 401 } }))).toMatchObject({ outcome: 'fail', severity: 'convention' });
  });

  it('calls a 400 about another parameter inconclusive, and wants rest_missing_callback_param for a missing one', () => {
    const other = exchange(400, { code: 'rest_invalid_param', message: '', data: { status: 400, params: { date: 'x' } } });
    expect(judgeRejection(perPageMax, other).outcome).toBe('inconclusive');
    const wrongCode = exchange(400, { code: 'rest_invalid_param', message: '', data: { status: 400, params: { url: 'x' } } });
    expect(judgeEnvelope(urlRequired, wrongCode)?.outcome).toBe('fail');
    const missing = exchange(400, { code: 'rest_missing_callback_param', message: 'Missing parameter(s): url', data: { status: 400, params: ['url'] } });
    expect(judgeEnvelope(urlRequired, missing)?.outcome).toBe('pass');
    expect(judgeEnvelope(perPageMax, exchange(400, '<html>bad</html>'))?.outcome).toBe('fail');
  });

  it('spreads --runs over the constraints of each parameter', () => {
    const cs = constraints(contract, contract.operation('getCalV1Events')).filter((c) => c.param === 'per_page' || c.param === 'order');
    const counts = samplesPerConstraint(cs, 3);
    const perPage = cs.filter((c) => c.param === 'per_page').map((c) => counts.get(c.id)!);
    expect(perPage.reduce((a, b) => a + b, 0)).toBe(Math.max(3, perPage.length));
    expect(Math.min(...perPage)).toBeGreaterThanOrEqual(1);
  });
});

describe('pagination links', () => {
  it('reads rel="next"/"prev" and the page they point at', () => {
    const links = parseLink('<http://x/wp-json/cal/v1/events?page=1&per_page=2>; rel="prev", <http://x/wp-json/cal/v1/events?page=3&per_page=2>; rel="next"');
    expect(linkPage(links['prev']!)).toBe(1);
    expect(linkPage(links['next']!)).toBe(3);
    expect(parseLink('<http://x/wp-json/>; rel="https://api.w.org/"')).toEqual({ 'https://api.w.org/': 'http://x/wp-json/' });
    expect(linkPage('http://x/wp-json/cal/v1/events?per_page=2')).toBe(1);
  });
});

describe('response_shape severity', () => {
  it('holds an undocumented list envelope or record shape as assumed, never as documented or convention', () => {
    const list = contract.operation('getCalEventsV1Events');
    expect(shapeFinding(contract, list, exchange(200, { events: [], total: 0, total_pages: 0 }), 'x')).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(shapeFinding(contract, contract.operation('getCalV1EventsById'), exchange(200, [1, 2]), 'x')).toMatchObject({ outcome: 'fail', severity: 'assumed' });
    expect(shapeFinding(contract, contract.operation('getRoot'), exchange(200, { name: 'x' }), 'x')).toMatchObject({ outcome: 'fail', severity: 'documented' });
  });

  const schema = { type: 'array', 'x-basis': 'convention', items: { 'x-basis': 'assumed', type: 'object', properties: { id: { type: 'integer' } } } };
  it('takes the x-basis of the node that failed', () => {
    expect(basisAt(schema, '#/items/properties/id/type', 'convention')).toBe('assumed');
    expect(basisAt(schema, '#/type', 'convention')).toBe('convention');
    expect(severityOf(schema, 'convention', [{ schemaPath: '#/type', instancePath: '', keyword: 'type' }])).toBe('convention');
  });
});

describe('batch, CORS and equivalence helpers', () => {
  it('wants one {body, status, headers} per request', () => {
    expect(batchShapeProblems({ responses: [{ body: {}, status: 404, headers: [] }] }, 1, false)).toEqual([]);
    expect(batchShapeProblems({ responses: [null] }, 1, true)).toEqual([]);
    expect(batchShapeProblems({ responses: [{ status: 404 }] }, 2, false)).toEqual(['1 responses for 2 requests', 'responses[0] is not {body, status, headers}']);
  });

  it('lists what a CORS answer lacks', () => {
    const full = exchange(200, {}, {
      'access-control-allow-origin': 'https://site-contracts.example',
      'access-control-allow-methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
      'access-control-expose-headers': 'X-WP-Total, X-WP-TotalPages, Link',
      'access-control-allow-headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
    });
    expect(corsProblems(full.response)).toEqual([]);
    expect(corsProblems(exchange(200, {}).response)).toContain('Access-Control-Allow-Credentials is null, not true');
  });

  it('reads CORS lists item by item: X-WP-TotalPages does not name X-WP-Total, and a missing header is missing', () => {
    const cors = (expose: string | undefined) =>
      exchange(200, {}, {
        'access-control-allow-origin': 'https://site-contracts.example',
        'access-control-allow-methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
        'access-control-allow-credentials': 'true',
        vary: 'Accept-Encoding, Origin',
        ...(expose === undefined ? {} : { 'access-control-expose-headers': expose }),
        'access-control-allow-headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
      }).response;
    expect(corsProblems(cors('x-wp-total,X-WP-TotalPages ,  LINK'))).toEqual([]);
    expect(corsProblems(cors('X-WP-TotalPages, Link'))).toEqual(['Access-Control-Expose-Headers is "X-WP-TotalPages, Link": it does not name X-WP-Total']);
    expect(corsProblems(cors('X-WP-Totals, X-WP-TotalPages, Link'))).toEqual(['Access-Control-Expose-Headers is "X-WP-Totals, X-WP-TotalPages, Link": it does not name X-WP-Total']);
    expect(corsProblems(cors(undefined))).toEqual(['Access-Control-Expose-Headers is null: it does not name X-WP-Total, X-WP-TotalPages, Link']);
  });

  it('compares answers by status and JSON, not by spelling, and names the field that differs', () => {
    expect(answerDifference(exchange(200, '{"a":"\\/x"}'), exchange(200, '{"a":"/x"}'))).toBeUndefined();
    expect(answerDifference(exchange(200, '{}'), exchange(404, '{}'))).toBe('status 404 instead of 200');
    expect(answerDifference(exchange(200, { events: [{ id: 1, title: 'a' }] }), exchange(200, { events: [{ id: 1, title: 'b' }] }))).toBe('body.events[0].title "b" instead of "a"');
    expect(answerDifference(exchange(200, { routes: { '/cal/v1': 1 } }), exchange(200, { routes: {} }))).toBe('body.routes["/cal/v1"] (absent) instead of 1');
  });

  it('does not count fields derived from the clock as a difference', () => {
    const a = { rest_url: 'http://x/wp-json/cal/events/v1/events?start_date=2026-11-23%2010%3A00%3A01', date: '2026-11-23T10:00:01', modified_gmt: '2026-11-23 08:00:01', now: 1763892001, n: 1 };
    const b = { rest_url: 'http://x/wp-json/cal/events/v1/events?start_date=2026-11-23%2010%3A00%3A02', date: '2026-11-23T10:00:02', modified_gmt: '2026-11-23 08:00:02', now: 1763892002, n: 1 };
    expect(answerDifference(exchange(200, a), exchange(200, b))).toBeUndefined();
    expect(answerDifference(exchange(200, a), exchange(200, { ...b, n: 2 }))).toBe('body.n 2 instead of 1');
    expect(differOnlyByClock('2026-11-23 10:00:01 Concert', '2026-11-23 10:00:01 Lecture')).toBe(false);
    expect(differOnlyByClock('<blockquote data-secret="c53a2f1e71"><iframe src="/embed/#?secret=c53a2f1e71">', '<blockquote data-secret="71fd500c95"><iframe src="/embed/#?secret=71fd500c95">')).toBe(true);
  });
});

describe('readingCreatesRecords', () => {
  const op = (id: string) => contract.operations.find((o) => o.id === id)!;
  it('names the reading under which a legacy event write would make the site create a term or a venue', () => {
    expect(readingCreatesRecords(op('postCalEventsV1Events'), 'body', 'categories')).toMatch(/IDs or names.*000 §2\.1/);
    expect(readingCreatesRecords(op('postCalEventsV1Events'), 'body', 'venue')).toMatch(/IDs or objects/);
  });
  it('says nothing of ID lists no reading lets name a record, nor of other contradictions', () => {
    expect(readingCreatesRecords(op('postCalV1Events'), 'body', 'tags')).toBeUndefined();
    expect(readingCreatesRecords(op('postCalEventsV1Events'), 'body', 'website')).toBeUndefined();
    expect(readingCreatesRecords(op('getCalEventsV1Events'), 'query', 'title')).toBeUndefined();
  });
});
