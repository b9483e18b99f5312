// The one test for "a JSON object" (PHP's associative array as WordPress decodes it): not null, not an array, not a
// Map. Every layer that walks JSON values asks this one function.

/** Whether `v` is a JSON object (a plain key-value record), not null, an array or a Map. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map);
}
