// Proven both ways, at the edge: the suite against the mock off by one at exactly one constraint fails the check
// that judges it, and the random values far from the edge do not (faults.test.ts has the check families).
import { describe, expect, it } from 'vitest';
import { createMock, listen } from '../../../mock/src/index.ts';
import {
  bodyText,
  harnessForFile,
  parse,
  type Fault,
} from '../testing/faulty-mock.ts';
import { faultRuns, readsQueryAs } from '../testing/fault-runs.ts';

const h = harnessForFile({ createMock, listen });
const { failedBy } = faultRuns(h);

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
