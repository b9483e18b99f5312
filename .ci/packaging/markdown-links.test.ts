// The package's Markdown, as `npm pack` lists it: every relative link resolves inside the package (the consumer
// stage checks the real tarball the same way: .ci/packaging/check-tarball.ts). And the checker, both ways.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks } from './markdown-links.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the checker', () => {
  const docs: Record<string, string> = {
    'README.md': '# Top\n\nSee [mock](mock/README.md), [its MSW part](mock/README.md#in-your-tests-msw), [here](#top), [site](https://example.org/x).\n\n```\n[not a link](nowhere.md)\n```\n`[code](nowhere.md)`\n',
    'mock/README.md': '# Mock\n\n## In your tests: MSW\n\nBack to [the top](../README.md#top) and the [folder](../mock/).\n',
  };
  const read = (p: string) => docs[p]!;

  it('passes when every link resolves, anchors included, and skips code and absolute links', () => {
    expect(brokenLinks(Object.keys(docs), read)).toEqual([]);
  });

  it('names a link to a file the package lacks, a missing heading and a way out of the package', () => {
    const bad = { ...docs, 'README.md': '# Top\n[src](mock/src/index.ts) [gone](mock/README.md#no-such) [out](../x.md)\n' };
    expect(brokenLinks(Object.keys(bad), (p) => bad[p as keyof typeof bad]!)).toEqual([
      { file: 'README.md', line: 2, link: 'mock/src/index.ts', why: 'mock/src/index.ts is not in the package' },
      { file: 'README.md', line: 2, link: 'mock/README.md#no-such', why: 'mock/README.md has no heading #no-such' },
      { file: 'README.md', line: 2, link: '../x.md', why: 'points outside the package' },
    ]);
  });

  it("spells anchors as GitHub does", () => {
    expect([...anchorsOf('## Your own fixtures: `--fixtures`, `--watch`\n## Headers: -H\n## Headers: -H\n')]).toEqual(['your-own-fixtures---fixtures---watch', 'headers--h', 'headers--h-1']);
  });
});

describe("the package's Markdown", () => {
  it('has every relative link resolve inside the package (npm pack --dry-run)', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files.filter((f) => f.endsWith('.md')).length).toBeGreaterThan(5);
    expect(files).toContain('LICENSE');
    expect(brokenLinks(files, (p) => readFileSync(join(ROOT, p), 'utf8'))).toEqual([]);
  });
});
