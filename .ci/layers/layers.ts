// The repository's layers and which may import which: contract sources, then the WordPress layer and the contract
// code, then the record model and the generators (of requests and of fixture data), then the mock and the suites,
// which never import each other. layers.test.ts reads every TypeScript and JavaScript file's import specifiers with
// the TypeScript compiler (ts.preProcessFile: static imports and exports, import() and require() of a literal) and
// checks each against this table, so an import that runs back up fails a test.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

export interface Layer {
  name: string;
  /** What the layer holds, for the failure message and the README. */
  holds: string;
  /** Files (`a/b.ts`) and folders (`a/`) of the layer, from the repository root; the longest match places a file. */
  paths: readonly string[];
  /** The layers its files may import (its own always). */
  imports: readonly string[];
  /** Whether its files other than tests may import packages and node: modules (the WordPress layer runs in a browser as it is). */
  packages: boolean;
  /**
   * Layers inside it, held to the same rule between its own files: every file other than a test is in one of them.
   * A test sits above the code it tests and may import any of them.
   */
  inner?: readonly Layer[];
}

/**
 * The suites inside: what a run is built from first, the command line last. A check never reaches the runner or the
 * command line, the runner reads the registry and never a check's module, and only tests import the test harnesses.
 */
const SUITES_INNER: readonly Layer[] = [
  {
    name: 'suites/errors',
    holds: 'the errors the command line turns into exit codes (suites/src/errors.ts), thrown from the layers below it',
    paths: ['suites/src/errors.ts'],
    imports: [],
    packages: true,
  },
  {
    name: 'suites/report',
    holds: "the report: its model, cases, writers and views, and the descriptor comparison they show (report/, diff/)",
    paths: ['suites/src/report/', 'suites/src/diff/'],
    imports: ['suites/errors'],
    packages: true,
  },
  {
    name: 'suites/http',
    holds: 'the wire: the HTTP client, targets and route styles, the preflight, the Prism proxy (http/, proxy/)',
    paths: ['suites/src/http/', 'suites/src/proxy/'],
    imports: ['suites/errors', 'suites/report'],
    packages: true,
  },
  {
    name: 'suites/kit',
    holds: 'what checks are built from (checks/kit/): the unit, finding and sweep types, the ledger, the helpers; no check',
    paths: ['suites/src/checks/kit/'],
    imports: ['suites/errors', 'suites/report', 'suites/http'],
    packages: true,
  },
  {
    name: 'suites/checks',
    holds: 'the checks, one module each (checks/)',
    paths: ['suites/src/checks/'],
    imports: ['suites/errors', 'suites/report', 'suites/http', 'suites/kit'],
    packages: true,
  },
  {
    name: 'suites/registry',
    holds: 'the table of the checks (checks/registry.ts)',
    paths: ['suites/src/checks/registry.ts'],
    imports: ['suites/errors', 'suites/report', 'suites/http', 'suites/kit', 'suites/checks'],
    packages: true,
  },
  {
    name: 'suites/runner',
    holds: "the runner (runner/): selection, units run, findings made cases, cleanup; it reads the registry, never a check's module",
    paths: ['suites/src/runner/'],
    imports: ['suites/errors', 'suites/report', 'suites/http', 'suites/kit', 'suites/registry'],
    packages: true,
  },
  {
    name: 'suites/cli',
    holds: 'the command line (cli/, suites/cli.ts, suites/bin/)',
    paths: ['suites/src/cli/', 'suites/cli.ts', 'suites/bin/'],
    imports: ['suites/errors', 'suites/report', 'suites/http', 'suites/kit', 'suites/registry', 'suites/runner'],
    packages: true,
  },
  {
    name: 'suites/promises',
    holds: 'the catalogue of promises (suites/promises/): its rows, loader, coverage and the npm run promises command; it names checks by the registry',
    paths: ['suites/promises/'],
    imports: ['suites/errors', 'suites/report', 'suites/registry'],
    packages: true,
  },
  {
    name: 'suites/testing',
    holds: "the suites' test harnesses (testing/), which only tests import",
    paths: ['suites/src/testing/'],
    imports: ['suites/errors', 'suites/report', 'suites/http', 'suites/kit', 'suites/checks', 'suites/registry', 'suites/runner', 'suites/cli'],
    packages: true,
  },
];

