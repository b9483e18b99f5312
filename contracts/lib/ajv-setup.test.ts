// The Ajv setup stated without Ajv (ajv-setup.ts) against an Ajv built on it: the formats the validator cache
// evaluates its entries with are exactly the Ajv's (the same functions), its key tells every setup apart, and a
// process whose validators come from the cache loads no Ajv, while one compiling them does.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAjv } from './ajv.ts';
import { contractFormats, lazyAjv, setupKey, type AjvSetup } from './ajv-setup.ts';

const SETUPS: AjvSetup[] = [{}, { allErrors: false }, { allErrors: false, standalone: 'commonjs' }, { verbose: true }, { verbose: true, standalone: true }];
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the Ajv setup, without Ajv', () => {
  it("gives the formats of an Ajv of every setup, the same functions and rules", () => {
    for (const setup of SETUPS) {
      const formats = createAjv(setup).formats;
      expect(Object.keys(contractFormats()).sort()).toEqual(Object.keys(formats).sort());
      for (const [name, format] of Object.entries(contractFormats())) expect(format, name).toBe(formats[name]);
    }
    expect(Object.keys(contractFormats())).toEqual(expect.arrayContaining(['tel', 'double', 'date-time', 'uri', 'email']));
  });

  it('keys every setup apart, and one setup the same every time', () => {
    const keys = SETUPS.map(setupKey);
    expect(new Set(keys).size).toBe(SETUPS.length);
    expect(SETUPS.map(setupKey)).toEqual(keys);
    expect(setupKey({ allErrors: true })).toBe(setupKey({}));
  });

  it('makes an Ajv only when asked, once', () => {
    let made = 0;
    const lazy = lazyAjv((setup) => (made++, createAjv(setup)), { allErrors: false });
    expect(made).toBe(0);
    expect(lazy.get()).toBe(lazy.get());
    expect(made).toBe(1);
  });
});

describe("the contract's loader", () => {
  // A child process, as a vitest file of a project is: the contract from the cache (the first run writes the entry,
  // later ones read it) or with no cache (every validator compiled), then one request validated: per_page 3 or 101.
  const child = (cache: 'cache' | 'cold', perPage: number) => {
    const code = [
      "import { createRequire } from 'node:module';",
      `const { loadContractFile } = await import(${JSON.stringify(`${ROOT}contracts/lib/loader.ts`)});`,
      `const contract = loadContractFile(undefined, undefined, ${cache === 'cold' ? 'null' : 'undefined'});`,
      "const op = contract.operations.find((o) => o.id === 'getCalV1Events');",
      `const { valid, issues } = contract.validateBounded(op, { path: {}, query: { per_page: ${perPage} } });`,
      'const ajv = Object.keys(createRequire(import.meta.url).cache).filter((p) => /[\\\\/]ajv[\\\\/]dist[\\\\/](core|2020)\\.js$/.test(p)).length;',
      'console.log(JSON.stringify({ valid, params: issues.map((i) => i.param), ajv }));',
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`child exited ${run.status}: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { valid: boolean; params: string[]; ajv: number };
  };

  it('loads no Ajv to accept a request whose validator comes from the cache, and loads it where it compiles one', () => {
    child('cache', 3);
    expect(child('cache', 3)).toEqual({ valid: true, params: [], ajv: 0 });
    // Naming the param a refused request failed on compiles that param's check: Ajv is loaded then, and says it.
    expect(child('cache', 101)).toEqual({ valid: false, params: ['per_page'], ajv: 2 });
    expect(child('cold', 3)).toEqual({ valid: true, params: [], ajv: 2 });
  });
});
