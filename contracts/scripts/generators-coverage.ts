// `npm run generators:coverage`: how many constraints of the contract have a working generator.
// Prints `constraints with generators: N/M` (M counted from the contract's schemas), the breakdown by keyword and
// every constraint WordPress would not refuse on the wire, with its reason; exits 1 when N < M.
import { loadContractFile } from '../lib/loader.ts';
import { computeCoverage, formatCoverage, untypedParameters } from '../lib/arbitraries/coverage.ts';

const contract = loadContractFile(process.argv[2]);
const coverage = computeCoverage(contract, { samples: 3, seed: 1 });
console.log(formatCoverage(coverage, untypedParameters(contract)));
process.exitCode = coverage.covered < coverage.total ? 1 : 0;
