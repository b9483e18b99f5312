import * as nodeFs from 'node:fs/promises';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import { createMock, listen, type Listening, type Mock, type MockRequest } from '../../../../mock/src/index.ts';
import { main, type MainDeps } from '../../../cli.ts';
import type { DiffResult } from '../../diff/diff.ts';
import { sendJson, startServer } from '../../testing/server.ts';
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
  let changed: Listening;
  let dir: string;
  beforeAll(async () => {
    mock = await createMock({ contract });
    server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1' });
    // The same mock, except that its descriptor gives GET /cal/v1/events a per_page maximum of 50.
    changed = await listen(
      (req: MockRequest) => {
        const res = mock.handleNow(req);
        if (req.method !== 'GET' || new URL(req.url, 'http://x').pathname !== '/wp-json/' || res.status !== 200) return res;
        const body = JSON.parse(res.body) as { routes: Record<string, { endpoints: { methods: string[]; args: Record<string, Record<string, unknown>> }[] }> };
        const get = body.routes['/cal/v1/events']!.endpoints.find((e) => e.methods.includes('GET'))!;
        get.args['per_page'] = { ...get.args['per_page'], maximum: 50 };
        // Without the cached bytes: the node adapter would send those instead of the rewritten body.
        const { bodyBytes: _stale, ...rest } = res;
        return { ...rest, body: JSON.stringify(body) };
      },
      { port: 0, host: '127.0.0.1' },
    );
    dir = await mkdtemp(join(tmpdir(), 'site-contracts-diff-'));
  });
  afterAll(async () => {
    await server.close();
    await changed.close();
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the mock identical to the contract: every operation the same, no table, exit 0', async () => {
    const r = await runDiff(['--base-url', server.url], dir);
    const d = JSON.parse(await readFile(join(dir, 'diff.json'), 'utf8')) as DiffResult;
    expect(d.summary).toMatchObject({ identical: true, operations: 204, same: 204, routeMissing: 0, methodMissing: 0, withArgDiffs: 0, argDiffs: 0, extras: 0 });
    expect(d.otherNamespaces).toEqual([]);
    expect(r.out).not.toMatch(/^ROUTE\s+METHOD/m);
    expect(r.out).toContain(
      'site-contracts diff: IDENTICAL: 204 operations compared: 204 the same, 0 on missing routes, 0 missing methods, 0 with 0 argument differences; 0 extra routes or methods',
    );
    expect(r.out).toMatch(/site-contracts-diff\.junit\.xml/);
    expect(r.code).toBe(0);
  });

  it('reaches a site behind a WAF with -H, and keeps the token out of diff.json and the reports', async () => {
    const TOKEN = 'waf-token-0123456789';
    // A WAF in front: 403 with an HTML page unless the token comes along.
    const guarded = await listen(
      (req: MockRequest) => (req.headers['x-waf-token'] === TOKEN ? mock.handleNow(req) : { status: 403, headers: { 'Content-Type': 'text/html' }, body: '<h1>Blocked</h1>' }),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      const refused = await runDiff(['-u', guarded.url], dir);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain('is not a WordPress REST root: it answered 403');
      const r = await runDiff(['-u', guarded.url, '-H', `X-Waf-Token: ${TOKEN}`], dir);
      expect(r.code).toBe(0);
      expect(r.out).toContain('site-contracts diff: IDENTICAL');
      for (const f of ['diff.json', 'site-contracts-diff.json', 'site-contracts-diff.html', 'site-contracts-diff.junit.xml']) {
        const text = await readFile(join(dir, f), 'utf8');
        expect(text.includes(TOKEN), f).toBe(false);
      }
      expect(JSON.parse(await readFile(join(dir, 'site-contracts-diff.json'), 'utf8')).options.headers).toEqual(['X-Waf-Token: [REDACTED]']);
    } finally {
      await guarded.close();
    }
  });

  it('reports one changed argument as the only difference, and exits 1', async () => {
    const r = await runDiff(['--base-url', changed.url], dir);
    const d = JSON.parse(await readFile(join(dir, 'diff.json'), 'utf8')) as DiffResult;
    expect(d.summary).toMatchObject({ identical: false, same: 203, withArgDiffs: 1, argDiffs: 1, routeMissing: 0, methodMissing: 0, extras: 0 });
    const op = d.operations.find((o) => o.operationId === 'getCalV1Events')!;
    expect(op.args).toEqual([expect.objectContaining({ kind: 'different', name: 'per_page', keywords: [{ keyword: 'maximum', contract: 100, target: 50 }] })]);
    expect(r.out).toMatch(/^ROUTE\s+METHOD\s+DIFFERENCE\s+CONTRACT\s+TARGET$/m);
    expect(r.out).toMatch(/^\/cal\/v1\/events\s+GET\s+arg per_page maximum\s+100\s+50$/m);
    expect(r.out).toContain('site-contracts diff: DIFFERENT: 204 operations compared: 203 the same');
    expect(r.code).toBe(1);
  });

  it('exits 0 when a baseline accepts every difference', async () => {
    await runDiff(['--base-url', changed.url], dir);
    const report = JSON.parse(await readFile(join(dir, 'site-contracts-diff.json'), 'utf8')) as { cases: { id: string; status: string }[] };
    const accepted = report.cases.filter((c) => c.status === 'failed').map((c) => ({ id: c.id, reason: 'known' }));
    expect(accepted.map((a) => a.id)).toEqual(['descriptor:getCalV1Events:arg.per_page']);
    const baseline = join(dir, 'baseline.json');
    await writeFile(baseline, JSON.stringify({ accepted }));
    const r = await runDiff(['--base-url', changed.url, '--baseline', baseline], dir);
    expect(r.code).toBe(0);
  });

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
  });

  it('exits 2 when the target cannot be reached', async () => {
    const s = await startServer(() => {});
    const url = s.url;
    await s.close();
    const r = await runDiff(['--base-url', url], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach/);
  });
});
