// `npm run bench`: the mock, Prism's mock on the same bundled contract, and a bare node:http ceiling, side by side.
// Each server runs in its own process, the load comes from a separate process (load-child.ts), one scenario at a
// time: GET a list page, GET one record, POST a create, a 25-request batch. Reported per scenario: requests per
// second, p50/p99 latency, errors; per server: start-up time with the full contract and peak RSS; and the mock's
// RSS with 10,000 events. For the batch, also what a bare node:http server manages when its answer is as large as the
// mock's 25-create answer (the cost of sending that answer alone). Results go to reports/bench.json and a table on
// stdout.
//
// Environment: BENCH_DURATION_MS (default 5000 per run), BENCH_CONNECTIONS (default 32), BENCH_SKIP_PRISM=1.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LoadResult, LoadSpec } from './load.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DURATION = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARMUP = Math.min(1500, Math.max(300, Math.round(DURATION / 4)));
const HOST = '127.0.0.1';
const READ_ID = 92;

type ServerName = 'mock' | 'prism' | 'ceiling';

interface Running {
  name: ServerName;
  child: ChildProcess;
  port: number;
  /** Path prefix of the API root on this server. */
  root: string;
  startupMs: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, HOST, () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
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
  if (s.name !== 'mock') return;
  const res = await fetch(`http://${HOST}:${s.port}/__mock/reset`, { method: 'POST' });
  await res.arrayBuffer();
}

async function measure(s: Running, sc: Scenario): Promise<LoadResult> {
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
  });
  await reset(s);
  return result;
}

