// YAML that people write by hand (the config file, a baseline), read with the `yaml` package's own limits and
// positions: a syntax error at its line and column (`linePos`), and aliases bounded by `maxAliasCount`, so an alias
// bomb (a few lines that expand to millions of nodes) or an alias without its anchor is a refusal at the alias's
// line and column, never a stack trace.
//
// The yaml package throws a ReferenceError without a position for those two; where it happened is found by walking
// the aliases in document order as its toJS() resolves them (an alias names the last anchor of that name before
// it; an anchor counts once, each alias to it once more, times the largest expansion within it), which
// yaml-text.property.test.ts holds to the package's own verdict on generated documents.
import { isAlias, isCollection, isPair, isScalar, parseDocument, visit, type Document, type Node } from 'yaml';

/** yaml's default, stated: a config or a baseline needs few aliases, and an expansion past this is an attack or a mistake. */
export const MAX_YAML_ALIASES = 100;

export class YamlTextError extends Error {
  override name = 'YamlTextError';
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
    /** A syntax error (the text is no YAML), rather than aliases refused. */
    readonly syntax: boolean,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

/** The value of a YAML text, or a YamlTextError with the line, column and reason of the first problem. */
export function parseYamlText(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const pos = error.linePos?.[0] ?? { line: 1, col: 1 };
    throw new YamlTextError(pos.line, pos.col, error.message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, ''), true);
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    const found = aliasProblem(doc, MAX_YAML_ALIASES);
    const at = found ? lineCol(text, found.offset) : { line: 1, column: 1 };
    throw new YamlTextError(at.line, at.column, found?.reason ?? e.message, false);
  }
}

interface AnchorData {
  count: number;
  aliasCount: number;
}

/** The first alias whose anchor is missing or whose expansion passes `max`, as yaml's toJS() counts them. */
export function aliasProblem(doc: Document, max: number): { offset: number; reason: string } | undefined {
  const last = new Map<string, Node>();
  const data = new Map<Node, AnchorData>();
  const expansion = (node: unknown): number => {
    if (isAlias(node)) {
      const d = resolved.get(node);
      return d ? d.count * d.aliasCount : 0;
    }
    if (isCollection(node)) return node.items.reduce<number>((m, item) => Math.max(m, expansion(item)), 0);
    if (isPair(node)) return Math.max(expansion(node.key), expansion(node.value));
    return 1;
  };
  const resolved = new Map<unknown, AnchorData>();
  let problem: { offset: number; reason: string } | undefined;
  visit(doc, {
    Node(_key, node) {
      if (isAlias(node)) {
        const target = last.get(node.source);
        const offset = node.range?.[0] ?? 0;
        if (target === undefined) {
          problem = { offset, reason: `the alias *${node.source} names no anchor &${node.source} before it` };
          return visit.BREAK;
        }
        const d = data.get(target)!;
        resolved.set(node, d);
        d.count += 1;
        if (d.aliasCount === 0) d.aliasCount = expansion(target);
        if (d.count * d.aliasCount > max) {
          problem = { offset, reason: `the aliases expand past ${max} nodes (at *${node.source}); a YAML alias bomb is refused` };
          return visit.BREAK;
        }
        return undefined;
      }
      if ((isScalar(node) || isCollection(node)) && node.anchor) {
        last.set(node.anchor, node);
        data.set(node, { count: 1, aliasCount: 0 });
      }
      return undefined;
    },
  });
  return problem;
}

/** Line and column (1-based) of a character offset, as editors count them. */
function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: before.length - before.lastIndexOf('\n') };
}
