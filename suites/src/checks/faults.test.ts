// Proven both ways: for every check family, the suite runs against the mock broken in exactly one way
// and that check, and only it, fails. The break is a wrapper around the mock's public request handler
// (a small faulty server in the test); everything else the mock does stays as it is. Each test runs the
// same selection against the unbroken mock first, so that a deviation the mock already has cannot be
// mistaken for the effect of the fault.
// The check families; the edge phase is in faults.edges.test.ts, conventions in faults.conventions.test.ts, false
// failures in faults.false-failures.test.ts (fault-runs.ts says why four files).
import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
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
} from '../testing/faulty-mock.ts';
import { asFaulted, BOOLEAN, faultRuns, readsQueryAs, withoutHeader } from '../testing/fault-runs.ts';

const h = harnessForFile({ createMock, listen });
const { caughtBy, failedBy } = faultRuns(h);

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
