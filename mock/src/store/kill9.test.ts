// `kill -9` a writing mock, restart it on the same state file, and count: every acknowledged write is there, with
// its acknowledged content, and no ID is handed out twice. The mock runs as `npm run mock` does (mock/cli.ts, a
// child process); sixteen clients create in both namespaces, update, trash, delete and batch over HTTP until a
// random moment, when the process is killed with SIGKILL. Several rounds on one state file, each restart checking
// everything acknowledged in every round before it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, stopCli } from '../testing/cli-process.ts';

const ROUNDS = Number(process.env.KILL9_ROUNDS ?? 4);
const CLIENTS = 16;

type PostKind = 'events' | 'venues' | 'organizers';

interface Record {
  kind: PostKind;
  title: string;
  state: 'live' | 'trash' | 'gone';
  /** A change sent and not answered when the process died: either outcome is right. */
  inDoubt?: { title?: string; state?: 'trash' | 'gone' };
}

interface Tally {
  creates: number;
  updates: number;
  deletes: number;
  batches: number;
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const titleOf = (kind: PostKind, body: { title?: unknown; venue?: unknown; organizer?: unknown }) =>
  String(typeof body.title === 'object' && body.title !== null ? (body.title as { raw?: string; rendered?: string }).raw ?? (body.title as { rendered: string }).rendered : kind === 'venues' && body.venue !== undefined ? body.venue : kind === 'organizers' && body.organizer !== undefined ? body.organizer : body.title);

/** Sixteen clients writing until `stop` says so; what the mock acknowledged goes into `acked`. */
async function load(url: string, round: number, acked: Map<number, Record>, stop: () => boolean, duplicates: number[]): Promise<Tally> {
  const tally: Tally = { creates: 0, updates: 0, deletes: 0, batches: 0 };
  const remember = (id: number, rec: Record) => {
    if (acked.has(id)) duplicates.push(id);
    acked.set(id, rec);
  };
  const client = async (w: number) => {
    const mine: number[] = [];
    for (let n = 0; !stop(); n++) {
      const kind = (['events', 'venues', 'organizers'] as const)[n % 3]!;
      const title = `k9 r${round} c${w} n${n}`;
      const op = n % 10;
      try {
        if (op <= 5) {
          const legacy = n % 2 === 1;
          const body = legacy
            ? kind === 'events'
              ? { title, start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 12:00:00' }
              : kind === 'venues' ? { venue: title } : { organizer: title }
            : { title };
          const res = await fetch(`${url}/wp-json/${legacy ? 'cal/events/v1' : 'cal/v1'}/${kind}`, json(body));
          if (res.status !== 201) continue;
          const made = (await res.json()) as { id: number };
          remember(made.id, { kind, title, state: 'live' });
          mine.push(made.id);
          tally.creates++;
        } else if (op <= 7 && mine.length > 0) {
          const id = mine[n % mine.length]!;
          const rec = acked.get(id)!;
          if (rec.state !== 'live') continue;
          if (op === 6) {
            const next = `${title} updated`;
            rec.inDoubt = { title: next };
            const res = await fetch(`${url}/wp-json/cal/v1/${rec.kind}/${id}`, { ...json({ title: next }), method: 'PUT' });
            if (res.status === 200) {
              rec.title = next;
              tally.updates++;
            }
          } else {
            const force = n % 20 === 7;
            rec.inDoubt = { state: force ? 'gone' : 'trash' };
            const res = await fetch(`${url}/wp-json/cal/v1/${rec.kind}/${id}${force ? '?force=true' : ''}`, { method: 'DELETE' });
            if (res.status === 200) {
              rec.state = force ? 'gone' : 'trash';
              tally.deletes++;
            }
          }
          delete rec.inDoubt;
        } else {
          const titles = [0, 1, 2, 3, 4].map((i) => `${title} b${i}`);
          const res = await fetch(`${url}/wp-json/batch/v1`, json({ requests: titles.map((t) => ({ method: 'POST', path: '/cal/v1/events', body: { title: t } })) }));
          if (res.status !== 207) continue;
          const out = (await res.json()) as { responses: { status: number; body: { id: number } }[] };
          out.responses.forEach((r, i) => {
            if (r.status !== 201) return;
            remember(r.body.id, { kind: 'events', title: titles[i]!, state: 'live' });
            tally.creates++;
          });
          tally.batches++;
        }
      } catch {
        // The connection died with the process: that request was never acknowledged.
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, w) => client(w)));
  return tally;
}

/** What is missing or wrong after a restart, one line each. */
async function lost(url: string, acked: Map<number, Record>): Promise<string[]> {
  const problems: string[] = [];
  const entries = [...acked];
  const check = async ([id, rec]: [number, Record]) => {
    const res = await fetch(`${url}/wp-json/cal/v1/${rec.kind}/${id}`);
    const body = (await res.json()) as { status?: string; title?: { rendered: string } };
    const found = res.status === 404 ? 'gone' : body.status === 'trash' ? 'trash' : 'live';
    const title = body.title?.rendered;
    const ok = (state: Record['state'], t: string) => found === state && (state === 'gone' || title === t);
    if (ok(rec.state, rec.title)) return;
    if (rec.inDoubt && ok(rec.inDoubt.state ?? rec.state, rec.inDoubt.title ?? rec.title)) return;
    problems.push(`${rec.kind} ${id}: acknowledged ${rec.state} "${rec.title}", found ${found} "${title ?? ''}" (HTTP ${res.status})`);
  };
  for (let i = 0; i < entries.length; i += 32) await Promise.all(entries.slice(i, i + 32).map(check));
  return problems;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mock-kill9-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('kill -9 of a writing mock', () => {
  it(`loses no acknowledged write and hands out no ID twice (${ROUNDS} rounds)`, async () => {
    const stateFile = join(dir, 'state.json');
    const acked = new Map<number, Record>();
    const duplicates: number[] = [];
    const figures: string[] = [];
    let mock = await startCli(['--state-file', stateFile]);
    for (let round = 1; round <= ROUNDS; round++) {
      let stopped = false;
      const before = acked.size;
      const running = load(mock.url, round, acked, () => stopped, duplicates);
      // Kill once some writes are in, at a moment nobody chose.
      while (acked.size - before < 50) await new Promise((r) => setTimeout(r, 20));
      const delay = 200 + Math.floor(Math.random() * 1300);
      await new Promise((r) => setTimeout(r, delay));
      await stopCli(mock, 'SIGKILL');
      stopped = true;
      const tally = await running;
      mock = await startCli(['--state-file', stateFile]);
      const missing = await lost(mock.url, acked);
      const highest = Math.max(...acked.keys());
      const next = (await (await fetch(`${mock.url}/wp-json/cal/v1/venues`, json({ title: 'after the restart' }))).json()) as { id: number };
      const replay = /(\d+) transactions? replayed .*\((\d+) ms\)/.exec(mock.stderr());
      figures.push(
        `round ${round}: killed after ${delay} ms of load; acknowledged ${tally.creates} creates (${tally.batches} batches of 5), ${tally.updates} updates, ${tally.deletes} deletes; ` +
          `${acked.size} records checked after the restart, lost ${missing.length}; restart ${Math.round(mock.startMs)} ms` +
          (replay ? ` (${replay[1]} journal transactions replayed in ${replay[2]} ms)` : ''),
      );
      expect(missing, `round ${round}, killed after ${delay} ms`).toEqual([]);
      expect(duplicates, 'IDs acknowledged twice').toEqual([]);
      expect(next.id, 'a new ID after the restart').toBeGreaterThan(highest);
      expect(tally.creates + tally.updates + tally.deletes).toBeGreaterThan(0);
    }
    await stopCli(mock, 'SIGKILL');
    console.log(`kill -9 test:\n${figures.join('\n')}`);
  });
});
