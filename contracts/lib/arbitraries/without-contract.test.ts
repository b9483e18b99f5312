// Called without the contract (a JavaScript caller, or the operation id first), each generator says what to pass
// instead of failing deep inside with `contract.operation is not a function`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../loader.ts';
import { allConstraints, anyViolation, constraintsOf, validRequest, violatingRequest } from './index.ts';

const contract = loadContractFile();
// The wrong first arguments a JavaScript caller passes; typed as the contract on purpose, to reach the run-time check.
type Any = Parameters<typeof validRequest>[0];
const wrong = (v: unknown) => v as Any;

describe('the generators without a contract', () => {
  it('work with the loaded contract', () => {
    expect(fc.sample(validRequest(contract, 'getCalV1Events'), 1)).toHaveLength(1);
    expect(constraintsOf(contract, 'getCalV1Events').length).toBeGreaterThan(0);
  });

  it.each([
    ['validRequest', () => validRequest(wrong('getCalV1Events'), 'getCalV1Events'), 'the string "getCalV1Events"'],
    ['validRequest', () => validRequest(wrong(undefined), 'getCalV1Events'), 'undefined'],
    ['violatingRequest', () => violatingRequest(wrong({ paths: {} }), 'getCalV1Events', 'x'), 'an object with keys paths'],
    ['anyViolation', () => anyViolation(wrong(null), 'getCalV1Events'), 'null'],
    ['constraintsOf', () => constraintsOf(wrong(42), 'getCalV1Events'), 'a number'],
    ['allConstraints', () => allConstraints(wrong(undefined)), 'undefined'],
  ])('%s says to pass loadContractFile()', (fn, call, got) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(`${fn}(contract, ...): the first argument must be the loaded contract, got ${got}. Pass loadContractFile() from 'site-contracts'`);
  });
});
