// Proven both ways: for every check family, the suite runs against the mock broken in exactly one way
// and that check, and only it, fails. The break is a wrapper around the mock's public request handler
// (a small faulty server in the test); everything else the mock does stays as it is. Each test runs the
// same selection against the unbroken mock first, so that a deviation the mock already has cannot be
// mistaken for the effect of the fault.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import type { RunResult } from '../report/model.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';
import {
  bodyText,
  harnessForFile,
  json,
  parse,
  plain,
  withHeader,
  withJson,
  withQuery,
  wpError,
  type Fault,
  type MockRequest,
  type MockResponse,
  type Next,
} from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen });

const withoutHeader = (res: MockResponse, name: string): MockResponse => withHeader(res, name, undefined);

const BOOLEAN = /^(true|false|1|0)$/i;

/** A server that reads the query of a GET to `route` otherwise than it was sent, when `when` holds. */
function readsQueryAs(route: string, when: (q: URLSearchParams) => boolean, edit: (q: URLSearchParams) => void): Fault {
  return (req, next) => {
    const { route: r, query } = parse(req);
    // HEAD is read as its GET (head compares the two).
    return (req.method === 'GET' || req.method === 'HEAD') && r === route && when(query) ? next(withQuery(req, edit)) : next(req);
  };
}

/**
 * The fault's answer as the adapter should send it (plain). The mock's response cache hands back `bodyBytes`
 * beside `body`, and the node adapter sends those bytes when present; a fault that rewrote `body` on a
 * cached answer (`{...res, body}`) would otherwise be sent unchanged, so the fault would hit only the
 * first of two identical reads within a second (that made the descriptor fault look like a
 * rest_route_equivalence and method_override finding: one form was rewritten, the other was not).
 * The harness drops them from every answer a fault gives; a fault that answers from inside keeps doing it.
 */
const asFaulted = plain;

const runSuite = async (fault: Fault | undefined, only: string): Promise<RunResult> => (await h.run(fault, only)).run;


/** The checks that fail with the fault and did not fail without it. */
async function caughtBy(fault: Fault, only: string): Promise<string[]> {
  const clean = await h.cleanFailures(only);
  const broken = await runSuite(fault, only);
  const checks = new Set(broken.cases.filter((c) => (c.status === 'failed' || c.status === 'errored') && !clean.has(c.id)).map((c) => c.check));
  return [...checks].sort();
}


/** The cases that fail with the fault and did not fail without it. */
async function failedBy(fault: Fault, only: string): Promise<RunResult['cases']> {
  const clean = await h.cleanFailures(only);
  const broken = await runSuite(fault, only);
  return broken.cases.filter((c) => (c.status === 'failed' || c.status === 'errored') && !clean.has(c.id));
}

