// Every error rest_validate_value_from_schema() and rest_sanitize_value_from_schema() (wp-includes/rest-api.php,
// WordPress 6.1) report, with its code, its English message and its data, written once. The validator port
// (validate.ts) builds its errors here, and so does everything that phrases a refusal WordPress's way without running
// the port (the mock's invalidParams() for a constraint the contract holds more strictly than WordPress), so the two
// cannot word the same refusal differently.
import { isScalar, numberFormatI18n, phpIntFormat, phpStringCast, phpToFloat, wpJsonEncode, wpSprintfList } from '../php/index.ts';
import type { WpError, WpSchema } from './types.ts';

// Marks errors made here, so a sanitized value that merely looks like {code, message, data} is not one.
const WP_ERROR = Symbol('WpError');

/** A WP_Error of the validator: `data` is null when WordPress adds none. */
function wpSchemaError(code: string, message: string, data: unknown = null): WpError {
  const e = { code, message, data };
  Object.defineProperty(e, WP_ERROR, { value: true, enumerable: false });
  return e;
}

/** Whether a value is an error made by wpSchemaError() (a sanitizer's result may be one). */
export function isWpError(v: unknown): v is WpError {
  return v !== null && typeof v === 'object' && (v as { [WP_ERROR]?: boolean })[WP_ERROR] === true;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** How a type list prints: `integer`, `string,null`. */
function typeText(type: unknown): string {
  return Array.isArray(type) ? type.map(phpStringCast).join(',') : phpStringCast(type);
}

/** How rest_validate_enum() prints an allowed value: scalars as PHP strings, anything else as JSON. */
function enumValueText(v: unknown): string {
  return isScalar(v) ? phpStringCast(v) : wpJsonEncode(v);
}

/** A count bound's message: `per_page must contain at most 1,000 items.` (number_format_i18n(), _n()). */
function counted(code: string, verb: string, one: string, many: string, tail = '') {
  return (param: string, limit: unknown): WpError => {
    const n = phpToFloat(limit);
    return wpSchemaError(code, `${param} must ${verb} ${numberFormatI18n(n)} ${plural(n, one, many)}${tail}.`);
  };
}

const inclusive = (ex: unknown) => (ex ? 'exclusive' : 'inclusive');

/** The failures of a value against its schema, by what failed. `param` is the value's name (`per_page`, `requests[0][method]`). */
export const WP_SCHEMA_ERRORS = {
  /** rest_invalid_type: `type` (a list prints comma-joined). */
  type: (param: string, type: unknown) => wpSchemaError('rest_invalid_type', `${param} is not of type ${typeText(type)}.`, { param }),
  /** rest_not_in_enum: `enum` (a `const` is a one-value enum to WordPress). */
  enum: (param: string, allowed: readonly unknown[]) => {
    const texts = allowed.map(enumValueText);
    return texts.length === 1
      ? wpSchemaError('rest_not_in_enum', `${param} is not ${texts[0]}.`)
      : wpSchemaError('rest_not_in_enum', `${param} is not one of ${wpSprintfList(texts)}.`);
  },
  /** rest_invalid_multiple: `multipleOf`. */
  multipleOf: (param: string, multipleOf: unknown) => wpSchemaError('rest_invalid_multiple', `${param} must be a multiple of ${phpStringCast(multipleOf)}.`),
  /**
   * rest_out_of_bounds: `minimum`/`maximum` in draft-04 form (exclusiveMinimum/Maximum as booleans). The wording
   * depends on which bounds the schema has, not on which one was crossed; bounds print as sprintf('%d').
   */
  bounds: (param: string, s: WpSchema) => {
    const hasMin = s.minimum !== undefined && s.minimum !== null;
    const hasMax = s.maximum !== undefined && s.maximum !== null;
    const dMin = phpIntFormat(s.minimum);
    const dMax = phpIntFormat(s.maximum);
    if (hasMin && hasMax) return wpSchemaError('rest_out_of_bounds', `${param} must be between ${dMin} (${inclusive(s.exclusiveMinimum)}) and ${dMax} (${inclusive(s.exclusiveMaximum)})`);
    if (hasMin) return wpSchemaError('rest_out_of_bounds', s.exclusiveMinimum ? `${param} must be greater than ${dMin}` : `${param} must be greater than or equal to ${dMin}`);
    return wpSchemaError('rest_out_of_bounds', s.exclusiveMaximum ? `${param} must be less than ${dMax}` : `${param} must be less than or equal to ${dMax}`);
  },
  /** rest_too_short / rest_too_long: `minLength` / `maxLength`, counted in characters. */
  minLength: counted('rest_too_short', 'be at least', 'character', 'characters', ' long'),
  maxLength: counted('rest_too_long', 'be at most', 'character', 'characters', ' long'),
  /** rest_invalid_pattern: `pattern`, printed as registered. */
  pattern: (param: string, pattern: unknown) => wpSchemaError('rest_invalid_pattern', `${param} does not match pattern ${phpStringCast(pattern)}.`),
  minItems: counted('rest_too_few_items', 'contain at least', 'item', 'items'),
  maxItems: counted('rest_too_many_items', 'contain at most', 'item', 'items'),
  uniqueItems: (param: string) => wpSchemaError('rest_duplicate_items', `${param} has duplicate items.`),
  minProperties: counted('rest_too_few_properties', 'contain at least', 'property', 'properties'),
  maxProperties: counted('rest_too_many_properties', 'contain at most', 'property', 'properties'),
  /** rest_property_required: a `required` property of an object value (a missing top-level arg is the REST server's rest_missing_callback_param). */
  required: (param: string, property: unknown) => wpSchemaError('rest_property_required', `${phpStringCast(property)} is a required property of ${param}.`),
  /** rest_additional_properties_forbidden: WordPress names the property and calls every object "Object". */
  additionalProperties: (property: unknown) => wpSchemaError('rest_additional_properties_forbidden', `${phpStringCast(property)} is not a valid property of Object.`),
  /** rest_no_matching_schema for one failing branch (or the branch WordPress picks among several): its reason and position. */
  branch: (param: string, title: unknown, reason: string, position: number) =>
    title !== undefined
      ? wpSchemaError('rest_no_matching_schema', `${param} is not a valid ${phpStringCast(title)}. Reason: ${reason}`, { position })
      : wpSchemaError('rest_no_matching_schema', `${param} does not match the expected format. Reason: ${reason}`, { position }),
  /** rest_no_matching_schema when no branch is singled out: the branches' titles when every one has a title. */
  noBranch: (param: string, titles: readonly unknown[] | null) =>
    titles
      ? wpSchemaError('rest_no_matching_schema', `${param} is not a valid ${wpSprintfList(titles.map(phpStringCast))}.`)
      : wpSchemaError('rest_no_matching_schema', `${param} does not match any of the expected formats.`),
  /** rest_one_of_multiple_matches: a `oneOf` value several branches accept. */
  oneOfMany: (param: string, titles: readonly unknown[] | null, positions: number[]) =>
    titles
      ? wpSchemaError('rest_one_of_multiple_matches', `${param} matches ${wpSprintfList(titles.map(phpStringCast))}, but should match only one.`, { positions })
      : wpSchemaError('rest_one_of_multiple_matches', `${param} matches more than one of the expected formats.`, { positions }),
} as const;

/** The error of each `format` WordPress checks (rest_validate_value_from_schema()'s switch); formats not listed are not checked. */
export const WP_FORMAT_ERRORS: Readonly<Record<string, (param: string) => WpError>> = {
  'hex-color': () => wpSchemaError('rest_invalid_hex_color', 'Invalid hex color.'),
  'date-time': () => wpSchemaError('rest_invalid_date', 'Invalid date.'),
  email: () => wpSchemaError('rest_invalid_email', 'Invalid email address.'),
  ip: (param) => wpSchemaError('rest_invalid_ip', `${param} is not a valid IP address.`),
  uuid: (param) => wpSchemaError('rest_invalid_uuid', `${param} is not a valid UUID.`),
};
