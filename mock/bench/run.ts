// `npm run bench`: the mock (memos on, and with --no-cache), Prism's mock on the same bundled contract, and a bare
// node:http server sending the mock's own answer bytes, side by side. Each server runs in its own process, the load
// comes from a separate process (load-child.ts), one scenario at a time: GET a list page, GET one record, POST a
// create, a 25-request batch. Reported per scenario: requests per second, p50/p99 latency, errors; per server:
// start-up time with the full contract and peak RSS; the mock's RSS with 10,000 events; and the issue's aims, each
// with its verdict (for the batch p99, with the closed-loop arithmetic that bounds it). Results go to
// reports/bench.json and a table on stdout.
//
// Beside the closed loop, the mock's batch at fixed rates (open loop, latency from the moment a request fell due):
// what a batch's p99 is when the server is not kept saturated, which the closed loop at 32 connections cannot show.
//
// Start-up (startup.ts): spawn to first answer of the mock (installed build and from source) and of Prism, in turns.
//
// A small read behind a 25-item batch at the body cap (big-body.ts): one POST /batch/v1 of 25 events of 310 KB each
// (7.9 MiB) while another connection sends small uncached GETs back to back; the longest of them is how long a client
// waited behind the batch (issue 27's aim: under 250 ms). Printed with the machine's load average, before and after:
// the figure moves with it, since what the read waits for is the batch's longest step of CPU, stretched by a loaded
// machine's other work.
//
// Environment: BENCH_DURATION_MS (default 5000 per run), BENCH_CONNECTIONS (default 32), BENCH_SKIP_PRISM=1,
// BENCH_ONLY=startup (the start-up measure alone, BENCH_STARTUP_ROUNDS starts of each, default 5; to
// reports/bench-startup.json), BENCH_ONLY=big-batch (the read behind a batch at the cap alone, BENCH_BIG_ROUNDS
// rounds, default 3), BENCH_ONLY=msw (msw-setup.ts alone: a vitest file's MSW set-up with the mock's handlers beside
// msw alone, BENCH_MSW_FILES files of each, default 6; to reports/bench-msw.json), BENCH_ONLY=suite (suite-run.ts
// alone: the conformance suite's whole run against the mock, CPU of both; to reports/bench-suite.json; the full bench
// runs it last).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { freePort } from './free-port.ts';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LoadResult, LoadSpec } from './load.ts';
import { benchStartup, startupLines, type StartupResult } from './startup.ts';
import { bigPostLine, measureBigPost, type BigPostRound } from './big-body.ts';
import { loadavg } from 'node:os';
import { benchMswSetup, mswSetupLines } from './msw-setup.ts';
import { benchSuiteRun, suiteRunLines } from './suite-run.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP = Math.min(1500, Math.max(300, Math.round(DURATION / 4)));
const HOST = '127.0.0.1';
const READ_ID = 92;
/** Batches per second for the open-loop measures: a tenth, a fifth and about half of what the closed loop reaches. */
const OPEN_RATES = [100, 200, 400] as const;

type ServerName = 'mock' | 'mock-no-cache' | 'prism' | 'ceiling';

interface Running {
  name: ServerName;
  child: ChildProcess;
  port: number;
  /** Path prefix of the API root on this server. */
  root: string;
  startupMs: number;
}

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > timeoutMs) throw new Error(`${url}: not serving after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function start(name: ServerName, args: string[], root: string, probe: string, port: number): Promise<Running> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d));
  child.stdout?.resume();
  try {
    await waitUntilServing(`http://${HOST}:${port}${root}${probe}`, child);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${name}: ${(err as Error).message}\n${stderr.slice(-2000)}`);
  }
  return { name, child, port, root, startupMs: Math.round(performance.now() - t0) };
}

async function procStatus(pid: number | undefined, field: 'VmHWM' | 'VmRSS'): Promise<number | null> {
  if (!pid) return null;
  try {
    const text = await readFile(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function runLoadChild(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'mock/bench/load-child.ts'), JSON.stringify(spec)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult);
    });
  });
}

