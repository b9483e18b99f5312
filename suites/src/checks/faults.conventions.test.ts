// Proven both ways: WordPress's conventions checked in their own right, each against the mock broken in exactly
// that one (faults.test.ts has the check families, faults.false-failures.test.ts what must not fail).
import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import {
  bodyText,
  harnessForFile,
  json,
  parse,
  withJson,
  wpError,
  type Fault,
  type MockRequest,
  type MockResponse,
  type Next,
} from '../testing/faulty-mock.ts';
import { faultRuns, withoutHeader } from '../testing/fault-runs.ts';

const h = harnessForFile({ createMock, listen });
const { caughtBy, failedBy } = faultRuns(h);

/** Answers the request as the mock would, but as the record it names reads now (GET of the same route). */
function read(req: MockRequest, next: Next): MockResponse {
  const { body: _b, ...rest } = req;
  return next({ ...rest, method: 'GET', url: req.url.split('?')[0]!, headers: { ...req.headers } });
}

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
