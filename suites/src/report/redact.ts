// Reports are uploaded as CI artifacts and pasted into tickets, so no secret may reach one. Redaction
// runs over the whole run result right before anything is written: given secrets (and the encodings
// they take on the wire), every credential-bearing header, userinfo in URLs and `Authorization: ...`
// written out inside bodies or messages.

export const REDACTED = '[REDACTED]';

/** Header (or option) names whose values are credentials wherever they appear. */
const SENSITIVE_KEYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-wp-nonce']);

/** Shorter derived forms would match ordinary text; the secrets themselves are always redacted. */
const MIN_DERIVED_LENGTH = 4;

const AUTH_IN_TEXT =
  /\b((?:proxy-)?authorization)(["']?\s*[:=]\s*["']?)((?:basic|bearer|digest|negotiate|token)\s+)?[^\s"',;&<>\\]+/gi;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:?#]*):([^\s/@?#]+)@/gi;

/** The forms a secret takes in headers, URLs, form bodies and JSON strings. */
export function secretVariants(secret: string): string[] {
  if (secret === '') return [];
  const out = new Set<string>([secret]);
  const derived = new Set<string>();
  const addForms = (s: string): void => {
    derived.add(s);
    derived.add(encodeURIComponent(s));
    derived.add(new URLSearchParams({ x: s }).toString().slice(2));
    derived.add(JSON.stringify(s).slice(1, -1));
  };
  addForms(secret);
  derived.add(Buffer.from(secret, 'utf8').toString('base64'));
  const colon = secret.indexOf(':');
  if (colon >= 0) {
    // `user:application-password`: the password alone is the secret part, and WordPress shows
    // application passwords in groups separated by spaces but accepts them without.
    const password = secret.slice(colon + 1);
    addForms(password);
    addForms(password.replace(/\s+/g, ''));
  }
  for (const d of derived) if (d.length >= MIN_DERIVED_LENGTH) out.add(d);
  return [...out];
}

export interface Redactor {
  text(s: string): string;
  /** A deep copy of `value` with every string (and key) redacted. */
  value<T>(value: T): T;
}

export function createRedactor(secrets: readonly string[]): Redactor {
  const variants = [...new Set(secrets.flatMap(secretVariants))].sort((a, b) => b.length - a.length);
  const text = (s: string): string => {
    let out = s;
    for (const v of variants) if (out.includes(v)) out = out.split(v).join(REDACTED);
    out = out.replace(AUTH_IN_TEXT, (_m, name: string, sep: string, scheme: string | undefined) => `${name}${sep}${scheme ?? ''}${REDACTED}`);
    out = out.replace(URL_USERINFO, (_m, scheme: string, user: string) => `${scheme}${user}:${REDACTED}@`);
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v)) {
        out[text(k)] = SENSITIVE_KEYS.has(k.toLowerCase()) && typeof inner === 'string' ? REDACTED : walk(inner);
      }
      return out;
    }
    return v;
  };
  return { text, value: <T>(v: T): T => walk(v) as T };
}

/**
 * Values of credential headers found anywhere in `value`, plus what a Basic credential decodes to,
 * so that a server echoing them into a body or message is caught too.
 */
export function collectCredentialValues(value: unknown): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    for (const [k, inner] of Object.entries(v)) {
      if (SENSITIVE_KEYS.has(k.toLowerCase()) && typeof inner === 'string' && inner !== '' && inner !== REDACTED) {
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
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  return createRedactor([...secrets, ...collectCredentialValues(value)]).value(value);
}
