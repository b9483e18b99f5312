import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { changesLists, ListLock, routeTypes, typeOf } from './steady.ts';

/** A promise and its resolver, to hold a section open until the test lets it go. */
function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { open, wait };
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** A comparison by `unit` of `types` held open until `open()`, logging `done` as it ends. */
function heldRead(lock: ListLock, types: string[], unit: string, log: string[], done: string): { open: () => void; ends: Promise<void> } {
  const g = gate();
  const ends = lock.read(types, unit, async () => {
    await g.wait;
    log.push(done);
  });
  return { open: g.open, ends };
}

describe('ListLock: a comparison of two reads and the run\'s writes to that type never overlap', () => {
  it('holds another unit\'s write to the type until the comparison ends; other types and its own writes pass', async () => {
    const lock = new ListLock();
    const log: string[] = [];
    const g = gate();
    const comparison = lock.read(['event'], 'head', async () => {
      log.push('GET');
      await g.wait;
      log.push('HEAD');
    });
    await tick();
    const write = lock.write('event', 'negative', async () => void log.push('POST event'));
    const other = lock.write('venue', 'negative', async () => void log.push('POST venue'));
    const own = lock.write('event', 'head', async () => void log.push('own POST event'));
    await Promise.all([other, own]);
    expect(log).toEqual(['GET', 'POST venue', 'own POST event']);
    g.open();
    await Promise.all([comparison, write]);
    expect(log).toEqual(['GET', 'POST venue', 'own POST event', 'HEAD', 'POST event']);
  });

  it('lets a waiting write go before a comparison that comes after it', async () => {
    const lock = new ListLock();
    const log: string[] = [];
    const { open, ends: first } = heldRead(lock, ['event'], 'a', log, 'a done');
    await tick();
    const write = lock.write('event', 'w', async () => void log.push('write'));
    await tick();
    const second = lock.read(['event'], 'b', async () => void log.push('b'));
    await tick();
    expect(log).toEqual([]);
    open();
    await Promise.all([first, write, second]);
    expect(log).toEqual(['a done', 'write', 'b']);
  });

  it('a batch meets every type; a unit inside a comparison never waits to write', async () => {
    const lock = new ListLock();
    const log: string[] = [];
    const { open, ends: venues } = heldRead(lock, ['venue'], 'a', log, 'venue compared');
    await tick();
    // Unit b is comparing event lists and writes a venue meanwhile: it does not wait for a (no two units wait on each other).
    const inside = lock.read(['event'], 'b', () => lock.write('venue', 'b', async () => void log.push('b writes inside')));
    await inside;
    const batch = lock.write('*', 'batch', async () => void log.push('batch'));
    await tick();
    expect(log).toEqual(['b writes inside']);
    open();
    await Promise.all([venues, batch]);
    expect(log).toEqual(['b writes inside', 'venue compared', 'batch']);
  });
});

describe('what counts as a write, and to which type', () => {
  it('a POST served as GET (method override) is a read; cleanup runs after every check', () => {
    expect(changesLists({ method: 'POST', route: '/', headers: { 'X-HTTP-Method-Override': 'GET' }, intent: 'probe' })).toBe(false);
    expect(changesLists({ method: 'POST', route: '/', query: { _method: 'GET' }, intent: 'probe' })).toBe(false);
    expect(changesLists({ method: 'POST', route: '/cal/v1/events', intent: 'probe' })).toBe(true);
    expect(changesLists({ method: 'POST', route: '/', headers: { 'X-HTTP-Method-Override': 'DELETE' }, intent: 'write' })).toBe(true);
    expect(changesLists({ method: 'DELETE', route: '/cal/v1/events/1', intent: 'cleanup' })).toBe(false);
    expect(changesLists({ method: 'HEAD', route: '/cal/v1/events' })).toBe(false);
  });

  it('routes of either namespace name one record type; a batch or a route the contract lacks meets every type', () => {
    const contract = loadContractFile();
    const typeOfRoute = routeTypes(contract);
    expect(typeOfRoute('/cal/v1/events/12')).toBe('event');
    expect(typeOfRoute('/cal/events/v1/events/by-slug/a-b')).toBe('event');
    expect(typeOfRoute('/cal/events/v1/venues')).toBe('venue');
    expect(typeOfRoute('/batch/v1')).toBe('*');
    expect(typeOfRoute('/site-contracts-x/no-such-route')).toBe('*');
    expect(typeOf(contract.operations.find((o) => o.id === 'getCalEventsV1Events')!)).toBe('event');
  });
});