const EVENT_BODY = { title: 'Bench event', start_date: '2026-12-01 18:00:00', end_date: '2026-12-01 20:00:00', status: 'publish' };

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

const SCENARIOS: Scenario[] = [
  { name: 'GET list page', method: 'GET', path: '/cal/v1/events?per_page=10' },
  { name: 'GET one record', method: 'GET', path: `/cal/v1/events/${READ_ID}` },
  { name: 'POST create', method: 'POST', path: '/cal/v1/events', body: JSON.stringify(EVENT_BODY) },
  {
    name: '25-request batch',
    method: 'POST',
    path: '/batch/v1',
    body: JSON.stringify({ requests: Array.from({ length: 25 }, () => ({ method: 'POST', path: '/cal/v1/events', body: EVENT_BODY })) }),
  },
];

async function reset(s: Running): Promise<void> {
  if (s.name !== 'mock' && s.name !== 'mock-no-cache') return;
  const res = await fetch(`http://${HOST}:${s.port}/__mock/reset`, { method: 'POST' });
  await res.arrayBuffer();
}

async function measure(s: Running, sc: Scenario, ratePerSec?: number): Promise<LoadResult> {
  await reset(s);
  const result = await runLoadChild({
    host: HOST,
    port: s.port,
    method: sc.method,
    path: s.root + sc.path,
    ...(sc.body ? { body: sc.body, headers: { 'Content-Type': 'application/json' } } : {}),
    connections: CONNECTIONS,
    durationMs: DURATION,
    warmupMs: WARMUP,
    ...(ratePerSec !== undefined ? { ratePerSec } : {}),
  });
  await reset(s);
  return result;
}

async function rssWithEvents(events: number): Promise<{ events: number; rss: number }> {
  const port = await freePort(HOST);
  const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', join(ROOT, 'mock/bench/serve-mock.ts'), '--events', String(events), '--port', String(port)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (/rss \d+/.test(out)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`serve-mock exited with ${code}`)));
  });
  child.kill('SIGKILL');
  return { events: Number(/events (\d+)/.exec(out)?.[1] ?? 0), rss: Number(/rss (\d+)/.exec(out)![1]) };
}

const mb = (b: number | null) => (b === null ? 'n/a' : `${(b / 1024 / 1024).toFixed(0)} MB`);
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

/** One answer of the mock to a scenario's request, as bytes (what the ceiling then sends). */
async function answerOf(s: Running, sc: Scenario): Promise<Buffer> {
  const res = await fetch(`http://${HOST}:${s.port}${s.root}${sc.path}`, { method: sc.method, ...(sc.body ? { body: sc.body, headers: { 'Content-Type': 'application/json' } } : {}) });
  return Buffer.from(await res.arrayBuffer());
}

/** Every scenario against one server; `only` limits them. Stops the server afterwards. */
async function measureAll(s: Running, scenarios: readonly Scenario[]): Promise<Record<string, LoadResult>> {
  const out: Record<string, LoadResult> = {};
  for (const sc of scenarios) {
    process.stderr.write(`bench: ${sc.name} on ${s.name}...\n`);
    out[sc.name] = await measure(s, sc);
  }
  return out;
}

export interface Aim {
  aim: string;
  measured: string;
  met: boolean;
  note?: string;
}

/**
 * The issue's aims, each measured in this run on the mock as `npm run mock` starts it (memos on); `key` gives the
 * same measures for the mock with --no-cache, for comparison.
 */
