// The contract's own doubts, applied to findings: where the documents can be read two ways and the
// other reading would allow what the server did, or where the target's descriptor does not list a
// parameter at all, a deviation is reported at severity `assumed` with the reason instead of failing
// the run. The finding stays in the report either way.

import type { Contract } from '../../../../contracts/lib/loader.ts';
import { coerceValue } from '../../../../contracts/wordpress/schema/coerce.ts';
import type { JsonSchema, Operation, ParamLocation } from '../../../../contracts/lib/types.ts';
import { declaresArg, type LiveDescriptor } from '../../diff/descriptor.ts';

/** x-contradictions kind: typed, described as a format, no format given. */
const LOOSE_FORMAT = 'loose-format';

/** Whether a reading's schema takes the typed value; a schema the contract cannot compile on its own says nothing sure (takes it). */
function readingTakes(contract: Contract, schema: JsonSchema, value: unknown): boolean {
  const check = contract.readingCheck(schema);
  return check === undefined || check(coerceValue(schema, value)).length === 0;
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
        if (!r.schema || readingTakes(contract, r.schema, value)) {
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
      if (!readingTakes(contract, r.schema, value)) {
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

/** x-gaps kinds saying the documents leave a parameter's allowed values open. */
const OPEN_VALUES = new Set(['status-values', 'allowed-values', 'value-form']);

/** Upper end of the range WordPress's own collection parameters allow (per_page maximum 100). */
const WP_COLLECTION_MAX = 100;

/**
 * Last words of a parameter's name that say its value names one of the site's own things (a module, an object type, a
 * wizard step, a language code...), not free text: `module`, `objectType`, `sourceLanguageCode`, `enable_tracking`.
 */
const NAMING_WORDS: ReadonlySet<string> = new Set(['type', 'kind', 'module', 'action', 'step', 'context', 'domain', 'plan', 'product', 'priority', 'code', 'mode', 'view', 'tracking', 'id']);

/** The last word of a parameter's name, camelCase and snake_case alike (`objectType` → type). */
function lastWord(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[\s_-]+/).at(-1)!.toLowerCase();
}

/**
 * Why a site may refuse a value the contract calls valid without contradicting any sentence of the documents:
 * the parameter is untyped, its allowed values are left open ("allowed values: not shown", "ID or URL"), it is
 * tied to an extension the site may lack, or the value lies outside a bound the documents never give (a negative
 * legacy `page`). Such a refusal is reported at `assumed` with this reason, never as a documented failure.
 */
export function openValue(op: Operation, location: ParamLocation, param: string, value: unknown): string | undefined {
  const spec = op.params.find((p) => p.in === location && p.name === param);
  if (!spec) return undefined;
  if (spec.schema.type === undefined && !Array.isArray(spec.schema.enum)) return `the documents give ${param} no type, so no value of it is documented as valid`;
  const open = spec.gaps.find((g) => OPEN_VALUES.has(g.kind));
  if (open) return `the documents leave ${param}'s values open (${open.note} ${open.source})`;
  // "Valid" means the documents say so: a free string that names one of the site's own things (a module, an object
  // type) is valid only where the site has it, and the documents list none of them.
  if (t0(spec.schema) === 'string' && !Array.isArray(spec.schema.enum) && spec.schema.pattern === undefined && spec.schema.format === undefined && NAMING_WORDS.has(lastWord(param))) {
    return `the documents give ${param} as a string without listing its values, and its name says it names one of the site's own (a ${lastWord(param)}): which ones the site has is not shown, so no value of it is documented as valid`;
  }
  const ext = spec.gaps.find((g) => g.kind === 'needs-extension');
  if (ext) return `the documents tie ${param} to an extension the site may not have (${ext.note} ${ext.source})`;
  const t = spec.schema.type;
  if ((t === 'integer' || t === 'number') && typeof value === 'number') {
    const bound = op.gaps.find((g) => g.kind === 'page-min' || g.kind === 'per-page-max');
    const where = bound ? ` (${bound.note} ${bound.source})` : '';
    if (spec.schema.minimum === undefined && spec.schema.exclusiveMinimum === undefined && value < 1) return `the documents give ${param} no minimum${where}, so a value below 1 is valid only because nothing is said`;
    if (spec.schema.maximum === undefined && spec.schema.exclusiveMaximum === undefined && value > WP_COLLECTION_MAX && /^(per_page|limit)$/.test(param)) {
      return `the documents give ${param} no maximum${where}, so a value above ${WP_COLLECTION_MAX} is valid only because nothing is said`;
    }
  }
  return undefined;
}

/** A schema's one type, undefined for none or several. */
function t0(schema: JsonSchema): string | undefined {
  return typeof schema.type === 'string' ? schema.type : undefined;
}

/** The target's descriptor lists the route and method but not this parameter: WordPress ignores unknown parameters. */
export function undeclared(descriptor: LiveDescriptor, op: Operation, param: string): string | undefined {
  if (declaresArg(descriptor, op.path, op.method, param) !== false) return undefined;
  return `the target's descriptor does not list ${param} for ${op.method} ${op.path}, and WordPress ignores parameters a route does not declare; \`site-contracts diff\` reports the missing argument`;
}

/**
 * Where another reading of the documents lets a list of IDs also carry names or records ("category ID or name",
 * "venue IDs or data", 000 §2.1), a write sending anything but an ID may make the site create the record it names
 * (a term called "1x"), which carries no marker of the run and could not be found to remove. Says which reading.
 */
export function readingCreatesRecords(op: Operation, location: ParamLocation, param: string): string | undefined {
  const spec = op.params.find((p) => p.in === location && p.name === param);
  for (const c of spec?.contradictions ?? []) {
    for (const [i, r] of c.readings.entries()) {
      if (i === c.chosen || r.schema?.['type'] !== 'array') continue;
      const t = (r.schema['items'] as JsonSchema | undefined)?.['type'];
      const types = Array.isArray(t) ? t : [t];
      if (types.includes('integer') && (types.includes('string') || types.includes('object'))) return `"${r.reading}", ${c.source}`;
    }
  }
  return undefined;
}
