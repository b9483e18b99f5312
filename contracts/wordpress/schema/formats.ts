// The formats rest_validate_value_from_schema() checks (hex-color, date-time, email, ip, uuid), each with its
// test and its error; every other format is accepted as it is (`uri` is only sanitized, by esc_url_raw()); and
// sanitize_text_field(), which rest_sanitize_value_from_schema() applies to the text formats.
import { utf8Length } from '../bytes.ts';
import { removePercentOctets, removeScriptStyle } from '../linear-text.ts';
import { phpStripTags } from '../php/strip-tags.ts';
import { isPhpArrayLike, phpStringCast, phpTrim } from '../php/index.ts';
import { wpPreKsesLessThan } from '../entities.ts';
import { WP_FORMAT_ERRORS } from './messages.ts';
import type { WpError } from './types.ts';

function phpDateToTimestamp(s: string): number | false {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:(Z)|([+-])(\d{2})(?::(\d{2}))?)?$/.exec(s);
  if (!m) return false;
  const [, y, mo, d, h, mi, se, , sign, th, tm] = m;
  // strtotime()'s ranges for this shape (checked on PHP 8.2): month 0-12, day 0-31, hour 0-24, minute 0-59, second 0-60.
  if (+mo! > 12 || +d! > 31 || +h! > 24 || +mi! > 59 || +se! > 60) return false;
  let offset = 0;
  if (sign) {
    if (tm !== undefined && (+th! > 24 || +tm > 59)) return false;
    offset = (sign === '-' ? -1 : 1) * (+th! * 3600 + (tm ? +tm * 60 : 0));
  }
  const date = new Date(0);
  date.setUTCFullYear(+y!, +mo! - 1, +d!);
  date.setUTCHours(+h!, +mi!, +se!, 0);
  // Dates without a zone are read in the site's zone, UTC on the reference site.
  return date.getTime() / 1000 - offset;
}

/**
 * rest_parse_date(): the RFC 3339 shape, then strtotime() (a date without an offset read as UTC, the zone WordPress
 * gives PHP; out-of-range days roll over: the 30th of February is the 2nd of March). Seconds since the epoch, or false.
 */
export function restParseDateTimestamp(v: unknown): number | false {
  return phpDateToTimestamp(phpStringCast(v));
}

/** rest_parse_date() as a test: a timestamp of 0 counts as a failure, as in WordPress. */
export function restParseDate(v: unknown): boolean {
  const t = restParseDateTimestamp(v);
  return t !== false && t !== 0;
}

export function isEmail(v: unknown): boolean {
  const email = phpStringCast(v);
  if (utf8Length(email) < 6) return false;
  const at = email.indexOf('@', 1);
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (domain.replace(/^[ \t\n\r\0\x0B.]+|(?<![ \t\n\r\0\x0B.])[ \t\n\r\0\x0B.]+$/g, '') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  for (const sub of subs) {
    if (sub.replace(/^[ \t\n\r\0\x0B-]+|(?<![ \t\n\r\0\x0B-])[ \t\n\r\0\x0B-]+$/g, '') !== sub) return false;
    if (!/^[a-z0-9-]+$/i.test(sub)) return false;
  }
  return true;
}

function checkIpv6(ip0: string): boolean {
  let ip = ip0;
  if (ip.split('::').length - 1 === 1) {
    const [ip1, ip2] = ip.split('::') as [string, string];
    const c1 = ip1 === '' ? -1 : ip1.split(':').length - 1;
    let c2 = ip2 === '' ? -1 : ip2.split(':').length - 1;
    if (ip2.includes('.')) c2++;
    if (c1 === -1 && c2 === -1) ip = '0:0:0:0:0:0:0:0';
    else if (c1 === -1) ip = ip.replace('::', '0:'.repeat(Math.max(0, 7 - c2)));
    else if (c2 === -1) ip = ip.replace('::', ':0'.repeat(Math.max(0, 7 - c1)));
    else ip = ip.replace('::', ':' + '0:'.repeat(Math.max(0, 6 - c2 - c1)));
  }
  let v6 = ip;
  let v4 = '';
  if (ip.includes('.')) {
    const pos = ip.lastIndexOf(':');
    v6 = ip.slice(0, pos);
    v4 = ip.slice(pos + 1);
  }
  const p6 = v6.split(':');
  const p4 = v4.split('.');
  if (!((p6.length === 8 && p4.length === 1) || (p6.length === 6 && p4.length === 4))) return false;
  for (const part of p6) {
    if (part === '' || part.length > 4) return false;
    const stripped = part.replace(/^0+/, '') || '0';
    if (!/^[0-9a-fA-F]+$/.test(stripped)) return false;
    if (parseInt(stripped, 16).toString(16) !== stripped.toLowerCase()) return false;
  }
  if (p4.length === 4) {
    for (const part of p4) {
      const n = parseInt(part, 10);
      if (String(n) !== part || n < 0 || n > 255) return false;
    }
  }
  return true;
}

function restIsIpAddress(v: unknown): boolean {
  const ip = phpStringCast(v);
  return /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$/.test(ip) || checkIpv6(ip);
}

function wpIsUuid(v: unknown): boolean {
  return typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v);
}

function restParseHexColor(v: unknown): boolean {
  return /^#([A-Fa-f0-9]{3}){1,2}$/.test(phpStringCast(v));
}

/**
 * rest_validate_json_schema_pattern(): PCRE `#pattern#u`, unanchored. JavaScript's `u` mode rejects a few escapes
 * PCRE accepts, so the pattern is retried without it; a pattern neither engine reads is taken as matching (the
 * contract validator has already judged the value).
 */
export function matchesWpPattern(pattern: string, value: string): boolean {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags).test(value);
    } catch {
      // try the next flag set
    }
  }
  return true;
}

/** Each format WordPress checks: its test and its error (the keys are exactly the formats of WP_FORMAT_ERRORS). */
export const WP_FORMATS: Readonly<Record<string, { accepts: (v: unknown) => boolean; error: (param: string) => WpError }>> = {
  'hex-color': { accepts: restParseHexColor, error: WP_FORMAT_ERRORS['hex-color']! },
  'date-time': { accepts: restParseDate, error: WP_FORMAT_ERRORS['date-time']! },
  email: { accepts: isEmail, error: WP_FORMAT_ERRORS.email! },
  ip: { accepts: restIsIpAddress, error: WP_FORMAT_ERRORS.ip! },
  uuid: { accepts: wpIsUuid, error: WP_FORMAT_ERRORS.uuid! },
};

/**
 * sanitize_text_field(): a `<` nothing closes escaped (wp_pre_kses_less_than()), then wp_strip_all_tags() (script and
 * style with their content, then PHP's strip_tags()), whitespace runs to one space, PHP's trim(), and `%xx` octets
 * removed. Invalid UTF-8 cannot reach it (a JavaScript string is text), so wp_check_invalid_utf8() has nothing to do.
 */
export function sanitizeTextField(v: unknown): string {
  if (isPhpArrayLike(v)) return '';
  let s = phpStringCast(v);
  if (s.includes('<')) {
    s = phpTrim(phpStripTags(removeScriptStyle(wpPreKsesLessThan(s))));
    s = s.replaceAll('<\n', '&lt;\n');
  }
  s = phpTrim(s.replace(/[\r\n\t ]+/g, ' '));
  const octets = removePercentOctets(s);
  if (octets.found) s = phpTrim(octets.text.replace(/ +/g, ' '));
  return s;
}
