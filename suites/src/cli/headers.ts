// -H/--header 'Name: value': headers sent on every request to the target, for a staging site behind a WAF,
// a gateway token or the front's HTTP basic auth. A header's value is a secret unless its name is one that
// never carries a credential (Accept-Language...): it is blanked wherever the header appears in a report and
// redacted wherever a server echoes it, like the run's credentials.

import { REDACTED } from '../report/redact.ts';
import { UsageError } from '../errors.ts';

export interface ExtraHeader {
  name: string;
  value: string;
  /** Its value is redacted from everything written or printed. */
  secret: boolean;
}

/** RFC 9110 field-name (a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 field-value: visible characters, spaces and tabs; no CR, LF or NUL, which would split the request. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Headers whose values are never credentials: shown as given. Every other header given with -H is taken for a
 * secret (WAF and gateway tokens come under every name), so a name missing here costs readability, not a leak.
 */
const PUBLIC_HEADERS: ReadonlySet<string> = new Set(['accept', 'accept-language', 'cache-control', 'pragma', 'prefer', 'dnt', 'x-requested-with']);

/**
 * Headers the suite (or the HTTP client) writes itself: framing, connection management, and the body's type,
 * which each request sets for the body it sends. Giving one would break requests rather than add to them.
 */
const OWNED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'proxy-connection', 'upgrade', 'te', 'trailer', 'expect', 'content-type']);

/**
 * Secret values shorter than this are blanked where their header appears but not searched for in bodies and
 * messages, where `X-Debug: 1` would blank every "1" of a report; a secret worth the name is longer.
 */
const MIN_SECRET_TEXT_LENGTH = 8;

export const HEADER_EXPECTS = "'Name: value', e.g. -H 'X-Waf-Token: ...' (a header name, a colon, a value)";

export function parseHeader(raw: string): ExtraHeader {
  const colon = raw.indexOf(':');
  const name = colon < 0 ? raw.trim() : raw.slice(0, colon).trim();
  // The value is not echoed in any message: it is most likely a secret.
  if (colon <= 0 || !TOKEN.test(name)) throw new UsageError(`--header expects ${HEADER_EXPECTS}; got ${colon < 0 ? 'no colon' : `the name ${JSON.stringify(name)}`}`, 'header');
  const value = raw.slice(colon + 1).trim();
  if (value === '') throw new UsageError(`--header ${name}: expects a value after the colon (${HEADER_EXPECTS})`, 'header');
  if (!FIELD_VALUE.test(value)) throw new UsageError(`--header ${name}: the value holds a line break or control character, which would split the request`, 'header');
  const lower = name.toLowerCase();
  if (OWNED.has(lower)) throw new UsageError(`--header ${name}: the suite sets this header itself for each request; it cannot be given`, 'header');
  return { name, value, secret: !PUBLIC_HEADERS.has(lower) };
}

export function parseHeaders(raws: readonly string[] | undefined): ExtraHeader[] {
  const out: ExtraHeader[] = [];
  const seen = new Set<string>();
  for (const raw of raws ?? []) {
    const h = parseHeader(raw);
    const lower = h.name.toLowerCase();
    if (seen.has(lower)) throw new UsageError(`--header ${h.name} is given twice; give each header once`, 'header');
    seen.add(lower);
    out.push(h);
  }
  return out;
}

/** `Name: value` as reports and --print-config show it: a secret's value never. */
export function shownHeader(h: ExtraHeader): string {
  return `${h.name}: ${h.secret ? REDACTED : h.value}`;
}

/** What the redaction layer needs: the secret headers' names (blanked wherever they appear) and their values. */
export function headerSecrets(headers: readonly ExtraHeader[]): { names: string[]; values: string[] } {
  const secret = headers.filter((h) => h.secret);
  return {
    names: secret.map((h) => h.name.toLowerCase()),
    values: secret.map((h) => h.value).filter((v) => v.length >= MIN_SECRET_TEXT_LENGTH),
  };
}

/** As the HTTP client takes them. */
export function headerRecord(headers: readonly ExtraHeader[]): Record<string, string> {
  return Object.fromEntries(headers.map((h) => [h.name, h.value]));
}

export function isAuthorization(h: ExtraHeader): boolean {
  return h.name.toLowerCase() === 'authorization';
}
