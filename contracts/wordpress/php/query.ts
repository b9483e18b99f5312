// Query-string rebuilding: WordPress's add_query_arg(), build_query() and urlencode_deep().
import { isPhpArrayLike, jsToPhpArray, phpArrayKey, type PhpKey } from './arrays.ts';
import { phpParseStr } from './parse-str.ts';
import { phpEmpty, phpStringCast } from './scalars.ts';
import { phpUrlEncode } from './urlcode.ts';

/** urlencode_deep(): urlencode() every scalar, recursively (true → "1", false/null → ""). */
export function urlencodeDeep(v: unknown): unknown {
  const m = isPhpArrayLike(v) ? jsToPhpArray(v) : null;
  if (m) {
    const out = new Map<PhpKey, unknown>();
    for (const [k, x] of m) out.set(k, urlencodeDeep(x));
    return out;
  }
  return phpUrlEncode(phpStringCast(v));
}

/** WordPress _http_build_query($data, null, '&', '', false) as build_query() calls it: keys and values verbatim. */
function wpBuildQuery(data: unknown, parentKey: PhpKey = ''): string {
  const m = jsToPhpArray(data);
  if (!m) return '';
  const parts: string[] = [];
  for (const [k0, v] of m) {
    let k = String(k0);
    if (!phpEmpty(parentKey)) k = `${parentKey}%5B${k}%5D`;
    if (v === null || v === undefined) continue;
    const val = v === false ? '0' : v;
    if (isPhpArrayLike(val)) parts.push(wpBuildQuery(val, k));
    else parts.push(`${k}=${phpStringCast(val)}`);
  }
  return parts.join('&');
}

/**
 * add_query_arg( $args, $url ): parse the URL's query with parse_str(), re-urlencode it, set the new args (in place
 * when the key exists), drop `false`, rebuild with build_query() and turn `k=` into `k`.
 * `args` values must already be what the caller would pass (WordPress passes urlencode_deep()'d params).
 */
export function addQueryArg(args: Map<PhpKey, unknown> | Record<string, unknown>, url: string): string {
  let uri = url;
  let frag = '';
  const hash = uri.indexOf('#');
  if (hash >= 0) {
    frag = uri.slice(hash);
    uri = uri.slice(0, hash);
  }
  let protocol = '';
  if (/^http:\/\//i.test(uri)) {
    protocol = uri.slice(0, 7);
    uri = uri.slice(7);
  } else if (/^https:\/\//i.test(uri)) {
    protocol = uri.slice(0, 8);
    uri = uri.slice(8);
  }
  let base: string;
  let query: string;
  const q = uri.indexOf('?');
  if (q >= 0) {
    base = uri.slice(0, q + 1);
    query = uri.slice(q + 1);
  } else if (protocol || !uri.includes('=')) {
    base = uri + '?';
    query = '';
  } else {
    base = '';
    query = uri;
  }
  const qs = urlencodeDeep(phpParseStr(query)) as Map<PhpKey, unknown>;
  const entries = args instanceof Map ? args : jsToPhpArray(args)!;
  for (const [k, v] of entries) qs.set(typeof k === 'string' ? phpArrayKey(k) : k, v);
  for (const [k, v] of qs) if (v === false) qs.delete(k);
  let ret = wpBuildQuery(qs);
  ret = ret.replace(/^\?+|(?<!\?)\?+$/g, '');
  ret = ret.replace(/=(&|$)/g, '$1');
  ret = protocol + base + ret + frag;
  ret = ret.replace(/(?<!\?)\?+$/, '');
  return ret.replaceAll('?#', '#');
}
