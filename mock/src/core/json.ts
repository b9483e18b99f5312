// PHP's json_encode() bytes at JSON.stringify speed.
import { isAscii } from '../bytes.ts';

/** `\uXXXX` for one UTF-16 code unit, lowercase hex as PHP prints it. */
function uEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * wp_json_encode() output for plain data, fast: JSON.stringify plus PHP's escaping of `/` and of every character
 * above U+007F. Same bytes as wpJsonEncode() for the values handlers produce (no Maps, no floats PHP prints
 * differently).
 */
export function fastJson(data: unknown): string {
  let s = JSON.stringify(data);
  if (s === undefined) return 'null';
  // Pure ASCII exactly when every UTF-16 unit is one UTF-8 byte; encoding is several times faster than a regex scan,
  // and done before the `/` replacement, whose result V8 keeps as a cons string that encoding would flatten. (The two
  // replacements commute: neither produces what the other replaces.)
  if (!isAscii(s)) s = s.replace(/[\u0080-\uffff]/g, uEscape);
  if (s.includes('/')) s = s.replaceAll('/', '\\/');
  return s;
}
