// Reports are uploaded as CI artifacts and pasted into tickets, so no secret may reach one. Redaction
// happens twice, with the same rules: the HTTP client redacts every answer as it arrives, before any
// check, message or report can cut it (a secret cut in half by a 4 KiB limit or a message excerpt
// would no longer be recognised), and the writer redacts the whole run result again right before
// anything is written. Given secrets are matched in every encoding a server or a report could give
// them (see secretVariants); values of credential headers (Authorization, Cookie, ..., and the
// headers a person marks with --secret-header) are blanked wherever they sit and redacted wherever
// they are echoed; `Authorization: ...` written out inside bodies or messages and userinfo in URLs go
// too.

export const REDACTED = '[REDACTED]';

/** Header (or option) names whose values are credentials wherever they appear. */
const SENSITIVE_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-wp-nonce'];

/** Shorter derived forms would match ordinary text; the secrets themselves are always redacted. */
const MIN_DERIVED_LENGTH = 4;

/** A cut text ending in this much of the start of a secret is taken to end in that secret. */
const MIN_PARTIAL_LENGTH = 4;

const AUTH_IN_TEXT =
  /\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)((?:basic|bearer|digest|negotiate|token)\s+)?[^\s"',;&<>\\]+/gi;
const HAS_AUTH = /authorization/i;
// Userinfo holds no quote, bracket or backslash (RFC 3986 §3.2.1): without that rule a JSON body such as
// `"website":"http://a.example","email":"contact@a.example"` read as user `a.example","email"` and password `"contact`.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:?#"<>\\{}|^`[\]]*):([^\s/@?#"<>\\{}|^`[\]]+)@/gi;

function hex(s: string): string {
  return Buffer.from(s, 'utf8').toString('hex');
}

/** PHP's json_encode(): `/` as `\/`, and (unless JSON_UNESCAPED_UNICODE) everything outside ASCII as `\uXXXX`. */
function phpJson(s: string, unicode: boolean): string {
  const slashes = JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/');
  return unicode ? slashes : slashes.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** WordPress's esc_html()/esc_attr(). */
function htmlEscaped(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/**
 * The forms a secret takes on the wire and in reports: as is; URL-encoded once and twice (also with
 * `+` for spaces, as forms encode); JSON- and PHP-JSON-escaped; HTML-escaped; base64 (with and
 * without padding, and URL-safe); hex in lower and upper case. For `user:application-password` each
 * form is taken of the pair, of the password alone, and of the password without the spaces
 * WordPress shows it with (and accepts it without).
 */
export function secretVariants(secret: string): string[] {
  if (secret === '') return [];
  const out = new Set<string>([secret]);
  const derived = new Set<string>();
  const addForms = (s: string): void => {
    if (s === '') return;
    const once = encodeURIComponent(s);
    const form = new URLSearchParams({ x: s }).toString().slice(2);
    const base64 = Buffer.from(s, 'utf8').toString('base64');
    for (const f of [
      s,
      once,
      encodeURIComponent(once),
      form,
      encodeURIComponent(form),
      JSON.stringify(s).slice(1, -1),
      phpJson(s, false),
      phpJson(s, true),
      htmlEscaped(s),
      base64,
      base64.replace(/=+$/, ''),
      Buffer.from(s, 'utf8').toString('base64url'),
      hex(s),
      hex(s).toUpperCase(),
    ]) {
      derived.add(f);
    }
  };
  addForms(secret);
  const colon = secret.indexOf(':');
  if (colon >= 0) {
    const password = secret.slice(colon + 1);
    addForms(password);
    addForms(password.replace(/\s+/g, ''));
  }
  for (const d of derived) if (d.length >= MIN_DERIVED_LENGTH) out.add(d);
  return [...out];
}

interface RedactOptions {
  /** More header names whose values are secret (--secret-header), besides SENSITIVE_HEADERS. */
  secretHeaders?: readonly string[];
}

export interface Redactor {
  text(s: string): string;
  /**
   * For a text something else cut short (a body read up to a byte limit): redacts it, and also a
   * secret the cut left only the beginning of at its end.
   */
  cut(s: string): string;
  /** A deep copy of `value` with every string (and key) redacted, credential header values blanked. */
  value<T>(value: T): T;
  /** Whether a header (or key) of this name holds a credential. */
  isSecretHeader(name: string): boolean;
}

function secretHeaderSet(options: RedactOptions = {}): ReadonlySet<string> {
  return new Set([...SENSITIVE_HEADERS, ...(options.secretHeaders ?? []).map((h) => h.toLowerCase())]);
}

export function createRedactor(secrets: readonly string[], options: RedactOptions = {}): Redactor {
  const variants = [...new Set(secrets.flatMap(secretVariants))].sort((a, b) => b.length - a.length);
  const headers = secretHeaderSet(options);
  const isSecretHeader = (name: string): boolean => headers.has(name.toLowerCase());
  const text = (s: string): string => {
    let out = s;
    for (const v of variants) if (out.includes(v)) out = out.split(v).join(REDACTED);
    // The cheap tests first: answers of megabytes go through here, and most hold neither pattern.
    if (HAS_AUTH.test(out)) out = out.replace(AUTH_IN_TEXT, (_m, name: string, sep: string, scheme: string | undefined) => `${name}${sep}${scheme ?? ''}${REDACTED}`);
    if (out.includes('@')) out = out.replace(URL_USERINFO, (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`);
    return out;
  };
  const cut = (s: string): string => {
    const out = text(s);
    for (const v of variants) {
      for (let n = Math.min(v.length - 1, out.length); n >= MIN_PARTIAL_LENGTH; n--) {
        if (out.endsWith(v.slice(0, n))) return out.slice(0, out.length - n) + REDACTED;
      }
    }
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        out[text(k)] = isSecretHeader(k) && typeof inner === 'string' ? REDACTED : walk(inner);
      }
      return out;
    }
    return v;
  };
  return { text, cut, value: <T>(v: T): T => walk(v) as T, isSecretHeader };
}

/**
 * Values of credential headers found anywhere in `value`, plus what a Basic credential decodes to,
 * so that a server echoing them into a body or message is caught too.
 */
export function collectCredentialValues(value: unknown, options: RedactOptions = {}): string[] {
  const headers = secretHeaderSet(options);
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    for (const [k, inner] of Object.entries(v)) {
      if (headers.has(k.toLowerCase()) && typeof inner === 'string' && inner.trim().length >= MIN_DERIVED_LENGTH && inner !== REDACTED) {
        found.add(inner);
        const m = k.toLowerCase().endsWith('authorization') ? /^\s*(\S+)\s+(\S+)\s*$/.exec(inner) : null;
        if (m?.[2]) {
          found.add(m[2]);
          if (m[1]?.toLowerCase() === 'basic') {
            const decoded = Buffer.from(m[2], 'base64').toString('utf8');
            if (decoded.includes(':')) found.add(decoded);
          }
        }
      } else {
        walk(inner);
      }
    }
  };
  walk(value);
  return [...found];
}

/** Everything written to disk goes through this: the given secrets plus any credential in the value. */
export function redactDeep<T>(value: T, secrets: readonly string[], options: RedactOptions = {}): T {
  return createRedactor([...secrets, ...collectCredentialValues(value, options)], options).value(value);
}
