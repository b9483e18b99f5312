import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import type { Exchange, Outgoing } from '../http/types.ts';
import { cleanup, createdId, Ledger } from './ledger.ts';

const contract = loadContractFile();
const MARK = 'site-contracts abcd1234';

/** A target holding records by route; answers GET and DELETE like WordPress. */
function fakeTarget(records: Record<string, unknown>) {
  const sent: string[] = [];
  const send = async (o: Outgoing): Promise<Exchange> => {
    const q = o.query ? `?${new URLSearchParams(Object.entries(o.query).map(([k, v]) => [k, String(v)]))}` : '';
    sent.push(`${o.method} ${o.route}${q}`);
    const request = { method: o.method, url: o.route, headers: {} };
    const rec = records[o.route];
    if (o.method === 'GET') {
      return rec ? { request, response: { status: 200, headers: {}, body: JSON.stringify(rec) }, durationMs: 0 } : { request, response: { status: 404, headers: {}, body: '{"code":"rest_post_invalid_id","message":"","data":{"status":404}}' }, durationMs: 0 };
    }
    delete records[o.route];
    return { request, response: { status: 200, headers: {}, body: '{"deleted":true}' }, durationMs: 0 };
  };
  return { send, sent };
}

describe('cleanup', () => {
  it('deletes its own records, purges legacy posts through cal/v1, and leaves a record without the marker alone', async () => {
    const ledger = new Ledger();
    ledger.add({ namespace: 'cal/v1', resource: 'venue', id: 5, itemPath: '/cal/v1/venues/{id}', createdBy: 't' });
    ledger.add({ namespace: 'cal/events/v1', resource: 'event', id: 6, itemPath: '/cal/events/v1/events/{id}', createdBy: 't' });
    ledger.add({ namespace: 'cal/events/v1', resource: 'tag', id: 7, itemPath: '/cal/events/v1/tags/{id}', createdBy: 't' });
    ledger.add({ namespace: 'cal/v1', resource: 'event', id: 8, itemPath: '/cal/v1/events/{id}', createdBy: 't' });
    const target = fakeTarget({
      '/cal/v1/venues/5': { id: 5, title: { raw: `${MARK} venue` } },
      '/cal/events/v1/events/6': { id: 6, title: `${MARK} event` },
      '/cal/events/v1/tags/7': { id: 7, name: `${MARK} tag` },
      '/cal/v1/events/8': { id: 8, title: { raw: 'Somebody else’s event' } },
    });
    const report = await cleanup({ contract, ledger, send: target.send, marker: MARK, served: () => true, sweep: false });
    expect(report.removed.map((r) => r.id).sort()).toEqual([5, 6, 7]);
    expect(report.left).toEqual([{ record: expect.objectContaining({ id: 8 }), reason: expect.stringContaining('no longer carries the marker') }]);
    expect(target.sent).toContain('DELETE /cal/v1/venues/5?force=true');
    expect(target.sent).toContain('DELETE /cal/events/v1/events/6');
    expect(target.sent).toContain('DELETE /cal/v1/events/6?force=true');
    expect(target.sent).toContain('DELETE /cal/events/v1/tags/7?force=true');
    expect(target.sent.some((s) => s.startsWith('DELETE /cal/v1/events/8'))).toBe(false);
  });

  it('skips records a lifecycle already saw gone', async () => {
    const ledger = new Ledger();
    ledger.add({ namespace: 'cal/v1', resource: 'venue', id: 5, itemPath: '/cal/v1/venues/{id}', createdBy: 't' });
    ledger.markGone({ namespace: 'cal/v1', resource: 'venue', id: 5 });
    const target = fakeTarget({});
    const report = await cleanup({ contract, ledger, send: target.send, marker: MARK, served: () => true, sweep: false });
    expect(report.removed).toEqual([]);
    expect(target.sent).toEqual([]);
  });

  it('reads ids from create answers only', () => {
    const e = (status: number, body: string): Exchange => ({ request: { method: 'POST', url: '', headers: {} }, response: { status, headers: {}, body }, durationMs: 0 });
    expect(createdId(e(201, '{"id":12}'))).toBe(12);
    expect(createdId(e(201, '{"id":"13"}'))).toBe(13);
    expect(createdId(e(400, '{"id":12}'))).toBeUndefined();
    expect(createdId(e(201, '{"id":-1}'))).toBeUndefined();
  });
});

/** A target whose answers each test chooses: `reply` returns undefined to fall back to fakeTarget's. */
function scriptedTarget(records: Record<string, unknown>, reply: (o: Outgoing, records: Record<string, unknown>) => Exchange['response'] | 'silence' | undefined) {
  const base = fakeTarget(records);
  const sent: string[] = [];
  const send = async (o: Outgoing): Promise<Exchange> => {
    sent.push(`${o.method} ${o.route}`);
    const request = { method: o.method, url: o.route, headers: {} };
    const r = reply(o, records);
    if (r === 'silence') return { request, error: { kind: 'timeout', message: 'no answer within 100 ms (--timeout-ms)' }, durationMs: 100 };
    if (r) return { request, response: r, durationMs: 0 };
    return base.send(o);
  };
  return { send, sent };
}

const json = (status: number, body: unknown) => ({ status, headers: {}, body: JSON.stringify(body) });
const venue = (id: number) => ({ namespace: 'cal/v1', resource: 'venue', id, itemPath: '/cal/v1/venues/{id}', createdBy: 't' });

