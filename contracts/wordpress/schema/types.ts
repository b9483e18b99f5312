// The schema dialects the layer reads: JSON Schema 2020-12 as the contract writes it, and the draft-04-style arg
// schemas WordPress registers, validates with and prints (rest_get_allowed_schema_keywords()).

/** A JSON Schema (2020-12) object, as it stands in a dereferenced document. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON Schema is open-ended by design.
export type JsonSchema = { [keyword: string]: any };

/** A WordPress arg schema: JSON Schema draft-04 as WordPress reads it. */
export type WpSchema = { [keyword: string]: unknown };

/**
 * One WordPress error as rest_convert_error_to_response() renders it: `data` is null when the error has none. `D`
 * narrows `data` where it is known (a reader of answers takes an object or null).
 */
export interface WpError<D = unknown> {
  code: string;
  message: string;
  data: D;
}
