// No regular expression of the mock backtracks super-linearly over what a client sends. Every regex literal (and
// every `new RegExp('…')` of a plain string) in mock/src and in the WordPress layer it runs (contracts/wordpress), and every `pattern` of the contract (ajv and the
// WordPress validator port run those over request values), goes through scslre, the analysis behind
// eslint-plugin-regexp's no-super-linear-backtracking / no-super-linear-move, and so do the regexes the renderers
// assemble at run time (wpautop, wptexturize, smilies). A report is allowed only for the expressions listed below,
// each with the reason its input is not the client's. scslre finds attacks that repeat one character; those that
// repeat a longer piece (`<li<li<li…`) are sent through the real routes by linear-time.test.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RegExpParser } from '@eslint-community/regexpp';
import { analyse } from 'scslre';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sharedContract } from './testing/harness.ts';
import { AUTOP_PATTERNS, HTML_SPLIT } from '../../contracts/wordpress/content/autop.ts';
import { SMILIES_SEARCH } from '../../contracts/wordpress/content/post-text.ts';
import { AMP_NOT_ENTITY, DYNAMIC_APOS, DYNAMIC_DASH, DYNAMIC_QUOTE, SPLIT } from '../../contracts/wordpress/content/texturize.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
// and the one-byte pass the mock runs over fixture and state file texts before parsing them.
const AUDITED = ['mock/src', 'contracts/wordpress', 'contracts/lib/one-byte-keys.ts'].map((dir) => join(REPO, dir));

/** `file: /source/flags` → why the input is bounded or not the client's. */
const NOT_CLIENT_INPUT: Readonly<Record<string, string>> = {
  'mock/src/adapters/msw.ts: /\\/+$/': "the developer's `origin` option",
  'contracts/wordpress/rest/routes.ts: /\\{([^}]+)\\}/g': "the contract's route paths",
  'contracts/lib/one-byte-keys.ts: /([A-Za-z_$][\\w$-]*:[\\w$-]+)/g': "the contract's YAML text",
  'contracts/wordpress/php/scalars.ts: /0+$/': 'the mantissa of Number.prototype.toExponential(): at most 21 characters',
  'contracts/wordpress/php/scalars.ts: /\\B(?=(\\d{3})+(?!\\d))/g': 'the digits of a rounded finite number: at most 22 characters',
};

function sourceFiles(dir: string): string[] {
  if (dir.endsWith('.ts')) return [dir];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

interface Found {
  where: string;
  literal: string;
}

/** Regex literals, and `new RegExp()` / `RegExp()` over a plain string, of one file. */
function regexesOf(path: string): Found[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Found[] = [];
  const at = (n: ts.Node) => `${relative(REPO, path)}:${file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) out.push({ where: at(n), literal: n.getText(file) });
    if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && ts.isIdentifier(n.expression) && n.expression.text === 'RegExp') {
      const [src, flags] = n.arguments ?? [];
      if (src && ts.isStringLiteralLike(src) && (!flags || ts.isStringLiteralLike(flags))) {
        out.push({ where: at(n), literal: `/${src.text}/${flags && ts.isStringLiteralLike(flags) ? flags.text : ''}` });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return out;
}

function reports(literal: string): string[] {
  const parsed = new RegExpParser({ ecmaVersion: 2024 }).parseLiteral(literal);
  const result = analyse({ pattern: parsed.pattern, flags: parsed.flags }, { reportTypes: { Move: true, Self: true, Trade: true } });
  return result.reports.map((r) => `${r.type}${r.exponential ? ' (exponential)' : ''} on ${JSON.stringify(r.character.pick)}`);
}

describe('regular expressions over client input are linear', () => {
  const found = AUDITED.flatMap(sourceFiles).flatMap(regexesOf);

  it('finds the regexes it audits', () => {
    // A walk that found nothing would pass vacuously.
    expect(found.length).toBeGreaterThan(150);
  });

  it('every regex in mock/src and contracts/wordpress is free of super-linear backtracking, or listed with why its input is not the client\'s', () => {
    const flagged = new Map<string, string[]>();
    for (const f of found) {
      const r = reports(f.literal);
      if (r.length === 0) continue;
      const key = `${f.where.replace(/:\d+$/, '')}: ${f.literal}`;
      if (!(key in NOT_CLIENT_INPUT)) flagged.set(`${f.where} ${f.literal}`, r);
    }
    expect(Object.fromEntries(flagged)).toEqual({});
  });

  it('the list of exceptions holds no stale entry', () => {
    const present = new Set(found.filter((f) => reports(f.literal).length > 0).map((f) => `${f.where.replace(/:\d+$/, '')}: ${f.literal}`));
    expect(Object.keys(NOT_CLIENT_INPUT).filter((k) => !present.has(k))).toEqual([]);
  });

  it('the regexes the renderers build at run time too', () => {
    const built: [string, RegExp][] = [
      ...Object.entries(AUTOP_PATTERNS).map(([k, r]) => [`wpautop ${k}`, r] as [string, RegExp]),
      ['get_html_split_regex()', HTML_SPLIT],
      ...[...DYNAMIC_APOS, ...DYNAMIC_QUOTE, ...DYNAMIC_DASH].map(([r], i) => [`wptexturize #${i}`, r] as [string, RegExp]),
      ['_get_wptexturize_split_regex()', SPLIT],
      ['wptexturize &', AMP_NOT_ENTITY],
      ['smilies', SMILIES_SEARCH],
    ];
    expect(built.length).toBeGreaterThan(30);
    const flagged = built.map(([name, r]) => [name, reports(`/${r.source}/${r.flags}`)] as const).filter(([, r]) => r.length > 0);
    expect(Object.fromEntries(flagged)).toEqual({});
  });

  it("the contract's patterns are free of it too", () => {
    const patterns = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v !== null && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if (k === 'pattern' && typeof x === 'string') patterns.add(x);
          else walk(x);
        }
      }
    };
    walk(sharedContract().doc);
    expect(patterns.size).toBeGreaterThan(5);
    const flagged = [...patterns].map((p) => [p, reports(`/${p.replace(/\//g, '\\/')}/u`)] as const).filter(([, r]) => r.length > 0);
    expect(Object.fromEntries(flagged)).toEqual({});
  });

  it('the analysis does catch what it looks for: the e-mail check and the trim this change replaced', () => {
    expect(reports('/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/')).not.toEqual([]);
    expect(reports('/^[ \\t\\n\\r\\0\\x0B]+|[ \\t\\n\\r\\0\\x0B]+$/g')).not.toEqual([]);
    expect(reports('/^[ \\t\\n\\r\\0\\x0B]+|(?<![ \\t\\n\\r\\0\\x0B])[ \\t\\n\\r\\0\\x0B]+$/g')).toEqual([]);
  });
});