export const LAYERS: readonly Layer[] = [
  {
    name: 'wordpress',
    holds: "WordPress's and PHP's semantics (contracts/wordpress/): a leaf, importing nothing of the project and no package",
    paths: ['contracts/wordpress/'],
    imports: [],
    packages: false,
  },
  {
    name: 'contract',
    holds: 'the contract: its YAML sources, the bundle, its types, and the code that loads, routes and validates it',
    paths: ['contracts/'],
    imports: ['wordpress'],
    packages: true,
  },
  {
    name: 'model',
    holds: 'the record model of the fixture files and the state file: its JSON Schema, types, schema checks and cross-record rules (contracts/model/)',
    paths: ['contracts/model/'],
    imports: ['wordpress', 'contract'],
    packages: true,
  },
  {
    name: 'generators',
    holds: 'the request generators (contracts/lib/arbitraries/) and what runs them',
    paths: ['contracts/lib/arbitraries/', 'contracts/bench/', 'contracts/scripts/generators-coverage.ts'],
    imports: ['wordpress', 'contract'],
    packages: true,
  },
  {
    name: 'fixture-data',
    holds: 'the fixture data and its seeded generator (fixtures/)',
    paths: ['fixtures/'],
    imports: ['wordpress', 'model'],
    packages: true,
  },
  {
    name: 'mock',
    holds: 'the mock server (mock/)',
    paths: ['mock/'],
    imports: ['wordpress', 'contract', 'model', 'generators', 'fixture-data'],
    packages: true,
  },
  {
    name: 'suites',
    holds: 'the conformance suites, the site-contracts command and the catalogue of promises the checks judge (suites/, suites/promises/)',
    paths: ['suites/'],
    imports: ['wordpress', 'contract', 'generators'],
    packages: true,
    inner: SUITES_INNER,
  },
  {
    name: 'ci',
    holds: "CI, packaging and the test runner's configuration",
    paths: ['.ci/', 'vitest.config.ts'],
    imports: ['wordpress', 'contract', 'model', 'generators', 'fixture-data', 'mock', 'suites'],
    packages: true,
  },
];

/**
 * The mock's own layers, lowest first: a file may import its own layer and those below it, never one above (an
 * import that runs back up makes the lower layer depend on what is built on it). Tests, their helpers
 * (`mock/src/testing/`) and the scenarios tests run (`mock/src/store/scenarios/`) are outside the table.
 */
export const MOCK_LAYERS: readonly { name: string; holds: string; paths: readonly string[] }[] = [
  { name: 'base', holds: 'work in steps and the one kind of memo (mock/src/base/)', paths: ['mock/src/base/'] },
  { name: 'wire', holds: 'the HTTP exchange framed as WordPress frames it (mock/src/wire/)', paths: ['mock/src/wire/'] },
  { name: 'store', holds: 'the records, their rules and the state file (mock/src/store/)', paths: ['mock/src/store/'] },
  { name: 'auth', holds: 'who is asking and what each operation lets them do (mock/src/auth/)', paths: ['mock/src/auth/'] },
  { name: 'handler-contract', holds: 'what a handler gets and gives back (mock/src/handlers/context.ts)', paths: ['mock/src/handlers/context.ts'] },
  { name: 'handlers', holds: 'the handlers and the operation table (mock/src/handlers/)', paths: ['mock/src/handlers/'] },
  { name: 'core', holds: 'the request path: pipeline, stages and the wrappers around them (mock/src/core/)', paths: ['mock/src/core/'] },
  { name: 'entry', holds: 'adapters, assembly, the CLI and the package entries', paths: ['mock/src/adapters/', 'mock/src/', 'mock/cli.ts'] },
];

