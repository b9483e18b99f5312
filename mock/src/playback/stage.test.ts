// A played deviation on the wire: only the requests it matches are shaped, the answer's log line names its id, the
// page lists it, it switches off and on through /__mock/ (and a page of another site may not switch it).
import { describe, expect, it } from 'vitest';
import { call, freshMock, sharedContract } from '../testing/harness.ts';
import { deviationsOf } from './load.ts';
import { formatLine } from '../adapters/request-log.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';

const contract = sharedContract();
const version = String((contract.doc['info'] as { version: string }).version);
const SITE = 'http://staging.example';
// Each case names its kind of deviation as a version 2 report's do (the suite's registry says it; the mock reads only it).
const failed = (id: string, check: string, deviation: object, request: object, response: object) => ({ id, check, status: 'failed', deviation, request, response });
const err = (status: number, code: string, params?: Record<string, string>) => JSON.stringify({ code, message: code, data: { status, ...(params ? { params } : {}) } });

const report = {
  reportVersion: 2,
  contract: { version },
  target: { baseUrl: SITE },
  tool: { name: 'site-contracts', version: 't' },
  cases: [
    failed('route_presence:getCalV1Organizers:', 'route_presence', { kind: 'route-missing' }, { method: 'GET', url: `${SITE}/wp-json/cal/v1/organizers`, headers: {} }, { status: 404, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: err(404, 'rest_no_route') }),
    failed('positive_acceptance:getCalV1Venues:query.has_events', 'positive_acceptance', { kind: 'value-refused' }, { method: 'GET', url: `${SITE}/wp-json/cal/v1/venues?has_events=true`, headers: {} }, { status: 400, headers: {}, body: err(400, 'rest_invalid_param', { has_events: 'no' }) }),
    failed('pagination:getCalV1Events:', 'pagination', { kind: 'header', headers: ['X-WP-Total', 'X-WP-TotalPages', 'Link'] }, { method: 'GET', url: `${SITE}/wp-json/cal/v1/events?per_page=2`, headers: {} }, { status: 200, headers: { 'X-WP-Total': '9', 'X-WP-TotalPages': '5' }, body: '[]' }),
    failed('lifecycle:postCalV1Events:', 'lifecycle', { kind: 'field' }, { method: 'POST', url: `${SITE}/wp-json/cal/v1/events`, headers: {} }, { status: 201, headers: {}, body: '{"id":1', bodyTruncated: true }),
    { id: 'cleanup:-:', check: 'cleanup', status: 'failed' },
  ],
};

async function played(skip: string[] = []) {
  const loaded = deviationsOf(JSON.stringify(report), 'staging.json', contract, skip);
  if ('error' in loaded) throw new Error(loaded.error);
  return { loaded, mock: await freshMock({ deviations: loaded.played }) };
}

