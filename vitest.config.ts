// The tests run from the TypeScript sources. Where a test imports the package by its name, as a user would
// ('site-contracts/arbitraries'), the name resolves to the source the package's export is built from, not to dist/
// (which may be missing or stale): .ci/packaging/source-exports.ts. Vitest leaves dot-folders out, so the tests of
// .ci/packaging, .ci/layers and .ci/test-run are named here.
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { readPackageJson, sourceExports } from './.ci/packaging/source-exports.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export default defineConfig({
  resolve: {
    // Exact names only ('site-contracts' must not swallow 'site-contracts/mock'); a query such as ?raw is kept.
    alias: [...sourceExports(readPackageJson(root))].map(([name, source]) => ({ find: new RegExp(`^${escape(name)}(?=\\?|$)`), replacement: `${root}${source}` })),
  },
  test: {
    // A guard against a hang, not a speed goal: `npm test` shares two cores with other jobs, and a test that passes
    // alone may take minutes there (the whole suite against the mock, 30 s of CPU, took 254 s of wall clock beside
    // two other `npm test` runs at a load average of 25). Tests bound their work (requests, bytes, CPU time) and set
    // no limit of their own; timing aims are in `npm run bench`.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // A run leaves nothing in the system temp folder: it gets one of its own, and a test's leftover fails the run.
    globalSetup: ['.ci/test-run/temp-folder.ts'],
    // .ci/consumer/ is a separate project that tests the packed package where it is installed (.ci/consumer/run.sh).
    include: [...configDefaults.include, '.ci/packaging/**/*.test.ts', '.ci/layers/**/*.test.ts', '.ci/test-run/**/*.test.ts', '.ci/wordpress/**/*.test.ts'],
    exclude: [...configDefaults.exclude, '.ci/consumer/**'],
  },
});
