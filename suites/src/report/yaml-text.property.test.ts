// Hand-written YAML read with the yaml package's limits and positions (yaml-text.ts). Where an alias is refused is
// found by walking the aliases as the package counts them: on generated documents of anchors and aliases, that walk
// finds a problem exactly when the package refuses the document, and its line and column are an alias's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { aliasProblem, MAX_YAML_ALIASES, parseYamlText, YamlTextError } from './yaml-text.ts';

function refusal(text: string): YamlTextError {
  try {
    parseYamlText(text);
  } catch (e) {
    expect(e).toBeInstanceOf(YamlTextError);
    return e as YamlTextError;
  }
  throw new Error(`no refusal for ${text}`);
}

/** A document of keys k0..kn, each a list of scalars and aliases to earlier (or missing) anchors, some anchored. */
const documents = fc
  .array(
    fc.record({
      anchored: fc.boolean(),
      items: fc.array(fc.oneof(fc.constant('x'), fc.nat({ max: 12 }).map((n) => `*a${n}`)), { minLength: 1, maxLength: 12 }),
      nested: fc.boolean(),
    }),
    { minLength: 1, maxLength: 10 },
  )
  .map((rows) =>
    rows
      .map((r, i) => {
        const list = `[${r.items.join(', ')}]`;
        const value = r.nested ? `{inner: ${list}}` : list;
        return `k${i}: ${r.anchored ? `&a${i} ` : ''}${value}`;
      })
      .join('\n'),
  );

describe('parseYamlText', () => {
  it('reads YAML, aliases within the bound included', () => {
    expect(parseYamlText('test: &t\n  runs: 2\ndiff: *t\n')).toEqual({ test: { runs: 2 }, diff: { runs: 2 } });
  });

  it('refuses a syntax error, an alias bomb and a missing anchor at their line and column', () => {
    const syntax = refusal('test:\n  only: [cal/v1\n');
    expect([syntax.line, syntax.column, syntax.syntax]).toEqual([3, 1, true]);
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'];
    const bomb = refusal(lines.join('\n'));
    expect(bomb).toMatchObject({ line: 3, column: 40, syntax: false });
    expect(bomb.reason).toBe(`the aliases expand past ${MAX_YAML_ALIASES} nodes (at *b); a YAML alias bomb is refused`);
    expect(refusal('a: 1\nb: [x, *nope]\n')).toMatchObject({ line: 2, column: 8, reason: 'the alias *nope names no anchor &nope before it', syntax: false });
    // An anchor defined after its alias is no anchor for it, as YAML reads it.
    expect(refusal('a: *later\nb: &later 1\n')).toMatchObject({ line: 1, column: 4 });
  });

  it("finds an alias problem exactly when the yaml package refuses the document, at an alias", () => {
    fc.assert(
      fc.property(documents, (text) => {
        const doc = parseDocument(text);
        expect(doc.errors).toEqual([]);
        let refused = false;
        try {
          doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
        } catch (e) {
          expect(e).toBeInstanceOf(ReferenceError);
          refused = true;
        }
        const problem = aliasProblem(doc, MAX_YAML_ALIASES);
        expect(problem !== undefined).toBe(refused);
        if (problem) expect(text[problem.offset]).toBe('*');
      }),
      { numRuns: 400, seed: 27 },
    );
  });
});
