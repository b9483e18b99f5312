// The packed tarball as a user gets it (.ci/consumer/run.sh pack): unpacked into a temporary folder, every relative
// link of every Markdown file in it must resolve inside it, and it must carry the MIT licence (LICENSE and the
// package.json `license` field). Prints what it checked; exits 1 naming each problem.
//
//   npx tsx .ci/packaging/check-tarball.ts site-contracts-0.1.0.tgz
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { brokenLinks } from './markdown-links.ts';

function walk(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, root) : [relative(root, path).split('\\').join('/')];
  });
}

const tgz = process.argv[2];
if (!tgz) {
  console.error('usage: check-tarball.ts PATH.tgz');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'site-contracts-tarball-'));
try {
  execFileSync('tar', ['-xzf', tgz, '-C', dir]);
  const root = join(dir, 'package');
  const files = walk(root);
  const problems: string[] = [];
  const markdown = files.filter((f) => f.endsWith('.md'));
  for (const b of brokenLinks(files, (p) => readFileSync(join(root, p), 'utf8'))) problems.push(`${b.file}:${b.line}: link ${b.link}: ${b.why}`);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { license?: string };
  if (pkg.license !== 'MIT') problems.push(`package.json: license is ${JSON.stringify(pkg.license)}, not "MIT"`);
  if (!files.includes('LICENSE')) problems.push('no LICENSE file');
  else if (!readFileSync(join(root, 'LICENSE'), 'utf8').startsWith('MIT License')) problems.push('LICENSE is not the MIT licence');
  console.log(`tarball links: ${markdown.length} Markdown files, every relative link checked; licence: ${pkg.license ?? 'none'}, LICENSE ${files.includes('LICENSE') ? 'present' : 'missing'}`);
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
