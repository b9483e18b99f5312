// esc_url() and sanitize_url() (wp-includes/formatting.php, WordPress 6.1): what WordPress stores of a URL (format
// `uri` arguments: rest_sanitize_value_from_schema() runs sanitize_url(), it never refuses one) and how it prints one.
import { ksesBadProtocol, WP_ALLOWED_PROTOCOLS } from './kses.ts';
import { ksesNormalizeEntities } from './entities.ts';

/** _deep_replace(): removes every needle until none is left (so `%0%0dd` loses both). */
function deepReplace(needles: readonly string[], s: string): string {
  let out = s;
  for (let changed = true; changed; ) {
    changed = false;
    for (const n of needles) {
      if (out.includes(n)) {
        out = out.replaceAll(n, '');
        changed = true;
      }
    }
  }
  return out;
}

/**
 * The front of a URL as esc_url() rebuilds it from wp_parse_url() (PHP's parse_url()): `scheme://user:pass@host:port`,
 * or `//host` for a URL without a scheme; '' when parse_url() gives up (a port that does not start with a digit).
 */
function urlFront(url: string): string {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(url);
  const start = scheme ? scheme[0].length : url.startsWith('//') ? 2 : -1;
  if (start < 0) return url.startsWith('/') ? '//' : '';
  const stop = url.slice(start).search(/[/?#]/);
  const authority = stop < 0 ? url.slice(start) : url.slice(start, start + stop);
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : undefined;
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  // The port follows the last colon, unless the host is a bracketed IPv6 address closing the authority.
  const colon = hostPort.startsWith('[') && hostPort.endsWith(']') ? -1 : hostPort.lastIndexOf(':');
  let port = '';
  if (colon >= 0) {
    const digits = /^\d*/.exec(hostPort.slice(colon + 1))![0];
    if (digits === '' && colon + 1 < hostPort.length) return url.startsWith('/') ? '//' : '';
    if (digits !== '') port = `:${Number(digits)}`;
  }
  const host = colon >= 0 ? hostPort.slice(0, colon) : hostPort;
  // parse_url() gives up on an empty host after a scheme or user.
  if (host === '' && (scheme || userinfo !== undefined)) return url.startsWith('/') ? '//' : '';
  let front = scheme ? `${scheme[1]}://` : '//';
  if (userinfo !== undefined) front += `${userinfo}@`;
  return front + host + port;
}

/**
 * esc_url( $url, null, $context ): spaces as %20, characters outside the URL set dropped, CR/LF escapes dropped (but in
 * mailto:), `http://` before a value without a scheme (unless it starts with /, #, ? or names a .php file), brackets
 * after the host escaped, and '' when the protocol is not one WordPress allows. `display` also escapes `&` and `'`.
 */
export function escUrl(url0: string, context: 'display' | 'db' = 'display', protocols: readonly string[] = WP_ALLOWED_PROTOCOLS): string {
  if (url0 === '') return url0;
  // ltrim(): PHP's whitespace and NUL.
  let url = url0.replace(/^[ \t\n\r\0\x0B]+/, '').replaceAll(' ', '%20');
  // Everything at or above U+0080 is UTF-8 bytes 0x80-0xff to PHP, which the class keeps.
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\u{10FFFF}]/giu, '');
  if (url === '') return url;
  if (!/^mailto:/i.test(url)) url = deepReplace(['%0d', '%0a', '%0D', '%0A'], url);
  url = url.replaceAll(';//', '://');
  if (!url.includes(':') && !['/', '#', '?'].includes(url[0]!) && !/^[a-z0-9-]+?\.php/i.test(url)) url = `http://${url}`;
  if (context === 'display') url = ksesNormalizeEntities(url).replaceAll('&amp;', '&#038;').replaceAll("'", '&#039;');
  if (url.includes('[') || url.includes(']')) {
    // str_replace() with an empty needle changes nothing.
    const front = urlFront(url);
    const dirty = front === '' ? url : url.split(front).join('');
    const clean = dirty.replaceAll('[', '%5B').replaceAll(']', '%5D');
    if (dirty !== '') url = url.split(dirty).join(clean);
  }
  if (url.startsWith('/')) return url;
  const good = ksesBadProtocol(url, protocols);
  return good.toLowerCase() !== url.toLowerCase() ? '' : good;
}

/** sanitize_url() (esc_url_raw()): esc_url() for the database, which rest_sanitize_value_from_schema() runs on format uri. */
export function sanitizeUrl(url: string): string {
  return escUrl(url, 'db');
}
