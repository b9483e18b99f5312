// PHP arrays as request parsing builds them ($_GET, $_POST, json_decode($s, true)) and the JavaScript views of them.
// A Map keeps PHP's insertion order, which a JS object cannot for integer keys.

/** A PHP array key: numeric strings become integers, as zend_symtable does. */
export type PhpKey = string | number;
/** A PHP array as request parsing builds it. */
export type PhpArray = Map<PhpKey, PhpInput>;
/** What $_GET / $_POST / parse_str() can hold: strings and nested arrays, nothing else. */
export type PhpInput = string | PhpArray;

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** The key PHP stores for a string key ("5" → 5, "05", "-0" and "5 " stay strings). */
export function phpArrayKey(key: string): PhpKey {
  if (!/^(0|-?[1-9][0-9]*)$/.test(key)) return key;
  const big = BigInt(key);
  if (big > INT64_MAX || big < INT64_MIN) return key;
  // Keys beyond 2^53 cannot be held exactly by a JS number; keeping them as strings is the least wrong.
  return Number.isSafeInteger(Number(key)) ? Number(key) : key;
}

/** json_encode()'s list test: keys are exactly 0..n-1 in order. */
export function isPhpList(a: Map<PhpKey, unknown>): boolean {
  let i = 0;
  for (const k of a.keys()) if (k !== i++) return false;
  return true;
}

/** Plain JS view of a PHP value: lists become arrays, other arrays objects (integer-key order is then JS's, not PHP's). */
export function phpToJs(v: unknown): unknown {
  if (v instanceof Map) {
    if (isPhpList(v as PhpArray)) return [...v.values()].map(phpToJs);
    const o: Record<string, unknown> = {};
    for (const [k, val] of v) Object.defineProperty(o, String(k), { value: phpToJs(val), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return v;
}

/** A JS value seen as a PHP array (JSON objects decode to arrays with numeric-string keys turned into integers). */
export function jsToPhpArray(v: unknown): Map<PhpKey, unknown> | null {
  if (v instanceof Map) return v as Map<PhpKey, unknown>;
  if (Array.isArray(v)) return new Map(v.map((x, i) => [i, x]));
  if (v !== null && typeof v === 'object') {
    const m = new Map<PhpKey, unknown>();
    for (const [k, val] of Object.entries(v)) m.set(phpArrayKey(k), val);
    return m;
  }
  return null;
}

export function isPhpArrayLike(v: unknown): boolean {
  return v instanceof Map || Array.isArray(v) || (v !== null && typeof v === 'object');
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `$array[$key]` of a value seen as a PHP array (jsToPhpArray()), without building the Map: a JSON object's key `k`
 * becomes phpArrayKey(k), a one-to-one renaming (numbers only for canonical safe integers, whose String() is the key
 * again), so the object's own property named String(key) is the one; a list has only its indices.
 */
export function phpArrayGet(src: unknown, key: PhpKey): unknown {
  if (src instanceof Map) return src.get(key);
  if (Array.isArray(src)) return typeof key === 'number' && key >= 0 && key < src.length ? (src[key] as unknown) : undefined;
  if (src !== null && typeof src === 'object') {
    const name = String(key);
    return hasOwn.call(src, name) ? (src as Record<string, unknown>)[name] : undefined;
  }
  return undefined;
}

/** isset()-less `array_key_exists($key, $array)` of a value seen as a PHP array (see phpArrayGet()). */
export function phpArrayHas(src: unknown, key: PhpKey): boolean {
  if (src instanceof Map) return src.has(key);
  if (Array.isArray(src)) return typeof key === 'number' && key >= 0 && key < src.length;
  if (src !== null && typeof src === 'object') return hasOwn.call(src, String(key));
  return false;
}

/** wp_is_numeric_array(): an array without string keys. */
export function isNumericArray(v: unknown): boolean {
  // A list's keys are its indices: no need to build the Map (a million items cost a Map of a million).
  if (Array.isArray(v)) return true;
  const m = jsToPhpArray(v);
  if (!m) return false;
  for (const k of m.keys()) if (typeof k === 'string') return false;
  return true;
}

export function isScalar(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}
