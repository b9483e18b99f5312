// The bench's start-up measure: from spawning a server to its first answer, for the mock and for Prism's mock of the
// same contract, in turns within one run (the machine's load moves between runs, so only figures from one run
// compare). `BENCH_ONLY=startup npm run bench` runs only this; the full bench runs it too.
//
// Servers, each started afresh every round:
// - mock, installed: `node dist/mock/cli.js` (what `npx site-contracts mock` runs in an installed package: the
//   build, plain node, the contract from dist/contract-cache); only when `npm run build` has made dist/;
// - mock, from source: `node --import tsx mock/cli.ts` (what `npm run mock` and the bin in a clone run, without the
//   tsx command's own extra process);
// - prism: `prism mock contracts/openapi.yaml` (@stoplight/prism-cli, plain node), unless BENCH_SKIP_PRISM=1.
// Per start: when the first line came out, when the first answer came (GET of a list, polled every 5 ms; the mock's
// must be a 200), and the CPU time the process had used by then (Linux's /proc; user + system, every thread), which
// is what an idle machine's wall time comes near and moves much less with the load than wall time does.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { freePort } from './free-port.ts';
import { loadavg } from 'node:os';
import { join } from 'node:path';

const HOST = '127.0.0.1';

interface StartupSample {
  firstLineMs: number | null;
  firstAnswerMs: number;
  cpuMs: number | null;
}

interface StartupSummary {
  name: string;
  command: string;
  rounds: StartupSample[];
  median: { firstLineMs: number | null; firstAnswerMs: number; cpuMs: number | null };
  min: number;
  max: number;
}

export interface StartupResult {
  loadAverage: { before: number; after: number };
  servers: StartupSummary[];
  skipped: string[];
  /** Said beside the figures: a dist/ older than the sources measures an earlier mock. */
  notes: string[];
}

interface Target {
  name: string;
  args: (port: number) => string[];
  probe: (port: number) => string;
  /** Status the first answer must have (any under 500 when undefined). */
  status?: number;
}

/** CPU time (user + system, all threads) a process has used, from /proc; null where there is none. */
function cpuMsOf(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name's closing parenthesis: state is the 1st, utime the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticksPerMs = 100 / 1000; // USER_HZ is 100 on Linux
    return Math.round((Number(fields[11]) + Number(fields[12])) / ticksPerMs);
  } catch {
    return null;
  }
}

