import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/src/loader.ts';
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
