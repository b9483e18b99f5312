// The one Ajv setup, stated without loading Ajv: its options, its formats and its annotation keywords. ajv.ts builds
// Ajv on it (createAjv, for whoever imports Ajv anyway: the generators, the browser entry, the fixture model's build);
// loader.ts builds the same Ajv on it through require() only when a validator has to be compiled, so that a process
// whose validators all come from the validator cache (validator-cache.ts: a vitest file after the first) never loads
// Ajv (about 90 ms of CPU to import, 40 more to create). The cache keys its entries and evaluates them with what is
// here (setupKey, contractFormats): ajv-setup.test.ts holds both to what an Ajv built on this setup has.
import type { Ajv2020 as Ajv2020Class } from 'ajv/dist/2020.js';
import type addFormatsModule from 'ajv-formats';
import { fullFormats, type FormatName } from 'ajv-formats/dist/formats.js';
import type { Format } from 'ajv';

export type AjvInstance = Ajv2020Class;

/** The contract's own annotation keywords: carried through, never validated. */
const ANNOTATION_KEYWORDS = [
  'x-contradictions',
  'x-gaps',
  'x-format',
  'x-sensitive',
  'x-basis',
  'x-wire-enforced',
  'x-wire-note',
] as const;

/**
 * `tel` (cal/v1 organizer phone) has no standard definition. Rule stated here, once: an optional leading `+`,
 * then digits, spaces, hyphens, dots and parentheses, 3 to 32 characters in all, with at least 3 digits.
 */
export const TEL_RULE = /^\+?[0-9 ().-]{3,32}$/;
export function isTel(v: string): boolean {
  return TEL_RULE.test(v) && (v.match(/[0-9]/g)?.length ?? 0) >= 3;
}

/** How an Ajv is made: new Ajv2020(options), then ajv-formats' formats and the contract's own. */
interface AjvModules {
  Ajv2020: typeof Ajv2020Class;
  addFormats: typeof addFormatsModule.default;
}

export interface AjvSetup {
  /** Errors carry the failing schema and data (a message that quotes the schema's own description needs them). */
  verbose?: boolean;
  /**
   * Keep each compiled validator's source for Ajv's standalone code, as ES module text (`ajv/dist/standalone`):
   * what contracts/model/validators-source.ts writes to a file at build time; `'commonjs'`: as CommonJS text, what
   * validator-cache.ts keeps between processes and evaluates.
   */
  standalone?: boolean | 'commonjs';
  /**
   * Collect every error (the default), or stop at the first: Ajv builds an error object per failing value, so a
   * request with a million bad array items costs a million (contract.ts validateBounded() stops at the first).
   */
  allErrors?: boolean;
}

/** Ajv's options for `setup`. */
function ajvOptions(setup: AjvSetup) {
  // validateSchema: false. Checking each schema against JSON Schema 2020-12's meta-schema before compiling it first
  // compiles the meta-schema itself: 110-240 ms of the first request every mock start and every test file's mock
  // paid (more than the operation's own validator). The schemas are the contract's and the fixture model's, checked
  // against the meta-schema once, in their tests (contracts/test/contract.test.ts, contracts/model/model.test.ts);
  // strict mode still refuses an unknown keyword or a keyword's value of the wrong type at compile time.
  return {
    strict: true,
    allErrors: setup.allErrors ?? true,
    allowUnionTypes: true,
    validateFormats: true,
    validateSchema: false,
    verbose: setup.verbose ?? false,
    ...(setup.standalone === 'commonjs' ? { code: { source: true } } : setup.standalone ? { code: { source: true, esm: true, lines: true } } : {}),
  };
}

/** The contract's own formats, beside ajv-formats' full set. */
const OWN_FORMATS: Readonly<Record<'tel' | 'double', Format>> = {
  tel: { type: 'string', validate: isTel },
  // OpenAPI's `double` only says how wide the number is; any finite JSON number fits.
  double: { type: 'number', validate: (n: number) => Number.isFinite(n) },
};

/** Every format an Ajv of the project knows (its `formats`): ajv-formats' full set and the contract's own. */
export function contractFormats(): Record<FormatName | keyof typeof OWN_FORMATS, Format> {
  return { ...fullFormats, ...OWN_FORMATS };
}

/** Makes the project's Ajv for a setup: ajv-setup.ts's configureAjv() on Ajv imported (ajv.ts) or required (loader.ts). */
export type AjvFactory = (setup: AjvSetup) => AjvInstance;

/** An Ajv of `setup`, made by get() on its first call only: a contract whose validators all come from a cache makes none. */
export interface LazyAjv {
  readonly setup: AjvSetup;
  get(): AjvInstance;
}

export function lazyAjv(make: AjvFactory, setup: AjvSetup): LazyAjv {
  let made: AjvInstance | undefined;
  return { setup, get: () => (made ??= make(setup)) };
}

/** The project's one Ajv setup, on the Ajv modules given (imported by ajv.ts, required by loader.ts). */
export function configureAjv(modules: AjvModules, setup: AjvSetup = {}): AjvInstance {
  const ajv = new modules.Ajv2020(ajvOptions(setup));
  modules.addFormats(ajv);
  for (const [name, format] of Object.entries(OWN_FORMATS)) ajv.addFormat(name, format);
  ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  return ajv;
}

/**
 * The setup as text: Ajv's options, the formats and the annotation keywords. An entry of the validator cache compiled
 * on another setup (a format added, or made async, `allErrors` changed here) never meets this one; Ajv's own defaults
 * change with its version, which keys the cache's folder. Functions are named, not quoted: the code calls the formats
 * of contractFormats(), and a function's text differs between the build (tsc) and the sources (tsx).
 */
export function setupKey(setup: AjvSetup): string {
  // Objects met again (a module's `default` pointing at itself, as CommonJS ones do) are named, not walked again.
  const seen = new Set<object>();
  return JSON.stringify([ajvOptions(setup), contractFormats(), ANNOTATION_KEYWORDS], (_key, v: unknown) => {
    if (typeof v === 'function') return 'function';
    if (v instanceof RegExp) return `regexp ${String(v)}`;
    if (typeof v === 'object' && v !== null) {
      if (seen.has(v)) return '(seen)';
      seen.add(v);
    }
    return v;
  });
}
