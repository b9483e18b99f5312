// Public entry of the generators (`site-contracts/arbitraries`): fast-check arbitraries of valid requests and of
// requests that break exactly one constraint, for any operation of the loaded contract, plus the helpers to
// send them (toUrl, encodeBody) and to validate them the way WordPress reads them (toTyped).
import fc from 'fast-check';
import type { Contract } from '../loader.ts';
import type { Operation } from '../types.ts';
import type { Constraint, Violation, WireRequest } from './model.ts';
import { allConstraints as allOf, constraintsOf as constraintsOfOp } from './constraints.ts';
import { validRequestArb, type ValidRequestOptions } from './requests.ts';
import { isGenerator, violationArb } from './violations.ts';

export type { Constraint, Encoding, BodyEncoding, ExpectedIssue, Violation, WireBody, WireRequest, WireStatus, WireValue } from './model.ts';
export type { ValidRequestOptions } from './requests.ts';
export type { WireStyle } from './wire.ts';
export { toTyped, toUrl, encodeBody, queryString, bodyValues } from './wire.ts';
export { encodePhpQuery, parsePhpQuery } from './php-query.ts';
export { assertProperty, seedFromEnv, freshSeed, PropertyFailure, type RunOptions } from './replay.ts';
export { computeCoverage, formatCoverage, expectedIssues, reportedIssues } from './coverage.ts';
export { valueArb, type ValueHints } from './values.ts';
export { edgeCases, edgePlan, documentedDefaults, EDGE_STYLE, type EdgeCase, type EdgeFamily, type EdgeFilter, type DroppedEdge } from './edges.ts';
export { plausibleValue, plausibleSchema, textKind, type TextKind } from './plausible.ts';

function operationOf(contract: Contract, op: Operation | string): Operation {
  return typeof op === 'string' ? contract.operation(op) : op;
}

/** What a caller passed where the contract belongs, named, for a TypeError that says what to pass instead. */
function describeArg(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'string') return `the string "${value.slice(0, 60)}"`;
  if (typeof value === 'object') return `an object with keys ${Object.keys(value).slice(0, 5).join(', ') || '(none)'}`;
  return `a ${typeof value}`;
}

/**
 * The generators' first argument is the loaded contract; JavaScript callers (and `as any`) can pass anything, and
 * the failure deep inside (`contract.operation is not a function`) would not say what was expected.
 */
function requireContract(fn: string, contract: unknown): asserts contract is Contract {
  if (typeof (contract as Partial<Contract> | null | undefined)?.operation === 'function') return;
  throw new TypeError(
    `${fn}(contract, ...): the first argument must be the loaded contract, got ${describeArg(contract)}. ` +
      `Pass loadContractFile() from 'site-contracts': import { loadContractFile } from 'site-contracts'; ${fn}(loadContractFile(), 'getCalV1Events')`,
  );
}

/**
 * Complete valid requests for an operation: every required parameter, any of the optional ones, path parameters
 * filled in, the body as JSON or as a form, in any spelling WordPress accepts ("5" for an integer, `1`/`TRUE` for a
 * boolean, `a=1,2` or `a[]=1&a[]=2` for a list). Each passes `contract.validate(op, toTyped(op, request))`.
 *
 * @example fc.assert(fc.property(validRequest(contract, 'getCalV1Events'), (req) => { ... }))
 */
export function validRequest(contract: Contract, operationId: string, opts: ValidRequestOptions = {}): fc.Arbitrary<WireRequest> {
  requireContract('validRequest', contract);
  return validRequestArb(contract.operation(operationId), opts);
}

/**
 * Requests that break exactly one constraint (see constraintsOf for the ids) and satisfy every other.
 * `violation.expected` is what the contract's validator reports: keyword and instancePath. Whether WordPress itself
 * answers 400 is the constraint's `wire.kind` ('wire', or 'contract-only' with the reason).
 * Throws when no request can break the constraint (its `wire.kind` is 'not-applicable'; the error gives the reason).
 *
 * @example violatingRequest(contract, 'getCalV1Events', 'getCalV1Events query.per_page maximum')
 */
export function violatingRequest(contract: Contract, operationId: string, constraintId: string): fc.Arbitrary<Violation> {
  requireContract('violatingRequest', contract);
  const constraint = constraintsOfOp(contract, contract.operation(operationId)).find((c) => c.id === constraintId);
  if (!constraint) throw new Error(`no constraint "${constraintId}" in ${operationId}; see constraintsOf(contract, '${operationId}')`);
  const arb = violationArb(contract, constraint);
  if (!isGenerator(arb)) throw new Error(`${constraintId} cannot be violated: ${arb.reason}`);
  return arb;
}

/**
 * Requests that break one constraint of the operation, any of them — by default only those WordPress itself refuses
 * (`wireOnly: true`). Undefined when the operation has none.
 */
export function anyViolation(contract: Contract, operationId: string, opts: { wireOnly?: boolean } = {}): fc.Arbitrary<Violation> | undefined {
  requireContract('anyViolation', contract);
  const wireOnly = opts.wireOnly ?? true;
  const arbs = constraintsOfOp(contract, contract.operation(operationId))
    .filter((c) => (wireOnly ? c.wire.kind === 'wire' : c.wire.kind !== 'not-applicable'))
    .map((c) => violationArb(contract, c))
    .filter(isGenerator);
  if (arbs.length === 0) return undefined;
  return fc.oneof(...arbs);
}

/** The constraints of one operation (by id or object): each with its id, keyword, place and wire status. */
export function constraintsOf(contract: Contract, op: Operation | string): Constraint[] {
  requireContract('constraintsOf', contract);
  return constraintsOfOp(contract, operationOf(contract, op));
}

/** Every constraint of the contract, counted from its schemas. */
export function allConstraints(contract: Contract): Constraint[] {
  requireContract('allConstraints', contract);
  return allOf(contract);
}
