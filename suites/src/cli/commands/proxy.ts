// `site-contracts proxy --upstream URL`: Prism's validation proxy in front of a site, so a frontend
// developer can point an app at http://127.0.0.1:PORT/wp-json/ instead of staging and watch every
// contract violation as it happens (Prism's log, and an `sl-violations` header on the answer).
// Prism's output is passed through, Ctrl-C and SIGTERM are passed on, and the exit code is Prism's.
// Exit 2 when --upstream has no WordPress REST root (checked before Prism starts).

import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as nodeFs from 'node:fs/promises';
import type { Contract } from '../../../../contracts/lib/loader.ts';
import { createClient } from '../../http/client.ts';
import { reachRoot } from '../../http/preflight.ts';
import { prismArgv, prismEntry, PrismMissingError, proxyContract } from '../../proxy/prism.ts';
import type { ProxyArgs } from '../args.ts';
import { REST_ROUTE_ROOT } from '../../http/target.ts';
import type { CommandContext, CommandHandler } from '../context.ts';
import { UsageError } from '../../errors.ts';
import { processTestDeps, type SignalSource } from './test.ts';

interface ProxyDeps {
  loadContract(): Contract;
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
  signals?: SignalSource;
  writeFile(path: string, text: string): Promise<void>;
  removeFile(path: string): Promise<void>;
  tempDir(): string;
  nodePath: string;
  /** Prism's entry script (throws PrismMissingError when Prism is not installed). */
  prismEntry(): string;
  /** Called once Prism says it listens (tests wait for it). */
  onListening?(url: string): void;
}

export const processProxyDeps: ProxyDeps = {
  loadContract: processTestDeps.loadContract,
  spawn: (command, args, options) => nodeSpawn(command, [...args], options),
  signals: process,
  writeFile: (path, text) => nodeFs.writeFile(path, text, 'utf8'),
  removeFile: (path) => nodeFs.rm(path, { force: true }),
  tempDir: tmpdir,
  nodePath: process.execPath,
  prismEntry: () => prismEntry(),
};

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export function makeProxyCommand(deps: ProxyDeps = processProxyDeps): CommandHandler<ProxyArgs> {
  return async (args, ctx) => {
    if (args.apiRoot === REST_ROUTE_ROOT) {
      throw new UsageError('proxy needs an API root path (such as --api-root /wp-json): Prism matches routes by path, and ?rest_route= carries the route in the query');
    }
    // Before anything is sent: without Prism there is nothing to proxy through.
    let prism: string;
    try {
      prism = deps.prismEntry();
    } catch (e) {
      if (e instanceof PrismMissingError) throw new UsageError(e.message);
      throw e;
    }
    const client = createClient({ target: { baseUrl: args.upstream, apiRoot: args.apiRoot }, timeoutMs: args.timeoutMs, maxRequests: 1, writes: 'none' });
    try {
      await reachRoot(client);
    } finally {
      await client.close();
    }

    const contract = deps.loadContract();
    const file = join(deps.tempDir(), `site-contracts-proxy-${randomUUID()}.json`);
    await deps.writeFile(file, JSON.stringify(proxyContract(contract.doc, args.apiRoot)));
    const host = '127.0.0.1';
    ctx.stderr.write(
      `site-contracts proxy: ${args.upstream}${args.apiRoot}/ through Prism on http://${host}:${args.port}${args.apiRoot}/ ` +
        `(violations are logged and sent back in the sl-violations header; answers are not changed)\n`,
    );
    const child = deps.spawn(deps.nodePath, [prism, ...prismArgv({ contractFile: file, upstream: args.upstream, port: args.port, host })], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let announced = false;
    const pass = (to: CommandContext['stdout']) => (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      to.write(ctx.redact(text));
      if (!announced && /Prism is listening on/.test(text)) {
        announced = true;
        deps.onListening?.(`http://${host}:${args.port}`);
      }
    };
    child.stdout?.on('data', pass(ctx.stdout));
    child.stderr?.on('data', pass(ctx.stderr));
    const forward = (signal: 'SIGINT' | 'SIGTERM') => () => void child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    deps.signals?.once('SIGINT', onInt);
    deps.signals?.once('SIGTERM', onTerm);
    try {
      return await new Promise<number>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, signal) => resolve(code ?? (signal ? (SIGNAL_EXIT[signal] ?? 1) : 1)));
      });
    } finally {
      deps.signals?.off('SIGINT', onInt);
      deps.signals?.off('SIGTERM', onTerm);
      await deps.removeFile(file);
    }
  };
}

export const proxyCommand: CommandHandler<ProxyArgs> = (args: ProxyArgs, ctx: CommandContext) => makeProxyCommand()(args, ctx);
