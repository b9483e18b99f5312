// The one Ajv setup (ajv-setup.ts) on Ajv imported here: for the code that uses Ajv whenever it runs (the generators,
// the mock's browser entry, the fixture model's build, the tests). The contract's loader in Node requires Ajv only
// when it has a validator to compile (loader.ts).
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { configureAjv, type AjvInstance, type AjvSetup } from './ajv-setup.ts';

export { isTel, TEL_RULE } from './ajv-setup.ts';

// ajv and ajv-formats are CommonJS. Under NodeNext, tsx and plain Node a default import of them is module.exports,
// one level above the real export, its `.default`; a bundler may hand out either, and both modules set
// module.exports.default to module.exports itself, so `.default` is right everywhere. (Not createRequire: that is
// node:module, and the mock's browser entry runs this file.)
const modules = { Ajv2020: Ajv2020Module.default, addFormats: addFormatsModule.default };

/** The project's one Ajv setup: the contract's validators and the fixture model's are compiled on instances of it. */
export function createAjv(setup: AjvSetup = {}): AjvInstance {
  return configureAjv(modules, setup);
}