async function rssWithEvents(events: number): Promise<{ events: number; rss: number }> {
  const port = await freePort();
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

async function main(): Promise<void> {
  const skipPrism = process.env.BENCH_SKIP_PRISM === '1';
  const servers: Running[] = [];
  const stopAll = () => servers.forEach((s) => s.child.kill('SIGKILL'));
  process.on('exit', stopAll);
  try {
    const mockPort = await freePort();
    servers.push(await start('mock', ['--import', 'tsx', join(ROOT, 'mock/cli.ts'), '--port', String(mockPort), '--host', HOST], '/wp-json', '/cal/v1/events?per_page=1', mockPort));
    if (!skipPrism) {
      const prismPort = await freePort();
      const prismCli = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
      servers.push(await start('prism', [prismCli, 'mock', join(ROOT, 'contracts/openapi.yaml'), '-p', String(prismPort), '-h', HOST, '-v', 'silent'], '', '/cal/v1/events', prismPort));
    }
    const ceilPort = await freePort();
    servers.push(await start('ceiling', ['--import', 'tsx', join(ROOT, 'mock/bench/ceiling.ts'), String(ceilPort)], '', '/', ceilPort));

    const results: Record<string, Partial<Record<ServerName, LoadResult>>> = {};
    for (const sc of SCENARIOS) {
      results[sc.name] = {};
      for (const s of servers) {
        process.stderr.write(`bench: ${sc.name} on ${s.name}...\n`);
        results[sc.name]![s.name] = await measure(s, sc);
      }
    }
    const peak: Partial<Record<ServerName, number | null>> = {};
    for (const s of servers) peak[s.name] = await procStatus(s.child.pid, 'VmHWM');
    // The size of the mock's batch answer (25 created events in the edit context, inside their envelopes).
    const mock = servers.find((s) => s.name === 'mock')!;
    const batchSc = SCENARIOS[3]!;
    const batchAnswerBytes = (await (await fetch(`http://${HOST}:${mock.port}${mock.root}${batchSc.path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: batchSc.body })).arrayBuffer()).byteLength;
    await reset(mock);
    stopAll();

    // The same load against a bare node:http server whose answer is as large as the mock's batch answer.
    let bigCeiling: LoadResult | undefined;
    {
      const port = await freePort();
      const s = await start('ceiling', ['--import', 'tsx', join(ROOT, 'mock/bench/ceiling.ts'), String(port), String(batchAnswerBytes)], '', '/', port);
      try {
        process.stderr.write(`bench: ${batchSc.name} on the ceiling answering ${batchAnswerBytes} bytes...\n`);
        bigCeiling = await measure(s, batchSc);
      } finally {
        s.child.kill('SIGKILL');
      }
    }

    // The same reads with the response cache off: what a first read of each URL costs.
    const uncached: Record<string, LoadResult> = {};
    {
      const port = await freePort();
      const s = await start('mock', ['--import', 'tsx', join(ROOT, 'mock/bench/serve-mock.ts'), '--port', String(port), '--no-cache'], '/wp-json', '/cal/v1/events?per_page=1', port);
      try {
        for (const sc of SCENARIOS.slice(0, 2)) {
          process.stderr.write(`bench: ${sc.name} on the mock without response cache...\n`);
          uncached[sc.name] = await measure(s, sc);
        }
      } finally {
        s.child.kill('SIGKILL');
      }
    }

    process.stderr.write('bench: RSS with 10,000 events...\n');
    const small = await rssWithEvents(300);
    const large = await rssWithEvents(10_000);

    let generators: unknown;
    const genPath = join(ROOT, 'contracts/bench/generators.ts');
    if (existsSync(genPath)) {
      process.stderr.write('bench: request generators...\n');
      const mod = (await import(pathToFileURL(genPath).href)) as { benchGenerators?: (o: { durationMs: number }) => Promise<unknown> };
      if (mod.benchGenerators) generators = await mod.benchGenerators({ durationMs: Math.min(2000, DURATION) });
    }

    // ---- report ----
    const startup = Object.fromEntries(servers.map((s) => [s.name, s.startupMs]));
    const rows = SCENARIOS.map((sc) => {
      const r = results[sc.name]!;
      return {
        scenario: sc.name,
        mock: r.mock,
        prism: r.prism,
        ceiling: r.ceiling,
        mockToPrism: r.mock && r.prism && r.prism.rps > 0 ? Number((r.mock.rps / r.prism.rps).toFixed(1)) : null,
        mockToCeiling: r.mock && r.ceiling && r.ceiling.rps > 0 ? Number((r.mock.rps / r.ceiling.rps).toFixed(2)) : null,
      };
    });
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
      durationMs: DURATION,
      connections: CONNECTIONS,
      scenarios: rows,
      startupMs: startup,
      peakRssBytes: peak,
      mockUncachedReads: uncached,
      batchAnswerBytes,
      ceilingWithBatchSizedAnswer: bigCeiling ?? null,
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
      `${pad('scenario', 18)} | ${pad('mock: rps    p50    p99  err', 26)} | ${pad('prism: rps   p50    p99  err', 26)} | ${pad('ceiling: rps p50    p99  err', 26)} | mock/prism | mock/ceiling`,
      '-'.repeat(140),
      ...rows.map((r) => `${pad(r.scenario, 18)} | ${cell(r.mock)} | ${cell(r.prism)} | ${cell(r.ceiling)} | ${lpad(r.mockToPrism === null ? '-' : `${r.mockToPrism}x`, 10)} | ${lpad(r.mockToCeiling === null ? '-' : `${r.mockToCeiling}x`, 12)}`),
      ...Object.entries(uncached).map(([name, r]) => `${pad(name.replace('GET ', ''), 18)} | ${cell(r)} | ${pad('(mock, response cache off:', 26)} | every read computed)`),
      '',
      `start-up with the full contract (spawn to first answer): ${servers.map((s) => `${s.name} ${s.startupMs} ms`).join(', ')}`,
      `batch answer: mock ${(batchAnswerBytes / 1024).toFixed(0)} KB (25 created events), prism a canned 207; bare node:http answering ${(batchAnswerBytes / 1024).toFixed(0)} KB: ${bigCeiling ? `${bigCeiling.rps} req/s` : 'n/a'}`,
      `peak RSS: ${servers.map((s) => `${s.name} ${mb(peak[s.name] ?? null)}`).join(', ')}`,
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
  }
}

await main();
process.exit(0);