function aimsOf(r: Record<ServerName, Record<string, LoadResult>>, key: 'mock' | 'mock-no-cache', skipPrism: boolean, openLoop: readonly (LoadResult & { ratePerSec: number })[] = []): Aim[] {
  const aims: Aim[] = [];
  const x = (a: number, b: number) => (b > 0 ? a / b : 0);
  const m = r[key];
  if (!skipPrism) {
    for (const sc of SCENARIOS.slice(0, 3)) {
      const ratio = x(m[sc.name]!.rps, r.prism[sc.name]!.rps);
      aims.push({ aim: `${sc.name}: at least 5x Prism`, measured: `${ratio.toFixed(1)}x`, met: ratio >= 5 });
    }
  }
  for (const sc of SCENARIOS.slice(0, 2)) {
    const ratio = x(m[sc.name]!.rps, r.ceiling[sc.name]!.rps);
    aims.push({ aim: `${sc.name}: at least half of node:http sending the same bytes`, measured: `${ratio.toFixed(2)}x`, met: ratio >= 0.5 });
  }
  const batch = m[SCENARIOS[3]!.name]!;
  const single = m[SCENARIOS[2]!.name]!;
  const viaBatch = batch.rps * 25;
  const ratio = x(viaBatch, single.rps);
  aims.push({ aim: 'creates/s through 25-request batches: at least 2x creates/s through single POSTs', measured: `${viaBatch} vs ${single.rps} = ${ratio.toFixed(1)}x`, met: ratio >= 2 });
  // Issue 19 restated the batch latency aim as an open loop (requests fall due at 200/s whatever the server does):
  // the closed loop at 32 connections cannot meet it on one event loop, by Little's law, whatever the code.
  const meanMs = batch.rps > 0 ? (CONNECTIONS / batch.rps) * 1000 : Infinity;
  const closed = `closed loop at ${CONNECTIONS} connections, for comparison: p99 ${batch.p99Ms.toFixed(1)} ms, mean = ${CONNECTIONS} / ${batch.rps} per s = ${meanMs.toFixed(1)} ms by Little's law`;
  const at200 = openLoop.find((o) => o.ratePerSec === 200);
  if (at200) aims.push({ aim: 'batch p99 at 200 batches/s (open loop): under 10 ms', measured: `${at200.p99Ms.toFixed(1)} ms`, met: at200.p99Ms < 10 && at200.errors === 0, note: closed });
  else aims.push({ aim: 'batch p99 at 200 batches/s (open loop): under 10 ms', measured: 'not measured on this server', met: false, note: closed });
  return aims;
}

/** The read behind a 25-item batch at the cap, and the load average before and after it. */
interface BigBatch {
  rounds: BigPostRound[];
  loadBefore: number;
  loadAfter: number;
}

/** BENCH_BIG_ROUNDS rounds of a 25-item batch at the cap on the mock at `port`, with a small read beside it. */
async function bigBatch(port: number): Promise<BigBatch> {
  const loadBefore = loadavg()[0]!;
  const m = await measureBigPost(port, 'batch', 7.9, Number(process.env.BENCH_BIG_ROUNDS ?? 3));
  return { rounds: m.rounds, loadBefore, loadAfter: loadavg()[0]! };
}

const BIG_AIM = 'a small read behind a 25-item batch at the body cap: waits under 250 ms';

function bigBatchAim(b: BigBatch): Aim {
  const longest = Math.max(...b.rounds.map((r) => r.longestMs));
  return { aim: BIG_AIM, measured: `longest ${longest.toFixed(0)} ms in ${b.rounds.length} rounds`, met: longest < 250, note: `load average ${b.loadBefore.toFixed(1)} before, ${b.loadAfter.toFixed(1)} after; on a loaded machine the batch's steps stretch with the other work` };
}

function bigBatchLines(b: BigBatch): string[] {
  return [
    `a small read behind a 25-item batch at the body cap (7.9 MiB; load average ${b.loadBefore.toFixed(1)} before, ${b.loadAfter.toFixed(1)} after):`,
    ...b.rounds.map((r, i) => `  round ${i + 1}: ${bigPostLine(r)}`),
  ];
}

