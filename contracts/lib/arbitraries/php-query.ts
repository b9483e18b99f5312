// The PHP way of carrying structure in `application/x-www-form-urlencoded` text, which is what WordPress reads
// query strings and form bodies through ($_GET, $_POST, parse_str()):
//   a=1            a is the string "1"
//   a[]=1&a[]=2    a is the list ["1","2"]
//   a[x]=1         a is the map {x: "1"}
//   r[0][m]=POST   nested maps/lists, to any depth
// A list of strings is written with `[]`, anything deeper with explicit indices, so parse(encode(v)) gives back v
// (lists come back as maps with numeric keys, as PHP arrays do; coerceValue() reads those as lists where the
// schema asks for an array). Empty lists and maps cannot be written at all; callers send "" for them, which
// WordPress reads as an empty list (wp_parse_list) or an empty object (rest_is_object).
import type { WireValue } from './model.ts';

function encodePart(s: string): string {
  return encodeURIComponent(s);
}

function pairs(name: string, value: WireValue, out: string[]): void {
  if (value === null) throw new Error(`${name}: null has no form-encoded representation`);
  if (typeof value === 'string') {
    out.push(`${name}=${encodePart(value)}`);
    return;
  }
  if (typeof value === 'number') {
    out.push(`${name}=${encodePart(String(value))}`);
    return;
  }
  if (typeof value === 'boolean') {
    // What PHP's http_build_query() prints for booleans.
    out.push(`${name}=${value ? '1' : '0'}`);
    return;
  }
  if (Array.isArray(value)) {
    const flat = value.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
    value.forEach((v, i) => pairs(flat ? `${name}[]` : `${name}[${i}]`, v, out));
    return;
  }
  for (const [k, v] of Object.entries(value)) pairs(`${name}[${encodePart(k)}]`, v, out);
}

/** Encode parameters the PHP way: `a=1&b[]=2&b[]=3&c[0][x]=y`. Brackets are left literal (PHP and URLs accept them). */
export function encodePhpQuery(params: Record<string, WireValue>): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(params)) pairs(encodePart(k), v, out);
  return out.join('&');
}

/** PHP's urldecode(): `+` is a space; a malformed escape is kept as it is. */
function decodePart(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

type PhpMap = { [key: string]: WireValue };

function isMap(v: WireValue | undefined): v is PhpMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function nextIndex(m: PhpMap): string {
  let max = -1;
  for (const k of Object.keys(m)) if (/^(0|[1-9][0-9]*)$/.test(k)) max = Math.max(max, Number(k));
  return String(max + 1);
}

function assign(target: PhpMap, keys: string[], value: string): void {
  let cur = target;
  for (let i = 0; i < keys.length; i++) {
    const raw = keys[i]!;
    const key = raw === '' ? nextIndex(cur) : raw;
    if (i === keys.length - 1) {
      cur[key] = value;
      return;
    }
    const existing = cur[key];
    // PHP replaces a scalar by an array when a later pair nests under the same name.
    const child: PhpMap = isMap(existing) ? existing : {};
    cur[key] = child;
    cur = child;
  }
}

/**
 * Parse form-encoded text the way PHP's parse_str() does, for the shapes encodePhpQuery() writes: later pairs win,
 * `[]` appends, `[k]` nests; dots and spaces in a top-level name become underscores, as PHP renames them.
 */
export function parsePhpQuery(text: string): Record<string, WireValue> {
  const out: PhpMap = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = decodePart(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodePart(pair.slice(eq + 1));
    const open = rawName.indexOf('[');
    const base = (open === -1 ? rawName : rawName.slice(0, open)).replace(/[ .]/g, '_');
    if (base === '') continue;
    const keys = [base];
    if (open !== -1) {
      const re = /\[([^\]]*)\]/y;
      re.lastIndex = open;
      let m: RegExpExecArray | null;
      while ((m = re.exec(rawName)) !== null) keys.push(m[1]!);
    }
    assign(out, keys, value);
  }
  return out;
}
