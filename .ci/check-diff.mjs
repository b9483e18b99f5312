// After `site-contracts diff` against a plain WordPress: exactly the namespaces WordPress core serves must be
// present, and every calendar and add-on operation must be reported as a missing route. Exit 1 otherwise.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'reports/diff.json';
const diff = JSON.parse(readFileSync(file, 'utf8'));
const CORE = new Set(['', 'batch/v1', 'oembed/1.0']);
const problems = [];
let missing = 0;
for (const op of diff.operations) {
  const core = CORE.has(op.namespace);
  if (core && op.kind === 'route-missing') problems.push(`core route reported missing: ${op.method} ${op.route}`);
  if (!core && op.kind !== 'route-missing') problems.push(`expected missing on plain WordPress, got ${op.kind}: ${op.method} ${op.route}`);
  if (!core) missing++;
}
if (diff.operations.length !== 204) problems.push(`expected 204 operations compared, got ${diff.operations.length}`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`diff as expected: ${missing} calendar and add-on operations missing, ${diff.operations.length - missing} core operations present`);
