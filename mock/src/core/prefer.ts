// `Prefer: code=` and `Prefer: latency=` (Prism's names, RFC 7240's header): the mock's own test aids, read before
// anything runs. The held-answer bound and the anonymous latency bound are in held.ts.

export interface Prefer {
  code?: number;
  latency?: number;
  /** Why a `code` or `latency` value cannot be honoured; the request is then answered 400 mock_invalid_prefer. */
  invalid?: string;
}

/** What `Prefer: code=` forces: a final status (1xx are interim answers, not ones a handler can give). */
const PREFER_CODES = { min: 200, max: 599 } as const;
/** The longest `Prefer: latency=` (and --latency), in milliseconds. */
export const PREFER_MAX_LATENCY_MS = 600_000;

/** At most this much of a refused value is echoed in the error. */
const ECHO_CHARS = 40;

/**
 * RFC 7240 `Prefer: code=404, latency=300` (Prism's names). Preferences are split at commas; what follows a `;` is a
 * preference's parameters, which none of ours takes. Per RFC 7240 section 2, a preference the server does not know
 * (`return=minimal`, `respond-async`, Prism's `dynamic=true`) is ignored and only the first instance of one counts.
 * Our own two are the mock's test aids, so a value outside what they take is refused (`invalid`), not ignored.
 */
export function parsePrefer(header: string | undefined): Prefer {
  const out: Prefer = {};
  if (!header) return out;
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const preference of header.split(',')) {
    const head = (preference.split(';', 1)[0] ?? '').trim();
    const eq = head.indexOf('=');
    const name = (eq < 0 ? head : head.slice(0, eq)).trim().toLowerCase();
    if ((name !== 'code' && name !== 'latency') || seen.has(name)) continue;
    seen.add(name);
    let raw = eq < 0 ? '' : head.slice(eq + 1).trim();
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1);
    const shown = JSON.stringify(raw.length > ECHO_CHARS ? `${raw.slice(0, ECHO_CHARS)}...` : raw);
    if (name === 'code') {
      const n = /^\d{3}$/.test(raw) ? Number(raw) : NaN;
      if (n >= PREFER_CODES.min && n <= PREFER_CODES.max) out.code = n;
      else problems.push(`code takes an HTTP status from ${PREFER_CODES.min} to ${PREFER_CODES.max}, got ${shown}`);
    } else {
      const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
      if (n <= PREFER_MAX_LATENCY_MS) out.latency = n;
      else problems.push(`latency takes a whole number of milliseconds from 0 to ${PREFER_MAX_LATENCY_MS}, got ${shown}`);
    }
  }
  if (problems.length > 0) out.invalid = problems.join('; ');
  return out;
}