describe('each check family catches its own fault, and only it', () => {
  it('not_a_server_error: a valid filter crashes the server', async () => {
    const fault: Fault = (req, next) => {
      const { route, query } = parse(req);
      if (req.method === 'GET' && route === '/cal/v1/organizers' && BOOLEAN.test(query.get('only_with_upcoming') ?? '')) return wpError(500, 'internal_server_error');
      return next(req);
    };
    expect(await caughtBy(fault, '/cal/v1/organizers')).toEqual(['not_a_server_error']);
  });

  it('route_presence: a namespace of the contract has no route', async () => {
    const fault: Fault = (req, next) => (parse(req).route === '/cal/views/v2' ? wpError(404, 'rest_no_route') : next(req));
    expect(await caughtBy(fault, 'cal/views/v2')).toEqual(['route_presence']);
  });

  it('positive_acceptance: a valid value of a documented parameter is refused', async () => {
    const fault: Fault = (req, next) => {
      const { route, query } = parse(req);
      if (req.method === 'GET' && route === '/cal/v1/venues' && BOOLEAN.test(query.get('has_events') ?? '')) {
        return wpError(400, 'rest_invalid_param', { params: { has_events: 'has_events is not of type boolean.' } });
      }
      return next(req);
    };
    expect(await caughtBy(fault, '/cal/v1/venues')).toEqual(['positive_acceptance']);
  });

  it('negative_rejection: per_page above the documented maximum is taken', async () => {
    const fault = readsQueryAs('/cal/v1/events', (q) => Number.isInteger(Number(q.get('per_page'))) && Number(q.get('per_page')) > 100, (q) => q.set('per_page', '100'));
    expect(await caughtBy(fault, '/cal/v1/events')).toEqual(['negative_rejection']);
  });

  it('error_envelope: a 400 does not say which parameter', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (res.status !== 400 || parse(req).route === '/batch/v1') return res;
      const body = json(res);
      if (body['code'] !== 'rest_invalid_param') return res;
      const { params: _p, details: _d, ...data } = body['data'] as Record<string, unknown>;
      return withJson(res, { ...body, data });
    };
    // negative_rejection's edge of two invalid parameters reads their names from data.params too: it names neither.
    // context (an unknown context must be a 400 naming `context`) and write_refusals (a template the theme lacks,
    // a 400 naming `template`) judge the parameter a refusal names as well, so they see the same fault.
    const failed = await failedBy(fault, '/cal/v1/events');
    expect([...new Set(failed.map((c) => c.check))].sort()).toEqual(['context', 'error_envelope', 'negative_rejection', 'write_refusals']);
    expect(failed.filter((c) => c.check === 'negative_rejection').map((c) => c.variant)).toEqual([expect.stringMatching(/^edge:two invalid: /)]);
  });

  it('pagination: lists lose their Link header', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      // WordPress's api.w.org Link is what a list without its own Link keeps (wire_headers judges that one).
      return Object.keys(res.headers).some((h) => h.toLowerCase() === 'x-wp-total') ? withHeader(res, 'Link', `<http://${req.headers['host']}/wp-json/>; rel="https://api.w.org/"`) : res;
    };
    expect(await caughtBy(fault, '/cal/v1/venues')).toEqual(['pagination']);
  });

  it('lifecycle: an update is acknowledged but not kept', async () => {
    const fault: Fault = (req, next) => {
      const { route } = parse(req);
      const m = /^\/cal\/events\/v1\/tags\/(\d+)$/.exec(route);
      // The signed-in update only: an anonymous one acknowledged would be another fault (allow_header sees it).
      if (req.method !== 'PATCH' || !m || !req.headers['authorization']) return next(req);
      // Validate as the mock would (on an id nobody has), then answer with the record unchanged.
      const check = next({ ...req, url: req.url.replace(`/tags/${m[1]}`, '/tags/2000000001') });
      if (check.status === 400) return check;
      const { body: _body, ...read } = req;
      return next({ ...read, method: 'GET', url: req.url.split('?')[0]! });
    };
    // update_keeps_fields (issue 18) reads the same update back and sees the named field unchanged: two checks, one fault.
    expect(await caughtBy(fault, '/cal/events/v1/tags')).toEqual(['lifecycle', 'update_keeps_fields']);
  });

  it('create_status: a create answers 200 without Location', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method === 'POST' && parse(req).route === '/cal/v1/venues' && res.status === 201) return withoutHeader({ ...res, status: 200 }, 'Location');
      return res;
    };
    expect(await caughtBy(fault, '/cal/v1/venues')).toEqual(['create_status']);
  });

  it('cross_namespace: organizers made in cal/v1 are not served by the legacy namespace', async () => {
    const mine = new Set<string>();
    const fault: Fault = (req, next) => {
      const { route } = parse(req);
      const res = next(req);
      if (req.method === 'POST' && route === '/cal/v1/organizers' && res.status === 201) mine.add(String(json(res)['id']));
      const m = /^\/cal\/events\/v1\/organizers\/(\d+)$/.exec(route);
      if (m && mine.has(m[1]!) && req.method === 'GET') return wpError(404, 'rest_post_invalid_id');
      return res;
    };
    // The stateful phase's model predicts the legacy read too (it reads each record in every namespace that
    // serves it), so it sees the same fault from its own side; no other family may.
    expect(await caughtBy(fault, '/cal/v1/organizers,/cal/events/v1/organizers')).toEqual(['cross_namespace', 'stateful']);
  });

  it('batch_limit: 26 requests are taken', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/batch/v1') return next(req);
      try {
        const body = JSON.parse(bodyText(req)) as { requests?: unknown[] };
        if (Array.isArray(body.requests) && body.requests.length === 26) return next({ ...req, body: JSON.stringify({ ...body, requests: body.requests.slice(0, 25) }) });
      } catch {
        // not JSON: leave it to the mock
      }
      return next(req);
    };
    expect(await caughtBy(fault, 'batch/v1')).toEqual(['batch_limit']);
  });

  it('batch_item_status: a request with no route is reported 400 instead of 404', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (parse(req).route !== '/batch/v1' || res.status !== 207) return res;
      const body = json(res) as { responses: ({ status: number; body: { code?: string } } | null)[] };
      return withJson(res, { ...body, responses: body.responses.map((r) => (r && r.body?.code === 'rest_no_route' ? { ...r, status: 400 } : r)) });
    };
    expect(await caughtBy(fault, 'batch/v1')).toEqual(['batch_item_status']);
  });

  it('batch_validation: require-all-validate is run as normal', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/batch/v1') return next(req);
      const text = bodyText(req);
      return next(text.includes('require-all-validate') ? { ...req, body: text.replace('"require-all-validate"', '"normal"') } : req);
    };
    expect(await caughtBy(fault, 'batch/v1')).toEqual(['batch_validation']);
  });

  it('rest_route_equivalence: ?rest_route= serves a different namespace index', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!req.url.includes('rest_route=') || parse(req).route !== '/cal/v1' || res.status !== 200) return res;
      const { routes: _r, ...body } = json(res);
      return withJson(res, body);
    };
    expect(await caughtBy(fault, 'cal/v1')).toEqual(['rest_route_equivalence']);
  });

  it('method_override: X-HTTP-Method-Override and _method are ignored', async () => {
    const fault: Fault = (req, next) => {
      const { ['x-http-method-override']: _o, ...headers } = req.headers;
      return next({ ...withQuery(req, (q) => q.delete('_method')), headers });
    };
    // wire_headers' no-cache probe of a 4xx to an overridden POST sees the override ignored too (serve_request()
    // sends no-cache for `$method_overridden`), which is the same fault seen from the cache's side.
    expect(await caughtBy(fault, 'root,/cal/v1/events')).toEqual(['method_override', 'wire_headers']);
  });

  it('cors: credentials are not allowed cross-origin', async () => {
    const fault: Fault = (req, next) => withoutHeader(next(req), 'Access-Control-Allow-Credentials');
    expect(await caughtBy(fault, 'root')).toEqual(['cors']);
  });

  it('response_shape: the site descriptor lacks the documented namespaces', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (parse(req).route !== '/' || res.status !== 200 || res.body === '') return res;
      // The descriptor in every form it is asked for: plain, enveloped (`_envelope`) and as JSONP's argument.
      const strip = ({ namespaces: _n, ...rest }: Record<string, unknown>): Record<string, unknown> => rest;
      const jsonp = /^(\/\*\*\/[\w.]+\()([\s\S]*)\)$/.exec(res.body);
      if (jsonp) return asFaulted({ ...res, body: `${jsonp[1]}${wpJsonEncode(strip(JSON.parse(jsonp[2]!) as Record<string, unknown>))})` });
      const body = json(res);
      if (typeof body['body'] === 'object' && 'status' in body) return withJson(res, { ...body, body: strip(body['body'] as Record<string, unknown>) });
      return withJson(res, strip(body));
    };
    expect(await caughtBy(fault, 'root')).toEqual(['response_shape']);
  });
});

