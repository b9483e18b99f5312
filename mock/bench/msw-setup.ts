// The bench's MSW measure (issue 28): what a frontend's vitest file pays to answer through site-contracts' MSW
// handlers, beside what it pays with msw alone and two hand-written handlers, in turns within one run (the load
// moves between runs). Each "file" is a fresh process, as vitest's forks pool gives each test file (msw-file.mjs):
// from its start to the answers of one GET and one POST. The package's file runs the files package.json's exports
// name (the bundled entries in dist/bundle/, what a project gets from node_modules) when `npm run build` has made
// them, else the sources under tsx.
// The first file of a run is reported apart: a cache the first file writes is what the others read.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface FileSample {
  mode: 'package' | 'plain';
  status: [number, number];
  totalMs: number;
  handlersMs: number;
  answersMs: number;
  cpuMs: number;
}

interface Summary {
  median: { totalMs: number; handlersMs: number; answersMs: number; cpuMs: number };
  samples: FileSample[];
}

interface MswSetupResult {
  /** What the package's files ran: `installed build (<the file './mock' exports>)` or `sources (tsx)`. */
  packageFrom: string;
  loadAverage: { before: number; after: number };
  /** The package's first file of the run, then the median of the others; msw alone, the median of all. */
  packageFirst: FileSample;
  packageLater: Summary;
  plain: Summary;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

function summary(samples: FileSample[]): Summary {
  const of = (k: keyof Summary['median']) => median(samples.map((s) => s[k]));
  return { median: { totalMs: of('totalMs'), handlersMs: of('handlersMs'), answersMs: of('answersMs'), cpuMs: of('cpuMs') }, samples };
}

function runFile(root: string, args: string[]): Promise<FileSample> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`msw-file.mjs ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`));
      const sample = JSON.parse(out.trim().split('\n').at(-1)!) as FileSample;
      if (sample.status[0] !== 200 || sample.status[1] !== 201) return reject(new Error(`msw-file.mjs ${sample.mode}: answered ${sample.status.join(', ')}`));
      resolve(sample);
    });
  });
}

export async function benchMswSetup(root: string, options: { files: number; log?: (line: string) => void }): Promise<MswSetupResult> {
  const file = join(root, 'mock/bench/msw-file.mjs');
  const exported = (key: string): string => {
    const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> };
    return exports[key]!.default;
  };
  const built = { mock: exported('./mock').replace(/^\.\//, ''), msw: exported('./mock/msw').replace(/^\.\//, '') };
  const installed = existsSync(join(root, built.mock)) && existsSync(join(root, built.msw));
  const url = (path: string) => pathToFileURL(join(root, path)).href;
  const packageArgs = installed
    ? [file, 'package', url(built.mock), url(built.msw)]
    : ['--import', 'tsx', file, 'package', url('mock/src/index.ts'), url('mock/src/adapters/msw.ts')];
  const plainArgs = [...(installed ? [] : ['--import', 'tsx']), file, 'plain'];
  const before = loadavg()[0]!;
  const pkg: FileSample[] = [];
  const plain: FileSample[] = [];
  // In turns, msw alone first, so both see the same minutes of the machine's load.
  for (let i = 0; i < options.files; i++) {
    plain.push(await runFile(root, plainArgs));
    pkg.push(await runFile(root, packageArgs));
    options.log?.(`msw set-up, file ${i + 1}/${options.files}: site-contracts ${pkg.at(-1)!.totalMs} ms, msw alone ${plain.at(-1)!.totalMs} ms`);
  }
  return {
    packageFrom: installed ? `installed build (${built.mock})` : 'sources (tsx)',
    loadAverage: { before, after: loadavg()[0]! },
    packageFirst: pkg[0]!,
    packageLater: summary(pkg.slice(1)),
    plain: summary(plain),
  };
}

export function mswSetupLines(r: MswSetupResult): string[] {
  const row = (name: string, s: { totalMs: number; handlersMs: number; answersMs: number; cpuMs: number }) =>
    `| ${name} | ${s.totalMs} | ${s.handlersMs} | ${s.answersMs} | ${s.cpuMs} |`;
  const extra = r.packageLater.median.totalMs - r.plain.median.totalMs;
  return [
    `MSW set-up per test file (a fresh process each, as vitest's forks pool; site-contracts from the ${r.packageFrom}; load average ${r.loadAverage.before.toFixed(1)} -> ${r.loadAverage.after.toFixed(1)}):`,
    '| file | ms to answers | ms handlers | ms answers | CPU ms |',
    '|---|---|---|---|---|',
    row("site-contracts' handlers, first file of the run", r.packageFirst),
    row(`site-contracts' handlers, later files (median of ${r.packageLater.samples.length})`, r.packageLater.median),
    row(`msw alone, two hand-written handlers (median of ${r.plain.samples.length})`, r.plain.median),
    `site-contracts adds ${extra} ms a file to msw alone (aim: under 1 s a file in all: ${r.packageLater.median.totalMs < 1000 ? 'met' : 'NOT met'})`,
  ];
}
