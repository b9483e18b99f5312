#!/usr/bin/env node
// The package's bin, `site-contracts`. A thin launcher that belongs to neither CLI: `site-contracts mock ...` goes
// to the mock's own command line (mock/cli), anything else to the suite's (suites/cli), so the suite and the mock
// still never import each other.
//
// Which code runs: in an installed package, the build (dist/), with plain node. In a clone of the repository, where
// the TypeScript sources are, those sources through tsx (a devDependency there), even when a dist/ from an earlier
// `npm run build` is present: what runs is always what is in the tree, and no build can go stale under it.
import { existsSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const fromSource = existsSync(new URL('suites/cli.ts', root));
if (fromSource) {
  const { register } = await import('tsx/esm/api');
  register();
}
const entry = (path) => new URL(fromSource ? `${path}.ts` : `dist/${path}.js`, root).href;

const argv = process.argv.slice(2);
// `help mock` and `mock --help` both print the mock's own help.
const mockArgs = argv[0] === 'mock' ? argv.slice(1) : argv[0] === 'help' && argv[1] === 'mock' ? ['--help'] : undefined;
if (mockArgs) {
  const { runMockCli } = await import(entry('mock/cli'));
  await runMockCli(mockArgs, 'site-contracts mock');
} else {
  const { runFromProcess } = await import(entry('suites/cli'));
  await runFromProcess(argv);
}