/** Answers the request as the mock would, but as the record it names reads now (GET of the same route). */
function read(req: MockRequest, next: Next): MockResponse {
  const { body: _b, ...rest } = req;
  return next({ ...rest, method: 'GET', url: req.url.split('?')[0]!, headers: { ...req.headers } });
}

describe('the edge phase: a server off by one at a constraint fails the check, at exactly that edge', () => {
  it('per_page 101 (maximum+1) taken: the random values far above the maximum pass, the edge does not', async () => {
    const fault = readsQueryAs('/cal/v1/events', (q) => q.get('per_page') === '101', (q) => q.set('per_page', '100'));
    const failed = await failedBy(fault, '/cal/v1/events');
    expect([...new Set(failed.map((c) => c.check))]).toEqual(['negative_rejection']);
    expect(failed.map((c) => c.id)).toContain('negative_rejection:getCalV1Events:edge:query.per_page maximum max+1');
    expect(failed.find((c) => c.variant === 'edge:query.per_page maximum max+1')?.message).toMatch(/^expected 400 naming per_page for per_page=101 \(maximum, 000 §4\.2\.1\); got 200/);
  });

  it('page 0 (minimum-1) taken as page 1', async () => {
    const fault = readsQueryAs('/cal/v1/venues', (q) => q.get('page') === '0', (q) => q.set('page', '1'));
    const failed = await failedBy(fault, '/cal/v1/venues');
    // With per_page 0 beside it, page=0 read as 1 goes unnamed too (the edge of two invalid parameters).
    expect(failed.map((c) => c.id)).toEqual(['negative_rejection:getCalV1Venues:edge:query.page minimum min-1', 'negative_rejection:getCalV1Venues:edge:two invalid: page, per_page']);
  });

  it('an enum near miss taken: order=asc read as ASC', async () => {
    const fault = readsQueryAs('/cal/v1/events', (q) => q.get('order') === 'asc', (q) => q.set('order', 'ASC'));
    const failed = await failedBy(fault, '/cal/v1/events');
    expect(failed.map((c) => c.id)).toEqual(['negative_rejection:getCalV1Events:edge:query.order enum case']);
  });

  it('a date one edit off taken: T for the single space in an event start_date', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/cal/v1/events') return next(req);
      const text = bodyText(req);
      return next({ ...req, body: text.replace(/("start_date":"\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d")/, '$1 $2') });
    };
    const failed = await failedBy(fault, '/cal/v1/events');
    expect(failed.map((c) => c.id)).toEqual(['negative_rejection:postCalV1Events:edge:body.start_date pattern t-for-space']);
  });

  it('a required field left out taken: a legacy event without end_date', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/cal/events/v1/events') return next(req);
      const text = bodyText(req);
      if (!text.startsWith('{') || text.includes('"end_date"') || !text.includes('"start_date"')) return next(req);
      const body = JSON.parse(text) as Record<string, unknown>;
      return next({ ...req, body: JSON.stringify({ ...body, end_date: body['start_date'] }) });
    };
    const failed = await failedBy(fault, '/cal/events/v1/events');
    expect([...new Set(failed.map((c) => c.check))]).toEqual(['negative_rejection']);
    expect(failed.map((c) => c.id)).toContain('negative_rejection:postCalEventsV1Events:edge:body.end_date required missing');
  });

  it('one duplicate in a unique list taken: status=publish twice', async () => {
    const twice = (q: URLSearchParams): boolean => q.getAll('status[]').length === 2 && q.getAll('status[]')[0] === q.getAll('status[]')[1];
    const fault = readsQueryAs('/cal/v1/organizers', twice, (q) => q.delete('status[]'));
    const failed = await failedBy(fault, '/cal/v1/organizers');
    expect(failed.map((c) => c.id)).toEqual(['negative_rejection:getCalV1Organizers:edge:query.status uniqueItems duplicate']);
  });

  it('an item-level enum broken and taken: a batch item with method GET', async () => {
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/batch/v1') return next(req);
      return next({ ...req, body: bodyText(req).replace(/"method":"GET"/g, '"method":"POST"') });
    };
    const failed = await failedBy(fault, 'batch/v1');
    expect([...new Set(failed.map((c) => c.check))]).toEqual(['negative_rejection']);
    expect(failed.map((c) => c.id)).toContain('negative_rejection:postBatchV1:edge:body.requests.items.method enum neighbour');
  });

  it('defaults: a list without per_page holds 11 records', async () => {
    const fault = readsQueryAs('/cal/v1/events', (q) => !q.has('per_page'), (q) => q.set('per_page', '11'));
    const failed = await failedBy(fault, '/cal/v1/events');
    expect(failed.map((c) => c.id).sort()).toEqual(['defaults:getCalV1Events:default:per_page', 'defaults:getCalV1Events:per_page:count']);
    expect(failed.find((c) => c.variant === 'per_page:count')?.message).toMatch(/at most 10 records.*it holds 11 records/);
  });

  it('defaults: a list without order sorts DESC', async () => {
    const fault = readsQueryAs('/cal/v1/events', (q) => ![...q.keys()].some((k) => /^order(\[|$)/.test(k)), (q) => q.set('order', 'DESC'));
    const failed = await failedBy(fault, '/cal/v1/events');
    // list_order's default variant (issue 18) sees the same: event_date ascending is the documented default order.
    expect(failed.map((c) => c.id)).toEqual(['defaults:getCalV1Events:default:order', 'list_order:getCalV1Events:default']);
    expect(failed[0]!.message).toMatch(/order="ASC", its documented default \(000 §4\.2\.1\); without it the answer has body\[0\]/);
  });
});