describe('leftovers are confirmed by a read', () => {
  const run = (records: Record<string, unknown>, reply: Parameters<typeof scriptedTarget>[1], ids = [5], served = () => true) => {
    const ledger = new Ledger();
    for (const id of ids) ledger.add(venue(id));
    const target = scriptedTarget(records, reply);
    return cleanup({ contract, ledger, send: target.send, marker: MARK, served, sweep: false }).then((report) => ({ report, sent: target.sent }));
  };

  it('counts a record as removed when the read after the delete finds it gone, whatever the delete answered', async () => {
    // The site answers a delete of an id it already purged (or never knew) with 403, as the site did.
    const { report } = await run({ '/cal/v1/venues/5': { id: 5, title: MARK } }, (o, records) => {
      if (o.method !== 'DELETE') return undefined;
      delete records[o.route];
      return json(403, { code: 'rest_cannot_delete', message: 'no', data: { status: 403 } });
    });
    expect(report.removed.map((r) => r.id)).toEqual([5]);
    expect(report.left).toEqual([]);
  });

  it.each([
    [404, 'rest_post_invalid_id'],
    [410, 'rest_already_trashed'],
    [403, 'rest_post_invalid_id'],
    [401, 'rest_forbidden'],
  ])('reads %i %s after the delete as gone', async (status, code) => {
    let deleted = false;
    const { report } = await run({ '/cal/v1/venues/5': { id: 5, title: MARK } }, (o) => {
      if (o.method === 'DELETE') return void (deleted = true), json(200, { deleted: true });
      return deleted ? json(status, { code, message: '', data: { status } }) : undefined;
    });
    expect(report.removed.map((r) => r.id)).toEqual([5]);
  });

  it('lists a record as left only when the read finds it, with what the delete answered', async () => {
    const { report } = await run({ '/cal/v1/venues/5': { id: 5, title: MARK } }, (o) => (o.method === 'DELETE' ? json(200, { deleted: true }) : undefined));
    expect(report.removed).toEqual([]);
    expect(report.left).toEqual([{ record: expect.objectContaining({ id: 5 }), reason: 'still there after DELETE /cal/v1/venues/5 answered 200' }]);
  });

  it('leaves a 403 without a no-such-record code, or a 500, unconfirmed', async () => {
    let deleted = false;
    const { report } = await run({ '/cal/v1/venues/5': { id: 5, title: MARK } }, (o) => {
      if (o.method === 'DELETE') return void (deleted = true), json(200, {});
      return deleted ? json(403, { code: 'rest_cannot_edit', message: '', data: { status: 403 } }) : undefined;
    });
    expect(report.left).toEqual([]);
    expect(report.unconfirmed[0]?.reason).toMatch(/the read after it answered 403 rest_cannot_edit, which does not say whether the record is gone/);
  });

  it('counts a record in the trash as left after a forced delete, as removed where the target offers no purge', async () => {
    const trashIt = (o: Outgoing, records: Record<string, unknown>) => {
      if (o.method !== 'DELETE') return undefined;
      records[o.route.replace('/cal/v1/', '/cal/events/v1/')] = { id: 6, title: MARK, status: 'trash' };
      records[o.route] = { id: 6, title: MARK, status: 'trash' };
      return json(200, { id: 6, status: 'trash' });
    };
    const forced = await run({ '/cal/v1/venues/6': { id: 6, title: MARK } }, trashIt, [6]);
    expect(forced.report.left[0]?.reason).toMatch(/^still in the trash after DELETE \/cal\/v1\/venues\/6 answered 200/);

    const ledger = new Ledger();
    ledger.add({ namespace: 'cal/events/v1', resource: 'venue', id: 6, itemPath: '/cal/events/v1/venues/{id}', createdBy: 't' });
    const target = scriptedTarget({ '/cal/events/v1/venues/6': { id: 6, title: MARK } }, trashIt);
    const legacyOnly = await cleanup({ contract, ledger, send: target.send, marker: MARK, served: (t) => !t.startsWith('/cal/v1/'), sweep: false });
    expect(legacyOnly.removed.map((r) => r.id)).toEqual([6]);
    expect(target.sent).not.toContain('DELETE /cal/v1/venues/6');
  });

  it('stops sending when the target does not answer, and counts the rest as unconfirmed, not as left', async () => {
    const records = { '/cal/v1/venues/5': { id: 5, title: MARK }, '/cal/v1/venues/7': { id: 7, title: MARK }, '/cal/v1/venues/9': { id: 9, title: MARK } };
    const { report, sent } = await run(records, (o) => (o.method === 'DELETE' ? 'silence' : undefined), [5, 7, 9]);
    expect(report.left).toEqual([]);
    expect(report.removed).toEqual([]);
    expect(report.unconfirmed.map((u) => [u.record.id, u.reason])).toEqual([
      [9, 'no answer while deleting /cal/v1/venues/9: no answer within 100 ms (--timeout-ms)'],
      [7, 'not tried: the target stopped answering during cleanup'],
      [5, 'not tried: the target stopped answering during cleanup'],
    ]);
    expect(sent).toEqual(['GET /cal/v1/venues/9', 'DELETE /cal/v1/venues/9']);
  });

  it('sends nothing more after the marker sweep got no answer', async () => {
    const ledger = new Ledger();
    ledger.add(venue(5));
    const target = scriptedTarget({ '/cal/v1/venues/5': { id: 5, title: MARK } }, () => 'silence');
    const report = await cleanup({ contract, ledger, send: target.send, marker: MARK, served: () => true, sweep: true });
    expect(target.sent).toHaveLength(1);
    expect(report.unconfirmed).toEqual([{ record: expect.objectContaining({ id: 5 }), reason: expect.stringMatching(/^not tried: the target did not answer the marker search/) }]);
  });
});
