// One-pass scanners for the few text rules whose regular expressions take quadratic time on client input: from
// every `<` a `<[^>]*>` looks ahead for a `>` that may never come, so `<<<<…` costs n²/2 steps (100,000 of them:
// seconds). Each function here gives exactly what the regular expression named in its comment gives (the tests
// compare them on generated inputs) while reading every character a bounded number of times.

/** `s.replace(/<[^>]*>/g, '')`: a tag runs from `<` to the next `>`; once no `>` is left, no later `<` starts one. */
export function stripAngleTags(s: string): string {
  let out = '';
  let from = 0;
  for (let lt = s.indexOf('<'); lt >= 0; lt = s.indexOf('<', from)) {
    const gt = s.indexOf('>', lt + 1);
    if (gt < 0) break;
    out += s.slice(from, lt);
    from = gt + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

const isLineTerminator = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

/** The first line terminator (what `.` does not match) at or after `from`, or -1. */
function lineEnd(s: string, from: number): number {
  for (let k = from; k < s.length; k++) if (isLineTerminator(s.charCodeAt(k))) return k;
  return -1;
}

/**
 * `text.split(/(<.*?>)/)`: text and tags alternating, a tag running from `<` to the first `>` on the same line
 * (`.` stops at line terminators). The next `>` and the next line end are each found once and reused until passed.
 */
export function splitTags(text: string): string[] {
  const parts: string[] = [];
  let from = 0;
  let gt = -2;
  let eol = -2;
  let lt = text.indexOf('<');
  while (lt >= 0) {
    if (gt !== -1 && gt <= lt) gt = text.indexOf('>', lt + 1);
    if (gt < 0) break;
    if (eol !== -1 && eol <= lt) eol = lineEnd(text, lt + 1);
    if (eol !== -1 && eol < gt) {
      // Every `<` before this line end fails the same way: go on after it.
      lt = text.indexOf('<', eol + 1);
      continue;
    }
    parts.push(text.slice(from, lt), text.slice(lt, gt + 1));
    from = gt + 1;
    lt = text.indexOf('<', from);
  }
  parts.push(text.slice(from));
  return parts;
}

/** Whether `s` has `word` (lower-case ASCII) at `at`; with `ignoreCase`, letters compared as the non-Unicode `i` flag does (ASCII only). */
function hasWordAt(s: string, at: number, word: string, ignoreCase = true): boolean {
  if (at + word.length > s.length) return false;
  for (let k = 0; k < word.length; k++) {
    const c = s.charCodeAt(at + k);
    if ((ignoreCase && c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** The first `</word>` at or after `from`, or -1. */
function closingTag(s: string, from: number, word: string, ignoreCase: boolean): number {
  for (let k = s.indexOf('</', from); k >= 0; k = s.indexOf('</', k + 2)) {
    if (hasWordAt(s, k + 2, word, ignoreCase) && s[k + 2 + word.length] === '>') return k;
  }
  return -1;
}

interface ElementPattern {
  /** Element names, lower-case, none a prefix of another. */
  words: readonly string[];
  /** The `i` flag. */
  ignoreCase: boolean;
  /** The opening tag runs to its `>` (`<(w)[^>]*?>.*?<\/\1>`) rather than ending right after the name (`<(w).*?<\/\1>`). */
  openTagEnds: boolean;
}

/**
 * `s.replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, replace)` and its kin (see ElementPattern): from an opening tag
 * to the first closing tag of the same name. Where one has no closing tag after it, no later one of that name has
 * either, so each name's closing tag is searched for at most once per element found.
 */
export function replaceElements(s: string, pattern: ElementPattern, replace: (element: string) => string): string {
  let out = '';
  let from = 0;
  const open = new Set(pattern.words);
  for (let lt = s.indexOf('<'); lt >= 0 && open.size > 0; lt = s.indexOf('<', lt + 1)) {
    const word = pattern.words.find((w) => open.has(w) && hasWordAt(s, lt + 1, w, pattern.ignoreCase));
    if (!word) continue;
    let bodyFrom = lt + 1 + word.length;
    if (pattern.openTagEnds) {
      const gt = s.indexOf('>', bodyFrom);
      if (gt < 0) break;
      bodyFrom = gt + 1;
    }
    const close = closingTag(s, bodyFrom, word, pattern.ignoreCase);
    if (close < 0) {
      open.delete(word);
      continue;
    }
    const end = close + word.length + 3;
    out += s.slice(from, lt) + replace(s.slice(lt, end));
    from = end;
    lt = end - 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** `s.replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, '')` (wp_strip_all_tags()). */
export function removeScriptStyle(s: string): string {
  return replaceElements(s, { words: ['script', 'style'], ignoreCase: true, openTagEnds: true }, () => '');
}

/**
 * `s.replace(/<!--[\s\S]*?-->|<\/?[A-Za-z!?][^>]*>/g, '')` (wp_strip_all_tags()): comments to their `-->`, else a
 * tag to its `>`. The next `>` and `-->` are found once and reused until passed; once either is missing, no later
 * `<` can use it.
 */
export function stripTagsAndComments(s: string): string {
  let out = '';
  let from = 0;
  let gt = -2;
  let commentEnd = -2;
  for (let lt = s.indexOf('<'); lt >= 0; lt = s.indexOf('<', lt + 1)) {
    let end = -1;
    if (commentEnd !== -1 && s.startsWith('<!--', lt)) {
      if (commentEnd < lt + 4) commentEnd = s.indexOf('-->', lt + 4);
      if (commentEnd >= 0) end = commentEnd + 3;
    }
    if (end < 0) {
      const c = s.charCodeAt(s[lt + 1] === '/' ? lt + 2 : lt + 1);
      if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x21 || c === 0x3f)) continue;
      if (gt !== -1 && gt <= lt) gt = s.indexOf('>', lt + 2);
      if (gt < 0) break;
      end = gt + 1;
    }
    out += s.slice(from, lt);
    from = end;
    lt = end - 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isRunChar = (c: number) => isDigit(c) || c === 0x2e || c === 0x2c; // [\d.,]
const isWordChar = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

/**
 * wptexturize()'s "9x9" → "9&#215;9": `s.replace(/\b(0[\d.,]+|[1-9][\d.,]*)x(\d[\d.,]*)\b/g, '$1&#215;$2')`. A
 * match starts at a digit on a word boundary and its first number runs to the end of its run of digits, dots and
 * commas; so every start in one run shares one `x` and one second number, and only the run's first start needs
 * trying. The second number is the longest prefix of its run that ends on a word boundary.
 */
export function timesSign(s: string): string {
  const n = s.length;
  const boundary = (k: number) => (k > 0 && isWordChar(s.charCodeAt(k - 1))) !== (k < n && isWordChar(s.charCodeAt(k)));
  let out = '';
  let from = 0;
  let i = 0;
  while (i < n) {
    if (!isRunChar(s.charCodeAt(i))) {
      i++;
      continue;
    }
    let runEnd = i;
    while (runEnd < n && isRunChar(s.charCodeAt(runEnd))) runEnd++;
    let start = -1;
    for (let k = i; k < runEnd; k++) {
      if (isDigit(s.charCodeAt(k)) && boundary(k)) {
        start = k;
        break;
      }
    }
    const zeroAlone = start >= 0 && s[start] === '0' && start + 1 === runEnd;
    if (start >= 0 && !zeroAlone && s[runEnd] === 'x' && runEnd + 1 < n && isDigit(s.charCodeAt(runEnd + 1))) {
      let second = runEnd + 2;
      while (second < n && isRunChar(s.charCodeAt(second))) second++;
      while (second > runEnd + 1 && !boundary(second)) second--;
      if (second > runEnd + 1) {
        out += `${s.slice(from, start)}${s.slice(start, runEnd)}&#215;${s.slice(runEnd + 1, second)}`;
        from = second;
        i = second;
        continue;
      }
    }
    i = runEnd;
  }
  return from === 0 ? s : out + s.slice(from);
}

/**
 * `s.replace(re, replacement)` for a `re` whose every match ends with one of `terminators`: matched only in the text
 * up to the last terminator and the white space (`[ \t\n\x0B\f\r]`) right after it, where a match that starts can
 * reach its terminator. Past it, a regex such as `<object[^>]*>` would look ahead from every `<object` to the end.
 */
export function replaceBeforeLast(s: string, terminators: string, re: RegExp, replacement: string | ((match: string, ...groups: string[]) => string)): string {
  let last = -1;
  for (const t of terminators) last = Math.max(last, s.lastIndexOf(t));
  if (last < 0) return s;
  let cut = last + 1;
  while (cut < s.length && ' \t\n\x0B\f\r'.includes(s[cut]!)) cut++;
  const head = cut === s.length ? s : s.slice(0, cut);
  const replaced = typeof replacement === 'string' ? head.replace(re, replacement) : head.replace(re, replacement);
  return cut === s.length ? replaced : replaced + s.slice(cut);
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/**
 * sanitize_text_field()'s `while ( preg_match( '/%[a-f0-9]{2}/i', … ) ) str_replace( $match[0], '', … )`: removing
 * `%xx` until none is left. Two `%xx` never overlap (a hex digit is no `%`), so the order of removals does not change
 * the end result, which a stack reaches in one pass: a `%xx` can only appear where the last character was added.
 */
export function removePercentOctets(s: string): { text: string; found: boolean } {
  if (!s.includes('%')) return { text: s, found: false };
  const out = new Uint16Array(s.length);
  let n = 0;
  let found = false;
  for (let k = 0; k < s.length; k++) {
    out[n++] = s.charCodeAt(k);
    if (n >= 3 && out[n - 3] === 0x25 && isHex(out[n - 2]!) && isHex(out[n - 1]!)) {
      n -= 3;
      found = true;
    }
  }
  if (!found) return { text: s, found };
  let text = '';
  for (let k = 0; k < n; k += 8192) text += String.fromCharCode(...out.subarray(k, Math.min(n, k + 8192)));
  return { text, found };
}

/**
 * `text.split(re)` for WordPress's HTML split patterns (wptexturize's `_get_wptexturize_split_regex()`, wpautop's
 * `get_html_split_regex()`): text and delimiters alternating, a delimiter being a comment `<!--` to the first `-->`,
 * with `cdata` a `<![CDATA[` to the first `]]>`, or any other `<` to the next `>`; an unclosed one runs to the end.
 * Every `<` starts a delimiter, so one scan finds them all.
 */
export function splitHtml(text: string, cdata: boolean): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let lt = text.indexOf('<'); lt >= 0; lt = text.indexOf('<', from)) {
    let end: number;
    if (text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 2);
      end = close < 0 ? text.length : close + 3;
    } else if (cdata && text.startsWith('<![CDATA[', lt)) {
      const close = text.indexOf(']]>', lt + 9);
      end = close < 0 ? text.length : close + 3;
    } else {
      const close = text.indexOf('>', lt + 1);
      end = close < 0 ? text.length : close + 1;
    }
    parts.push(text.slice(from, lt), text.slice(lt, end));
    from = end;
    if (from >= text.length) break;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * wpautop()'s `s.replace(/<p>(<li.+?)<\/p>/g, '$1')`: a paragraph opened right before a list item goes, with its
 * `</p>`, when that comes later on the same line. The next `</p>` and line end are found once and reused; when the
 * line ends first, every `<p><li` before that line end fails the same way.
 */
export function unwrapListItems(s: string): string {
  let out = '';
  let from = 0;
  let close = -2;
  let eol = -2;
  for (let i = s.indexOf('<p><li'); i >= 0; ) {
    const body = i + 6;
    if (close !== -1 && close < body + 1) close = s.indexOf('</p>', body + 1);
    if (close < 0) break;
    if (eol !== -1 && eol < body) eol = lineEnd(s, body);
    if (eol !== -1 && eol < close) {
      i = s.indexOf('<p><li', eol + 1);
      continue;
    }
    out += s.slice(from, i) + s.slice(i + 3, close);
    from = close + 4;
    i = s.indexOf('<p><li', from);
  }
  return from === 0 ? s : out + s.slice(from);
}

interface BlockDelimiter {
  index: number;
  /** The whole `<!-- wp:… -->` comment. */
  text: string;
  /** `</` form: `<!-- /wp:name -->`. */
  closer: boolean;
  name: string;
  /** `<!-- wp:name /-->`. */
  selfClosing: boolean;
}

const BLOCK_HEAD = /<!--\s+(\/)?wp:([a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?)\s+/y;
const BLOCK_TAIL = /(\/)?-->/y;
const BLOCK_ATTRS_END = /\}\s+(\/)?-->/y;

/**
 * The matches of `/<!--\s+(\/)?wp:([a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?)\s+(?:\{[\s\S]*?\}\s+)?(\/)?-->/g` (block
 * delimiters, attributes optional). Its lazy `[\s\S]*?` looks from every `{` to the end for a `}` followed by
 * `\s+/?-->`; here the places where one can end are listed once, in order, and each delimiter takes the first one
 * after its `{`.
 */
export function blockDelimiters(s: string): BlockDelimiter[] {
  const attrEnds: number[] = [];
  for (let j = s.indexOf('}'); j >= 0; j = s.indexOf('}', j + 1)) {
    BLOCK_ATTRS_END.lastIndex = j;
    if (BLOCK_ATTRS_END.test(s)) attrEnds.push(j);
  }
  const out: BlockDelimiter[] = [];
  let next = 0;
  for (let i = s.indexOf('<!--'); i >= 0; ) {
    BLOCK_HEAD.lastIndex = i;
    const head = BLOCK_HEAD.exec(s);
    if (!head) {
      i = s.indexOf('<!--', i + 1);
      continue;
    }
    const after = BLOCK_HEAD.lastIndex;
    let tail: RegExpExecArray | null = null;
    let end = -1;
    if (s[after] === '{') {
      while (next < attrEnds.length && attrEnds[next]! < after + 1) next++;
      if (next < attrEnds.length) {
        BLOCK_ATTRS_END.lastIndex = attrEnds[next]!;
        tail = BLOCK_ATTRS_END.exec(s);
        end = BLOCK_ATTRS_END.lastIndex;
      }
    }
    if (!tail) {
      BLOCK_TAIL.lastIndex = after;
      tail = BLOCK_TAIL.exec(s);
      end = BLOCK_TAIL.lastIndex;
    }
    if (!tail) {
      i = s.indexOf('<!--', i + 1);
      continue;
    }
    out.push({ index: i, text: s.slice(i, end), closer: head[1] !== undefined, name: head[2]!, selfClosing: tail[1] !== undefined });
    i = s.indexOf('<!--', end);
  }
  return out;
}