async function startOnce(root: string, t: Target, timeoutMs: number): Promise<StartupSample> {
  const port = await freePort(HOST);
  const t0 = performance.now();
  const child = spawn(process.execPath, t.args(port), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let firstLineMs: number | null = null;
  let stderr = '';
  child.stdout.on('data', () => (firstLineMs ??= performance.now() - t0));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${t.name} exited with ${child.exitCode}: ${stderr.slice(-1000)}`);
      if (performance.now() - t0 > timeoutMs) throw new Error(`${t.name}: no answer after ${timeoutMs} ms`);
      try {
        const res = await fetch(t.probe(port));
        await res.arrayBuffer();
        if (t.status === undefined ? res.status < 500 : res.status === t.status) break;
        if (t.status !== undefined && res.status !== 404) throw new Error(`${t.name}: first answer ${res.status}, expected ${t.status}`);
      } catch (err) {
        if (err instanceof Error && err.message.startsWith(t.name)) throw err;
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    const firstAnswerMs = Math.round(performance.now() - t0);
    return { firstLineMs: firstLineMs === null ? null : Math.round(firstLineMs), firstAnswerMs, cpuMs: cpuMsOf(child.pid) };
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(undefined) : child.once('exit', r)));
  }
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : Math.round((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
};
const medianOrNull = (xs: (number | null)[]): number | null => (xs.some((x) => x === null) ? null : median(xs as number[]));

/** The newest modification time of the TypeScript sources under `dirs` (tests left out). */
function newestSource(root: string, dirs: readonly string[]): number {
  let newest = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const d of dirs) {
    const path = join(root, d);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) walk(path);
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Every server started `rounds` times, in turns (a, b, c, a, b, c, ...), so a change of load falls on all of them. */
export async function benchStartup(root: string, opts: { rounds: number; skipPrism: boolean; log?: (line: string) => void }): Promise<StartupResult> {
  const targets: Target[] = [];
  const skipped: string[] = [];
  const notes: string[] = [];
  const mockProbe = (port: number) => `http://${HOST}:${port}/wp-json/cal/v1/events?per_page=1`;
  const mockFlags = (port: number) => ['--port', String(port), '--host', HOST, '--log', 'quiet'];
  if (existsSync(join(root, 'dist/mock/cli.js'))) {
    if (statSync(join(root, 'dist/mock/cli.js')).mtimeMs < newestSource(root, ['mock/src', 'mock/cli.ts', 'contracts/lib', 'contracts/wordpress', 'fixtures'])) {
      notes.push('dist/ is older than the sources: the installed figure is of an earlier build (run `npm run build`)');
    }
    targets.push({ name: 'mock, installed (node dist/mock/cli.js)', args: (p) => [join(root, 'dist/mock/cli.js'), ...mockFlags(p)], probe: mockProbe, status: 200 });
  } else skipped.push('mock, installed: no dist/ (run `npm run build` first)');
  targets.push({ name: 'mock, from source (node --import tsx mock/cli.ts)', args: (p) => ['--import', 'tsx', join(root, 'mock/cli.ts'), ...mockFlags(p)], probe: mockProbe, status: 200 });
  if (!opts.skipPrism) {
    const prismCli = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js');
    targets.push({ name: 'prism (prism mock contracts/openapi.yaml)', args: (p) => [prismCli, 'mock', join(root, 'contracts/openapi.yaml'), '-p', String(p), '-h', HOST, '-v', 'silent'], probe: (p) => `http://${HOST}:${p}/cal/v1/events` });
  } else skipped.push('prism: BENCH_SKIP_PRISM=1');

  const before = loadavg()[0]!;
  const samples = new Map<Target, StartupSample[]>(targets.map((t) => [t, []]));
  for (let round = 1; round <= opts.rounds; round++) {
    for (const t of targets) {
      const s = await startOnce(root, t, 120_000);
      samples.get(t)!.push(s);
      opts.log?.(`bench: start-up round ${round}/${opts.rounds}, ${t.name}: first answer ${s.firstAnswerMs} ms (first line ${s.firstLineMs ?? '-'} ms, CPU ${s.cpuMs ?? '-'} ms)`);
    }
  }
  const servers = targets.map((t): StartupSummary => {
    const rounds = samples.get(t)!;
    const answers = rounds.map((r) => r.firstAnswerMs);
    return {
      name: t.name,
      command: t.args(0).join(' '),
      rounds,
      median: { firstLineMs: medianOrNull(rounds.map((r) => r.firstLineMs)), firstAnswerMs: median(answers), cpuMs: medianOrNull(rounds.map((r) => r.cpuMs)) },
      min: Math.min(...answers),
      max: Math.max(...answers),
    };
  });
  return { loadAverage: { before, after: loadavg()[0]! }, servers, skipped, notes };
}

/** The start-up figures as lines for the bench's printout. */
export function startupLines(r: StartupResult): string[] {
  const w = Math.max(...r.servers.map((s) => s.name.length));
  return [
    `start-up, spawn to first answer, ${r.servers[0]?.rounds.length ?? 0} starts each in turns (load average ${r.loadAverage.before.toFixed(1)} before, ${r.loadAverage.after.toFixed(1)} after):`,
    `  ${'server'.padEnd(w)} | first answer: median  (min-max) | first line | CPU used by the first answer`,
    ...r.servers.map((s) => `  ${s.name.padEnd(w)} | ${String(s.median.firstAnswerMs).padStart(13)} ms (${s.min}-${s.max}) | ${s.median.firstLineMs === null ? '        -' : `${String(s.median.firstLineMs).padStart(6)} ms`} | ${s.median.cpuMs === null ? '-' : `${s.median.cpuMs} ms`}`),
    ...r.skipped.map((s) => `  not measured: ${s}`),
    ...r.notes.map((s) => `  note: ${s}`),
  ];
}
