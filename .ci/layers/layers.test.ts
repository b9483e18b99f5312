// Imports run one way (.ci/layers/layers.ts): contract sources, then the WordPress layer and the contract code,
// then the generators, then the mock and the suites, which never import each other; fixtures/ never reaches into
// the mock. Every source file of the repository is read here.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPackageJson, sourceExports } from '../packaging/source-exports.ts';
import { importCircles, importGraph, layerOf, LAYERS, MOCK_LAYERS, mockLayerOf, sourceFiles, specifiersOf, upwardMockImports, violations } from './layers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packageNames = sourceExports(readPackageJson(root));
const files = sourceFiles(root);

describe('the layers of the repository', () => {
  it('reads the whole tree and every import in it', () => {
    // A walk that found nothing would pass vacuously.
    expect(files.length).toBeGreaterThan(350);
    expect(files.reduce((n, f) => n + specifiersOf(f.text).length, 0)).toBeGreaterThan(1500);
    for (const layer of LAYERS) expect(files.some((f) => layerOf(f.path) === layer), layer.name).toBe(true);
  });

  it("places every file of a layer with inner layers (the suites') in one of them, and each inner layer holds files", () => {
    for (const outer of LAYERS.filter((l) => l.inner)) {
      const mine = files.filter((f) => layerOf(f.path) === outer);
      expect(mine.filter((f) => !/\.test\.ts$/.test(f.path) && !layerOf(f.path, outer.inner)).map((f) => f.path), outer.name).toEqual([]);
      for (const layer of outer.inner!) expect(mine.some((f) => layerOf(f.path, outer.inner) === layer), layer.name).toBe(true);
    }
  });

  it('no import runs against the table', () => {
    expect(violations(files, packageNames).map((v) => `${v.from} → ${v.specifier}: ${v.reason}`)).toEqual([]);
  });

  it('the WordPress layer is a leaf: it imports nothing of the project, no package and no node: module', () => {
    const layer = files.filter((f) => f.path.startsWith('contracts/wordpress/') && !f.path.endsWith('.test.ts'));
    expect(layer.length).toBeGreaterThan(25);
    for (const f of layer) for (const s of specifiersOf(f.text)) expect(s.startsWith('./') || s.startsWith('../'), `${f.path}: ${s}`).toBe(true);
  });
});

