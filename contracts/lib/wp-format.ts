// The `format` WordPress registers for a format the documents give exactly. The contract spells such a format as an
// exact `pattern` named by `x-format`; a WordPress plugin registers the nearest built-in format instead, prints that
// in its route descriptor and refuses a value with that format's error. cal/v1's RFC 3339 date-time is the posts
// controller's `date-time`: WordPress checks it with rest_parse_date() and refuses with rest_invalid_date.
import type { JsonSchema } from './types.ts';

const WORDPRESS_FORMATS: Readonly<Record<string, string>> = { 'cal-date-time': 'date-time' };

/** The WordPress `format` standing for this schema's `x-format` (then without its pattern), if there is one. */
export function wordpressFormatOf(schema: JsonSchema): string | undefined {
  const x = schema['x-format'];
  return typeof x === 'string' ? WORDPRESS_FORMATS[x] : undefined;
}

