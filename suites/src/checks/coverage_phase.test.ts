// Issue 17's parameter coverage, proven both ways against small servers: the mock, and the mock broken in one
// way at the edge (a wrapper around its public handler). Also what the suite sends to a target: addresses on the
// target itself or on reserved domains only.

import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { isReservedHost } from '../../../contracts/lib/arbitraries/formats.ts';
import { parsePhpQuery } from '../../../contracts/lib/arbitraries/index.ts';
import { createMock, listen, type Mock, type MockRequest, type MockResponse } from '../../../mock/src/index.ts';
import { main, type MainDeps } from '../../cli.ts';
import { defaultCommands } from '../cli/commands/index.ts';
import { makeTestCommand, processTestDeps } from '../cli/commands/test.ts';
import type { RunResult } from '../report/model.ts';

const contract = loadContractFile();
let mock: Mock;
let auth: string;

beforeAll(async () => {
  mock = await createMock({ contract, auth: true });
  const c = mock.credentials()!;
  auth = `${c.username}:${c.password}`;
});
afterAll(async () => {
  await mock.close();
});

type Next = (req: MockRequest) => MockResponse;
type Fault = (req: MockRequest, next: Next) => MockResponse;

function parse(req: MockRequest): { route: string; query: URLSearchParams } {
  const url = new URL(req.url, 'http://x');
  return { route: url.pathname.replace(/^\/wp-json/, '').replace(/\/+$/, '') || '/', query: url.searchParams };
}

function bodyText(req: MockRequest): string {
  return req.body === undefined ? '' : typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
}

/** Every value a request carries, in its query and its body (JSON or form), as text. */
function sentValues(req: MockRequest): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const [, v] of parse(req).query) walk(v);
  const text = bodyText(req);
  if (text) {
    try {
      walk(JSON.parse(text));
    } catch {
      walk(parsePhpQuery(text));
    }
  }
  return out;
}

function wpError(status: number, code: string, data: Record<string, unknown> = {}): MockResponse {
  return { status, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: JSON.stringify({ code, message: code, data: { status, ...data } }) };
}

async function runSuite(fault: Fault | undefined, args: string[], seen?: (req: MockRequest) => void): Promise<RunResult> {
  const handle = (req: MockRequest): MockResponse => {
    seen?.(req);
    if (!fault) return mock.handleNow(req);
    const { bodyBytes: _stale, ...rest } = fault(req, mock.handleNow);
    return rest;
  };
  const server = await listen(handle, { port: 0, host: '127.0.0.1' });
  const dir = await mkdtemp(join(tmpdir(), 'site-contracts-coverage-'));
  const deps: MainDeps = {
    commands: { ...defaultCommands, test: makeTestCommand({ ...processTestDeps, loadContract: () => contract, signals: undefined }) },
    tool: { name: 'site-contracts', version: '0.0.0-test' },
    env: { MOCK_AUTH: auth },
    stdout: { write: () => true },
    stderr: { write: () => true },
    now: () => new Date(),
    readFile: (p) => nodeFs.readFile(p, 'utf8'),
    fs: nodeFs,
  };
  try {
    await main(['test', '--base-url', server.url, '--auth-env', 'MOCK_AUTH', '--seed', '1', '--runs', '1', '--report-dir', dir, '--format', 'json', ...args], deps);
    return JSON.parse(await readFile(join(dir, 'site-contracts.json'), 'utf8')) as RunResult;
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const failed = (r: RunResult) => r.cases.filter((c) => c.status === 'failed' || c.status === 'errored');

describe("the target's neighbours", () => {
  it("sends oEmbed and every other route only addresses on the target or on reserved domains (RFC 2606)", async () => {
    const hosts = new Set<string>();
    const r = await runSuite(undefined, ['--only', 'oembed/1.0,cal/v1'], (req) => {
      for (const v of sentValues(req)) for (const m of v.matchAll(/\bhttps?:\/\/([^/?#\s:@]+)/gi)) hosts.add(m[1]!.toLowerCase());
    });
    expect(r.summary.verdict).toBe('passed');
    // The run did send addresses: the target's own pages to oEmbed, reserved ones in URL fields.
    expect(hosts.has('127.0.0.1')).toBe(true);
    expect([...hosts].filter((h) => isReservedHost(h)).length).toBeGreaterThan(0);
    expect([...hosts].filter((h) => h !== '127.0.0.1' && !isReservedHost(h))).toEqual([]);
  }, 120_000);
});

