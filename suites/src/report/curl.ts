// A curl line that replays a recorded request from a POSIX shell, so whoever reads a failure can
// reproduce it in one paste. Credentials never appear in it: the request's Authorization (or URL
// userinfo) becomes a reference to the environment variable that holds `user:application-password`,
// which is the only thing the suite ever authenticates with.

import type { RecordedRequest } from './model.ts';

export const DEFAULT_AUTH_ENV = 'SITE_CONTRACTS_AUTH';

/** Headers curl computes itself, or that would make its output unreadable (compressed bodies). */
const HEADERS_CURL_OWNS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'accept-encoding']);

/** Headers that carry credentials: replaced by the env-var reference, never copied. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

const SAFE_WORD = /^[A-Za-z0-9_\-.,:/@%+=]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Quotes one word for sh/bash/zsh. Single quotes make everything literal ($, `, \, newlines), and the
 * one character they cannot hold, the single quote itself, is closed, escaped and reopened.
 */
export function shellQuote(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

interface CurlOptions {
  /** Name of the environment variable holding `user:application-password`. */
  authEnv?: string;
}

export function toCurl(request: RecordedRequest, options: CurlOptions = {}): string {
  const authEnv = options.authEnv ?? DEFAULT_AUTH_ENV;
  // The name is spliced inside double quotes unquoted, so anything but a plain identifier could inject.
  if (!ENV_NAME.test(authEnv)) throw new Error(`curl: invalid environment variable name ${JSON.stringify(authEnv)}`);

  const method = request.method.toUpperCase();
  const { url, hadUserinfo } = withoutUserinfo(request.url);
  const words: string[] = ['curl', '-sS', '-i', '-g'];
  // -g: WordPress query strings use brackets (status[]=publish), which curl would otherwise glob.

  if (method === 'HEAD') words.push('--head');
  else if (method !== 'GET') words.push('-X', shellQuote(method));
  words.push(shellQuote(url));

  let needsAuth = hadUserinfo;
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (CREDENTIAL_HEADERS.has(lower)) {
      needsAuth = true;
      continue;
    }
    if (HEADERS_CURL_OWNS.has(lower)) continue;
    // `-H 'X:'` tells curl to drop the header; `X;` is its spelling for "send it empty".
    words.push('-H', shellQuote(value === '' ? `${name};` : `${name}: ${value}`));
  }
  if (needsAuth) words.push('-u', `"$${authEnv}"`);

  if (request.body !== undefined && request.body !== '') {
    // --data-raw: unlike -d it neither reads files for a leading @ nor strips newlines.
    words.push('--data-raw', shellQuote(request.body));
  }
  return words.join(' ');
}

function withoutUserinfo(raw: string): { url: string; hadUserinfo: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { url: raw, hadUserinfo: false };
  }
  if (parsed.username === '' && parsed.password === '') return { url: raw, hadUserinfo: false };
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), hadUserinfo: true };
}
