import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

const root = new URL('../..', import.meta.url).pathname;
const generated = join(root, 'contracts/generated/openapi.d.cts');

describe('generated TypeScript types', () => {
  it('are fresh: contracts/generated/openapi.d.cts matches the bundle', async () => {
    const ast = await openapiTS(new URL('../openapi.yaml', import.meta.url), { defaultNonNullable: false });
    const fresh = astToString(ast);
    const committed = readFileSync(generated, 'utf8');
    // the CLI adds a banner; compare the body
    expect(committed.endsWith(fresh) || committed.includes(fresh.trim()), 'run `npm run contract:types` and commit').toBe(true);
  });

  it('type-check the frontend example, and reject what the contract rejects', () => {
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const args = [tsc, '--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--allowImportingTsExtensions', '--skipLibCheck', join(root, 'contracts/examples/typed-client.ts')];
    let out = '';
    try {
      out = execFileSync(process.execPath, args, { encoding: 'utf8' });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    // Every @ts-expect-error must be used (an unused one is an error), and nothing else may fail.
    expect(out).toBe('');
  });
});