const outsideMockLayers = (path: string) => isTest(path) || path.startsWith('mock/src/testing/') || path.startsWith('mock/src/store/scenarios/');

/** The index of the mock layer a file is in (the longest path that holds it), or -1 outside the table. */
export function mockLayerOf(path: string): number {
  if (outsideMockLayers(path)) return -1;
  const layer = longestMatch(path, MOCK_LAYERS);
  return layer === undefined ? -1 : MOCK_LAYERS.indexOf(layer);
}

/** Every import of a mock file that runs back up to a higher mock layer: `from → to (layer → layer)`. */
export function upwardMockImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [from, tos] of graph) {
    const a = mockLayerOf(from);
    if (a < 0) continue;
    for (const to of tos) {
      const b = mockLayerOf(to);
      if (b > a) out.push(`${from} → ${to} (${MOCK_LAYERS[a]!.name} → ${MOCK_LAYERS[b]!.name})`);
    }
  }
  return out.sort();
}

/** Imports across layers the table does not give, each allowed for a stated reason. */
export const EXCEPTIONS: readonly { from: RegExp; to: string; why: string }[] = [
  {
    from: /^suites\/.*\.test\.ts$/,
    to: 'mock/src/index.ts',
    why: "the suites' tests run the mock as a target, through its public entry only (the product's suites never import it)",
  },
  {
    from: /\.test\.ts$/,
    to: '.ci/packaging/source-exports.ts',
    why: "a test that bundles the package's entries (esbuild) resolves the package's own names to the sources as the test runner does",
  },
];

export interface ImportEdge {
  from: string;
  /** As written. */
  specifier: string;
  /** The file it names, from the root; undefined for a package or node: module. */
  to?: string;
}

export interface Violation extends ImportEdge {
  reason: string;
}

/** The import specifiers of one file, as the TypeScript compiler reads them. */
export function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

const toPosix = (p: string) => p.split(sep).join('/');

/** Where a specifier leads: a file of the repository (relative, or the package's own name through its exports), or nowhere. */
export function resolveSpecifier(from: string, specifier: string, packageNames: ReadonlyMap<string, string>): string | undefined {
  if (specifier.startsWith('.')) return posix.normalize(posix.join(posix.dirname(from), specifier.replace(/\?.*$/, '')));
  const own = packageNames.get(specifier);
  return own;
}

/** The table entry with the longest of its paths (a folder `a/` or a file) that holds `path`. */
function longestMatch<T extends { paths: readonly string[] }>(path: string, table: readonly T[]): T | undefined {
  let best: T | undefined;
  let length = -1;
  for (const entry of table) {
    for (const p of entry.paths) {
      const hit = p.endsWith('/') ? path.startsWith(p) : path === p;
      if (hit && p.length > length) {
        best = entry;
        length = p.length;
      }
    }
  }
  return best;
}

export function layerOf(path: string, layers: readonly Layer[] = LAYERS): Layer | undefined {
  return longestMatch(path, layers);
}

const isTest = (path: string) => /\.test\.ts$|\.cases\.ts$/.test(path);

/** What is wrong with one import, if anything. */
export function checkEdge(edge: ImportEdge): string | undefined {
  const from = layerOf(edge.from);
  if (!from) return `${edge.from} is in no layer of .ci/layers/layers.ts: add its folder to the table`;
  if (edge.to === undefined) {
    return from.packages || isTest(edge.from) ? undefined : `the ${from.name} layer imports no package or node: module (${from.holds})`;
  }
  const to = layerOf(edge.to);
  if (!to) return `${edge.to} is in no layer of .ci/layers/layers.ts: add its folder to the table`;
  if (to === from) return from.inner ? checkInner(edge.from, edge.to, from, from.inner) : undefined;
  if (from.imports.includes(to.name)) return undefined;
  if (EXCEPTIONS.some((e) => e.from.test(edge.from) && e.to === edge.to)) return undefined;
  return forbidden(from, to);
}

