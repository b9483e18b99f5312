import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../http/types.ts';
import { createdId, Ledger } from './ledger.ts';

describe('ledger', () => {
  it('keeps each record once and hands them back newest first (events before the venues they point at)', () => {
    const ledger = new Ledger();
    const venue = { namespace: 'cal/v1', resource: 'venue', id: 5, itemPath: '/cal/v1/venues/{id}', createdBy: 't' };
    const event = { namespace: 'cal/v1', resource: 'event', id: 6, itemPath: '/cal/v1/events/{id}', createdBy: 't' };
    ledger.add(venue);
    ledger.add(event);
    ledger.add(venue);
    expect(ledger.live().map((r) => r.id)).toEqual([6, 5]);
    expect(ledger.size).toBe(2);
  });

  it('reads ids from create answers only', () => {
    const e = (status: number, body: string): Exchange => ({ request: { method: 'POST', url: '', headers: {} }, response: { status, headers: {}, body }, durationMs: 0 });
    expect(createdId(e(201, '{"id":12}'))).toBe(12);
    expect(createdId(e(201, '{"id":"13"}'))).toBe(13);
    expect(createdId(e(400, '{"id":12}'))).toBeUndefined();
    expect(createdId(e(201, '{"id":-1}'))).toBeUndefined();
  });
});
