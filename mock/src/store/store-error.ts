// What the store says when it refuses a write; the mock maps `code` to the WordPress error.

type StoreErrorCode =
  | 'not_found'
  | 'invalid_value'
  | 'invalid_reference'
  | 'invalid_parent'
  | 'duplicate_slug'
  | 'term_exists'
  | 'already_trashed'
  | 'not_trashed'
  | 'conflict'
  | 'empty_content';

/** A write the store refused; `code` lets the mock pick the WordPress error it maps to. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly field?: string,
    /** The record a refusal names: the term a `term_exists` repeats. */
    readonly existing?: number,
  ) {
    super(message);
  }
}

/** A schema refusal naming the first problem's top-level field. */
export function invalid(def: string, problems: string[]): StoreError {
  const field = /^\/([^/ ]+)/.exec(problems[0] ?? '')?.[1];
  return new StoreError('invalid_value', `invalid ${def}: ${problems.slice(0, 5).join('; ')}`, field);
}

/** The input's keys whose value is not undefined (a caller's `{ slug: undefined }` means "not given"). */
export function stripUndefined(input: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(input)) {
    const v = (input as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}
