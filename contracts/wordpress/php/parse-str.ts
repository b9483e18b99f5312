// How PHP fills $_GET, $_POST and parse_str()'s result from `name=value` pairs and multipart bodies
// (php_register_variable_ex(), rfc1867), checked against PHP 8.2.
import type { PhpArray, PhpInput } from './arrays.ts';
import { phpArrayKey } from './arrays.ts';
import { phpUrlDecode } from './urlcode.ts';

function nextIndex(arr: PhpArray): number {
  // PHP 8.2 keeps nNextFreeElement = highest integer key ever inserted + 1 (negative keys included), 0 when none.
  let next: number | undefined;
  for (const k of arr.keys()) if (typeof k === 'number' && (next === undefined || k + 1 > next)) next = k + 1;
  return next ?? 0;
}

const PHP_SPACE = /^[ \t\n\r\v\f]$/;

/**
 * php_register_variable_ex(): store one decoded `name=value` pair the way PHP fills $_GET, $_POST and parse_str().
 * Mutates `result`, which only ever belongs to the phpParseStr() call building it.
 */
function registerVariable(result: PhpArray, rawName: string, value: string, maxNesting: number): void {
  let name = rawName;
  const nul = name.indexOf('\0');
  if (nul >= 0) name = name.slice(0, nul); // PHP treats the name as a C string
  name = name.replace(/^ +/, '');

  let base = '';
  let bracket = -1;
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '[') {
      bracket = i;
      break;
    }
    base += c === ' ' || c === '.' ? '_' : c;
  }
  if (base === '') return;
  if (bracket < 0) {
    result.set(phpArrayKey(base), value);
    return;
  }

  // Walk the [index] chain. `holder` is the array the current `index` lives in; null index = append ([]).
  let holder: PhpArray = result;
  let index: string | null = base;
  let ip = bracket;
  let level = 0;
  for (;;) {
    if (++level > maxNesting) {
      // PHP drops the whole top-level variable, even what earlier pairs stored under it.
      result.delete(phpArrayKey(base));
      return;
    }
    ip++;
    let idx: string | null;
    if (name[ip] === ']' || (PHP_SPACE.test(name[ip] ?? '') && name[ip + 1] === ']')) {
      if (name[ip] !== ']') ip++;
      idx = null;
    } else {
      const close = name.indexOf(']', ip);
      if (close < 0) {
        // Unterminated `[`: it becomes `_` and the rest of the name is mangled like a plain name.
        if (holder === result) {
          const rest = name.slice(ip).replace(/[ .[]/g, '_');
          result.set(phpArrayKey(`${index}_${rest}`), value);
        } else {
          setAt(holder, index, value);
        }
        return;
      }
      idx = name.slice(ip, close);
      ip = close;
    }
    // Find or create the array at holder[index].
    let child: PhpArray;
    if (index === null) {
      child = new Map();
      holder.set(nextIndex(holder), child);
    } else {
      const key = phpArrayKey(index);
      const existing = holder.get(key);
      if (existing instanceof Map) child = existing;
      else {
        child = new Map();
        holder.set(key, child);
      }
    }
    holder = child;
    index = idx;
    ip++;
    if (name[ip] !== '[') {
      setAt(holder, index, value);
      return;
    }
  }
}

function setAt(holder: PhpArray, index: string | null, value: PhpInput): void {
  if (index === null) holder.set(nextIndex(holder), value);
  else holder.set(phpArrayKey(index), value);
}

interface ParseStrOptions {
  /** php.ini max_input_vars (default 1000): later pairs are ignored. */
  maxInputVars?: number;
  /** php.ini max_input_nesting_level (default 64). */
  maxNesting?: number;
}

/** PHP's parse_str() / $_GET / urlencoded $_POST: `&`-separated, brackets build arrays, the last plain key wins. */
export function phpParseStr(query: string, opts: ParseStrOptions = {}): PhpArray {
  const maxVars = opts.maxInputVars ?? 1000;
  const maxNesting = opts.maxNesting ?? 64;
  const out: PhpArray = new Map();
  let count = 0;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    if (++count > maxVars) break;
    const eq = pair.indexOf('=');
    const name = phpUrlDecode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : phpUrlDecode(pair.slice(eq + 1));
    registerVariable(out, name, value, maxNesting);
  }
  return out;
}

/**
 * $_POST of a `multipart/form-data` POST (PHP's rfc1867 handler): every part without a filename registers its field
 * name (brackets and all) as parse_str() would; file parts go to $_FILES, which the REST parameters never read.
 * `boundary` comes from the Content-Type; a body that does not follow it yields what was read so far.
 */
export function phpParseMultipart(body: string, boundary: string, opts: ParseStrOptions = {}): PhpArray {
  const maxVars = opts.maxInputVars ?? 1000;
  const maxNesting = opts.maxNesting ?? 64;
  const out: PhpArray = new Map();
  if (boundary === '') return out;
  const delimiter = `--${boundary}`;
  let count = 0;
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    let start = at + delimiter.length;
    if (body.startsWith('--', start)) break; // the closing delimiter
    if (body.startsWith('\r\n', start)) start += 2;
    else if (body[start] === '\n') start += 1;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const part = body.slice(start, next).replace(/\r?\n$/, '');
    at = next;
    const split = /\r?\n\r?\n/.exec(part);
    if (!split) continue;
    const head = part.slice(0, split.index);
    const value = part.slice(split.index + split[0].length);
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(head)?.[1] ?? null;
    if (disposition === null) continue;
    const param = (key: string) => new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(disposition);
    const name = param('name');
    if (!name || param('filename')) continue;
    if (++count > maxVars) break;
    registerVariable(out, (name[1] ?? name[2] ?? '').replace(/\\(.)/g, '$1'), value, maxNesting);
  }
  return out;
}
