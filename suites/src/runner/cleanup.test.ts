// Cleanup against a small site model that answers the way real calendar plugins do: a legacy read of an
// id it no longer has answers 400 rest_invalid_param, a trashed record reads as a bare 404, a list's
// `status` may refuse `trash`. Each test states the site's quirk and what must be left: nothing.

import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import type { Exchange, Outgoing } from '../http/types.ts';
import { cleanup } from './cleanup.ts';
import { Ledger, type Created } from '../checks/kit/ledger.ts';

const contract = loadContractFile();
const MARK = 'site-contracts abcd1234';
const TYPES: Record<string, string> = { events: 'event', venues: 'venue', organizers: 'organizer', categories: 'category', tags: 'tag' };

interface Post {
  resource: string;
  status: string;
  title: string;
}

interface Quirks {
  /** Answer to a legacy read of an id it does not have (or has in the trash). */
  legacyUnknown?: 'envelope404' | 'invalid_param400';
  /** Answer to a cal/v1 read of a trashed record. */
  trashedRead?: 'record' | 'bare404' | 'forbidden403';
  /** The cal/v1 list's status enum takes `trash`. */
  listTakesTrash?: boolean;
  /** Routes that answer nothing (a timeout) or 503. */
  silentOn?: (o: Outgoing) => 'timeout' | 503 | undefined;
  /** A legacy list with nothing to show answers 404 event-archive-page-not-found (The Events Calendar before 4.6). */
  emptyLegacyList404?: boolean;
  /**
   * Legacy lists as The Events Calendar answers them: the records wrapped (`{"events": [...], "rest_url", "total",
   * "total_pages"}`, `{"categories": [...]}`), totals in the body and X-TEC-* headers, per_page above 50 read as 50.
   */
  wrappedLegacyLists?: boolean;
}

/** One WordPress site, both calendar namespaces over the same posts and terms. */
function site(posts: Record<number, Post>, q: Quirks = {}) {
  const sent: string[] = [];
  const json = (status: number, body: unknown) => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const err = (status: number, code: string) => json(status, { code, message: code, data: { status } });
  const answer = (o: Outgoing): Exchange['response'] | 'timeout' => {
    const silent = q.silentOn?.(o);
    if (silent === 'timeout') return 'timeout';
    if (silent === 503) return err(503, 'unavailable');
    const m = /^\/cal\/(v1|events\/v1)\/(\w+)(?:\/(\d+))?$/.exec(o.route)!;
    const legacy = m[1] === 'events/v1';
    const resource = TYPES[m[2]!]!;
    const id = m[3] ? Number(m[3]) : undefined;
    const force = o.query?.['force'] === true;
    if (id === undefined) {
      const want = o.query?.['status'];
      if (Array.isArray(want) && want.includes('trash') && !q.listTakesTrash) return err(400, 'rest_invalid_param');
      const statuses = want === undefined ? ['publish'] : Array.isArray(want) ? want : [want];
      const found = Object.entries(posts)
        .filter(([, p]) => p.resource === resource && p.title.includes(String(o.query?.['search'])) && (resource === 'category' || resource === 'tag' || statuses.includes(p.status)))
        .map(([pid, p]) => ({ id: Number(pid), status: p.status, title: p.title }));
      if (legacy && q.emptyLegacyList404 && found.length === 0) return err(404, 'event-archive-page-not-found');
      const wrapped = legacy && q.wrappedLegacyLists;
      const perPage = Math.min(wrapped ? 50 : 100, Number(o.query?.['per_page'] ?? 10));
      const page = Number(o.query?.['page'] ?? 1);
      const pages = Math.ceil(found.length / perPage);
      const slice = found.slice((page - 1) * perPage, page * perPage);
      if (!wrapped) return { ...json(200, slice), headers: { 'content-type': 'application/json', 'x-wp-total': String(found.length), 'x-wp-totalpages': String(pages) } };
      const total = { total: found.length, total_pages: pages };
      return { ...json(200, { [m[2]!]: slice, rest_url: `/cal/events/v1/${m[2]!}`, ...total }), headers: { 'content-type': 'application/json', 'x-tec-total': String(found.length), 'x-tec-totalpages': String(pages) } };
    }
    const p = posts[id]?.resource === resource ? posts[id] : undefined;
    const unknown = legacy && q.legacyUnknown === 'invalid_param400' ? err(400, 'rest_invalid_param') : err(404, 'rest_post_invalid_id');
    if (o.method === 'GET') {
      if (!p) return unknown;
      if (p.status === 'trash' && !legacy && q.trashedRead === 'bare404') return { status: 404, headers: {}, body: '' };
      if (p.status === 'trash' && !legacy && q.trashedRead === 'forbidden403') return err(403, 'rest_forbidden');
      if (p.status === 'trash' && legacy) return unknown;
      return json(200, { id, ...p });
    }
    if (!p) return unknown;
    if (force || resource === 'category' || resource === 'tag') {
      delete posts[id];
      return json(200, { deleted: true, previous: { id } });
    }
    if (p.status === 'trash') return err(410, 'rest_already_trashed');
    p.status = 'trash';
    return json(200, { id, ...p });
  };
  const send = async (o: Outgoing): Promise<Exchange> => {
    const q = o.query ? `?${Object.entries(o.query).map(([k, v]) => `${k}=${String(v)}`).join('&')}` : '';
    sent.push(`${o.method} ${o.route}${q}`);
    const request = { method: o.method, url: o.route, headers: {} };
    const r = answer(o);
    if (r === 'timeout') return { request, error: { kind: 'timeout', message: 'no answer within 100 ms (--timeout-ms)' }, durationMs: 100 };
    return { request, response: r!, durationMs: 0 };
  };
  return { send, sent, posts };
}

