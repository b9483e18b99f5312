// A played deviation on the wire: only the requests it matches are shaped, the answer's log line names its id, the
// page lists it, it switches off and on through /__mock/ (and a page of another site may not switch it).
import { describe, expect, it } from 'vitest';
import { call, freshMock, sharedContract } from '../testing/harness.ts';
import { deviationsOf } from './load.ts';
import { formatLine } from '../adapters/request-log.ts';

const contract = sharedContract();
const version = String((contract.doc['info'] as { version: string }).version);
const SITE = 'http://staging.example';
const failed = (id: string, check: string, request: object, response: object) => ({ id, check, status: 'failed', request, response });
const err = (status: number, code: string, params?: Record<string, string>) => JSON.stringify({ code, message: code, data: { status, ...(params ? { params } : {}) } });

const report = {
  reportVersion: 1,
  contract: { version },
  target: { baseUrl: SITE },
  tool: { name: 'site-contracts', version: 't' },
  cases: [
    failed('route_presence:getCalV1Organizers:', 'route_presence', { method: 'GET', url: `${SITE}/wp-json/cal/v1/organizers`, headers: {} }, { status: 404, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: err(404, 'rest_no_route') }),
    failed('positive_acceptance:getCalV1Venues:query.has_events', 'positive_acceptance', { method: 'GET', url: `${SITE}/wp-json/cal/v1/venues?has_events=true`, headers: {} }, { status: 400, headers: {}, body: err(400, 'rest_invalid_param', { has_events: 'no' }) }),
    failed('pagination:getCalV1Events:', 'pagination', { method: 'GET', url: `${SITE}/wp-json/cal/v1/events?per_page=2`, headers: {} }, { status: 200, headers: { 'X-WP-Total': '9', 'X-WP-TotalPages': '5' }, body: '[]' }),
    failed('lifecycle:postCalV1Events:', 'lifecycle', { method: 'POST', url: `${SITE}/wp-json/cal/v1/events`, headers: {} }, { status: 201, headers: {}, body: '{"id":1', bodyTruncated: true }),
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
      { caseId: 'cleanup:-:', reason: 'the case recorded no request and answer' },
    ]);
    expect((await played()).loaded.played.deviations.map((d) => d.id)).toEqual(loaded.played.deviations.map((d) => d.id));
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
    expect(call(mock, 'POST', '/__mock/deviation-off/nope').status).toBe(404);
    const listed = call(mock, 'GET', '/__mock/deviations').json as { played: { id: string; on: boolean }[] };
    expect(listed.played.map((d) => d.on)).toEqual([true, true, true]);
    const skipped = (await played(['no-route:getCalV1Organizers'])).mock;
    expect(call(skipped, 'GET', '/wp-json/cal/v1/organizers').status).toBe(200);
  });
});
