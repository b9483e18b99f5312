// Request values on the wire the way a PHP server reads them back. WordPress gets query and form values
// from PHP's $_GET/$_POST, which only know strings, lists and maps: `a[]=1&a[]=2` is a list,
// `a[k]=v` a map. JSON bodies keep their types, so they are the default for bodies and the only way to
// send a number or a boolean as such.

/** A value that cannot travel in a query string (PHP has no null there); callers leave such keys out. */
class UnencodableError extends Error {
  override name = 'UnencodableError';
}

function scalar(v: unknown, key: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  // WordPress reads 'true'/'false' as booleans (rest_is_boolean); PHP's own '1'/'' would also do.
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  throw new UnencodableError(`${key}: ${v === null ? 'null' : typeof v} cannot be sent in a query string or form body`);
}

function pairs(key: string, value: unknown, out: [string, string][]): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    // An empty list has no PHP spelling; `key=` is what WordPress reads as the empty list for arrays.
    if (value.length === 0) {
      out.push([key, '']);
      return;
    }
    const nested = value.some((v) => v !== null && typeof v === 'object');
    value.forEach((v, i) => pairs(nested ? `${key}[${i}]` : `${key}[]`, v, out));
    return;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) {
      out.push([key, '']);
      return;
    }
    for (const [k, v] of entries) pairs(`${key}[${k}]`, v, out);
    return;
  }
  out.push([key, scalar(value, key)]);
}

/** `{a: [1, 2], b: {c: 'x'}}` → `a%5B%5D=1&a%5B%5D=2&b%5Bc%5D=x` (PHP reads both back as sent). */
export function encodeQuery(values: Record<string, unknown>): string {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(values)) pairs(k, v, out);
  return out.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

export type BodyInput = { kind: 'json'; value: unknown } | { kind: 'form'; value: Record<string, unknown> } | { kind: 'raw'; text: string; contentType: string };

export function encodeBody(body: BodyInput): { text: string; contentType: string } {
  switch (body.kind) {
    case 'json':
      return { text: JSON.stringify(body.value), contentType: 'application/json' };
    case 'form':
      return { text: encodeQuery(body.value), contentType: 'application/x-www-form-urlencoded' };
    case 'raw':
      return { text: body.text, contentType: body.contentType };
  }
}
