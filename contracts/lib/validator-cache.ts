// The request validators Ajv compiles, kept between processes as Ajv's standalone code (issue 28). Every vitest file
// is a process of its own (the forks pool), and each compiled the validators of the operations its requests reach:
// 4 ms of CPU an operation on average, 15 ms for the largest, for code that is the same in every file of the run.
// The first file to compile an operation writes its standalone code here; the later ones evaluate it (all 204:
// 55 ms, against 800 ms compiled) instead of compiling.
//
// Why standalone code and not a serialized schema or a long-lived process: what costs is Ajv's code generation, and
// its standalone output is that code, made by Ajv itself for this purpose (ajv/dist/standalone); a vitest
// `globalSetup` runs in another process and can hand the test files only serializable values, not functions.
//
// Never trusted blindly. An entry names the SHA-256 of what it was compiled from (the Ajv setup: options and
// formats, and the schema's JSON) and of its own code; a different setup or schema, a torn or edited file, or code
// that does not evaluate to a function is ignored and compiled afresh (the canonical path) and written again. The
// folder is keyed besides by the contract's text and the package's and Ajv's versions (validatorCacheDir). A write
// is a temporary file renamed (CacheIo), so processes and threads racing to write one entry each leave it whole.
// validator-cache.test.ts holds the cached validators to Ajv's compiled ones, value for value and error for error,
// and a mock started warm to one started cold, answer for answer.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type standaloneModule from 'ajv/dist/standalone/index.js';
import type { ValidateFunction } from 'ajv';
import { contractFormats, setupKey, type AjvSetup, type LazyAjv } from './ajv-setup.ts';
import type { CacheIo } from './contract-cache.ts';
import type { ValidatorCache } from './contract.ts';
import type { JsonSchema } from './types.ts';

/** Part of every key and entry: a change in what an entry holds or how it is read must change this. */
const ENTRY_FORMAT = 'ajv-standalone-cjs/v1';

/** Where ajv-formats' standalone code finds its formats (ajv-formats sets `opts.code.formats` to this module). */
const FORMATS_MODULE = 'ajv-formats/dist/formats';

interface ValidatorCacheOptions {
  /**
   * The cache's folders, each already keyed by the contract and the versions (validatorCacheDir): read in turn (the
   * installed package's own, written by `npm run build`, then the project's); the last is the one written.
   */
  dirs: readonly string[];
  io: CacheIo;
  /**
   * Resolves the require() calls of Ajv's standalone code (its runtime helpers) from this package's dependencies,
   * and Ajv's standalone code generator on a miss.
   */
  requireModule: (id: string) => unknown;
}

const sha256 = (...parts: string[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
};

/** The folder of one contract's validators: keyed by the contract's text and the package's and Ajv's versions. */
export function validatorCacheDir(cacheDir: string, contractText: string, versions: { package: string; ajv: string }): string {
  return join(cacheDir, `validators-${sha256(ENTRY_FORMAT, versions.package, versions.ajv, contractText).slice(0, 32)}`);
}

/** An entry's text: a first line naming what it was compiled from and its code's hash, then the code. */
function entryText(sourceHash: string, code: string): string {
  return `// ${ENTRY_FORMAT} ${sourceHash} ${sha256(code)}\n${code}`;
}

/** The code of an entry compiled from `sourceHash`, undefined when the text is not one, or is torn or edited. */
function entryCode(text: string | undefined, sourceHash: string): string | undefined {
  if (text === undefined) return undefined;
  const newline = text.indexOf('\n');
  if (newline < 0) return undefined;
  const [slashes, format, source, codeHash, ...rest] = text.slice(0, newline).split(' ');
  if (slashes !== '//' || format !== ENTRY_FORMAT || source !== sourceHash || rest.length > 0) return undefined;
  const code = text.slice(newline + 1);
  return sha256(code) === codeHash ? code : undefined;
}

/** Evaluates standalone code (CommonJS) to its validator; undefined when it does not give a function. */
function evaluate(code: string, formats: object, requireModule: (id: string) => unknown): ValidateFunction | undefined {
  const require = (id: string): unknown => (id === FORMATS_MODULE ? formats : requireModule(id));
  const module: { exports: unknown } = { exports: {} };
  try {
    // Ajv evaluates its generated code the same way (new Function); this is the code it generated, checked above.
    new Function('require', 'module', 'exports', code)(require, module, module.exports);
  } catch {
    return undefined;
  }
  const fn = (module.exports as { default?: unknown }).default ?? module.exports;
  // Standalone validators are plain functions with Ajv's calling convention; what the contract's callers use of a
  // ValidateFunction is that call and `errors`, which they have.
  return typeof fn === 'function' ? (fn as ValidateFunction) : undefined;
}

/** Entries are files named by the operation: its id with anything but letters, digits, `-` and `_` replaced. */
const fileName = (id: string): string => `${id.replace(/[^A-Za-z0-9_-]/g, '_')}-${sha256(id).slice(0, 8)}.cjs`;

/**
 * A ValidatorCache in `dirs`. `ajv` must keep its generated code (a setup with `standalone: 'commonjs'`); failing to
 * write an entry is not an error (the validator compiled is returned all the same).
 */
export function validatorCache(options: ValidatorCacheOptions): ValidatorCache {
  const setups = new Map<AjvSetup, string>();
  // The formats the code names are those of an Ajv of the project's setup (ajv-formats' and the project's `tel` and
  // `double` alike), without making one: ajv-formats' module holds only its own, and a validator must check what
  // Ajv's does.
  const table = contractFormats();
  const formats = { fullFormats: table, fastFormats: table };
  return {
    compile(id, schema, ajv: LazyAjv) {
      let setup = setups.get(ajv.setup);
      if (setup === undefined) setups.set(ajv.setup, (setup = setupKey(ajv.setup)));
      const sourceHash = sha256(setup, JSON.stringify(schema));
      const name = fileName(id);
      for (const dir of options.dirs) {
        const code = entryCode(options.io.read(join(dir, name)), sourceHash);
        const cached = code === undefined ? undefined : evaluate(code, formats, options.requireModule);
        if (cached) return cached;
      }
      // A miss: only now is Ajv made (and its standalone code generator loaded).
      const instance = ajv.get();
      const compiled = instance.compile(schema);
      const writeDir = options.dirs.at(-1);
      if (writeDir === undefined) return compiled;
      try {
        // CommonJS with module.exports.default set to module.exports itself (as in ajv.ts).
        const standalone = (options.requireModule('ajv/dist/standalone/index.js') as typeof standaloneModule).default;
        options.io.write(join(writeDir, name), entryText(sourceHash, standalone(instance, compiled)));
      } catch {
        // A read-only node_modules, a full disk: the next process compiles again.
      }
      return compiled;
    },
  };
}
