// What the mock shows of a request (its log lines, the recent requests of GET /__mock/, a request's own page) with
// the secrets hidden: one rule per kind of secret, used by all three, so a secret hidden in one is hidden in all.
//
// - headers: credentials (Authorization, Cookie, Set-Cookie, X-WP-Nonce...) and any header named like a secret
//   (X-Api-Key); Basic credentials keep their user name, which says who called, and lose the application password;
// - the query and form or JSON bodies: values of keys named like a secret (password, pass, pwd, token, api_key,
//   key, secret, _wpnonce, access_token...), wherever they sit in the body;
// - a body that cannot be read to find them (too large, multipart, not UTF-8, JSON that does not parse) is not shown;
//   other text is read as a form body would be.
//
// Names, not values: the mock does not know which values are secret, a client's own password least of all.

import { basicCredentials } from './wire/request.ts';

export const HIDDEN = '[hidden]';

/**
 * A key or header named like a place for a secret: `password`, `user_pass`, `pwd`, `key`, `api_key`/`apiKey`,
 * `access_token`, `client_secret`, `_wpnonce`, `data[password]`. Not `keyword`, `per_page` or `hash`.
 */
export function secretName(name: string): boolean {
  const last = name.slice(name.lastIndexOf('[') + 1);
  const n = last.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (
    n === 'key' ||
    n === 'pwd' ||
    n.endsWith('pass') ||
    n.includes('password') ||
    n.includes('passwd') ||
    n.includes('secret') ||
    n.includes('token') ||
    n.includes('apikey') ||
    n.includes('nonce') ||
    n.includes('credential') ||
    n === 'authorization' ||
    n === 'cookie' ||
    n === 'setcookie' ||
    n === 'proxyauthorization'
  );
}

/** Authorization's value shown: its scheme, and for Basic the user name (who called), never the password. */
function authorizationShown(value: string): string {
  const basic = basicCredentials(value);
  if (basic && basic.login.length <= 60) return `Basic ${basic.login}:${HIDDEN}`;
  const space = value.indexOf(' ');
  return space > 0 && space <= 20 ? `${value.slice(0, space)} ${HIDDEN}` : HIDDEN;
}

/** One header's value as shown. */
export function headerShown(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') return authorizationShown(value);
  return secretName(lower) ? HIDDEN : value;
}

/** Headers as shown, in their order, absent ones left out. */
export function headersShown(headers: Readonly<Record<string, string | undefined>>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out.push([name, headerShown(name, value)]);
  return out;
}

/** A query string (without `?`) with the values of secret keys hidden; the rest as sent, byte for byte. */
function queryShown(query: string): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      if (eq < 0 || !secretName(decodeLoose(rawKey))) return pair;
      return `${rawKey}=${HIDDEN}`;
    })
    .join('&');
}

function decodeLoose(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** A request target (path and query) as shown: the secret query values hidden. */
export function urlShown(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const end = hash < 0 ? url.length : hash;
  return `${url.slice(0, q + 1)}${queryShown(url.slice(q + 1, end))}${url.slice(end)}`;
}

/** The largest body read to find its secrets (and so the largest shown); larger ones are not shown. */
export const MAX_SHOWN_BODY_BYTES = 64 * 1024;

/** JSON with the values under secret keys hidden, at any depth: all of a value under one (`tokens: [...]`), its shape kept. */
function jsonShown(value: unknown, secret = false): unknown {
  if (Array.isArray(value)) return value.map((v) => jsonShown(v, secret));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonShown(v, secret || secretName(k))]));
  return secret ? HIDDEN : value;
}

/** A body shown: its text with the secrets hidden, or why it is not shown. */
export type BodyShown = { text: string } | { withheld: string };

/**
 * How a body is shown, by its media type; `bytes` is its size in bytes. `body` absent with a size: a body too large
 * to have been kept.
 */
export function bodyShown(body: string | Uint8Array | undefined, contentType: string | undefined, bytes: number): BodyShown | undefined {
  if (bytes === 0) return undefined;
  if (body === undefined || bytes > MAX_SHOWN_BODY_BYTES) return { withheld: `over ${MAX_SHOWN_BODY_BYTES / 1024} KiB, not kept (the page keeps bodies up to ${MAX_SHOWN_BODY_BYTES / 1024} KiB)` };
  let text: string;
  try {
    text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { withheld: `${bytes} bytes, not UTF-8 text` };
  }
  const media = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (media === 'application/x-www-form-urlencoded') return { text: queryShown(text) };
  if (media === 'multipart/form-data') return { withheld: `${bytes} bytes of multipart/form-data, not shown (its fields may hold secrets)` };
  const trimmed = text.trimStart();
  const json = media.endsWith('json');
  if (json || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { text: JSON.stringify(jsonShown(JSON.parse(text)), null, 2) };
    } catch {
      if (json) return { withheld: `${bytes} bytes of JSON that does not parse, not shown (secrets in it could not be found)` };
    }
  }
  // Any other text as a form body would be read: a `password=...` in it is hidden too.
  return { text: queryShown(text) };
}
