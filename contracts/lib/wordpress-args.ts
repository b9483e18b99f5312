// The contract's parameters and schemas as a WordPress site registers them: arg schemas in WordPress's draft-04 form
// (the WordPress layer's conversion, contracts/wordpress/schema/convert.ts) with the contract's exact formats
// (wp-format.ts), the args of an endpoint, and a route's item schema. The mock's validation and descriptors use these.
import { toWpArg, toWpItemSchema, toWpSchema, type ToWpSchemaOptions } from '../wordpress/schema/convert.ts';
import type { WpSchema } from '../wordpress/schema/types.ts';
import type { JsonSchema, ParamSpec } from './types.ts';
import { wordpressFormatOf } from './wp-format.ts';

/** A schema of the contract as the WordPress arg schema a site registers for it. */
export function wordpressSchemaOf(schema: JsonSchema, opts: Omit<ToWpSchemaOptions, 'formatOf'> = {}): WpSchema {
  return toWpSchema(schema, { ...opts, formatOf: wordpressFormatOf });
}

/** One entry of an endpoint's `args` as WordPress prints it, for a parameter of the contract. */
function wordpressArgOf(schema: JsonSchema, required: boolean): WpSchema {
  return toWpArg(schema, required, { formatOf: wordpressFormatOf });
}

/**
 * The args of one endpoint from the contract's parameters (path, query and body alike, as WordPress merges them),
 * each converted with wordpressArgOf() (draft-04 bounds, `required` boolean last); a name given twice keeps the first.
 */
export function argsFromParams(params: readonly Pick<ParamSpec, 'name' | 'schema' | 'required'>[]): Record<string, WpSchema> {
  const out: Record<string, WpSchema> = {};
  for (const p of params) if (!(p.name in out)) out[p.name] = wordpressArgOf(p.schema, p.required);
  return out;
}

/** A record schema of the contract as the item schema a route prints in OPTIONS. */
export function itemSchemaOf(schema: JsonSchema, title?: string): WpSchema {
  return toWpItemSchema(schema, title, { formatOf: wordpressFormatOf });
}