describe('conventions checked in their own right', () => {
  it('unknown_id: a record id no site has answers 200 with a record', async () => {
    const fault: Fault = (req, next) => {
      const m = /^\/cal\/v1\/events\/(\d+)$/.exec(parse(req).route);
      if (req.method === 'GET' && m && Number(m[1]) > 1_000_000_000) return { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8', Allow: 'GET' }, body: JSON.stringify({ id: Number(m[1]), status: 'publish' }) };
      return next(req);
    };
    const failed = await failedBy(fault, '/cal/v1/events');
    expect(failed.map((c) => c.id)).toEqual(['unknown_id:getCalV1EventsById:id']);
    expect(failed[0]!.message).toMatch(/^expected 404 with a rest_\*_invalid_id code .*; got 200 \(application\/json\): a record that does not exist was served/);
  });

  it('unknown_id: a wrong code on the 404 (rest_no_route)', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (res.status !== 404 || !/^\/cal\/v1\/venues\/\d+$/.test(parse(req).route)) return res;
      return withJson(res, { code: 'rest_no_route', message: 'No route.', data: { status: 404 } });
    };
    // cal/v1 is built on core's posts controller; a legacy route's own code is only a warning (faults-records.test.ts).
    expect(await caughtBy(fault, '/cal/v1/venues')).toEqual(['unknown_id']);
  });

  it("error_envelope: a 404 for an unknown record without WordPress's envelope", async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (res.status !== 404 || json(res)['code'] !== 'rest_post_invalid_id') return res;
      return { status: 404, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body: '<h1>Not Found</h1>' };
    };
    const failed = await failedBy(fault, '/cal/v1/venues');
    // The HTML page is also no REST answer's content type (content_type, issue 18).
    expect([...new Set(failed.map((c) => c.check))].sort()).toEqual(['content_type', 'error_envelope']);
    expect(failed.find((c) => c.check === 'error_envelope')!.message).toMatch(/the 404 body is not WordPress's error object/);
  });

  it('trash: a trashed record reads back published', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (req.method !== 'GET' || !/^\/cal\/v1\/events\/\d+$/.test(parse(req).route) || res.status !== 200) return res;
      const body = json(res);
      return body['status'] === 'trash' ? withJson(res, { ...body, status: 'publish' }) : res;
    };
    const failed = await failedBy(fault, '/cal/v1/events');
    // The stateful model reads a trashed event back as trash as well (its delete-then-read command).
    expect(failed.map((c) => c.id).sort()).toEqual(['stateful:postCalV1Events:cal/v1/event', 'trash:getCalV1EventsById:cal/v1/event/read_trashed']);
  });

  /** The `status` of a JSON body, if it is one. */
  const sentStatus = (req: Parameters<Fault>[0]): unknown => {
    try {
      return (JSON.parse(bodyText(req)) as { status?: unknown }).status;
    } catch {
      return undefined;
    }
  };

  it('trash: a DELETE without force answers the record as it was, not trashed', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const { route, query } = parse(req);
      if (req.method !== 'DELETE' || !/^\/cal\/v1\/venues\/\d+$/.test(route) || query.has('force') || res.status !== 200) return res;
      const body = json(res);
      return body['status'] === 'trash' ? withJson(res, { ...body, status: 'publish' }) : res;
    };
    const failed = await failedBy(fault, '/cal/v1/venues');
    expect(failed.map((c) => c.id)).toEqual(['trash:deleteCalV1VenuesById:cal/v1/venue/delete_answer']);
  });

  it('trash: a trashed record published again keeps its __trashed slug', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if ((req.method !== 'PATCH' && req.method !== 'PUT') || !/^\/cal\/v1\/venues\/\d+$/.test(parse(req).route) || res.status !== 200) return res;
      const body = json(res);
      return body['status'] === 'publish' && typeof body['slug'] === 'string' && sentStatus(req) === 'publish' ? withJson(res, { ...body, slug: `${body['slug']}__trashed` }) : res;
    };
    const failed = await failedBy(fault, '/cal/v1/venues');
    expect(failed.map((c) => c.id)).toEqual([expect.stringMatching(/^trash:(patch|put)CalV1VenuesById:cal\/v1\/venue\/untrash$/)]);
  });

  it('trash: an update of a trashed record with its current status trash is refused', async () => {
    // What the mock did before it learned check_status(): the enum has no `trash`, so 400 naming status.
    const fault: Fault = (req, next) => {
      if ((req.method !== 'PATCH' && req.method !== 'PUT') || !/^\/cal\/v1\/venues\/\d+$/.test(parse(req).route) || sentStatus(req) !== 'trash') return next(req);
      return wpError(400, 'rest_invalid_param', { params: { status: 'status is not one of publish, future, draft, pending, private.' } });
    };
    const failed = await failedBy(fault, '/cal/v1/venues');
    expect(failed.map((c) => c.id)).toEqual([expect.stringMatching(/^trash:(patch|put)CalV1VenuesById:cal\/v1\/venue\/same_status$/)]);
  });

  it('trash: a second DELETE of a trashed record answers 200', async () => {
    const fault: Fault = (req, next) => {
      const { route, query } = parse(req);
      if (req.method !== 'DELETE' || !/^\/cal\/v1\/venues\/\d+$/.test(route) || /^(true|1)$/i.test(query.get('force') ?? '')) return next(req);
      const now = read(req, next);
      if (now.status === 200 && json(now)['status'] === 'trash') return now;
      return next(req);
    };
    const failed = await failedBy(fault, '/cal/v1/venues');
    expect(failed.map((c) => c.id)).toEqual(['trash:deleteCalV1VenuesById:cal/v1/venue/second_delete']);
    expect(failed[0]!.message).toMatch(/^expected 410 rest_already_trashed .*; got 200/);
  });

  it('not_a_server_error: a cal/v1 create with no field at all answers 500', async () => {
    const fault: Fault = (req, next) => {
      if (req.method === 'POST' && parse(req).route === '/cal/v1/organizers' && bodyText(req).trim() === '{}') return wpError(500, 'db_insert_error');
      return next(req);
    };
    expect(await caughtBy(fault, '/cal/v1/organizers')).toEqual(['not_a_server_error']);
  });

  it('pagination: a legacy list without totals headers serves a page past the end', async () => {
    const fault: Fault = (req, next) => {
      const { route } = parse(req);
      if (req.method !== 'GET' || route !== '/cal/events/v1/organizers') return next(req);
      const res = withoutHeader(withoutHeader(next(req), 'X-WP-Total'), 'X-WP-TotalPages');
      return res.status === 400 && json(res)['code'] === 'rest_post_invalid_page_number' ? withJson({ ...res, status: 200 }, []) : res;
    };
    const failed = await failedBy(fault, '/cal/events/v1/organizers');
    expect([...new Set(failed.map((c) => c.check))]).toEqual(['pagination']);
    expect(failed.find((c) => c.variant === 'past_end')?.message).toMatch(/^expected 400 rest_post_invalid_page_number .* for page \d+ with per_page=100, one past the last \(reading pages of 100 until a short one\); got 200/);
  });

  it('rest_route_equivalence names the field that differs', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      if (!req.url.includes('rest_route=') || parse(req).route !== '/cal/v1' || res.status !== 200) return res;
      return withJson(res, { ...json(res), namespace: 'cal/v2' });
    };
    const failed = await failedBy(fault, 'cal/v1');
    expect(failed.map((c) => c.check)).toEqual(['rest_route_equivalence']);
    expect(failed[0]!.message).toMatch(/answered with body\.namespace "cal\/v2" instead of "cal\/v1"/);
  });
});

