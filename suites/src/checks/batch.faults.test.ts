// batch_item_status's index and item rules proven both ways at their edge: the unbroken mock passes; a mock whose
// index drops allow_batch from one cal/v1 endpoint, whose index adds it to one legacy endpoint, whose batch lets an
// item into a legacy route it shows unbatchable, or whose batch items drop their path's query, fails that case only.

import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import { bodyText, failedBy, harnessForFile, json, parse, plain, withJson, type Fault, type MockRequest } from '../testing/faulty-mock.ts';

const h = harnessForFile({ createMock, listen }, { auth: true });
const ONLY = 'batch/v1,batch_item_status';

const variants = async (fault: Fault): Promise<string[]> => (await failedBy(h, fault, ONLY)).map((c) => `${c.check}:${c.variant}`);

type Endpoint = { methods: string[]; allow_batch?: unknown };
type Routes = Record<string, { endpoints: Endpoint[] }>;

/** The root index with one endpoint of an item route edited (`/cal/v1/venues/`: the route `/cal/v1/venues/(?P<id>…)`). */
const editIndex = (prefix: string, method: string, edit: (ep: Endpoint) => void): Fault => (req, next) => {
  const res = next(req);
  if (req.method !== 'GET' || parse(req).route !== '/' || res.status !== 200) return res;
  const body = json(res) as { routes: Routes };
  const route = Object.keys(body.routes).find((k) => k.startsWith(`${prefix}(`));
  const ep = route ? body.routes[route]!.endpoints.find((e) => e.methods.includes(method)) : undefined;
  if (!ep) return res;
  edit(ep);
  return plain(withJson(res, body));
};

/** Each item of a batch edited before the mock sees it. */
const editItems = (edit: (item: { method?: string; path: string }) => { method?: string; path: string }): Fault => (req, next) => {
  if (req.method !== 'POST' || parse(req).route !== '/batch/v1') return next(req);
  const body = JSON.parse(bodyText(req)) as { requests: { method?: string; path: string }[] };
  return next({ ...req, body: JSON.stringify({ ...body, requests: body.requests.map(edit) }) } as MockRequest);
};

describe('batch_item_status: allow_batch, rest_batch_not_allowed and the item query', () => {
  it('passes on the mock: cal/v1 batchable, the legacy routes not, a legacy item refused, force read from the item path', async () => {
    const { run } = await h.run(undefined, ONLY);
    expect(run.cases.filter((c) => c.check === 'batch_item_status').map((c) => [c.variant, c.status]).sort()).toEqual([
      ['allow-batch', 'passed'],
      ['batchable-routes', 'passed'],
      ['normal', 'passed'],
      ['not-allowed', 'passed'],
      ['path-query', 'passed'],
    ]);
  });

  it("fails when one cal/v1 endpoint's index entry lacks allow_batch (the venue's DELETE)", async () => {
    // The index then contradicts the batch too: an item for that route is taken (404 for an unused id), not refused.
    expect((await variants(editIndex('/cal/v1/venues/', 'DELETE', (ep) => delete ep.allow_batch))).sort()).toEqual(['batch_item_status:allow-batch', 'batch_item_status:not-allowed']);
  });

  it("warns when one legacy endpoint's index entry carries allow_batch (the organizer's DELETE): assumed, 001 §4.1 leaves it open", async () => {
    const { run } = await h.run(editIndex('/cal/events/v1/organizers/', 'DELETE', (ep) => (ep.allow_batch = { v1: true })), ONLY);
    const judged = run.cases.filter((c) => c.check === 'batch_item_status' && c.status !== 'passed');
    expect(judged.map((c) => [c.variant, c.status, c.severity])).toEqual([['batchable-routes', 'warned', 'assumed']]);
    expect(judged[0]!.message).toContain('DELETE /cal/events/v1/organizers/{id}');
  });

  it('fails when a batch lets an item into a legacy route its index shows without allow_batch', async () => {
    // The item is sent on as a single request would be: what a server that never checks allow_batch answers.
    const fault: Fault = (req, next) => {
      if (req.method !== 'POST' || parse(req).route !== '/batch/v1') return next(req);
      const body = JSON.parse(bodyText(req)) as { requests: { method?: string; path: string }[] };
      if (!body.requests.every((r) => r.path.startsWith('/cal/events/v1/'))) return next(req);
      const responses = body.requests.map((r) => {
        const res = next({ ...req, method: r.method ?? 'POST', url: `/wp-json${r.path}`, body: undefined } as MockRequest);
        return { body: JSON.parse(res.body) as unknown, status: res.status, headers: {} };
      });
      const res = next({ ...req, body: JSON.stringify({ requests: [] }) } as MockRequest);
      return plain({ ...res, status: 207, body: JSON.stringify({ responses }) });
    };
    expect(await variants(fault)).toEqual(['batch_item_status:not-allowed']);
  });

  it("fails when an item's path loses its query (force=true unread: the record is trashed)", async () => {
    expect(await variants(editItems((it) => ({ ...it, path: it.path.split('?')[0]! })))).toEqual(['batch_item_status:path-query']);
  });
});