/** `BENCH_ONLY=big-batch`: the read behind a batch at the cap alone. */
async function bigBatchOnly(): Promise<void> {
  const port = await freePort(HOST);
  const s = await start('mock', ['--import', 'tsx', join(ROOT, 'mock/cli.ts'), '--port', String(port), '--host', HOST, '--log', 'quiet'], '/wp-json', '/cal/v1/events?per_page=1', port);
  try {
    const b = await bigBatch(port);
    const a = bigBatchAim(b);
    process.stdout.write([...bigBatchLines(b), `  ${a.met ? 'met    ' : 'NOT MET'}  ${a.aim}: ${a.measured}`].join('\n') + '\n');
  } finally {
    s.child.kill('SIGKILL');
  }
}

/** `BENCH_ONLY=startup`: the start-up measure alone. */
async function startupOnly(skipPrism: boolean): Promise<void> {
  const rounds = Number(process.env.BENCH_STARTUP_ROUNDS ?? 5);
  const result = await benchStartup(ROOT, { rounds, skipPrism, log: (line) => process.stderr.write(`${line}\n`) });
  const out = join(ROOT, 'reports/bench-startup.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length, ...result }, null, 2) + '\n');
  process.stdout.write([...startupLines(result), '', `written to ${out}`].join('\n') + '\n');
}

/** `BENCH_ONLY=msw`: the MSW set-up measure alone. */
async function mswOnly(): Promise<void> {
  const result = await benchMswSetup(ROOT, { files: Number(process.env.BENCH_MSW_FILES ?? 6), log: (line) => process.stderr.write(`${line}\n`) });
  const out = join(ROOT, 'reports/bench-msw.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length, ...result }, null, 2) + '\n');
  process.stdout.write([...mswSetupLines(result), '', `written to ${out}`].join('\n') + '\n');
}

/** `BENCH_ONLY=suite`: the suite's whole run against the mock alone. */
async function suiteOnly(): Promise<void> {
  const result = await benchSuiteRun(ROOT, { log: (line) => process.stderr.write(`${line}\n`) });
  const out = join(ROOT, 'reports/bench-suite.json');
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length, ...result }, null, 2) + '\n');
  process.stdout.write([...suiteRunLines(result), '', `written to ${out}`].join('\n') + '\n');
}