describe('no false failures on what WordPress itself does, or on what the documents leave open', () => {
  it('a deleted legacy record read back as 403 rest_forbidden (not readable any more) is gone, not "still there"', async () => {
    const deleted = new Set<string>();
    const fault: Fault = (req, next) => {
      const { route } = parse(req);
      if (!/^\/cal\/events\/v1\/venues\/\d+$/.test(route)) return next(req);
      if (req.method === 'DELETE') {
        const res = next(req);
        if (res.status === 200) deleted.add(route);
        return res;
      }
      if (req.method === 'GET' && deleted.has(route)) return wpError(403, 'rest_forbidden');
      return next(req);
    };
    expect(await caughtBy(fault, '/cal/events/v1/venues')).toEqual([]);
  });

  it('a clock-derived field that differs between ?rest_route= and /wp-json is no difference', async () => {
    const fault: Fault = (req, next) => {
      const res = next(req);
      const stamp = (o: Record<string, unknown>): Record<string, unknown> => ({ ...o, generated_at: new Date(Date.now() + Math.floor(Math.random() * 5000)).toISOString() });
      // In every form the answer is asked for: plain, as JSONP's argument, inside an envelope.
      const jsonp = /^(\/\*\*\/[\w.]+\()(\{[\s\S]*\})\)$/.exec(res.body);
      if (res.status === 200 && jsonp) return asFaulted({ ...res, body: `${jsonp[1]}${wpJsonEncode(stamp(JSON.parse(jsonp[2]!) as Record<string, unknown>))})` });
      // Under _fields WordPress would drop the stamp with every field not asked for.
      if (res.status !== 200 || !res.body.startsWith('{') || parse(req).query.has('_fields')) return res;
      const body = json(res);
      if (new URL(req.url, 'http://x').searchParams.has('_envelope')) {
        const inner = body['body'];
        const stamped = body['status'] === 200 && typeof inner === 'object' && inner !== null && !Array.isArray(inner);
        return stamped ? withJson(res, { ...body, body: stamp(inner as Record<string, unknown>) }) : res;
      }
      return withJson(res, stamp(body));
    };
    expect(await caughtBy(fault, 'cal/v1,root')).toEqual([]);
  });

  it('refusals of values the documents leave open are held as assumed: legacy image, website, geoloc', async () => {
    const open = ['image', 'website', 'geoloc'];
    const fault: Fault = (req, next) => {
      const { route, query } = parse(req);
      if (!route.startsWith('/cal/events/v1/')) return next(req);
      const text = bodyText(req);
      let sent: string[] = open.filter((p) => query.has(p));
      if (text.startsWith('{')) {
        try {
          sent = [...sent, ...open.filter((p) => p in (JSON.parse(text) as object))];
        } catch {
          return next(req); // no JSON (body_forms' probe): the server's own 400 rest_invalid_json
        }
      }
      if (sent.length === 0) return next(req);
      return wpError(400, 'rest_invalid_param', { params: Object.fromEntries(sent.map((p) => [p, 'Invalid parameter.'])) });
    };
    expect(await caughtBy(fault, '/cal/events/v1/events,/cal/events/v1/venues')).toEqual([]);
    const run = await runSuite(fault, '/cal/events/v1/events,/cal/events/v1/venues');
    // The legacy event named "" is refused by the mock itself as WordPress would (empty_content; see test.test.ts).
    const held = run.cases.filter((c) => c.check === 'positive_acceptance' && c.status === 'warned' && c.variant !== 'edge:body.title empty');
    expect(new Set(held.map((c) => c.variant?.replace(/^(query|body)\./, '')))).toEqual(new Set(['image', 'website', 'geoloc', 'edge:full', 'edge:body.image alone', 'edge:body.website alone', 'edge:query.geoloc alone']));
    for (const c of held) expect(c.message).toMatch(/held as assumed because the documents (leave|tie|give)/);
  }); // three runs over two resources, coverage phase included

  it('a check that never got an accepted request is inconclusive, not passed', async () => {
    const fault: Fault = (req, next) => {
      const { route, query } = parse(req);
      // Refused for who asks, with the status WordPress gives (auth_status): 403 signed in, 401 anonymous.
      if (req.method === 'GET' && route === '/cal/v1/venues' && BOOLEAN.test(query.get('has_events') ?? '')) return wpError(req.headers['authorization'] ? 403 : 401, 'rest_forbidden');
      return next(req);
    };
    expect(await caughtBy(fault, '/cal/v1/venues')).toEqual([]);
    const run = await runSuite(fault, '/cal/v1/venues');
    const c = run.cases.find((x) => x.id === 'positive_acceptance:getCalV1Venues:query.has_events')!;
    expect(c.status).toBe('inconclusive');
    expect(run.summary.inconclusive).toBeGreaterThan(0);
  });
});

