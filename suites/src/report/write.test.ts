import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleRun } from './sample.ts';
import { ensureWritable, reportBaseName, ReportWriteError, writeReports, type ReportFs } from './write.ts';

/** An in-memory fs that records the order of operations. */
function memoryFs(failOn?: string): ReportFs & { files: Map<string, string>; log: string[] } {
  const files = new Map<string, string>();
  const log: string[] = [];
  return {
    files,
    log,
    async mkdir(path) {
      log.push(`mkdir ${path}`);
    },
    async writeFile(path, data) {
      log.push(`write ${path}`);
      if (failOn && path.includes(failOn)) throw new Error('disk full');
      files.set(path, data);
    },
    async rename(from, to) {
      log.push(`rename ${from} -> ${to}`);
      const data = files.get(from);
      if (data === undefined) throw new Error(`ENOENT ${from}`);
      files.delete(from);
      files.set(to, data);
    },
    async rm(path) {
      log.push(`rm ${path}`);
      files.delete(path);
    },
  };
}

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

describe('writeReports', () => {
  it('creates the directory and writes each chosen format through a temporary file', async () => {
    const fs = memoryFs();
    const written = await writeReports(sampleRun(), { dir: 'out/r', formats: ['json', 'html'], secrets: [], fs, tempSuffix: () => 'T' });
    expect(written).toEqual([
      { format: 'json', path: 'out/r/site-contracts.json' },
      { format: 'html', path: 'out/r/site-contracts.html' },
    ]);
    expect(fs.log).toEqual([
      'mkdir out/r',
      'write out/r/site-contracts.json.T.tmp',
      'rename out/r/site-contracts.json.T.tmp -> out/r/site-contracts.json',
      'write out/r/site-contracts.html.T.tmp',
      'rename out/r/site-contracts.html.T.tmp -> out/r/site-contracts.html',
    ]);
    expect([...fs.files.keys()]).toEqual(['out/r/site-contracts.json', 'out/r/site-contracts.html']);
  });

  it('removes the temporary file and keeps the old report when writing fails', async () => {
    const fs = memoryFs('.junit.xml');
    fs.files.set('reports/site-contracts.junit.xml', 'old');
    await expect(writeReports(sampleRun(), { formats: ['junit'], secrets: [], fs, tempSuffix: () => 'T' })).rejects.toThrow('disk full');
    expect(fs.log.at(-1)).toBe('rm reports/site-contracts.junit.xml.T.tmp');
    expect(fs.files.get('reports/site-contracts.junit.xml')).toBe('old');
  });

  it('names shard reports apart so they can share a directory', async () => {
    const run = { ...sampleRun(), shard: { index: 2, total: 3 } };
    expect(reportBaseName(run)).toBe('shard-2-of-3');
    dir = await mkdtemp(join(tmpdir(), 'sc-write-'));
    const target = join(dir, 'nested', 'reports');
    await writeReports(run, { dir: target, formats: ['junit', 'json', 'html'], secrets: [] });
    expect((await readdir(target)).sort()).toEqual(['shard-2-of-3.html', 'shard-2-of-3.json', 'shard-2-of-3.junit.xml']);
    expect(JSON.parse(await readFile(join(target, 'shard-2-of-3.json'), 'utf8')).shard).toEqual({ index: 2, total: 3 });
  });

  it('says which report could not be written and why, without a stack', async () => {
    const fs = memoryFs('.json');
    const e = await writeReports(sampleRun(), { dir: 'r', formats: ['json'], secrets: [], fs, tempSuffix: () => 'T' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ReportWriteError);
    expect((e as Error).message).toBe('cannot write the report r/site-contracts.json (disk full)');
  });
});

describe('ensureWritable', () => {
  it('creates the directory and proves it by writing and removing a file', async () => {
    const fs = memoryFs();
    await ensureWritable('out/r', fs, () => 'T');
    expect(fs.log).toEqual(['mkdir out/r', 'write out/r/.site-contracts-probe.T.tmp', 'rm out/r/.site-contracts-probe.T.tmp']);
    expect(fs.files.size).toBe(0);
  });

  it('names the flag, the directory and the reason when it cannot be written', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-write-'));
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    // A directory inside a regular file: unwritable even for root, as CI runs.
    const e = await ensureWritable(join(file, 'reports')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ReportWriteError);
    expect((e as Error).message).toMatch(new RegExp(`^--report-dir ${file}/reports: cannot write reports there \\(ENOTDIR: .*\\); give a directory you can write with --report-dir$`));
    const full = memoryFs('probe');
    await expect(ensureWritable('r', full)).rejects.toThrow(/^--report-dir r: cannot write reports there \(disk full\)/);
  });
});