async function main(): Promise<void> {
  const skipPrism = process.env.BENCH_SKIP_PRISM === '1';
  if (process.env.BENCH_ONLY === 'suite') return suiteOnly();
  if (process.env.BENCH_ONLY === 'startup') return startupOnly(skipPrism);
  if (process.env.BENCH_ONLY === 'big-batch') return bigBatchOnly();
  if (process.env.BENCH_ONLY === 'msw') return mswOnly();
  const running: Running[] = [];
  const stopAll = () => running.forEach((s) => s.child.kill('SIGKILL'));
  const stop = (s: Running) => {
    s.child.kill('SIGKILL');
    running.splice(running.indexOf(s), 1);
  };
  process.on('exit', stopAll);
  const tmp = await mkdtemp(join(tmpdir(), 'bench-'));
  try {
    const results = { mock: {}, 'mock-no-cache': {}, prism: {}, ceiling: {} } as Record<ServerName, Record<string, LoadResult>>;
    const startup: Partial<Record<ServerName, number>> = {};
    const peak: Partial<Record<ServerName, number | null>> = {};
    const answers: Record<string, Buffer> = {};
    const openLoop: (LoadResult & { ratePerSec: number })[] = [];
    let big: BigBatch | undefined;

    for (const [name, extra] of [['mock', []], ['mock-no-cache', ['--no-cache']]] as const) {
      const port = await freePort(HOST);
      // --log quiet: Prism runs with -v silent; both log a line per request by default.
      const s = await start(name, ['--import', 'tsx', join(ROOT, 'mock/cli.ts'), '--port', String(port), '--host', HOST, '--log', 'quiet', ...extra], '/wp-json', '/cal/v1/events?per_page=1', port);
      running.push(s);
      startup[name] = s.startupMs;
      results[name] = await measureAll(s, SCENARIOS);
      if (name === 'mock') {
        for (const rate of OPEN_RATES) {
          process.stderr.write(`bench: ${SCENARIOS[3]!.name} on mock at ${rate}/s (open loop)...\n`);
          openLoop.push({ ratePerSec: rate, ...(await measure(s, SCENARIOS[3]!, rate)) });
        }
        for (const sc of SCENARIOS) {
          answers[sc.name] = await answerOf(s, sc);
          await reset(s);
        }
        process.stderr.write('bench: a small read behind a 25-item batch at the body cap...\n');
        big = await bigBatch(s.port);
        await reset(s);
      }
      peak[name] = await procStatus(s.child.pid, 'VmHWM');
      stop(s);
    }

    if (!skipPrism) {
      const port = await freePort(HOST);
      const prismCli = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
      const s = await start('prism', [prismCli, 'mock', join(ROOT, 'contracts/openapi.yaml'), '-p', String(port), '-h', HOST, '-v', 'silent'], '', '/cal/v1/events', port);
      running.push(s);
      startup.prism = s.startupMs;
      // The batch's 5x-Prism aim is withdrawn (Prism answers a canned example): its three other scenarios only.
      results.prism = await measureAll(s, SCENARIOS.slice(0, 3));
      peak.prism = await procStatus(s.child.pid, 'VmHWM');
      stop(s);
    }

    // For each scenario, a bare node:http server sending the mock's own answer to it.
    for (const sc of SCENARIOS) {
      const file = join(tmp, `${SCENARIOS.indexOf(sc)}.json`);
      await writeFile(file, answers[sc.name]!);
      const port = await freePort(HOST);
      const s = await start('ceiling', ['--import', 'tsx', join(ROOT, 'mock/bench/ceiling.ts'), String(port), file], '', '/', port);
      running.push(s);
      startup.ceiling ??= s.startupMs;
      process.stderr.write(`bench: ${sc.name} on node:http sending the mock's ${answers[sc.name]!.length} bytes...\n`);
      results.ceiling[sc.name] = await measure(s, sc);
      peak.ceiling = Math.max(peak.ceiling ?? 0, (await procStatus(s.child.pid, 'VmHWM')) ?? 0);
      stop(s);
    }

    process.stderr.write('bench: RSS with 10,000 events...\n');
    const small = await rssWithEvents(300);
    const large = await rssWithEvents(10_000);

    process.stderr.write('bench: start-up, in turns...\n');
    const startupTurns: StartupResult = await benchStartup(ROOT, { rounds: 3, skipPrism, log: (line) => process.stderr.write(`${line}\n`) });

    process.stderr.write('bench: MSW set-up per test file, in turns...\n');
    const msw = await benchMswSetup(ROOT, { files: 4, log: (line) => process.stderr.write(`${line}\n`) });

    process.stderr.write("bench: the suite's whole run against the mock...\n");
    const suiteRun = await benchSuiteRun(ROOT, { log: (line) => process.stderr.write(`${line}\n`) });

    let generators: unknown;
    const genPath = join(ROOT, 'contracts/bench/generators.ts');
    if (existsSync(genPath)) {
      process.stderr.write('bench: request generators...\n');
      const mod = (await import(pathToFileURL(genPath).href)) as { benchGenerators?: (o: { durationMs: number }) => Promise<unknown> };
      if (mod.benchGenerators) generators = await mod.benchGenerators({ durationMs: Math.min(2000, DURATION) });
    }

    // ---- report ----
    const aims = [...aimsOf(results, 'mock', skipPrism, openLoop), ...(big ? [bigBatchAim(big)] : [])];
    const uncachedAims = aimsOf(results, 'mock-no-cache', skipPrism);
    const rows = SCENARIOS.map((sc) => ({
      scenario: sc.name,
      answerBytes: answers[sc.name]!.length,
      mock: results.mock[sc.name],
      mockNoCache: results['mock-no-cache'][sc.name],
      prism: results.prism[sc.name],
      ceiling: results.ceiling[sc.name],
    }));
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
      durationMs: DURATION,
      connections: CONNECTIONS,
      scenarios: rows,
      aims,
      aimsWithNoCache: uncachedAims,
      batchOpenLoop: openLoop,
      bigBatch: big ?? null,
      startupMs: startup,
      startup: startupTurns,
      mswSetup: msw,
      suiteRun,
      peakRssBytes: peak,
      mockRss: { events300: small, events10000: large },
      generators: generators ?? null,
    };
    const out = join(ROOT, 'reports/bench.json');
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, JSON.stringify(report, null, 2) + '\n');

    const cell = (r: LoadResult | undefined) => (r ? `${lpad(String(r.rps), 7)} ${lpad(r.p50Ms.toFixed(2), 6)} ${lpad(r.p99Ms.toFixed(2), 6)} ${lpad(String(r.errors), 4)}` : lpad('-', 26));
    const lines = [
      `requests/s, p50/p99 latency in ms, errors — ${CONNECTIONS} connections, ${DURATION} ms per run, node ${process.version}, ${report.cpus} CPUs`,
      '',
      `${pad('scenario', 18)} | ${pad('mock: rps    p50    p99  err', 26)} | ${pad('cache off: rps p50   p99  err', 26)} | ${pad('prism: rps   p50    p99  err', 26)} | ${pad('node:http, same bytes', 26)} | answer`,
      '-'.repeat(150),
      ...rows.map((r) => `${pad(r.scenario, 18)} | ${cell(r.mock)} | ${cell(r.mockNoCache)} | ${cell(r.prism)} | ${cell(r.ceiling)} | ${lpad((r.answerBytes / 1024).toFixed(1), 5)} KB`),
      '',
      'aims (the mock as npm run mock starts it):',
      ...aims.map((a) => `  ${a.met ? 'met    ' : 'NOT MET'}  ${a.aim}: ${a.measured}${a.note ? `\n             (${a.note})` : ''}`),
      'the same measures with --no-cache (every answer computed), for comparison:',
      ...uncachedAims.map((a) => `           ${a.aim}: ${a.measured}`),
      '',
      `${SCENARIOS[3]!.name} on the mock at fixed rates (open loop, ${CONNECTIONS} connections, latency from when each request fell due; not an aim):`,
      ...openLoop.map((o) => `  ${lpad(String(o.ratePerSec), 4)}/s (${o.ratePerSec * 25} creates/s): p50 ${o.p50Ms.toFixed(2)} ms, p99 ${o.p99Ms.toFixed(2)} ms, ${o.requests} answered, ${o.errors} errors`),
      '',
      ...(big ? [...bigBatchLines(big), ''] : []),
      ...startupLines(startupTurns),
      '',
      ...mswSetupLines(msw),
      '',
      ...suiteRunLines(suiteRun),
      '',
      `start-up of the servers measured above (spawn to first answer, once each): ${Object.entries(startup).map(([n, ms]) => `${n} ${ms} ms`).join(', ')}`,
      `peak RSS: ${Object.entries(peak).map(([n, b]) => `${n} ${mb(b ?? null)}`).join(', ')}`,
      `mock RSS after start (after GC): ${mb(small.rss)} with ${small.events} events, ${mb(large.rss)} with ${large.events} events`,
    ];
    if (generators && typeof generators === 'object') {
      const g = generators as { validPerSec?: number; invalidPerSec?: number; operations?: number; constraints?: number };
      lines.push(`request generators: ${Math.round(g.validPerSec ?? 0)} valid/s over ${g.operations} operations, ${Math.round(g.invalidPerSec ?? 0)} violating/s over ${g.constraints} constraints`);
    }
    lines.push('', `written to ${out}`);
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    stopAll();
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
