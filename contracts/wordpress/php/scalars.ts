// PHP's scalars as WordPress's wire shows them: what (string) and json_encode() print for a number, what
// is_numeric() accepts, how a string reads as a float.

/** Decimal digits and exponent of |n| rounded to `precision` significant digits (0 = shortest round-trip). */
function digitsOf(n: number, precision: number): { digits: string; decpt: number } {
  const exp = precision === 0 ? Math.abs(n).toExponential() : Math.abs(n).toExponential(precision - 1);
  const [mant, e] = exp.split('e') as [string, string];
  const digits = mant.replace('.', '').replace(/0+$/, '') || '0';
  return { digits, decpt: Number(e) + 1 };
}

/** zend_gcvt(): fixed notation unless the exponent is below -4 or beyond the precision; `1.0E+25` style otherwise. */
function gcvt(n: number, precision: number, ndigit: number, expChar: 'e' | 'E'): string {
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NAN' : n > 0 ? 'INF' : '-INF';
  const sign = n < 0 ? '-' : '';
  const { digits, decpt } = digitsOf(n, precision);
  if (decpt < 0 ? decpt < -3 : decpt > ndigit) {
    const e = decpt - 1;
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : `${digits}.0`;
    return `${sign}${mant}${expChar}${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (digits.length <= decpt) return sign + digits + '0'.repeat(decpt - digits.length);
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** PHP (string)$float with precision=14: `0.3`, `1.0E+25`, `100`. */
export function phpFloatToString(n: number): string {
  return gcvt(n, 14, 14, 'E');
}

/** How json_encode() prints a number (serialize_precision=-1): integers as digits, floats shortest, `1.0e+25`. */
export function phpJsonNumber(n: number): string {
  // A JS number cannot say whether PHP held an int or a float; safe integers print the same either way up to 1e17.
  if (Number.isSafeInteger(n)) return String(n);
  if (!Number.isFinite(n)) return '0'; // json_encode fails on INF/NAN (partial output 0)
  return gcvt(n, 0, 17, 'e');
}

/** PHP (string) cast of a scalar as WordPress's sprintf()/implode() see it. */
export function phpStringCast(v: unknown): string {
  if (v === true) return '1';
  if (v === false || v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isSafeInteger(v) ? String(v) : phpFloatToString(v);
  return String(v);
}

/** sprintf('%d', $n): the integer part (PHP casts floats toward zero). */
export function phpIntFormat(n: unknown): string {
  const x = typeof n === 'number' ? n : Number(n);
  if (!Number.isFinite(x)) return '0';
  return String(Math.trunc(x) || 0);
}

/** number_format_i18n() with the en_US locale: thousands separated by commas, no decimals. */
export function numberFormatI18n(n: number): string {
  const r = Math.round(Math.abs(n));
  return (n < 0 && r !== 0 ? '-' : '') + String(r).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// PHP's whitespace, not JavaScript's `\s` (which also takes U+00A0, U+2003, U+FEFF...): is_numeric() skips
// " \t\n\r\v\f" before the number and, since PHP 8.0, after it; PCRE's `\s` without the u flag is the same six
// bytes. So `per_page=%C2%A05` is no integer to WordPress (400 rest_invalid_type), `per_page=%0B5%20` is 5.
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP 8 is_numeric() on a string: decimal digits, optional sign, fraction and exponent, PHP whitespace around. */
export function isNumericString(v: string): boolean {
  return NUMERIC.test(v);
}

/** PHP 8 is_numeric(): ints, floats, and numeric strings. */
export function isNumeric(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  return typeof v === 'string' && isNumericString(v);
}

/** (float) of a numeric value, as PHP compares numbers. */
export function phpToFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const m = /^[ \t\n\r\v\f]*([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)/.exec(v);
    return m ? Number(m[1]) : 0;
  }
  return 0;
}

/**
 * PHP 8 intval() of a request value: the leading number of a string ("12px" is 12, "1e3" 1000, "abc" 0) cut to an
 * integer, 1 for true and for a non-empty array, 0 for everything else.
 */
function intval(v: unknown): number {
  if (Array.isArray(v)) return v.length > 0 ? 1 : 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0 ? 1 : 0;
  const n = Math.trunc(phpToFloat(v));
  return Number.isFinite(n) ? n : 0;
}

/** WordPress's absint(): abs( (int) $maybeint ), the sanitize_callback of many integer args. */
export function absint(v: unknown): number {
  return Math.abs(intval(v));
}

/**
 * PHP's empty() on a value as the mock and WordPress read it: null (unset), false, 0, 0.0, '', '0' and an empty
 * array (a JS array or a PHP array read as a Map).
 */
export function phpEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  return v === undefined || v === null || v === false || v === 0 || v === '' || v === '0';
}
