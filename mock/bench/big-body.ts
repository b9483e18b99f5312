// How long one large POST holds other clients: the mock (`mock/cli.ts`, as `npm run mock` starts it) in a child
// process; one client sends a single POST with a JSON body near the 8 MiB cap, while another connection sends small
// GETs one after another until the POST is answered. Prints the POST's time and the small reads' latencies (the
// longest is how long a read waited behind the POST). Not a test (the figures depend on the machine); run:
//   npx tsx mock/bench/big-body.ts [route=event|feedback|batch] [MiB=7.9] [rounds=3]
// `npm run bench` runs the batch at the cap through measureBigPost() (its aim: the longest small read under 250 ms).
import { spawn } from 'node:child_process';
import { request, Agent } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isEntryModule } from '../../contracts/lib/package-root.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOST = '127.0.0.1';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

const PARA = '<p>Open-air cinema &amp; talks -- "late" shows, 19:00\u201322:00. \u041a\u0456\u043d\u043e \u043f\u0440\u043e\u0441\u0442\u043e \u043d\u0435\u0431\u0430.</p>\n';
/** Realistic HTML of about `bytes` UTF-8 bytes once in JSON: paragraphs, entities, quotes, Cyrillic. */
const content = (bytes: number): string => PARA.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(JSON.stringify(PARA)))));

function bodyFor(route: string, bytes: number): { path: string; body: Buffer } {
  if (route === 'feedback') {
    // An anonymous contact-form submission: one huge message field.
    return { path: '/wp-json/forms/v1/contact-forms/FORM/feedback', body: Buffer.from(JSON.stringify({ 'your-name': 'A', 'your-email': 'a@example.org', 'your-subject': 'big', 'your-message': content(bytes) })) };
  }
  if (route === 'batch') {
    const each = Math.floor(bytes / 25);
    return { path: '/wp-json/batch/v1', body: Buffer.from(JSON.stringify({ requests: Array.from({ length: 25 }, (_, i) => ({ method: 'POST', path: '/cal/v1/events', body: { title: `Big ${i}`, content: content(each) } })) })) };
  }
  return { path: '/wp-json/cal/v1/events', body: Buffer.from(JSON.stringify({ title: 'Big event', start_date: '2026-12-01 18:00:00', end_date: '2026-12-01 20:00:00', status: 'publish', content: content(bytes) })) };
}

function send(agent: Agent, port: number, method: string, path: string, body?: Buffer, type = 'application/json'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: HOST, port, method, path, agent, headers: body ? { 'content-type': type, 'content-length': body.length } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What one round measured: the POST's status and time, and the small reads sent meanwhile. */
export interface BigPostRound {
  status: number;
  postMs: number;
  reads: number;
  p50Ms: number;
  p99Ms: number;
  longestMs: number;
}

/**
 * Against a mock listening on `port`: `rounds` times, one POST of `route` with a body of `mib` MiB on one
 * connection while another sends small uncached GETs back to back until the POST is answered.
 */
export async function measureBigPost(port: number, route: string, mib: number, rounds: number): Promise<{ path: string; bodyMiB: number; rounds: BigPostRound[] }> {
  const big = new Agent({ keepAlive: true, maxSockets: 1 });
  const small = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    let path = bodyFor(route, 0).path;
    if (route === 'feedback') {
      const forms = JSON.parse((await send(small, port, 'GET', '/wp-json/forms/v1/contact-forms')).text) as { id: number }[];
      path = path.replace('FORM', String(forms[0]!.id));
    }
    const { body } = bodyFor(route, mib * 2 ** 20);
    const out: BigPostRound[] = [];
    for (let round = 0; round < rounds; round++) {
      // Warm the small read's path, then start the POST and read until it is answered.
      for (let i = 0; i < 20; i++) await send(small, port, 'GET', '/wp-json/cal/v1/venues?per_page=1');
      const lat: number[] = [];
      let answered = false;
      const p0 = performance.now();
      const post = send(big, port, 'POST', path, body).then((r) => {
        answered = true;
        return { ...r, ms: performance.now() - p0 };
      });
      let i = 0;
      while (!answered) {
        const g0 = performance.now();
        // A query that changes each time: not the response memo's answer, a read the mock runs.
        const r = await send(small, port, 'GET', `/wp-json/cal/v1/venues?per_page=1&page=${1 + (i++ % 5)}`);
        if (r.status !== 200) throw new Error(`small read: ${r.status}`);
        lat.push(performance.now() - g0);
      }
      const p = await post;
      const sorted = [...lat].sort((a, b) => a - b);
      const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      out.push({ status: p.status, postMs: p.ms, reads: lat.length, p50Ms: pct(0.5), p99Ms: pct(0.99), longestMs: sorted[sorted.length - 1] ?? 0 });
    }
    return { path, bodyMiB: body.length / 2 ** 20, rounds: out };
  } finally {
    big.destroy();
    small.destroy();
  }
}

/** One round as a line: `POST 207 in 2468 ms; 330 small reads meanwhile: p50 ..., p99 ..., longest ...`. */
export function bigPostLine(r: BigPostRound): string {
  return `POST ${r.status} in ${r.postMs.toFixed(0)} ms; ${r.reads} small reads meanwhile: p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, longest ${r.longestMs.toFixed(1)} ms`;
}

/** Waits until the mock on `port` answers its API root. */
async function untilServing(port: number): Promise<void> {
  const agent = new Agent({ keepAlive: false });
  try {
    for (let t0 = performance.now(); ; ) {
      try {
        if ((await send(agent, port, 'GET', '/wp-json/')).status === 200) return;
      } catch {
        if (performance.now() - t0 > 60_000) throw new Error('the mock did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } finally {
    agent.destroy();
  }
}

if (isEntryModule(import.meta.url, process.argv[1])) {
  const kind = process.argv[2] ?? 'event';
  const mib = Number(process.argv[3] ?? 7.9);
  const rounds = Number(process.argv[4] ?? 3);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', '--port', String(port), '--log', 'quiet'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.resume();
  try {
    await untilServing(port);
    const m = await measureBigPost(port, kind, mib, rounds);
    console.log(`${kind}: POST ${m.path}, body ${m.bodyMiB.toFixed(2)} MiB`);
    m.rounds.forEach((r, i) => console.log(`round ${i + 1}: ${bigPostLine(r)}`));
  } finally {
    child.kill('SIGTERM');
  }
}