describe('a played deviation', () => {
  it('is derived from the evidence, each with a stable id; what cannot be played says why', async () => {
    const { loaded } = await played();
    expect(loaded.played.deviations.map((d) => d.id)).toEqual([
      'no-route:getCalV1Organizers',
      expect.stringMatching(/^value-refused:getCalV1Venues:400-rest_invalid_param-[0-9a-f]{8}$/),
      'header-missing:getCalV1Events:Link',
    ]);
    expect(loaded.played.unplayable).toEqual([
      { caseId: 'lifecycle:postCalV1Events:', reason: 'the answer body was cut short in the report before its first record ended: which field deviates cannot be read' },
      { caseId: 'cleanup:-:', reason: 'the case names no kind of deviation (no answer showed one)' },
    ]);
    expect((await played()).loaded.played.deviations.map((d) => d.id)).toEqual(loaded.played.deviations.map((d) => d.id));
  });

  it('plays a case by the kind it names, not by its check\'s name', () => {
    const list = { method: 'GET', url: `${SITE}/wp-json/cal/v1/events?search=jazz&per_page=2`, headers: {} };
    const answer = { status: 200, headers: { 'X-WP-Total': '9', 'X-WP-TotalPages': '5' }, body: '[]' };
    const of = (...cases: object[]) => {
      const out = deviationsOf(JSON.stringify({ ...report, cases }), 'kinds.json', contract, []);
      if ('error' in out) throw new Error(out.error);
      return { ids: out.played.deviations.map((d) => d.id), unplayable: out.played.unplayable.map((u) => u.reason) };
    };
    // A check the mock never heard of, whose case says a filter was not applied: played as that filter ignored.
    expect(of(failed('a_new_check:getCalV1Events:', 'a_new_check', { kind: 'filter-ignored', params: ['search', 'tags'] }, list, answer)).ids).toEqual(['filter-ignored:getCalV1Events:search']);
    // The same answer under pagination's name, but the case says header: the header it names and the answer lacks.
    expect(of(failed('pagination:getCalV1Events:', 'pagination', { kind: 'header', headers: ['X-WP-Total', 'Link'] }, list, answer)).ids).toEqual(['header-missing:getCalV1Events:Link']);
    // ...and when the case names no header kind, pagination's name alone plays nothing of headers.
    expect(of(failed('pagination:getCalV1Events:', 'pagination', { kind: 'field' }, list, answer)).ids.filter((i) => i.startsWith('header-missing:'))).toEqual([]);
    // A kind this mock does not know, or one its answer contradicts, is listed with the reason.
    expect(of(failed('x:getCalV1Events:', 'x', { kind: 'timing' }, list, answer)).unplayable).toEqual(['the case\'s kind of deviation "timing" is not one this mock plays (a report of a newer site-contracts?)']);
    expect(of(failed('x:getCalV1Events:', 'x', { kind: 'server-error' }, list, answer)).unplayable).toEqual(['the case says server-error but its answer is 200: not played']);
  });

  it('ties a refusal to what its evidence names: the parameter an error names, not the record the path names; a refusal naming none to the record too', async () => {
    const ids = (call(await freshMock(), 'GET', '/wp-json/cal/v1/events?per_page=2').json as { id: number }[]).map((e) => e.id);
    const [a, b] = [ids[0]!, ids[1]!];
    const cases = [
      // An anonymous read of one record refused: for that record alone (another may be answered otherwise).
      failed('stateful:getCalV1EventsById:anon', 'stateful', { kind: 'status' }, { method: 'GET', url: `${SITE}/wp-json/cal/v1/events/9001`, headers: {} }, { status: 403, headers: {}, body: err(403, 'cal-forbidden') }),
      // A documented value refused on an update of one record: the error names the parameter.
      failed('positive_acceptance:postCalEventsV1EventsById:body.image', 'positive_acceptance', { kind: 'value-refused' }, { method: 'POST', url: `${SITE}/wp-json/cal/events/v1/events/9002`, headers: { authorization: 'Basic x', 'content-type': 'application/json' }, body: '{"image":"https://example.org/p.jpg"}' }, { status: 400, headers: {}, body: err(400, 'rest_invalid_param', { image: 'no' }) }),
      // An id refused by name: tied to that id, which the error names.
      failed('unknown_id:getCalEventsV1EventsById:id', 'unknown_id', { kind: 'status' }, { method: 'GET', url: `${SITE}/wp-json/cal/events/v1/events/2000000001`, headers: { authorization: 'Basic x' } }, { status: 400, headers: {}, body: err(400, 'rest_invalid_param', { id: 'Invalid parameter.' }) }),
      // A signed-in user refused a record: the rights may be that record's, so only that record is refused.
      failed('permissions:getCalV1OrganizersById:x', 'permissions', { kind: 'status' }, { method: 'GET', url: `${SITE}/wp-json/cal/v1/organizers/9003?context=edit`, headers: { authorization: 'Basic x' } }, { status: 403, headers: {}, body: err(403, 'rest_forbidden_context') }),
    ];
    const loaded = deviationsOf(JSON.stringify({ ...report, cases }), 'who.json', contract, []);
    if ('error' in loaded) throw new Error(loaded.error);
    const mock = await freshMock({ auth: true, deviations: loaded.played });
    const admin = mock.credentials()!;
    expect(call(mock, 'GET', '/wp-json/cal/v1/events/9001').json).toMatchObject({ code: 'cal-forbidden' });
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${a}`).status).toBe(200);
    expect(call(mock, 'GET', `/wp-json/cal/v1/events/${b}`).status).toBe(200);
    expect(call(mock, 'POST', `/wp-json/cal/events/v1/events/${a}`, { auth: admin, body: { image: 'https://example.org/p.jpg' } }).json).toMatchObject({ code: 'rest_invalid_param' });
    expect(call(mock, 'POST', `/wp-json/cal/events/v1/events/${a}`, { auth: admin, body: { image: 'https://example.org/q.jpg' } }).json).not.toMatchObject({ code: 'rest_invalid_param' });
    expect(call(mock, 'GET', '/wp-json/cal/events/v1/events/2000000001', { auth: admin }).json).toMatchObject({ code: 'rest_invalid_param' });
    expect(call(mock, 'GET', `/wp-json/cal/events/v1/events/${a}`, { auth: admin }).status).toBe(200);
    const played = loaded.played.deviations.find((d) => d.operationId === 'getCalV1OrganizersById')!;
    expect(played.shape!.path).toEqual({ id: '9003' });
  });

  it('does not play a page past the site\'s end: whether page N is past the end depends on how many records each holds', () => {
    const pastEnd = (page: number) =>
      failed(`pagination:getCalEventsV1Organizers:past_end${page}`, 'pagination', { kind: 'status' }, { method: 'GET', url: `${SITE}/wp-json/cal/events/v1/organizers?page=${page}&per_page=2`, headers: {} }, { status: 400, headers: {}, body: err(400, 'archive-page-not-found') });
    const loaded = deviationsOf(JSON.stringify({ ...report, cases: [pastEnd(48), pastEnd(1)] }), 'pages.json', contract, []);
    if ('error' in loaded) throw new Error(loaded.error);
    expect(loaded.played.unplayable.map((u) => u.reason)).toEqual([expect.stringMatching(/^a 400 archive-page-not-found to page 48, naming no parameter: whether that page is past the end depends on how many records the site holds/)]);
    // Page 1 refused is no question of how many records there are: played as sent.
    expect(loaded.played.deviations.map((d) => d.operationId)).toEqual(['getCalEventsV1Organizers']);
  });

  it('shapes only the requests it matches, and names itself in the log line and on the page', async () => {
    const { mock } = await played();
    expect(call(mock, 'GET', '/wp-json/cal/v1/organizers').status).toBe(404);
    expect(call(mock, 'GET', '/wp-json/cal/v1/organizers').json).toMatchObject({ code: 'rest_no_route' });
    expect(formatLine(mock.recentRequests()[0]!, false)).toMatch(/^\S+ GET +\/wp-json\/cal\/v1\/organizers 404 rest_no_route deviation no-route:getCalV1Organizers /);
    expect(call(mock, 'GET', '/wp-json/cal/v1/organizers/1').json).not.toMatchObject({ code: 'rest_no_route' });
    expect(mock.recentRequests()[0]!.deviation).toBeUndefined();
    expect(call(mock, 'GET', '/wp-json/cal/v1/venues?has_events=true').status).toBe(400);
    expect(call(mock, 'GET', '/wp-json/cal/v1/venues?has_events=false').status).toBe(200);
    expect(call(mock, 'GET', '/wp-json/cal/v1/venues').status).toBe(200);
    expect(mock.recentRequests()[0]!.deviation).toBeUndefined();
    const page = call(mock, 'GET', '/__mock/');
    expect(page.body).toContain('no-route:getCalV1Organizers');
    expect(page.body).toContain('lifecycle:postCalV1Events:');
  });

  it('switches off and on through /__mock/, refuses pages of other sites, and starts off with --deviations-skip', async () => {
    const { mock } = await played();
    expect(call(mock, 'POST', '/__mock/deviation-off/no-route:getCalV1Organizers', { headers: { origin: 'https://evil.example' } }).status).toBe(403);
    expect(call(mock, 'GET', '/wp-json/cal/v1/organizers').status).toBe(404);
    expect(call(mock, 'POST', '/__mock/deviation-off/no-route:getCalV1Organizers').json).toEqual({ id: 'no-route:getCalV1Organizers', played: false });
    expect(call(mock, 'GET', '/wp-json/cal/v1/organizers').status).toBe(200);
    expect(call(mock, 'POST', '/__mock/deviation-on/no-route:getCalV1Organizers').status).toBe(200);
    expect(call(mock, 'GET', '/wp-json/cal/v1/organizers').status).toBe(404);
    // The id as encodeURIComponent writes it into a URL (`:` as %3A) names the same deviation.
    expect(call(mock, 'POST', `/__mock/deviation-off/${encodeURIComponent('no-route:getCalV1Organizers')}`).json).toEqual({ id: 'no-route:getCalV1Organizers', played: false });
    expect(call(mock, 'GET', '/wp-json/cal/v1/organizers').status).toBe(200);
    expect(call(mock, 'POST', '/__mock/deviation-on/no-route%3AgetCalV1Organizers').status).toBe(200);
    expect(call(mock, 'POST', '/__mock/deviation-off/nope').status).toBe(404);
    expect(call(mock, 'POST', '/__mock/deviation-off/%E0%A4%A').status).toBe(404);
    const listed = call(mock, 'GET', '/__mock/deviations').json as { played: { id: string; on: boolean }[] };
    expect(listed.played.map((d) => d.on)).toEqual([true, true, true]);
    const skipped = (await played(['no-route:getCalV1Organizers'])).mock;
    expect(call(skipped, 'GET', '/wp-json/cal/v1/organizers').status).toBe(200);
  });

  it('answers as the mock answers everything: wp_json_encode() bodies and WordPress\'s headers, on played errors and edited records', async () => {
    const plainMock = await freshMock();
    const plain = call(plainMock, 'GET', '/wp-json/cal/v1/venues');
    expect(plain.body).toContain('\\/'); // the records hold URLs: an encoding that leaves `/` bare is told apart
    const withoutStatus = (plain.json as Record<string, unknown>[]).map(({ status: _s, ...rest }) => rest);
    const refusal = JSON.stringify({ code: 'rest_invalid_param', message: 'has_events is not one of 1/0 «true»', data: { status: 400, params: { has_events: 'no' } } });
    const shaped = {
      ...report,
      cases: [
        failed('positive_acceptance:getCalV1Venues:query.has_events', 'positive_acceptance', { kind: 'value-refused' }, { method: 'GET', url: `${SITE}/wp-json/cal/v1/venues?has_events=true`, headers: {} }, { status: 400, headers: {}, body: refusal }),
        failed('response_shape:getCalV1Venues:', 'response_shape', { kind: 'field' }, { method: 'GET', url: `${SITE}/wp-json/cal/v1/venues`, headers: {} }, { status: 200, headers: {}, body: JSON.stringify(withoutStatus) }),
      ],
    };
    const loaded = deviationsOf(JSON.stringify(shaped), 'shaped.json', contract, []);
    if ('error' in loaded) throw new Error(loaded.error);
    expect(loaded.played.deviations.map((d) => d.id)).toContain('field-absent:getCalV1Venues:status');
    const mock = await freshMock({ deviations: loaded.played });

    const edited = call(mock, 'GET', '/wp-json/cal/v1/venues');
    expect(edited.deviation).toBe('field-absent:getCalV1Venues:status');
    expect(edited.body).toBe(wpJsonEncode(withoutStatus));
    expect(edited.headers).toEqual(plain.headers);

    const refused = call(mock, 'GET', '/wp-json/cal/v1/venues?has_events=true');
    expect(refused.status).toBe(400);
    expect(refused.body).toBe(wpJsonEncode(JSON.parse(refusal)));
    expect(refused.body).toContain('1\\/0 \\u00abtrue\\u00bb');
    const own = call(plainMock, 'GET', '/wp-json/cal/v1/venues?has_events=maybe');
    expect(own.status).toBe(400);
    expect(refused.headers).toEqual(own.headers);
    expect(refused.headers).toMatchObject({ 'X-Content-Type-Options': 'nosniff', 'X-Robots-Tag': 'noindex', Link: expect.stringContaining('rel="https://api.w.org/"') });
    const head = call(mock, 'HEAD', '/wp-json/cal/v1/venues?has_events=true');
    expect([head.status, head.body, head.headers]).toEqual([400, '', call(plainMock, 'HEAD', '/wp-json/cal/v1/venues?has_events=maybe').headers]);

    // Switched off, the plain mock's answer, not a remembered played one.
    call(mock, 'POST', '/__mock/deviation-off/field-absent:getCalV1Venues:status');
    expect(call(mock, 'GET', '/wp-json/cal/v1/venues').body).toBe(plain.body);
  });
});