describe('the check fails on a forbidden import', () => {
  const check = (path: string, text: string) => violations([{ path, text }], packageNames).map((v) => v.reason);

  it.each([
    ['contracts/wordpress/php/x.ts', "import { loadContract } from '../../lib/contract.ts';", 'wordpress may not import contract'],
    ['contracts/wordpress/schema/x.ts', "import { readFileSync } from 'node:fs';", 'the wordpress layer imports no package'],
    ['contracts/lib/x.ts', "import { createMock } from '../../mock/src/index.ts';", 'contract may not import mock'],
    ['contracts/lib/x.ts', "export { validRequest } from './arbitraries/index.ts';", 'contract may not import generators'],
    ['contracts/lib/arbitraries/x.ts', "import type { Store } from '../../../mock/src/store/store.ts';", 'generators may not import mock'],
    ['fixtures/lib/x.ts', "import { sanitizeTitle } from '../../mock/src/store/slug-index.ts';", 'fixture-data may not import mock'],
    ['contracts/model/x.ts', "import { generateFixtures } from '../../fixtures/lib/generate-all.ts';", 'model may not import fixture-data'],
    ['contracts/model/x.ts', "import type { Store } from '../../mock/src/store/store.ts';", 'model may not import mock'],
    ['contracts/model/addon-rules.ts', "import type { Tx } from '../../mock/src/store/transaction.ts';", 'model may not import mock'],
    ['contracts/model/world.ts', "import addons from '../../fixtures/addons.json';", 'model may not import fixture-data'],
    ['contracts/model/calendar-rules.ts', "import { StoreError } from '../../mock/src/store/store-error.ts';", 'model may not import mock'],
    ['contracts/lib/x.ts', "import type { EventRecord } from '../model/records.ts';", 'contract may not import model'],
    ['mock/src/core/x.ts', "import { runCli } from '../../../suites/cli.ts';", 'mock may not import suites'],
    ['suites/src/checks/x.ts', "const m = await import('../../../mock/src/index.ts');", 'suites may not import mock'],
    ['suites/src/x.test.ts', "import { createStore } from '../../mock/src/store/store.ts';", 'suites may not import mock'],
    ['contracts/lib/x.ts', "import { createMock } from 'site-contracts/mock';", 'contract may not import mock'],
    ['newfolder/x.ts', "import x from './y.ts';", 'newfolder/x.ts is in no layer'],
    // Inside the suites: nothing runs back up from the helpers to the checks, the checks to the registry, the runner or
    // the command line, the runner to a check's module, or any product module to the test harnesses.
    ['suites/src/checks/kit/x.ts', "import { writeBlocker } from '../lifecycle.ts';", 'suites/kit may not import suites/checks'],
    ['suites/src/checks/kit/x.ts', "import type { Unit } from '../../runner/run.ts';", 'suites/kit may not import suites/runner'],
    ['suites/src/checks/x.ts', "import { CHECKS } from './registry.ts';", 'suites/checks may not import suites/registry'],
    ['suites/src/checks/x.ts', "import { runSuite } from '../runner/run.ts';", 'suites/checks may not import suites/runner'],
    ['suites/src/checks/x.ts', "import { REST_ROUTE_ROOT } from '../cli/args.ts';", 'suites/checks may not import suites/cli'],
    ['suites/src/checks/x.ts', "import { harnessForFile } from '../testing/faulty-mock.ts';", 'suites/checks may not import suites/testing'],
    ['suites/src/runner/x.ts', "import { ContentTypes } from '../checks/content_type.ts';", 'suites/runner may not import suites/checks'],
    ['suites/src/runner/x.ts', "import { UsageError } from '../cli/args.ts';", 'suites/runner may not import suites/cli'],
    ['suites/src/http/x.ts', "import { REST_ROUTE_ROOT } from '../cli/args.ts';", 'suites/http may not import suites/cli'],
    ['suites/src/report/x.ts', "import type { Finding } from '../checks/kit/unit.ts';", 'suites/report may not import suites/kit'],
    ['suites/src/cli/x.ts', "import { captureDeps } from '../testing/cli.ts';", 'suites/cli may not import suites/testing'],
    ['suites/cli.ts', "import { planAll } from './src/checks/pagination.ts';", 'suites/cli may not import suites/checks'],
    ['suites/src/newfolder/x.ts', "import { UsageError } from '../errors.ts';", 'suites/src/newfolder/x.ts is in no inner layer of suites'],
  ])('%s: %s', (path, text, expected) => {
    expect(check(path, text).join('\n')).toContain(expected);
  });

  it('and passes the imports the table gives', () => {
    expect(check('suites/src/x.test.ts', "import { createMock } from '../../mock/src/index.ts';")).toEqual([]);
    expect(check('mock/src/x.ts', "import { generateFixtures } from '../../fixtures/lib/generate-all.ts';")).toEqual([]);
    expect(check('fixtures/lib/x.ts', "import { sanitizeTitle } from '../../contracts/wordpress/slug.ts';")).toEqual([]);
    expect(check('fixtures/lib/x.ts', "import type { EventRecord } from '../../contracts/model/records.ts';")).toEqual([]);
    expect(check('contracts/model/x.ts', "import { createAjv } from '../lib/ajv.ts';")).toEqual([]);
    expect(check('mock/src/store/x.ts', "import { brokenByWrite } from '../../../contracts/model/addon-rules.ts';")).toEqual([]);
    expect(check('mock/src/store/x.ts', "import { brokenTranslation } from '../../../contracts/model/calendar-rules.ts';")).toEqual([]);
    expect(check('contracts/wordpress/x.test.ts', "import { readFileSync } from 'node:fs';")).toEqual([]);
    expect(check('suites/src/checks/x.ts', "import { writeBlocker } from './kit/writes.ts';")).toEqual([]);
    expect(check('suites/src/runner/x.ts', "import { answerSweeps } from '../checks/registry.ts';")).toEqual([]);
    expect(check('suites/src/checks/x.test.ts', "import { harnessForFile } from '../testing/faulty-mock.ts';")).toEqual([]);
    expect(check('suites/src/testing/x.ts', "import { main } from '../../cli.ts';")).toEqual([]);
  });
});

