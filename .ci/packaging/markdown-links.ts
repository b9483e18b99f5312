// Every relative link of every Markdown file in the package must resolve inside the package: from node_modules the
// documentation is all a user has, and a link to a file of the repository that is not shipped leads nowhere.
// Anchors (`file.md#section`, `#section`) must name a heading of their target, spelled as GitHub and npm's site
// spell them (lower case, punctuation dropped, spaces to hyphens).
import { posix } from 'node:path';

export interface BrokenLink {
  file: string;
  line: number;
  link: string;
  why: string;
}

/** Inline links and images, `[text](target)` and `![alt](target "title")`; code spans and fenced blocks are skipped. */
function linksOf(markdown: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) fenced = !fenced;
    if (fenced) return;
    const text = raw.replace(/`[^`]*`/g, '');
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ line: i + 1, target: m[1]! });
  });
  return out;
}

/** The anchor GitHub gives a heading's text. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings, with GitHub's -1, -2 for repeats. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/**
 * The links that do not resolve. `files` are the package's paths (as `npm pack` lists them, `/`-separated, from
 * the package root); `read` gives a Markdown file's text.
 */
export function brokenLinks(files: readonly string[], read: (path: string) => string): BrokenLink[] {
  const shipped = new Set(files);
  const dirs = new Set(files.flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => anchors.get(path) ?? anchors.set(path, anchorsOf(read(path))).get(path)!;
  const broken: BrokenLink[] = [];
  for (const file of files.filter((f) => /\.md$/i.test(f))) {
    for (const { line, target } of linksOf(read(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // https:, mailto:: not relative
      const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
      const path = pathPart === '' ? file : posix.normalize(posix.join(posix.dirname(file), decodeURIComponent(pathPart))).replace(/\/$/, '');
      const report = (why: string) => broken.push({ file, line, link: target, why });
      if (path.startsWith('../') || path === '..') report('points outside the package');
      else if (!shipped.has(path) && !dirs.has(path)) report(`${path} is not in the package`);
      else if (anchor !== undefined && /\.md$/i.test(path) && !anchorsIn(path).has(anchor.toLowerCase())) report(`${path} has no heading #${anchor}`);
    }
  }
  return broken;
}
