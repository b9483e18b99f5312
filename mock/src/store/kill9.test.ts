// `kill -9` a writing mock, restart it on the same state file, and count: every acknowledged write is there, with
// its acknowledged content, and no ID is handed out twice. The mock runs as `npm run mock` does (mock/cli.ts, a
// child process); sixteen clients create in both namespaces, update, trash, delete and batch over HTTP until a
// random moment, when the process is killed with SIGKILL. Several rounds on one state file, each restart checking
// everything acknowledged in every round before it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startCli, stopCli } from '../testing/cli-process.ts';

const FAULTY_CHILD = join(ROOT, 'mock/src/testing/faulty-mock-child.ts');

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

/** The faulty child (testing/faulty-mock-child.ts): a mock whose journal refuses every Nth write with ENOSPC. */
function startFaulty(stateFile: string, every: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FAULTY_CHILD, stateFile, String(every)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => reject(new Error(`faulty mock exited (${code}): ${out}`)));
  });
}

interface Venue {
  title: string;
  state: 'live' | 'gone';
  /** Sent and not answered when the process died: either outcome is right. */
  inDoubt?: boolean;
  /** Titles an update was refused with: never to be found on it. */
  refusedTitles: string[];
}

describe('kill -9 of a mock whose journal refuses writes (a full disk now and then)', () => {
  it('what was acknowledged is there, what was refused never appears', async () => {
    const stateFile = join(dir, 'faulty.json');
    const acked = new Map<number, Venue>();
    const refusedCreates: string[] = [];
    const figures: string[] = [];
    for (let round = 1; round <= 2; round++) {
      const mock = await startFaulty(stateFile, 3);
      let stopped = false;
      const tally = { acked: 0, refused: 0 };
      const client = async (w: number) => {
        for (let n = 0; !stopped; n++) {
          try {
            const mine = [...acked].filter(([, v]) => v.state === 'live' && !v.inDoubt);
            const [id, venue] = mine[(w * 7 + n) % Math.max(1, mine.length)] ?? [];
            if (n % 4 === 1 && id !== undefined) {
              const title = `kf r${round} c${w} n${n} renamed`;
              venue!.inDoubt = true;
              const res = await fetch(`${mock.url}/wp-json/cal/v1/venues/${id}`, { ...json({ title }), method: 'PUT' });
              delete venue!.inDoubt;
              if (res.status === 200) (venue!.title = title), tally.acked++;
              else if (res.status === 500 && ((await res.json()) as { code: string }).code === 'db_update_error') venue!.refusedTitles.push(title), tally.refused++;
            } else if (n % 9 === 4 && id !== undefined) {
              venue!.inDoubt = true;
              const res = await fetch(`${mock.url}/wp-json/cal/v1/venues/${id}?force=true`, { method: 'DELETE' });
              delete venue!.inDoubt;
              if (res.status === 200) (venue!.state = 'gone'), tally.acked++;
              else if (res.status === 500) tally.refused++;
            } else {
              const title = `kf r${round} c${w} n${n}`;
              const res = await fetch(`${mock.url}/wp-json/cal/v1/venues`, json({ title }));
              if (res.status === 201) {
                acked.set(((await res.json()) as { id: number }).id, { title, state: 'live', refusedTitles: [] });
                tally.acked++;
              } else if (res.status === 500 && ((await res.json()) as { code: string }).code === 'db_insert_error') {
                refusedCreates.push(title);
                tally.refused++;
              }
            }
          } catch {
            return;
          }
        }
      };
      const running = Promise.all(Array.from({ length: 8 }, (_, w) => client(w)));
      while (tally.acked < 40 || tally.refused < 10) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 500)));
      mock.child.kill('SIGKILL');
      await new Promise((r) => mock.child.once('exit', r));
      stopped = true;
      await running;
      // Restarted as a person does, on a disk with room.
      const again = await startCli(['--state-file', stateFile]);
      try {
        const titles = new Set<string>();
        for (let page = 1; ; page++) {
          const res = await fetch(`${again.url}/wp-json/cal/v1/venues?per_page=100&page=${page}&status=publish,pending,draft,future,private`);
          if (res.status !== 200) break;
          const list = (await res.json()) as { title: { rendered: string } }[];
          for (const v of list) titles.add(v.title.rendered);
          if (list.length < 100) break;
        }
        const problems: string[] = [];
        for (const t of refusedCreates) if (titles.has(t)) problems.push(`refused create "${t}" is there`);
        for (const [id, v] of acked) {
          const res = await fetch(`${again.url}/wp-json/cal/v1/venues/${id}`);
          const found = res.status === 404 ? undefined : ((await res.json()) as { title: { rendered: string } }).title.rendered;
          if (v.inDoubt) continue;
          if (v.state === 'gone' && found !== undefined) problems.push(`venue ${id}: deleted (acknowledged), found "${found}"`);
          if (v.state === 'live' && found !== v.title) problems.push(`venue ${id}: acknowledged "${v.title}", found ${found === undefined ? 'nothing' : `"${found}"`}`);
          for (const t of v.refusedTitles) if (found === t) problems.push(`venue ${id}: refused update "${t}" is there`);
        }
        figures.push(`round ${round}: ${tally.acked} writes acknowledged, ${tally.refused} refused; ${acked.size} venues and ${refusedCreates.length} refused creates checked after the restart`);
        expect(problems, `round ${round}`).toEqual([]);
      } finally {
        await stopCli(again, 'SIGTERM');
      }
    }
    console.log(`kill -9 with a faulty journal:\n${figures.join('\n')}`);
  });
});
