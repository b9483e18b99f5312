// The checks' names are listed once, in the registry (check-names.ts): every source file of the repository is read.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/src/checks/registry.ts';
import { checkNameLists, LONG_LIST } from './check-names.ts';
import { sourceFiles } from './layers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const names = new Set(CHECKS.map((c) => c.name));

describe('one list of check names', () => {
  it('no source file but the registry lists check names', () => {
    const files = sourceFiles(root);
    expect(files.filter((f) => f.path.startsWith('suites/src/checks/')).length).toBeGreaterThan(40);
    expect(checkNameLists(files, names)).toEqual([]);
  });

  const lists = (path: string, text: string) => checkNameLists([{ path, text }], names);

  it.each([
    ['suites/src/cli/x.ts', "export const WRITING = ['lifecycle', 'trash'];", 'suites/src/cli/x.ts:1: lifecycle, trash'],
    ['suites/src/report/x.ts', "type Sweep = 'content_type' | 'error_envelope' | 'other';", 'suites/src/report/x.ts:1: content_type, error_envelope'],
    ['suites/src/runner/x.ts', 'const order = { pagination: 1, cors: 2 };', 'suites/src/runner/x.ts:1: pagination, cors'],
    ['suites/src/checks/x.ts', "const sweeps = new Set(['not_a_server_error', 'allow_header']);", 'suites/src/checks/x.ts:1: not_a_server_error, allow_header'],
  ])('fails on a list in a module: %s', (path, text, expected) => {
    expect(lists(path, text)).toEqual([expected]);
  });

  it("fails on a test's list as long as the registry's part, and passes a test naming the checks it is about", () => {
    const long = CHECKS.slice(0, LONG_LIST).map((c) => `'${c.name}'`);
    expect(lists('suites/src/x.test.ts', `expect(checks).toEqual([${long.join(', ')}]);`)).toHaveLength(1);
    expect(lists('suites/src/x.test.ts', "expect(failing).toEqual(['content_type', 'error_envelope']);")).toEqual([]);
  });

  it('passes one name, names in comments and strings, and the registry itself', () => {
    expect(lists('suites/src/checks/x.ts', "export const CORS = 'cors';\n// cors and pagination, ['head', 'jsonp']\nconst s = 'lifecycle, trash';")).toEqual([]);
    expect(lists('suites/src/checks/registry.ts', "const FAMILIES = { pagination: 1, lifecycle: 2 };")).toEqual([]);
  });
});
