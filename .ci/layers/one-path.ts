// One path per rule, for the three issue 19 names: one plain-object test, one page slicer, one WpError. Each rule
// names the file that holds the thing and the text another file would have if it did the same on its own; a scan of
// the project's modules (exports.ts's isChecked: contracts/, mock/, suites/, fixtures/, no tests, nothing generated)
// finds any such copy. The patterns are the shapes the copies had before they were folded in (an inline
// `typeof v === 'object' && v !== null && !Array.isArray(v)`, an `isObject(v): v is Record<string, unknown>` of its
// own, `items.slice(offset, offset + limit)`, an interface restating `code: string; message: string`).
import { isChecked, type ProjectFile } from './exports.ts';

export interface OnePathRule {
  name: string;
  /** The one file that holds it. */
  owner: string;
  /** What a copy of it looks like. */
  patterns: readonly RegExp[];
}

export const ONE_PATH_RULES: readonly OnePathRule[] = [
  {
    name: 'one plain-object test',
    owner: 'contracts/wordpress/plain-object.ts',
    patterns: [
      /typeof ([\w.]+) === 'object' && \1 !== null && !Array\.isArray\(\1\)/,
      /([\w.]+) !== null && typeof \1 === 'object' && !Array\.isArray\(\1\)/,
      // A type guard of its own, even one that only hands over to isPlainObject: a second name for the one test.
      /\((\w+): unknown\): \1 is Record<string, unknown>/,
    ],
  },
  {
    name: 'one page slicer',
    owner: 'contracts/wordpress/list-window.ts',
    patterns: [
      // slice(from, from + count): a window cut by hand (string scans slice(i, i + 64) by a fixed width, not a count).
      /\.slice\(\s*([\w.]+)\s*,\s*\1\s*\+\s*[\w.]*?(?:count|limit|per|size|page|max)/i,
      /\.slice\(\s*\(\s*[\w.]*page[\w.]*\s*-\s*1\s*\)\s*\*/i,
    ],
  },
  {
    name: 'one WpError',
    owner: 'contracts/wordpress/schema/types.ts',
    // A type restating the members (not a function's parameters `code: string, message: string`, nor a Node error's
    // optional `code?: string`).
    patterns: [/\bcode:\s*string\s*;\s*(?:\/\*\*[^]*?\*\/\s*)?message\??:\s*string\b/, /\b(?:class|interface)\s+WpError\b/],
  },
];

/** Where a rule's copies stand outside its owner (`path:line`), among the checked files. */
export function copiesOf(rule: OnePathRule, files: readonly ProjectFile[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (f.path === rule.owner || !isChecked(f)) continue;
    for (const p of rule.patterns) {
      const global = new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`);
      for (const m of f.text.matchAll(global)) out.push(`${f.path}:${f.text.slice(0, m.index).split('\n').length}`);
    }
  }
  return out.sort();
}

/** Whether the owner holds what the rule names (a pattern that no longer finds the real thing would find no copy either). */
export function ownerHolds(rule: OnePathRule, files: readonly ProjectFile[]): boolean {
  const owner = files.find((f) => f.path === rule.owner);
  return !!owner && rule.patterns.some((p) => p.test(owner.text));
}
