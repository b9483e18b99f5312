// The one Ajv setup: JSON Schema 2020-12, strict, with the formats the contract uses. Each loaded contract compiles
// its validators on an instance of it; the fixture model (contracts/model/check.ts) on one of its own.
import Ajv2020Module, { type Ajv2020 as Ajv2020Class } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv and ajv-formats are CommonJS. Under NodeNext, tsx and plain Node a default import of them is module.exports,
// one level above the real export, its `.default`; a bundler may hand out either, and both modules set
// module.exports.default to module.exports itself, so `.default` is right everywhere. (Not createRequire: that is
// node:module, and the mock's browser entry runs this file.)
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
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

interface AjvSetup {
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

/** The project's one Ajv setup: the contract's validators and the fixture model's are compiled on instances of it. */
export function createAjv(setup: AjvSetup = {}): AjvInstance {
  // validateSchema: false. Checking each schema against JSON Schema 2020-12's meta-schema before compiling it first
  // compiles the meta-schema itself: 110-240 ms of the first request every mock start and every test file's mock
  // paid (more than the operation's own validator). The schemas are the contract's and the fixture model's, checked
  // against the meta-schema once, in their tests (contracts/test/contract.test.ts, contracts/model/model.test.ts);
  // strict mode still refuses an unknown keyword or a keyword's value of the wrong type at compile time.
  const ajv = new Ajv2020({
    strict: true,
    allErrors: setup.allErrors ?? true,
    allowUnionTypes: true,
    validateFormats: true,
    validateSchema: false,
    verbose: setup.verbose ?? false,
    ...(setup.standalone === 'commonjs' ? { code: { source: true } } : setup.standalone ? { code: { source: true, esm: true, lines: true } } : {}),
  });
  addFormats(ajv);
  ajv.addFormat('tel', { type: 'string', validate: isTel });
  // OpenAPI's `double` only says how wide the number is; any finite JSON number fits.
  ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  ajv.addVocabulary([...ANNOTATION_KEYWORDS]);
  return ajv;
}