describe('no import circles', () => {
  it('no file of the repository reaches itself through its imports (type-only imports count)', () => {
    expect(importCircles(importGraph(files, packageNames))).toEqual([]);
  });

  it('the check names a circle, of two files or through a longer chain, and passes a chain without one', () => {
    const graph = (texts: Record<string, string>) => importGraph(Object.entries(texts).map(([path, text]) => ({ path, text })), packageNames);
    expect(importCircles(graph({ 'mock/src/a.ts': "import type { B } from './b.ts';", 'mock/src/b.ts': "import { a } from './a.ts';" }))).toEqual(['mock/src/a.ts → mock/src/b.ts → mock/src/a.ts']);
    expect(
      importCircles(graph({ 'mock/src/store/x.ts': "export { y } from './y.ts';", 'mock/src/store/y.ts': "import { z } from '../z.ts';", 'mock/src/z.ts': "import { x } from './store/x.ts';", 'mock/src/w.ts': "import { x } from './store/x.ts';" })),
    ).toEqual(['mock/src/store/x.ts → mock/src/store/y.ts → mock/src/z.ts → mock/src/store/x.ts']);
    expect(importCircles(graph({ 'mock/src/a.ts': "import { b } from './b.ts';", 'mock/src/b.ts': "import { c } from './c.ts';", 'mock/src/c.ts': 'export const c = 1;' }))).toEqual([]);
  });
});

describe("the mock's own layers (MOCK_LAYERS)", () => {
  it('no mock file imports a layer above its own (issue 27: 10 such imports of 5 files before, handlers → core and the handler contract → handlers)', () => {
    const mock = files.filter((f) => f.path.startsWith('mock/src/') && mockLayerOf(f.path) >= 0);
    expect(mock.length).toBeGreaterThan(90);
    for (const [i, layer] of MOCK_LAYERS.entries()) expect(mock.some((f) => mockLayerOf(f.path) === i), layer.name).toBe(true);
    expect(upwardMockImports(importGraph(files, packageNames))).toEqual([]);
  });

  it('the check names an import that runs back up, and passes one that runs down; tests are outside the table', () => {
    const graph = (texts: Record<string, string>) => importGraph(Object.entries(texts).map(([path, text]) => ({ path, text })), packageNames);
    expect(upwardMockImports(graph({ 'mock/src/handlers/x.ts': "import { andThen } from '../core/y.ts';", 'mock/src/core/y.ts': 'export const y = 1;' }))).toEqual([
      'mock/src/handlers/x.ts → mock/src/core/y.ts (handlers → core)',
    ]);
    expect(upwardMockImports(graph({ 'mock/src/handlers/context.ts': "import type { L } from './calendar/r.ts';", 'mock/src/handlers/calendar/r.ts': 'export type L = 1;' }))).toEqual([
      'mock/src/handlers/context.ts → mock/src/handlers/calendar/r.ts (handler-contract → handlers)',
    ]);
    expect(upwardMockImports(graph({ 'mock/src/core/y.ts': "import { x } from '../handlers/x.ts';", 'mock/src/handlers/x.ts': "import { w } from '../base/w.ts';", 'mock/src/base/w.ts': '' }))).toEqual([]);
    expect(upwardMockImports(graph({ 'mock/src/store/x.test.ts': "import { createMock } from '../index.ts';", 'mock/src/index.ts': '' }))).toEqual([]);
  });
});
