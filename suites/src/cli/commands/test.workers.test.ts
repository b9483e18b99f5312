// --workers and --max-duration end to end against the mock: the number of workers changes how long a run
// takes, never what it reports; a run that reaches its time limit is INCOMPLETE (exit 4), names the checks
// that did not run, has run the documented checks first, and removes its records.

import { parseRunJson } from '../../report/json.ts';
import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import { createMock, listen, type Mock, type MockRequest, type MockResponse } from '../../../../mock/src/index.ts';
import { main, type MainDeps } from '../../../cli.ts';
import type { RunResult } from '../../report/model.ts';
import { defaultCommands } from './index.ts';
import { makeTestCommand, processTestDeps } from './test.ts';

const contract = loadContractFile();

async function withMock<T>(wrap: (mock: Mock) => (req: MockRequest) => MockResponse | Promise<MockResponse>, body: (url: string, auth: string, mock: Mock) => Promise<T>): Promise<T> {
  const mock = await createMock({ contract, auth: true });
  const c = mock.credentials()!;
  const server = await listen(wrap(mock), { port: 0, host: '127.0.0.1' });
  try {
    return await body(server.url, `${c.username}:${c.password}`, mock);
  } finally {
    await server.close();
    await mock.close();
  }
}

async function run(argv: string[], auth: string): Promise<{ code: number; err: string; run?: RunResult; seconds: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'site-contracts-workers-'));
  const err: string[] = [];
  const deps: MainDeps = {
    commands: { ...defaultCommands, test: makeTestCommand({ ...processTestDeps, loadContract: () => contract, signals: undefined }) },
    tool: { name: 'site-contracts', version: '0.0.0-test' },
    env: { MOCK_AUTH: auth },
    stdout: { write: () => true },
    stderr: { write: (s: string) => void err.push(s) },
    now: () => new Date(),
    readFile: (p) => nodeFs.readFile(p, 'utf8'),
    fs: nodeFs,
  };
  const t0 = performance.now();
  try {
    const code = await main([...argv, '--auth-env', 'MOCK_AUTH', '--report-dir', dir, '--format', 'json'], deps);
    const seconds = (performance.now() - t0) / 1000;
    let report: RunResult | undefined;
    try {
      report = parseRunJson(await readFile(join(dir, 'site-contracts.json'), 'utf8'), 'site-contracts.json');
    } catch {
      // no report: a usage error
    }
    return { code, err: err.join(''), ...(report ? { run: report } : {}), seconds };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What a report says, without what differs between any two runs (times, the run's id, ids the site handed out). */
const verdicts = (r: RunResult): string[] => r.cases.map((c) => `${c.id} ${c.status}`);
const calendarCount = (m: Mock): number => {
  const cal = (m.snapshot() as unknown as { calendar: Record<string, unknown> }).calendar;
  return ['events', 'venues', 'organizers', 'categories', 'tags'].reduce((n, k) => n + (Array.isArray(cal[k]) ? (cal[k] as unknown[]).length : 0), 0);
};

describe('--workers', () => {
  it('gives the same cases, in the same order, with the same verdicts, for 1 and 4 workers', async () => {
    // One resource's routes, reading and writing units of every family on them: enough for four workers to end units
    // out of order. (Two runs of the whole contract made this file the slowest of the 13 with a time limit of their
    // own: 85 s alone on the loaded 2-core machine, 148 s in issue 28.)
    const selection = ['--only', '/cal/v1/venues', '--seed', '7'];
    const one = await withMock((m) => (req) => m.handleNow(req), (url, auth) => run(['test', '-u', url, ...selection, '--workers', '1'], auth));
    const four = await withMock((m) => (req) => m.handleNow(req), (url, auth) => run(['test', '-u', url, ...selection, '--workers', '4'], auth));
    console.log(`/cal/v1/venues against the mock: --workers 1 ${one.seconds.toFixed(1)} s, --workers 4 ${four.seconds.toFixed(1)} s (${one.run!.cases.length} cases, ${String(one.run!.options['requestsSent'])} requests)`);
    expect(one.run!.cases.length).toBeGreaterThan(300);
    expect(one.code).toBe(0);
    expect(four.code).toBe(0);
    expect(verdicts(four.run!)).toEqual(verdicts(one.run!));
    expect(four.run!.summary).toEqual(one.run!.summary);
  });

  it('takes 1 to 64, and a bad value exits 2 naming the flag', async () => {
    for (const bad of ['0', '65', 'four', '-1']) {
      const r = await run(['test', '-u', 'http://127.0.0.1:9', '--workers', bad], 'a:b');
      expect(r.code, bad).toBe(2);
      expect(r.err, bad).toContain('--workers expects a whole number of checks run side by side, from 1 to 64');
    }
  });
});

describe('--max-duration', () => {
  it('ends a run that reaches it as INCOMPLETE (exit 4), naming the checks not run, documented checks run first, records removed', async () => {
    // Every answer takes 30 ms: the whole calendar would take minutes.
    const slow = (m: Mock) => (req: MockRequest) => new Promise<MockResponse>((resolve) => setTimeout(() => resolve(m.handleNow(req)), 30));
    await withMock(slow, async (url, auth, mock) => {
      const before = calendarCount(mock);
      const r = await run(['test', '-u', url, '--seed', '3', '--only', 'cal/v1,cal/events/v1', '--max-duration', '4s'], auth);
      expect(r.code).toBe(4);
      expect(r.err).toMatch(/warning: the run reached its time limit \(--max-duration 4s\): \d+ unit\(s\) never ran, \d+ were cut short; the run is INCOMPLETE, never PASSED/);
      const report = r.run!;
      expect(report.options['stoppedBy']).toBe('max-duration');
      expect(report.summary.verdict).toBe('incomplete');
      expect(report.summary.failing).toBe(0);
      const inc = report.incomplete!;
      expect(inc.stoppedBy).toBe('max-duration');
      expect(inc.limit).toBe('--max-duration 4s');
      // Each unit that never started is named, and is a skipped case saying why.
      expect(inc.unitsNotRun.length).toBeGreaterThan(0);
      const notRun = report.cases.filter((c) => c.variant?.startsWith('not-run:'));
      expect(notRun.map((c) => c.variant!.slice('not-run:'.length))).toEqual(inc.unitsNotRun);
      expect(notRun.every((c) => c.status === 'skipped' && c.message === 'not run: the run reached its time limit (--max-duration 4s)')).toBe(true);
      // Units start in the plan's order, so what never started is the plan's tail: after the first not-run case come
      // only not-run cases. The plan puts presence first, the documented checks before the conventions, shapes last.
      const first = report.cases.findIndex((c) => c.variant?.startsWith('not-run:'));
      expect(report.cases.slice(first).every((c) => c.variant?.startsWith('not-run:'))).toBe(true);
      const order = inc.checks.map((c) => c.check);
      // How far the run got depends on the machine; the order of what it left does not.
      const precedes = (a: string, b: string): boolean => !order.includes(a) || order.indexOf(a) < order.indexOf(b);
      expect(order).toContain('pagination');
      expect(order).toContain('response_shape');
      expect(precedes('route_presence', 'lifecycle') && precedes('lifecycle', 'pagination') && precedes('negative_rejection', 'unknown_id') && precedes('unknown_id', 'response_shape')).toBe(true);
      expect(calendarCount(mock)).toBe(before);
    });
  });

  it('reads 90s, 10m, 1h and 1h30m, and a bad value exits 2 naming the flag', async () => {
    for (const bad of ['10', '0s', '1d', 'm', '1.5h', '']) {
      const r = await run(['test', '-u', 'http://127.0.0.1:9', '--max-duration', bad], 'a:b');
      expect(r.code, bad).toBe(2);
      expect(r.err, bad).toContain('--max-duration expects a duration such as 90s, 10m, 1h or 1h30m');
    }
    const { parseDuration } = await import('../args.ts');
    expect(['90s', '10m', '1h', '1h30m', '500ms'].map((d) => parseDuration('max-duration', d))).toEqual([90_000, 600_000, 3_600_000, 5_400_000, 500]);
  });
});
