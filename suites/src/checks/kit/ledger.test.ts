import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import type { Exchange } from '../../http/types.ts';
import { createdId, Ledger, writtenResources } from './ledger.ts';

const contract = loadContractFile();

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

  it('knows which types a write may have made records of before its answer: those of its operation, or of each batch item', () => {
    const op = (id: string) => contract.operations.find((o) => o.id === id)!;
    expect(writtenResources(contract, { method: 'POST', route: '/cal/events/v1/events', intent: 'write' }, op('postCalEventsV1Events'))).toEqual(['event']);
    // Routed by path and method when the check named no operation.
    expect(writtenResources(contract, { method: 'DELETE', route: '/cal/v1/venues/12', intent: 'write' }, undefined)).toEqual(['venue']);
    expect(writtenResources(contract, { method: 'GET', route: '/cal/v1/venues', intent: 'read' }, undefined)).toEqual([]);
    const batch = { kind: 'json' as const, value: { requests: [{ path: '/cal/v1/events', body: {} }, { method: 'PUT', path: '/cal/v1/organizers/3?x=1' }, { path: '/nowhere' }] } };
    expect(writtenResources(contract, { method: 'POST', route: '/batch/v1', body: batch, intent: 'write' }, op('postBatchV1'))).toEqual(['event', 'organizer']);
    const ledger = new Ledger();
    ledger.wroteTo('event');
    ledger.wroteTo('venue');
    ledger.wroteTo('event');
    expect(ledger.written()).toEqual(['event', 'venue']);
  });
});