/** An import between two files of a layer with inner layers, held to those. */
function checkInner(fromPath: string, toPath: string, outer: Layer, inner: readonly Layer[]): string | undefined {
  const from = layerOf(fromPath, inner);
  const test = isTest(fromPath);
  if (!from && !test) return `${fromPath} is in no inner layer of ${outer.name} (.ci/layers/layers.ts): add its folder to the table`;
  const to = layerOf(toPath, inner);
  if (!to) return `${toPath} is in no inner layer of ${outer.name} (.ci/layers/layers.ts): add its folder to the table`;
  if (test || to === from || from!.imports.includes(to.name)) return undefined;
  return forbidden(from!, to);
}

function forbidden(from: Layer, to: Layer): string {
  return `${from.name} may not import ${to.name}: ${from.name} holds ${from.holds}; it may import ${from.imports.length ? from.imports.join(', ') : 'nothing of the project'}`;
}

/** Every import of the given files that the table forbids. */
export function violations(files: readonly { path: string; text: string }[], packageNames: ReadonlyMap<string, string>): Violation[] {
  const out: Violation[] = [];
  for (const f of files) {
    for (const specifier of specifiersOf(f.text)) {
      const to = resolveSpecifier(f.path, specifier, packageNames);
      const edge: ImportEdge = to === undefined ? { from: f.path, specifier } : { from: f.path, specifier, to };
      const reason = checkEdge(edge);
      if (reason) out.push({ ...edge, reason });
    }
  }
  return out;
}

const SOURCE = /\.(ts|mts|cts|mjs|cjs|js)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'reports', '.git']);

/** The source files under the repository's folders (node_modules, dist and reports left out), paths from the root. */
export function sourceFiles(root: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (SKIPPED.has(name)) continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE.test(name)) out.push({ path: toPosix(relative(root, full)), text: readFileSync(full, 'utf8') });
    }
  };
  for (const top of ['contracts', 'fixtures', 'mock', 'suites', '.ci']) walk(join(root, top));
  for (const name of readdirSync(root)) if (SOURCE.test(name) && statSync(join(root, name)).isFile()) out.push({ path: name, text: readFileSync(join(root, name), 'utf8') });
  return out;
}

/** Each file's imports of other files of the repository (type-only imports included: a circle of types is one too). */
export function importGraph(files: readonly { path: string; text: string }[], packageNames: ReadonlyMap<string, string>): Map<string, string[]> {
  const known = new Set(files.map((f) => f.path));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const to = new Set<string>();
    for (const specifier of specifiersOf(f.text)) {
      const target = resolveSpecifier(f.path, specifier, packageNames);
      if (target !== undefined && known.has(target) && target !== f.path) to.add(target);
    }
    graph.set(f.path, [...to].sort());
  }
  return graph;
}

/**
 * The import circles: every strongly connected group of two or more files (Tarjan), each as one circle through it
 * (`a.ts → b.ts → a.ts`), sorted. Iterative, so a deep import chain cannot overflow the stack.
 */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.i < edges.length) {
        const to = edges[top.i++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          group.push(n);
        } while (n !== top.node);
        if (group.length > 1) groups.push(group.sort());
      }
    }
  }
  // One circle through each group, from its first file: the shortest way back found breadth-first.
  return groups
    .map((group) => {
      const members = new Set(group);
      const from = group[0]!;
      const prev = new Map<string, string>();
      const queue = [from];
      let end: string | undefined;
      while (queue.length && end === undefined) {
        const n = queue.shift()!;
        for (const to of graph.get(n) ?? []) {
          if (!members.has(to)) continue;
          if (to === from) {
            end = n;
            break;
          }
          if (!prev.has(to)) {
            prev.set(to, n);
            queue.push(to);
          }
        }
      }
      const path = [from];
      for (let n = end; n !== undefined && n !== from; n = prev.get(n)) path.splice(1, 0, n);
      return `${[...path, from].join(' → ')}${group.length > path.length ? ` (a group of ${group.length} files)` : ''}`;
    })
    .sort();
}
