// A request's validation with work bounded by the request's size, not by how many of its values fail. The contract's
// validate() collects every error (Ajv's allErrors), which is what the generators' and the suites' tests want, but it
// builds an error object per failing value: a 4 MB body `{"tags":["a","a",...]}` made a million of them and held the
// mock 16 s (and a million-item issue list is worth no more to an answer than its first item). Here: one pass that
// stops at the first error says whether the request is valid at all; only an invalid one is looked at param by
// param, each param's value with a validator that stops at its first error, plus the missing required params of each
// location (all of them, as a 400 lists them). Same validity, same failing params as validate(), one issue each.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { LazyAjv } from './ajv-setup.ts';
import type { JsonSchema, Operation, ParamLocation } from './types.ts';

type RequestInput = Partial<Record<ParamLocation, Record<string, unknown>>>;

export interface BoundedValidator {
  /** Ajv's errors, as validate() would put them in the issue list; empty when the request is valid. */
  errors(input: RequestInput): ErrorObject[];
}

type LocationSchema = (op: Operation, location: ParamLocation) => JsonSchema;

/**
 * `whole` is the operation's request schema compiled on `first` (an Ajv without allErrors); `first` compiles each
 * param's check when a request first fails on it, `all` each operation's presence check (required, dependentRequired).
 */
export function boundedValidator(op: Operation, whole: ValidateFunction, first: LazyAjv, all: LazyAjv, locationSchema: LocationSchema): BoundedValidator {
  const locations: ParamLocation[] = op.bodySchema ? ['path', 'query', 'body'] : ['path', 'query'];
  let presence: ValidateFunction | undefined;
  const params = new Map<string, ValidateFunction>();

  const presenceCheck = (): ValidateFunction => {
    if (presence) return presence;
    const properties: Record<string, JsonSchema> = {};
    for (const loc of locations) {
      const { properties: own, required, dependentRequired } = locationSchema(op, loc);
      // Each param as `{}` (anything): Ajv's strict mode wants every required name among the properties.
      const names = Object.fromEntries(Object.keys((own ?? {}) as object).map((n) => [n, {}]));
      properties[loc] = { type: 'object', properties: names, ...(required ? { required } : {}), ...(dependentRequired ? { dependentRequired } : {}) };
    }
    presence = all.get().compile({ type: 'object', properties });
    return presence;
  };

  /** The param's own schema, placed where it is in the request, so Ajv's instancePath is the one validate() gives. */
  const paramCheck = (loc: ParamLocation, name: string, schema: JsonSchema): ValidateFunction => {
    const key = `${loc}\u0000${name}`;
    let v = params.get(key);
    if (!v) {
      v = first.get().compile({ type: 'object', properties: { [loc]: { type: 'object', properties: { [name]: schema } } } });
      params.set(key, v);
    }
    return v;
  };

  return {
    errors(input) {
      if (whole(input)) return [];
      const out: ErrorObject[] = [];
      const p = presenceCheck();
      if (!p(input)) out.push(...(p.errors ?? []));
      for (const spec of op.params) {
        const bucket = input[spec.in];
        if (!bucket || !Object.prototype.hasOwnProperty.call(bucket, spec.name)) continue;
        const v = paramCheck(spec.in, spec.name, spec.schema);
        if (!v(input)) out.push(...(v.errors ?? []));
      }
      return out;
    },
  };
}
