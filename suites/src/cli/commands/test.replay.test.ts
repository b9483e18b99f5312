// A FAIL line says which case failed and how to run exactly that case again, with the curl line of its request;
// warnings are listed by group after the failures. Proven on a mock with one fault at the edge (per_page=101
// taken): the replay command's --only and --seed reproduce that one failing case, and the same command against
// the sound mock passes it.
import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import { createMock, listen } from '../../../../mock/src/index.ts';
import { harnessForFile, type Fault } from '../../testing/faulty-mock.ts';
import { main, type MainDeps } from '../../../cli.ts';
import { parseRunJson } from '../../report/json.ts';
import { reportFs } from '../../report/make-directory.ts';
import type { RunResult } from '../../report/model.ts';
import { sampleRun } from '../../report/sample.ts';
import { describeRun } from '../finish.ts';
import { defaultCommands } from './index.ts';
import { makeTestCommand, processTestDeps } from './test.ts';

const contract = loadContractFile();

async function runCli(argv: string[]): Promise<{ code: number; out: string; err: string; run: RunResult }> {
  const dir = await mkdtemp(join(tmpdir(), 'site-contracts-replay-'));
  const out: string[] = [];
  const err: string[] = [];
  const deps: MainDeps = {
    commands: { ...defaultCommands, test: makeTestCommand({ ...processTestDeps, loadContract: () => contract }) },
    tool: { name: 'site-contracts', version: '0.0.0-test' },
    env: {},
    stdout: { write: (s: string) => void out.push(s) },
    stderr: { write: (s: string) => void err.push(s) },
    now: () => new Date(),
    readFile: (p) => nodeFs.readFile(p, 'utf8'),
    fs: reportFs,
  };
  try {
    const code = await main([...argv, '--report-dir', dir, '--format', 'json'], deps);
    // No report when the command stopped before the run (a usage error).
    const text = await readFile(join(dir, 'site-contracts.json'), 'utf8').catch(() => undefined);
    const run = text === undefined ? ({ cases: [] } as unknown as RunResult) : parseRunJson(text, 'site-contracts.json');
    return { code, out: out.join(''), err: err.join(''), run };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The argument after `flag` in a printed command line, unquoted. */
function argOf(command: string, flag: string): string {
  const m = new RegExp(`${flag} ('(?:[^']|'\\\\'')*'|\\S+)`).exec(command);
  if (!m) throw new Error(`no ${flag} in ${command}`);
  return m[1]!.startsWith("'") ? m[1]!.slice(1, -1).replace(/'\\''/g, "'") : m[1]!;
}

describe('FAIL lines replay their case', () => {
  const h = harnessForFile({ createMock, listen }, { contract, auth: false });
  // One fault at the edge: the event list takes per_page=101 (WordPress answers 400).
  const perPage101: Fault = (req, next) =>
    /\/cal\/v1\/events\?(.*&)?per_page=101(&|$)/.test(req.url) ? { status: 200, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: '[]' } : next(req);

  it('prints the case id, a replay command and the curl line; the replay runs that case alone, and passes on the sound mock', async () => {
    const sound = await h.serve();
    const faulty = await h.serve(perPage101);
    const first = await runCli(['test', '--base-url', faulty, '--seed', '5', '--read-only', '--only', 'getCalV1Events,negative_rejection']);
    expect(first.code).toBe(1);
    const fail = /^ {2}FAIL .*per_page.*\n {8}case: {3}(.+)\n {8}replay: (.+)\n {8}curl: {3}(.+)$/m.exec(first.out);
    expect(fail, first.out).not.toBeNull();
    const [, id, replay, curl] = fail!;
    expect(replay).toBe(`npx site-contracts test --base-url ${faulty} --seed 5 --read-only --only ${argOf(replay!, '--only').includes(' ') ? `'${id}'` : id}`);
    expect(curl).toMatch(/^curl .*per_page=101/);

    const again = await runCli(['test', '--base-url', faulty, '--seed', argOf(replay!, '--seed'), '--read-only', '--only', argOf(replay!, '--only')]);
    expect(again.run.cases.map((c) => [c.id, c.status])).toEqual([[id, 'failed']]);
    expect(again.code).toBe(1);

    const fixed = await runCli(['test', '--base-url', sound, '--seed', '5', '--read-only', '--only', id!]);
    expect(fixed.run.cases.map((c) => [c.id, c.status])).toEqual([[id, 'passed']]);
    expect(fixed.code).toBe(0);
  });

  it('names a case id that did not come up, and refuses one for an operation the contract lacks', async () => {
    const sound = await h.serve();
    const r = await runCli(['test', '--base-url', sound, '--seed', '5', '--read-only', '--only', 'negative_rejection:getCalV1Events:no such variant']);
    expect(r.err).toContain('case negative_rejection:getCalV1Events:no such variant did not come up with seed 5');
    expect(r.run.cases).toEqual([]);
    const bad = await runCli(['test', '--base-url', sound, '--only', 'route_presence:getNothing:']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--only route_presence:getNothing:: the case id names the operation getNothing, which the contract does not have');
  });
});

describe('warnings, by group after the failures', () => {
  it('lists each group with its cases, and nothing when none warned', () => {
    const run = sampleRun();
    const text = describeRun(run, []);
    const warned = run.cases.filter((c) => c.status === 'warned');
    expect(warned.length).toBeGreaterThan(0);
    expect(text).toContain(`  warnings: ${warned.length} case(s) in`);
    expect(text).toContain(`  WARN  ${warned[0]!.check} [${warned[0]!.severity}]: `);
    expect(text).toContain(`        ${warned[0]!.id}`);
    expect(text.indexOf('  WARN ')).toBeGreaterThan(text.lastIndexOf('  FAIL '));
    const none = describeRun({ ...run, cases: run.cases.filter((c) => c.status !== 'warned') }, []);
    expect(none).not.toContain('warnings:');
  });
});