describe("the records the suite makes for itself", () => {
  it('never share a name: a site refusing a term name already taken (term_exists) leaves no check without its record', async () => {
    // The mock answers a second term of the same name 400 term_exists, as WordPress does; which unit came second
    // depended on timing, so the same seed skipped different checks from run to run.
    const names: string[] = [];
    const recorder: Fault = (req, next) => {
      const { route } = parse(req);
      const text = bodyText(req);
      // Only writes with credentials can make a term; the negative probes go without them and are refused first.
      if (req.method === 'POST' && req.headers['authorization'] && /\/(categories|tags)$/.test(route) && text.startsWith('{')) {
        const name = (JSON.parse(text) as { name?: unknown }).name;
        if (typeof name === 'string' && name.startsWith('site-contracts ')) names.push(name);
      }
      return next(req);
    };
    const run = await runSuite(recorder, 'cal/events/v1,cal/v1');
    expect(names.length).toBeGreaterThan(10);
    // duplicate_term sends a taken name on purpose (its promise is the 400 term_exists); every other name is unique.
    const own = names.filter((n) => !n.includes(' duplicate_term:'));
    expect(own.filter((n, i) => own.indexOf(n) !== i)).toEqual([]);
    expect(run.cases.filter((c) => c.message?.includes('could not create a record of its own')).map((c) => c.id)).toEqual([]);
  });
});
