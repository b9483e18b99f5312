import { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import * as nodeFs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import { main, type MainDeps } from '../../../cli.ts';
import { sendJson, startServer } from '../../testing/server.ts';
import { prismEntry, proxyContract } from '../../proxy/prism.ts';
import { defaultCommands } from './index.ts';
import { makeProxyCommand, processProxyDeps } from './proxy.ts';
import type { SignalSource } from './test.ts';

const contract = loadContractFile();

class FakeSignals extends EventEmitter implements SignalSource {
  override once(signal: 'SIGINT' | 'SIGTERM', listener: () => void): this {
    return super.once(signal, listener);
  }
  override off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): this {
    return super.off(signal, listener);
  }
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function deps(extra: Partial<MainDeps> = {}, proxy: Partial<Parameters<typeof makeProxyCommand>[0]> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const d: MainDeps = {
    commands: { ...defaultCommands, proxy: makeProxyCommand({ ...processProxyDeps, loadContract: () => contract, ...proxy }) },
    tool: { name: 'site-contracts', version: '0.0.0-test' },
    env: {},
    stdout: { write: (s: string) => void out.push(s) },
    stderr: { write: (s: string) => void err.push(s) },
    now: () => new Date(),
    readFile: (p) => nodeFs.readFile(p, 'utf8'),
    fs: nodeFs,
    ...extra,
  };
  return { d, out: () => out.join(''), err: () => err.join('') };
}

describe('proxy', () => {
  it('roots every contract path at the API root and drops the server template', () => {
    const c = proxyContract(contract.doc, '/wp-json');
    expect(Object.keys(c['paths'] as object)).toContain('/wp-json/cal/v1/events');
    expect(c['servers']).toBeUndefined();
  });

  it('forwards through Prism and reports a violation in sl-violations, then stops on Ctrl-C', async () => {
    const upstream = await startServer((req, res) => {
      if (req.url === '/wp-json/') return sendJson(res, 200, { namespaces: [], routes: {} });
      if (req.url?.startsWith('/wp-json/cal/v1/events')) return sendJson(res, 400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): per_page', data: { status: 400, params: { per_page: 'x' } } });
      sendJson(res, 404, { code: 'rest_no_route', message: '', data: { status: 404 } });
    });
    const port = await freePort();
    const signals = new FakeSignals();
    let listening: (url: string) => void = () => {};
    const ready = new Promise<string>((r) => (listening = r));
    const t = deps({}, { signals, onListening: (url) => listening(url) });
    const done = main(['proxy', '--upstream', upstream.url, '--port', String(port)], t.d);
    try {
      const url = await Promise.race([ready, done.then((code) => Promise.reject(new Error(`proxy exited ${code}: ${t.err()}`)))]);
      const res = await fetch(`${url}/wp-json/cal/v1/events?per_page=500`);
      expect(res.status).toBe(400);
      const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]') as { location: string[]; code?: string }[];
      expect(violations).toContainEqual(expect.objectContaining({ location: ['request', 'query', 'per_page'], code: 'maximum' }));
      await res.text();
    } finally {
      signals.emit('SIGINT');
      await upstream.close();
    }
    const code = await done;
    expect([0, 130]).toContain(code);
    expect(t.err()).toContain('through Prism on http://127.0.0.1:');
  });

  it('without Prism installed (an optional peer), exits 2 saying how to add it, before sending anything', async () => {
    let sent = 0;
    const upstream = await startServer((_req, res) => {
      sent++;
      sendJson(res, 200, { namespaces: [], routes: {} });
    });
    try {
      // What a require() that cannot find the package throws.
      const missing = Object.assign(new Error("Cannot find module '@stoplight/prism-cli/package.json'"), { code: 'MODULE_NOT_FOUND' });
      const noPrism = Object.assign(() => undefined, { resolve: () => { throw missing; } }) as unknown as NodeJS.Require;
      const t = deps({}, { prismEntry: () => prismEntry(noPrism) });
      expect(await main(['proxy', '--upstream', upstream.url], t.d)).toBe(2);
      expect(t.err()).toContain('proxy runs Prism, which is not installed: it is an optional peer dependency of site-contracts');
      expect(t.err()).toContain('npm i -D @stoplight/prism-cli@5');
      expect(sent).toBe(0);
    } finally {
      await upstream.close();
    }
    // Installed (here, as a devDependency), the same function finds Prism's entry script.
    expect(prismEntry()).toMatch(/@stoplight\/prism-cli\/.*\.js$/);
  });

  it('exits 2 when the upstream has no REST root, and refuses a ?rest_route= API root', async () => {
    const s = await startServer(() => {});
    const url = s.url;
    await s.close();
    const a = deps();
    expect(await main(['proxy', '--upstream', url], a.d)).toBe(2);
    expect(a.err()).toMatch(/cannot reach/);
    const b = deps();
    expect(await main(['proxy', '--upstream', url, '--api-root', 'rest_route'], b.d)).toBe(2);
    expect(b.err()).toMatch(/proxy needs an API root path/);
  });
});
