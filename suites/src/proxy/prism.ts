// Prism's validation proxy (`prism proxy`) on the bundled contract. Prism matches request paths against
// the contract's `paths` and does not resolve the contract's server template (`{origin}{language}/wp-json`),
// so it gets a copy of the contract whose paths carry the API root (`/wp-json/cal/v1/events`) and no
// servers. It forwards every request to the upstream unchanged (`--errors=false`) and adds an
// `sl-violations` header to answers that break the contract, logging each violation as it happens.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { JsonSchema } from '../../../contracts/lib/types.ts';

/** The contract with every path under `apiRoot` and no server list, for Prism. */
export function proxyContract(doc: JsonSchema, apiRoot: string): JsonSchema {
  const root = apiRoot.replace(/\/+$/, '');
  const paths = Object.fromEntries(Object.entries((doc['paths'] ?? {}) as Record<string, unknown>).map(([p, item]) => [`${root}${p}`, item]));
  const { servers: _servers, ...rest } = doc;
  return { ...rest, paths };
}

/**
 * Prism is an optional peer dependency of the package (it brings about 180 packages and 90 MB, for one command):
 * `proxy` without it says how to add it.
 */
export class PrismMissingError extends Error {
  override readonly name = 'PrismMissingError';
  constructor() {
    super(
      'proxy runs Prism, which is not installed: it is an optional peer dependency of site-contracts ' +
        '(about 180 packages, 90 MB). Add it beside site-contracts: npm i -D @stoplight/prism-cli@5',
    );
  }
}

/** Prism's command-line entry point, from the installed @stoplight/prism-cli (no npx, no network). */
export function prismEntry(require: NodeJS.Require = createRequire(import.meta.url)): string {
  let pkgPath: string;
  try {
    pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') throw new PrismMissingError();
    throw e;
  }
  const pkg = require(pkgPath) as { bin?: Record<string, string> | string };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.['prism'] ?? 'dist/index.js');
  return join(dirname(pkgPath), bin);
}

interface PrismArgs {
  contractFile: string;
  upstream: string;
  port: number;
  host: string;
}

/** Arguments after `node <prism entry>`. */
export function prismArgv(a: PrismArgs): string[] {
  return ['proxy', a.contractFile, a.upstream, '--port', String(a.port), '--host', a.host, '--errors=false'];
}
