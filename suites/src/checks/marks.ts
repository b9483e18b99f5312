// The contract's own doubts, applied to findings: where the documents can be read two ways and the
// other reading would allow what the server did, or where the target's descriptor does not list a
// parameter at all, a deviation is reported at severity `assumed` with the reason instead of failing
// the run. The finding stays in the report either way.

import type { Contract } from '../../../contracts/src/loader.ts';
import { coerceValue } from '../../../contracts/src/coerce.ts';
import type { JsonSchema, Operation, ParamLocation } from '../../../contracts/src/types.ts';
import { declaresArg, type LiveDescriptor } from '../diff/descriptor.ts';

/** x-contradictions kind: typed, described as a format, no format given. */
export const LOOSE_FORMAT = 'loose-format';

const compiled = new WeakMap<object, Map<string, (v: unknown) => boolean>>();

function validator(contract: Contract, schema: JsonSchema): (v: unknown) => boolean {
  let cache = compiled.get(contract);
  if (!cache) {
    cache = new Map();
    compiled.set(contract, cache);
  }
  const key = JSON.stringify(schema);
  let fn = cache.get(key);
  if (!fn) {
    try {
      const v = contract.ajv.compile(schema);
      fn = (x) => v(x) === true;
    } catch {
      // A reading's schema that does not compile on its own (a bare $ref target) says nothing sure.
      fn = () => true;
    }
    cache.set(key, fn);
  }
  return fn;
}

/**
 * Why a value of `param` that the chosen reading refuses may still be right: another reading of the
 * documents accepts it. `value` is the typed value (undefined when the parameter was left out).
 */
export function otherReadingAllows(contract: Contract, op: Operation, location: ParamLocation, param: string, value: unknown, absent: boolean): string | undefined {
  const spec = op.params.find((p) => p.in === location && p.name === param);
  if (!spec) return undefined;
  if (!absent) {
    for (const c of spec.contradictions) {
      for (const [i, r] of c.readings.entries()) {
        if (i === c.chosen) continue;
        if (!r.schema || validator(contract, r.schema)(coerceValue(r.schema, value))) {
          return `the documents can be read another way (${c.kind}: "${r.reading}"), and under that reading this value is valid`;
        }
      }
    }
    return undefined;
  }
  // Left out: an operation-level reading with its own `required` list that does not name it.
  for (const c of op.contradictions) {
    for (const [i, r] of c.readings.entries()) {
      if (i === c.chosen || !r.schema || !Array.isArray(r.schema['required'])) continue;
      if (!(r.schema['required'] as string[]).includes(param)) {
        return `the documents can be read another way (${c.kind}: "${r.reading}"), under which ${param} is optional`;
      }
    }
  }
  return undefined;
}

/**
 * Why a value the chosen reading accepts may still be refused: another reading of the documents refuses it.
 * A `loose-format` mark says the documents describe a format without giving it; its other readings are that
 * narrower format. When such a reading has no schema the suite cannot tell whether it accepts the value, so
 * the value may be invalid under it (the contract could make this exact by giving the reading a schema).
 * Other readings without a schema (e.g. "the type admits null") only widen what is accepted.
 */
export function otherReadingRefuses(contract: Contract, op: Operation, location: ParamLocation, param: string, value: unknown): string | undefined {
  const spec = op.params.find((p) => p.in === location && p.name === param);
  if (!spec || value === undefined) return undefined;
  for (const c of spec.contradictions) {
    for (const [i, r] of c.readings.entries()) {
      if (i === c.chosen) continue;
      if (!r.schema) {
        if (c.kind === LOOSE_FORMAT) {
          return `the documents can be read another way (${c.kind}: "${r.reading}"), a format the contract gives no schema for, so this value may be invalid under it`;
        }
        continue;
      }
      if (!validator(contract, r.schema)(coerceValue(r.schema, value))) {
        return `the documents can be read another way (${c.kind}: "${r.reading}"), and under that reading this value is invalid`;
      }
    }
  }
  return undefined;
}

/** Whether another reading of the documents requires a parameter the chosen one leaves optional. */
export function otherReadingRequires(op: Operation, param: string): string | undefined {
  for (const c of op.contradictions) {
    for (const [i, r] of c.readings.entries()) {
      if (i === c.chosen || !r.schema || !Array.isArray(r.schema['required'])) continue;
      if ((r.schema['required'] as string[]).includes(param)) return `the documents can be read another way (${c.kind}: "${r.reading}")`;
    }
  }
  return undefined;
}

/** The target's descriptor lists the route and method but not this parameter: WordPress ignores unknown parameters. */
export function undeclared(descriptor: LiveDescriptor, op: Operation, param: string): string | undefined {
  if (declaresArg(descriptor, op.path, op.method, param) !== false) return undefined;
  return `the target's descriptor does not list ${param} for ${op.method} ${op.path}, and WordPress ignores parameters a route does not declare; \`site-contracts diff\` reports the missing argument`;
}
