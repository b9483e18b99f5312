// Public entry of the contract: load it, look operations up, validate requests the way WordPress reads them.
export { loadContract, loadContractFile, parseContract, DEFAULT_CONTRACT_PATH, requestSchemaFor, toIssues, wpParamName } from './loader.ts';
export type { Contract, ContractRoute, MatchResult, SchemaCheck } from './loader.ts';
export { coerceValue, wpParseList, isNumericString } from '../wordpress/schema/coerce.ts';
export { createAjv, isTel, TEL_RULE } from './ajv.ts';
export { wordpressFormatOf } from './wp-format.ts';
export * from './types.ts';