const rec = (namespace: 'cal/v1' | 'cal/events/v1', resource: string, id: number): Created => {
  const plural = Object.entries(TYPES).find(([, r]) => r === resource)![0];
  return { namespace, resource, id, itemPath: `/cal/${namespace === 'cal/v1' ? 'v1' : 'events/v1'}/${plural}/{id}`, createdBy: 't' };
};

function run(s: ReturnType<typeof site>, records: Created[], served: (t: string, m: string) => boolean = () => true, sweep = false, concurrency?: number, send = s.send, written: string[] = []) {
  const ledger = new Ledger();
  for (const r of records) ledger.add(r);
  return cleanup({ contract, ledger, send, marker: MARK, served, sweep, written, pause: async () => {}, ...(concurrency ? { concurrency } : {}) });
}

const many = (n: number, from = 100): Record<number, Post> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [from + i, { resource: 'event', status: 'publish', title: `${MARK} event ${i}` }]));

describe('cleanup removes every record the run created', () => {
  it('goes on past a legacy read that answers 400 rest_invalid_param for a deleted id, and confirms each gone by the lists', async () => {
    const s = site(many(110), { legacyUnknown: 'invalid_param400', listTakesTrash: false });
    const report = await run(s, Array.from({ length: 110 }, (_, i) => rec('cal/events/v1', 'event', 100 + i)));
    expect(Object.keys(s.posts)).toEqual([]);
    expect(report.removed).toHaveLength(110);
    expect(report.unconfirmed).toEqual([]);
    expect(report.left).toEqual([]);
    // Each was trashed through its own route and purged through cal/v1.
    expect(s.sent).toContain('DELETE /cal/events/v1/events/209');
    expect(s.sent).toContain('DELETE /cal/v1/events/209?force=true');
  });

  it('purges a record in the trash whose read answers a bare 404, and a list that refuses status=trash is asked again without it', async () => {
    const s = site({ 7: { resource: 'venue', status: 'trash', title: `${MARK} venue` } }, { trashedRead: 'bare404' });
    const report = await run(s, [rec('cal/v1', 'venue', 7)]);
    expect(s.posts).toEqual({});
    expect(report.removed.map((r) => r.id)).toEqual([7]);
    expect(s.sent).toContain('DELETE /cal/v1/venues/7?force=true');
    expect(s.sent.some((l) => l.startsWith('GET /cal/v1/venues?') && l.includes('trash'))).toBe(true);
  });

  it('does not count a record that reads 404 as gone while a list still holds it, and gives the line that removes it', async () => {
    // A site that hides the trash from reads and ignores force on its own route.
    const posts: Record<number, Post> = { 8: { resource: 'organizer', status: 'publish', title: `${MARK} organizer` } };
    const s = site(posts, { trashedRead: 'bare404', listTakesTrash: true });
    const stubborn = async (o: Outgoing): Promise<Exchange> => {
      if (o.method === 'DELETE') {
        posts[8]!.status = 'trash';
        return { request: { method: o.method, url: o.route, headers: {} }, response: { status: 200, headers: {}, body: '[]' }, durationMs: 0 };
      }
      return s.send(o);
    };
    const ledger = new Ledger();
    ledger.add(rec('cal/v1', 'organizer', 8));
    const report = await cleanup({ contract, ledger, send: stubborn, marker: MARK, served: () => true, sweep: false, pause: async () => {} });
    expect(report.removed).toEqual([]);
    expect(report.left).toEqual([
      { record: expect.objectContaining({ id: 8 }), reason: expect.stringMatching(/the read after it answered 404, but GET \/cal\/(events\/)?v1\/organizers searched for the marker still lists it \(status "trash"\)/), removal: { method: 'DELETE', route: '/cal/v1/organizers/8', query: { force: true }, intent: 'cleanup' } },
    ]);
  });

  it('tries every record on its own: a 4xx never stops cleanup, 5xx and silence are retried, and only several silent records in a row stop it', async () => {
    let flaky = 2;
    const s = site(
      { ...many(3, 100), 200: { resource: 'venue', status: 'publish', title: `${MARK} venue` } },
      {
        legacyUnknown: 'invalid_param400',
        // The first two tries of one delete answer 503, then it works.
        silentOn: (o) => (o.method === 'DELETE' && o.route === '/cal/v1/venues/200' && flaky-- > 0 ? 503 : undefined),
      },
    );
    const report = await run(s, [rec('cal/events/v1', 'event', 100), rec('cal/v1', 'venue', 200), rec('cal/events/v1', 'event', 101), rec('cal/events/v1', 'event', 102)]);
    expect(report.removed.map((r) => r.id).sort()).toEqual([100, 101, 102, 200]);
    expect(s.sent.filter((l) => l === 'DELETE /cal/v1/venues/200?force=true')).toHaveLength(3);

    const dead = site(many(5, 100), { silentOn: () => 'timeout' });
    const stopped = await run(dead, [100, 101, 102, 103, 104].map((id) => rec('cal/v1', 'event', id)));
    expect(stopped.removed).toEqual([]);
    expect(stopped.left).toEqual([]);
    expect(stopped.unconfirmed.map((u) => u.reason.startsWith('not tried: the target stopped answering during cleanup'))).toEqual([false, false, false, true, true]);
  });

  it('leaves a record that no longer carries the marker alone, and lists a legacy record it can only trash as left', async () => {
    const s = site({ 5: { resource: 'event', status: 'publish', title: 'Somebody else’s event' }, 6: { resource: 'venue', status: 'publish', title: `${MARK} venue` } }, { listTakesTrash: true });
    const report = await run(s, [rec('cal/v1', 'event', 5), rec('cal/events/v1', 'venue', 6)], (t) => !t.startsWith('/cal/v1/'));
    expect(s.sent.some((l) => l.startsWith('DELETE /cal/v1/events/5'))).toBe(false);
    expect(report.left.map((l) => [l.record.id, l.reason])).toEqual([
      [5, '/cal/v1/events/5 no longer carries the marker "site-contracts abcd1234"; not deleted'],
      [
        6,
        'DELETE /cal/events/v1/venues/6 answered 200; the read after it answered 404 rest_post_invalid_id, but GET /cal/events/v1/venues searched for the marker still lists it (status "trash"): the target serves no route that purges it (DELETE with force=true)',
      ],
    ]);
  });

  it('adds records the marker sweep finds in the trash and removes them too', async () => {
    const s = site({ 9: { resource: 'event', status: 'trash', title: `${MARK} event` } }, { listTakesTrash: true, trashedRead: 'bare404' });
    // The run wrote events (a create cut short before its answer came), so their lists are swept.
    const report = await run(s, [], () => true, true, undefined, s.send, ['event']);
    expect(report.swept).toBe(1);
    expect(report.removed.map((r) => r.id)).toEqual([9]);
    expect(s.posts).toEqual({});
  });

  it('reads legacy lists that wrap their records and serve 50 a page: 60 removed terms confirmed gone, none reported unconfirmed', async () => {
    // The Events Calendar: `{"categories": [...], "total", "total_pages"}`; a term read after its delete answers 400.
    const terms: Record<number, Post> = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [500 + i, { resource: i % 2 ? 'tag' : 'category', status: 'publish', title: `${MARK} term ${i}` }]),
    );
    const s = site(terms, { legacyUnknown: 'invalid_param400', wrappedLegacyLists: true });
    const report = await run(s, Object.entries(terms).map(([id, p]) => rec('cal/events/v1', p.resource, Number(id))));
    expect(s.posts).toEqual({});
    expect(report.unconfirmed).toEqual([]);
    expect(report.left).toEqual([]);
    expect(report.removed).toHaveLength(60);
  });

  it('reads a legacy list that answers 404 for nothing found as empty, and a list with no route as no answer', async () => {
    const s = site(many(3, 100), { legacyUnknown: 'invalid_param400', wrappedLegacyLists: true, emptyLegacyList404: true });
    const legacyOnly = (t: string): boolean => !t.startsWith('/cal/v1/');
    const records = [100, 101, 102].map((id) => rec('cal/events/v1', 'event', id));
    // Trashed through the legacy route; with no purge served, the trashed records are found by the trash query.
    const report = await run(s, records, legacyOnly);
    expect(report.unconfirmed).toEqual([]);
    expect(report.left).toHaveLength(3);
    const purged = site(many(3, 100), { legacyUnknown: 'invalid_param400', wrappedLegacyLists: true, emptyLegacyList404: true });
    const gone = await run(purged, records, (t, m) => !(m === 'GET' && t.startsWith('/cal/v1/')));
    expect(gone.unconfirmed).toEqual([]);
    expect(gone.removed).toHaveLength(3);
    const fresh = site(many(3, 100), { legacyUnknown: 'invalid_param400' });
    const noRoute = async (o: Outgoing): Promise<Exchange> =>
      o.method === 'GET' && !/\d$/.test(o.route) ? { request: { method: 'GET', url: o.route, headers: {} }, response: { status: 404, headers: {}, body: '{"code":"rest_no_route","message":"x","data":{"status":404}}' }, durationMs: 0 } : fresh.send(o);
    const unlisted = await run(fresh, records, () => true, false, undefined, noRoute);
    expect(unlisted.unconfirmed.map((u) => u.reason)).toEqual(Array(3).fill(expect.stringMatching(/not confirmed gone: no list of its type answered$/)));
  });

  it('confirms a record still there on the second page of a wrapped list of 50 a page', async () => {
    const events = { ...many(55, 100) };
    const s = site(events, { legacyUnknown: 'invalid_param400', wrappedLegacyLists: true, listTakesTrash: true });
    // Every legacy DELETE answers 200 and keeps the record; cal/v1 is not served, so nothing purges it.
    const keeps = async (o: Outgoing): Promise<Exchange> =>
      o.method === 'DELETE' ? { request: { method: o.method, url: o.route, headers: {} }, response: { status: 200, headers: {}, body: '{}' }, durationMs: 0 } : s.send(o);
    const ledger = new Ledger();
    ledger.add(rec('cal/events/v1', 'event', 154));
    // Hidden from reads: the read after the delete answers 400, so only the lists can tell.
    const hidden = async (o: Outgoing): Promise<Exchange> => (o.method === 'GET' && /\/events\/154$/.test(o.route) ? s.send({ ...o, route: '/cal/events/v1/events/99999' }) : keeps(o));
    const report = await cleanup({ contract, ledger, send: hidden, marker: MARK, served: (t) => !t.startsWith('/cal/v1/'), sweep: false, pause: async () => {} });
    expect(report.removed).toEqual([]);
    expect(report.left.map((l) => l.record.id)).toEqual([154]);
    expect(report.left[0]!.reason).toMatch(/still lists it/);
  });

  it('the marker sweep reads wrapped legacy lists: a record created behind a 500 (no id given) is found and removed', async () => {
    const s = site({ ...many(55, 100) }, { legacyUnknown: 'invalid_param400', wrappedLegacyLists: true, listTakesTrash: true });
    // The ledger knows 54 of them; the 55th (id 154, on the second page of 50) was created by a create answered 500.
    // Only the legacy list serves the events (cal/v1's DELETE is there to purge them).
    const legacyListsOnly = (t: string, m: string): boolean => !(m === 'GET' && /^\/cal\/v1\/\w+$/.test(t));
    const report = await run(s, Array.from({ length: 54 }, (_, i) => rec('cal/events/v1', 'event', 100 + i)), legacyListsOnly, true);
    expect(report.swept).toBe(1);
    expect(s.posts).toEqual({});
    expect(report.unconfirmed).toEqual([]);
    expect(report.removed).toHaveLength(55);
  });

  it('the sweep removes only records carrying the marker, on a site whose lists ignore search', async () => {
    const posts: Record<number, Post> = {
      1: { resource: 'event', status: 'publish', title: 'The site’s own event' },
      2: { resource: 'event', status: 'draft', title: 'site-contracts ffff0000 (another run)' },
      3: { resource: 'event', status: 'publish', title: `${MARK} made behind a 500` },
    };
    const s = site(posts, { listTakesTrash: true });
    const ignoring = (o: Outgoing): Promise<Exchange> => s.send(o.query && 'search' in o.query ? { ...o, query: { ...o.query, search: '' } } : o);
    const report = await run(s, [], () => true, true, undefined, ignoring, ['event']);
    expect(report.swept).toBe(1);
    expect(Object.keys(s.posts)).toEqual(['1', '2']);
    expect(s.sent.filter((l) => l.startsWith('DELETE')).every((l) => /\/events\/3(\?|$)/.test(l))).toBe(true);
  });

  it('removes records side by side with --workers, with the same report, in the ledger order, as one at a time', async () => {
    const records = [...Array.from({ length: 12 }, (_, i) => rec('cal/events/v1', 'event', 100 + i)), rec('cal/v1', 'venue', 300)];
    const posts = (): Record<number, Post> => ({ ...many(12), 300: { resource: 'venue', status: 'publish', title: `${MARK} venue` } });
    const serial = await run(site(posts(), { listTakesTrash: true }), records);
    const s = site(posts(), { listTakesTrash: true });
    let inFlight = 0;
    let most = 0;
    // Each answer waits a turn of the event loop, so requests of different records overlap when they may.
    const slow = async (o: Outgoing): Promise<Exchange> => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return s.send(o);
    };
    const side = await run(s, records, () => true, false, 4, slow);
    expect(most).toBe(4);
    expect(side).toEqual(serial);
    // The ledger's order (newest first), not the order removals ended.
    expect(side.removed.map((r) => r.id)).toEqual([300, ...Array.from({ length: 12 }, (_, i) => 111 - i)]);
    expect(s.posts).toEqual({});
  });
});
