// One list of the checks' names (issue 25 §4): suites/src/checks/registry.ts. A second list written anywhere else (an
// array, a union type, an object's keys holding two or more check names as string literals) drifts from it the day a
// check is added; it is derived from the registry instead. Each check module names its own check, once, as the
// constant its findings carry, and a test may name the checks it is about, but a test's list as long as LONG_LIST
// is a copy of the registry. Read with the TypeScript parser, so comments and prose do not count.
import ts from 'typescript';

/** The registry, where the list lives. */
export const REGISTRY = 'suites/src/checks/registry.ts';
/**
 * The catalogue of promises turned around, check by check, for the registry's rows: written by `npm run promises --
 * --write` from the catalogue's rows (each names the check that judges it) and held fresh by promises.test.ts, so it
 * is derived, not a second list anyone edits.
 */
const DERIVED = 'suites/src/checks/kit/promises.generated.ts';
/** A list in a test this long is a copy of the registry's (the longest a test needs today names five checks). */
export const LONG_LIST = 10;

const isTest = (path: string) => /\.test\.ts$/.test(path);

/** Every list of check names outside the registry: `path:line: name, name…`. */
export function checkNameLists(files: readonly { path: string; text: string }[], names: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (f.path === REGISTRY || f.path === DERIVED || !/\.(ts|mts|cts)$/.test(f.path)) continue;
    const least = isTest(f.path) ? LONG_LIST : 2;
    const source = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const listed = namesIn(node).filter((n) => names.has(n));
      if (listed.length >= least) out.push(`${f.path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${listed.join(', ')}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** The string literals a node lists directly: an array's elements, a union's literal types, an object literal's keys. */
function namesIn(node: ts.Node): string[] {
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => (ts.isStringLiteralLike(e) ? [e.text] : []));
  if (ts.isUnionTypeNode(node)) return node.types.flatMap((t) => (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? [t.literal.text] : []));
  if (ts.isObjectLiteralExpression(node)) return node.properties.flatMap((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : []));
  return [];
}
