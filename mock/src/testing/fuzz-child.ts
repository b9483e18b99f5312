// The stateful fuzz run itself, in a child process of stateful-fuzz.test.ts so that a request that never returns
// (a synchronous loop holds the whole process) is seen by the parent's watchdog instead of hanging the test run.
// It drives the seeded command sequence through the core's entry point (mock.handleNow), then a shorter one over
// HTTP, and reports every request to the parent before and after it runs, then a summary with the memory figures.
//
//   node --import tsx --expose-gc mock/src/testing/fuzz-child.ts   (FUZZ_SEED, FUZZ_REQUESTS, FUZZ_HTTP_REQUESTS,
//   FUZZ_SLUG_CAP=0 (leave the repeated long-title family out), FUZZ_LOG=<file>, FUZZ_CACHE=0 for a run without the memos; the test passes
//   the others)
import { appendFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { request } from 'undici';
import { request as httpRequest } from 'node:http';
import { listen } from '../adapters/node-http.ts';
import type { MockRequest, MockResponse } from '../core/types.ts';
import { commandArb, Realizer, type FuzzState } from './fuzz-commands.ts';
import { freshMock, sharedContract } from './harness.ts';

export type ChildMessage =
  | { t: 'start'; i: number; leg: 'core' | 'http'; what: string }
  | { t: 'done'; i: number; status: number; cpuMs: number; wallMs: number }
  | { t: 'crash'; i: number; error: string }
  /** Progress of the hostile leg (keeps the parent's watchdog armed; counts as no request). */
  | { t: 'alive'; what: string }
  | {
      t: 'summary';
      requests: { core: number; http: number };
      worst: { cpuMs: number; wallMs: number; what: string };
      worstHttpWallMs: number;
      /** The hostile leg: held answers (answered, refused 503, place free again after the clients left) and 7 MB submissions. */
      hostile: { held: number; held503: number; freedAfter: boolean; submissions: Record<number, number> };
      memory: { heapStartMb: number; heapEndMb: number; rssStartMb: number; rssEndMb: number; rssPeakMb: number; storeStartMb: number; storeEndMb: number };
    };

const env = process.env;
const seed = Number(env.FUZZ_SEED);
const coreRequests = Number(env.FUZZ_REQUESTS ?? 2000);
const httpRequests = Number(env.FUZZ_HTTP_REQUESTS ?? 200);
const slugCapFamily = env.FUZZ_SLUG_CAP !== '0';
const log = env.FUZZ_LOG;

const send = (m: ChildMessage) => process.send!(m);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const crashes: string[] = [];
const mock = await freshMock({ seed: seed >>> 0, ...(env.FUZZ_CACHE === '0' ? { cache: false } : {}), onError: (err) => crashes.push(err instanceof Error ? (err.stack ?? err.message) : String(err)) });
const contract = sharedContract();
const realize = new Realizer(contract);
const state: FuzzState = { created: [], titles: [] };
const storeBytes = () => JSON.stringify(mock.snapshot()).length;

// Warm up (validators compile on first use), then take the starting figures after a full collection.
contract.compileAll();
mock.handleNow({ method: 'GET', url: '/wp-json/cal/v1/events', headers: {} });
gc();
const heapStart = process.memoryUsage().heapUsed;
const rssStart = process.memoryUsage().rss;
const storeStart = storeBytes();
let rssPeak = rssStart;
const worst = { cpuMs: 0, wallMs: 0, what: '' };
if (log) writeFileSync(log, `seed ${seed}, ${coreRequests} core + ${httpRequests} HTTP requests${slugCapFamily ? ', slug-cap family on' : ''}\n`);

const commands = fc.sample(commandArb(contract, { slugCapFamily }), { seed, numRuns: coreRequests + httpRequests });

function record(created: { title: string; resource: 'events' | 'venues' | 'organizers' } | undefined, res: { status: number; body: string }): void {
  if (!created || res.status !== 201) return;
  const id = (JSON.parse(res.body) as { id?: number }).id;
  if (typeof id !== 'number') return;
  state.created.push({ resource: created.resource, id });
  state.titles.push(created);
}

for (let i = 0; i < coreRequests; i++) {
  const c = realize.concrete(commands[i]!, state);
  send({ t: 'start', i, leg: 'core', what: c.what });
  if (log) appendFileSync(log, `${i} ${c.what}\n`);
  const before = process.cpuUsage();
  const t0 = performance.now();
  let res: MockResponse;
  try {
    res = mock.handleNow(c.request);
  } catch (err) {
    send({ t: 'crash', i, error: String(err) });
    continue;
  }
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(before);
  const cpuMs = (used.user + used.system) / 1000;
  if (cpuMs > worst.cpuMs) Object.assign(worst, { cpuMs, wallMs, what: c.what });
  send({ t: 'done', i, status: res.status, cpuMs, wallMs });
  for (const e of crashes.splice(0)) send({ t: 'crash', i, error: e });
  record(c.creates, res);
  if (i % 50 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
}

// The same kind of sequence over HTTP: the server's CPU per request is measured where it handles it.
let serverCpuMs = 0;
const server = await listen(
  (req: MockRequest) => {
    const before = process.cpuUsage();
    const res = mock.handleNow(req);
    const used = process.cpuUsage(before);
    serverCpuMs = (used.user + used.system) / 1000;
    return res;
  },
  { port: 0, host: '127.0.0.1' },
);
let worstHttpWallMs = 0;
for (let i = coreRequests; i < coreRequests + httpRequests; i++) {
  const c = realize.concrete(commands[i]!, state);
  send({ t: 'start', i, leg: 'http', what: c.what });
  if (log) appendFileSync(log, `${i} http ${c.what}\n`);
  const t0 = performance.now();
  const headers = Object.fromEntries(Object.entries(c.request.headers).filter(([k, v]) => k !== 'host' && v !== undefined)) as Record<string, string>;
  const res = await request(`${server.url}${c.request.url}`, { method: c.request.method as 'GET', headers, ...(c.request.body !== undefined ? { body: c.request.body } : {}) });
  const body = await res.body.text();
  const wallMs = performance.now() - t0;
  worstHttpWallMs = Math.max(worstHttpWallMs, wallMs);
  if (serverCpuMs > worst.cpuMs) Object.assign(worst, { cpuMs: serverCpuMs, wallMs, what: `http ${c.what}` });
  send({ t: 'done', i, status: res.statusCode, cpuMs: serverCpuMs, wallMs });
  for (const e of crashes.splice(0)) send({ t: 'crash', i, error: e });
  record(c.creates, { status: res.statusCode, body });
}
await server.close();

// The hostile leg, over HTTP through respond() as the CLI serves: more anonymous `Prefer: latency` requests than
// the mock holds at once, whose clients then leave; then anonymous contact-form submissions of 7 MB each.
const hostile = { held: 0, held503: 0, freedAfter: false, submissions: {} as Record<number, number> };
const served = await listen((req: MockRequest) => mock.respond(req), { port: 0, host: '127.0.0.1' });
{
  const HELD = 260;
  const clients = Array.from({ length: HELD }, () => {
    const req = httpRequest(`${served.url}/wp-json/cal/v1/events?per_page=100&_embed`, { headers: { prefer: 'latency=30000' } });
    const answered = new Promise<number>((resolve) => {
      req.on('response', (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', () => resolve(-1));
    });
    req.end();
    return { req, answered };
  });
  // The ones past the bound are answered at once with 503; wait for those, then let every client leave.
  const refused = await Promise.race([Promise.all(clients.slice(200).map((c) => c.answered)), new Promise<number[]>((r) => setTimeout(() => r([]), 10_000))]);
  hostile.held503 = refused.filter((s) => s === 503).length;
  send({ t: 'alive', what: `held latency: ${hostile.held503} refused` });
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  for (const c of clients) c.req.destroy();
  for (let i = 0; i < 200 && !hostile.freedAfter; i++) {
    await new Promise((r) => setTimeout(r, 10));
    const probe = await request(`${served.url}/wp-json/`, { headers: { prefer: 'latency=1' } });
    await probe.body.text();
    hostile.freedAfter = probe.statusCode === 200;
  }
  hostile.held = HELD;
}
for (let i = 0; i < 30; i++) {
  const big = `${i} `.padEnd(7 * 1024 * 1024, 'ж');
  const res = await request(`${served.url}/wp-json/forms/v1/contact-forms/5/feedback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ 'your-name': 'Fuzz', 'your-email': 'fuzz@example.com', 'your-subject': big.slice(0, 1000), 'your-message': big.slice(0, 3 * 1024 * 1024) }),
  });
  await res.body.text();
  hostile.submissions[res.statusCode] = (hostile.submissions[res.statusCode] ?? 0) + 1;
  send({ t: 'alive', what: `7 MB submission ${i}: ${res.statusCode}` });
  // Collected before each reading: what counts is what the mock keeps, not when V8 gets round to freeing one upload's
  // garbage (without it the peak drifted by the run, +433 to +496 MB over the same leg). A kept upload is not garbage,
  // so a leak still adds 7 MB a submission here, and the heap bound sees it too.
  gc();
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
}
await served.close();

rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
gc();
const end = process.memoryUsage();
if (process.env.FUZZ_MEMDEBUG) process.stderr.write(`memory at end: ${JSON.stringify(Object.fromEntries(Object.entries(end).map(([k, v]) => [k, Math.round(v / 1048576)])))} memos ${JSON.stringify(mock.cacheStats?.())}\n`);
send({
  t: 'summary',
  requests: { core: coreRequests, http: httpRequests },
  worst,
  worstHttpWallMs,
  hostile,
  memory: { heapStartMb: mb(heapStart), heapEndMb: mb(end.heapUsed), rssStartMb: mb(rssStart), rssEndMb: mb(end.rss), rssPeakMb: mb(rssPeak), storeStartMb: mb(storeStart), storeEndMb: mb(storeBytes()) },
});
process.disconnect();
