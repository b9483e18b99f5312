// The validator cache never trusts an entry it cannot vouch for: one compiled from another schema or another Ajv
// setup, a torn, edited or foreign file, code that does not give a function; each is compiled afresh (Ajv, the
// canonical path) and written again. It carries on where it cannot write, and writers racing on one entry (processes
// and threads, through the real files) leave it whole and no temporary file behind. (arbitraries/validator-cache.test.ts
// holds the cached validators equal to Ajv's over the whole contract; mock/src/validator-cache.test.ts, a mock's
// answers started warm to its answers started cold.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createAjv } from './ajv.ts';
import type { AjvInstance, AjvSetup, LazyAjv } from './ajv-setup.ts';
import type { CacheIo } from './contract-cache.ts';
import { fileCacheIo } from './loader.ts';
import { validatorCache, validatorCacheDir } from './validator-cache.ts';
import type { JsonSchema } from './types.ts';

const requireModule = createRequire(import.meta.url);

function existing(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function memoryIo(): CacheIo & { files: Map<string, string>; writes: number } {
  const files = new Map<string, string>();
  const io = { files, writes: 0, read: (p: string) => files.get(p), write: (p: string, t: string) => void (io.writes++, files.set(p, t)) };
  return io;
}

/** An Ajv made on first need that says whether it was made and counts what it compiles. */
function countingAjv(setup: AjvSetup = { allErrors: false, standalone: 'commonjs' }): LazyAjv & { made: boolean; compiled: number } {
  let ajv: AjvInstance | undefined;
  const lazy = {
    setup,
    made: false,
    compiled: 0,
    get(): AjvInstance {
      if (ajv) return ajv;
      const made = createAjv(setup);
      const compile = made.compile.bind(made);
      made.compile = ((schema: JsonSchema) => (lazy.compiled++, compile(schema))) as AjvInstance['compile'];
      lazy.made = true;
      return (ajv = made);
    },
  };
  return lazy;
}

const schema: JsonSchema = {
  type: 'object',
  properties: { query: { type: 'object', properties: { per_page: { type: 'integer', minimum: 1, maximum: 100 }, phone: { type: 'string', format: 'tel' }, when: { type: 'string', format: 'date-time' } } } },
};
const cases = [{ query: { per_page: 100 } }, { query: { per_page: 101 } }, { query: { phone: '+1 555' } }, { query: { phone: '12' } }, { query: { when: '2026-01-01T00:00:00Z' } }, { query: { when: 'soon' } }];
const verdicts = [true, false, true, false, true, false];

describe('the validator cache', () => {
  it("writes an entry on a miss and evaluates it on a hit, with the project's formats, making no Ajv", () => {
    const io = memoryIo();
    const first = countingAjv();
    const v1 = validatorCache({ dirs: ['/c'], io, requireModule }).compile('op', schema, first);
    expect([first.compiled, io.writes]).toEqual([1, 1]);
    const second = countingAjv();
    const v2 = validatorCache({ dirs: ['/c'], io, requireModule }).compile('op', schema, second);
    expect([second.compiled, io.writes]).toEqual([0, 1]);
    expect([first.made, second.made]).toEqual([true, false]);
    expect(cases.map((c) => v1(c))).toEqual(verdicts);
    expect(cases.map((c) => v2(c))).toEqual(verdicts);
    v2(cases[1]);
    expect(v2.errors?.[0]).toMatchObject({ keyword: 'maximum', instancePath: '/query/per_page' });
  });

  it('reads the first folder holding the entry and writes only the last', () => {
    const io = memoryIo();
    validatorCache({ dirs: ['/pkg'], io, requireModule }).compile('op', schema, countingAjv());
    const ajv = countingAjv();
    validatorCache({ dirs: ['/pkg', '/project'], io, requireModule }).compile('op', schema, ajv);
    expect(ajv.compiled).toBe(0);
    expect([...io.files.keys()].every((p) => p.startsWith('/pkg/'))).toBe(true);
  });

  it('compiles afresh an entry of another schema, another Ajv setup, or one torn, edited or foreign', () => {
    const other: JsonSchema = { type: 'object', properties: { query: { type: 'object', properties: { per_page: { type: 'integer', maximum: 10 } } } } };
    const io = memoryIo();
    validatorCache({ dirs: ['/c'], io, requireModule }).compile('op', schema, countingAjv());
    const [path] = [...io.files.keys()];
    const good = io.files.get(path!)!;
    const spoil: Record<string, (text: string) => string> = {
      torn: (t) => t.slice(0, Math.floor(t.length / 2)),
      'code edited': (t) => t.replace('maximum', 'minimum'),
      'header edited': (t) => t.replace(/ [0-9a-f]{64} /, ` ${'0'.repeat(64)} `),
      'no header': (t) => t.slice(t.indexOf('\n') + 1),
      foreign: () => 'module.exports = () => true;',
      empty: () => '',
    };
    for (const [name, change] of Object.entries(spoil)) {
      io.files.set(path!, change(good));
      const ajv = countingAjv();
      const v = validatorCache({ dirs: ['/c'], io, requireModule }).compile('op', schema, ajv);
      expect(ajv.compiled, name).toBe(1);
      expect(cases.map((c) => v(c)), name).toEqual(verdicts);
      expect(io.files.get(path!), name).toBe(good);
    }
    // Another schema under the same id (an edited contract in a folder not yet keyed by it): its own verdicts.
    const ajv = countingAjv();
    const v = validatorCache({ dirs: ['/c'], io, requireModule }).compile('op', other, ajv);
    expect(ajv.compiled).toBe(1);
    expect(v({ query: { per_page: 11 } })).toBe(false);
    // Another Ajv setup (every error, not the first): its own entry.
    const all = countingAjv({ allErrors: true, standalone: 'commonjs' });
    validatorCache({ dirs: ['/c'], io, requireModule }).compile('op', schema, all);
    expect(all.compiled).toBe(1);
  });

  it('hands back the compiled validator where it cannot write', () => {
    const readOnly: CacheIo = { read: () => undefined, write: () => { throw new Error('EROFS'); } };
    const v = validatorCache({ dirs: ['/c'], io: readOnly, requireModule }).compile('op', schema, countingAjv());
    expect(cases.map((c) => v(c))).toEqual(verdicts);
  });

  it('keys the folder by the contract text and the package and Ajv versions', () => {
    const at = (text: string, pkg: string, ajv: string) => validatorCacheDir('/c', text, { package: pkg, ajv });
    const names = new Set([at('a', '1', '8'), at('b', '1', '8'), at('a', '2', '8'), at('a', '1', '9')]);
    expect(names.size).toBe(4);
    expect(at('a', '1', '8')).toBe(at('a', '1', '8'));
  });
});

describe('writers racing on one entry, through the files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-contracts-validator-cache-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leave it whole, readable by every reader, and no temporary file', async () => {
    // Two processes of two threads each write the entry 400 times (as vitest's forks and threads pools would), while
    // this one reads it: every writer writes the same text, so every read must be nothing yet or that text whole.
    const io = memoryIo();
    validatorCache({ dirs: ['/c'], io, requireModule }).compile('op', schema, countingAjv());
    const whole = [...io.files.values()][0]!;
    const writer = fileURLToPath(new URL('./testing/validator-cache-writer.ts', import.meta.url));
    const children = [0, 1].map(
      () =>
        new Promise<void>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, '20', '2'], { stdio: ['ignore', 'ignore', 'pipe'] });
          let err = '';
          child.stderr.on('data', (d: Buffer) => (err += d));
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}: ${err}`))));
        }),
    );
    let done = false;
    const all = Promise.all(children).finally(() => (done = true));
    const entries = join(dir, 'entries');
    const seen = new Set<string>();
    while (!done) {
      // Reads back to back for 20 ms, then lets the children's exits be heard.
      const until = performance.now() + 20;
      while (performance.now() < until) {
        for (const name of existing(entries)) {
          if (name.endsWith('.tmp')) continue;
          const text = fileCacheIo.read(join(entries, name));
          if (text !== undefined) seen.add(text === whole ? 'whole' : `torn at ${text.length} of ${whole.length}`);
        }
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    await all;
    const ajv = countingAjv();
    validatorCache({ dirs: [entries], io: fileCacheIo, requireModule }).compile('op', schema, ajv);
    expect(ajv.compiled).toBe(0);
    expect([...seen].filter((s) => s !== 'whole')).toEqual([]);
    expect(readdirSync(entries)).toHaveLength(1);
  });
});
