// The contract read from disk (contracts/openapi.yaml), plus everything contract.ts exports: parsing, dereferencing,
// routing and validators live there, without file access, so that the mock's browser entry can use them.
import { readFileSync } from 'node:fs';
import { loadContract, parseContract, type Contract } from './contract.ts';
import { packagePath } from './package-root.ts';

export * from './contract.ts';

export const DEFAULT_CONTRACT_PATH = packagePath('contracts/openapi.yaml');

/** Load the bundled contract from disk (default: contracts/openapi.yaml). */
export function loadContractFile(path: string = DEFAULT_CONTRACT_PATH, read: (p: string) => string = (p) => readFileSync(p, 'utf8')): Contract {
  return loadContract(parseContract(read(path)));
}
