import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/src/loader.ts';
import { createMock, listen, type Listening, type Mock } from '../../../../mock/src/index.ts';
import { main, type MainDeps } from '../../../cli.ts';
import type { DiffResult } from '../../diff/diff.ts';
import { sendJson, startServer } from '../../http/testing.ts';
import { makeDiffCommand } from './diff.ts';
import { defaultCommands } from './index.ts';

const contract = loadContractFile();

async function runDiff(args: string[], dir: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const deps: MainDeps = {
    commands: { ...defaultCommands, diff: makeDiffCommand({ loadContract: () => contract }) },
    tool: { name: 'site-contracts', version: '0.0.0-test' },
    env: {},
    stdout: { write: (s: string) => void out.push(s) },
    stderr: { write: (s: string) => void err.push(s) },
    now: () => new Date(),
    readFile: (p) => nodeFs.readFile(p, 'utf8'),
    fs: nodeFs,
  };
  const code = await main(['diff', ...args, '--report-dir', dir], deps);
  return { code, out: out.join(''), err: err.join('') };
}

describe('diff', () => {
  let mock: Mock;
  let server: Listening;
  let dir: string;
  beforeAll(async () => {
    mock = await createMock({ contract });
    server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1' });
    dir = await mkdtemp(join(tmpdir(), 'site-contracts-diff-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('compares the mock with the contract: every route there, argument differences listed, table and JSON', async () => {
    const r = await runDiff(['--base-url', server.url], dir);
    const d = JSON.parse(await readFile(join(dir, 'diff.json'), 'utf8')) as DiffResult;
    expect(d.summary.routeMissing).toBe(0);
    expect(d.summary.methodMissing).toBe(0);
    expect(r.out).toMatch(/^ROUTE\s+METHOD\s+DIFFERENCE\s+CONTRACT\s+TARGET/m);
    expect(r.out).toContain('site-contracts diff:');
    expect(r.code).toBe(d.summary.identical ? 0 : 1);
    expect(r.out).toMatch(/site-contracts-diff\.junit\.xml/);
  }, 30_000);

  it('exits 0 when a baseline accepts every difference', async () => {
    const report = JSON.parse(await readFile(join(dir, 'site-contracts-diff.json'), 'utf8')) as { cases: { id: string; status: string }[] };
    const accepted = report.cases.filter((c) => c.status === 'failed').map((c) => ({ id: c.id, reason: 'known' }));
    const baseline = join(dir, 'baseline.json');
    await writeFile(baseline, JSON.stringify({ accepted }));
    const r = await runDiff(['--base-url', server.url, '--baseline', baseline], dir);
    expect(r.code).toBe(0);
  }, 30_000);

  it('reports the calendar and add-on routes as missing on a plain WordPress, and exits 1', async () => {
    const wp = await startServer((req, res) => {
      if (req.url === '/wp-json/') {
        return sendJson(res, 200, {
          namespaces: ['oembed/1.0', 'wp/v2'],
          routes: {
            '/': { namespace: '', methods: ['GET'], endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }] },
            '/oembed/1.0/embed': { namespace: 'oembed/1.0', methods: ['GET'], endpoints: [{ methods: ['GET'], args: { url: { type: 'string', format: 'uri', required: true } } }] },
          },
        });
      }
      sendJson(res, 404, { code: 'rest_no_route', message: '', data: { status: 404 } });
    });
    try {
      const r = await runDiff(['--base-url', wp.url, '--only', 'cal/v1,oembed/1.0'], dir);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/\/cal\/v1\/events\s+GET\s+route missing/);
      expect(r.out).toMatch(/\/oembed\/1\.0\/embed\s+GET\s+arg format missing/);
      expect(r.out).not.toMatch(/\/seo\/v1/);
    } finally {
      await wp.close();
    }
  }, 30_000);

  it('exits 2 when the target cannot be reached', async () => {
    const s = await startServer(() => {});
    const url = s.url;
    await s.close();
    const r = await runDiff(['--base-url', url], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach/);
  });
});
