// What rest_validate_value_from_schema()'s walk (validate.ts) refuses values for: the one answer the mock's
// isEnforcedByWordPress() and the generators' wireStatus() ask, proven against the walk both ways in validate.test.ts.
import { toWpSchema } from './convert.ts';
import { WP_FORMATS } from './formats.ts';

/**
 * The keywords of a 2020-12 schema that the walk above refuses values for once the schema is converted to what a
 * site registers (toWpSchema(): `const` becomes a one-value `enum`, numeric exclusive bounds draft-04's flags).
 * Everything else (`not`, `dependentRequired`, `contains`, `if`...) WordPress's REST schema cannot say, so WordPress
 * never refuses a value for it. validate.test.ts proves each entry against the walk, both ways.
 */
export const WP_VALIDATED_KEYWORDS: ReadonlySet<string> = new Set([
  'type', 'enum', 'const', 'multipleOf', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength',
  'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'required', 'additionalProperties',
  'anyOf', 'oneOf',
]);

/**
 * Whether WordPress refuses a value for breaking this keyword of a 2020-12 schema (for `format`, the format's name:
 * only the formats of WP_FORMATS are checked, after the conversion's renaming, `ipv4` → `ip`).
 */
export function wpValidates(keyword: string, format?: unknown): boolean {
  if (keyword !== 'format') return WP_VALIDATED_KEYWORDS.has(keyword);
  const converted = typeof format === 'string' ? toWpSchema({ format }).format : undefined;
  return typeof converted === 'string' && Object.prototype.hasOwnProperty.call(WP_FORMATS, converted);
}
