// wp_kses() (wp-includes/kses.php, WordPress 6.1): what WordPress keeps of HTML it does not trust. It runs on a term's
// name and description for every user (pre_term_name, pre_term_description: wp_filter_kses, the `data` tags), and on
// a post's title, content and excerpt for a user without unfiltered_html (wp_filter_kses, wp_filter_post_kses).
//
// A port of the algorithm as PHP runs it, with WordPress's patterns rewritten where they backtrack on client text:
// wp_kses_split()'s `<[^>]*(>|$)` from every `<` and wp_kses_hair()'s preg_replace() per attribute each cost n² on a
// long run (`<<<<…`, a tag with a million attributes); here each character is read a bounded number of times.
// The `post` context (wp_filter_post_kses(): a low user's content and excerpt) has its table, KSES_POST_TAGS, but not
// safecss_filter_attr() for `style` nor the required attributes of `object`: wpFilterPostKses() answers undefined for
// text holding either (kses.test.ts holds pairs recorded on a live 6.1.9).
import { ksesNormalizeEntities, wpPreKsesLessThan } from './entities.ts';
import { phpTrim } from './php/strings.ts';

/** An attribute's rules: `true` (any value), or checks (wp_kses_check_attr_val()) every value must pass. */
type AttrRule = true | { readonly [check: string]: unknown };
/** Allowed elements (lower case) and their attributes; `{}` allows the element without attributes. */
type KsesTags = Readonly<Record<string, Readonly<Record<string, AttrRule>>>>;

/** $allowedtags: the `data` context, and every `pre_*` filter's (term names and descriptions, a low user's title). */
export const KSES_DATA_TAGS: KsesTags = {
  a: { href: true, title: true },
  abbr: { title: true },
  acronym: { title: true },
  b: {},
  blockquote: { cite: true },
  cite: {},
  code: {},
  del: { datetime: true },
  em: {},
  i: {},
  q: { cite: true },
  s: {},
  strike: {},
  strong: {},
};

/** _wp_add_global_attributes(): what every `post` element takes besides its own (`data-*`: any data-name). */
const KSES_GLOBAL_ATTRIBUTES = ['aria-describedby', 'aria-details', 'aria-label', 'aria-labelledby', 'aria-hidden', 'class', 'data-*', 'dir', 'id', 'lang', 'style', 'title', 'role', 'xml:lang'];

/**
 * $allowedposttags as wp_kses_allowed_html( 'post' ) answers on WordPress 6.1 (dumped from the CI site): each element's
 * own attributes; every one also takes KSES_GLOBAL_ATTRIBUTES.
 */
const POST_OWN_ATTRIBUTES: KsesTags = {
  a: { href: true, rel: true, rev: true, name: true, target: true, download: { valueless: "y" } },
  abbr: {},
  acronym: {},
  address: {},
  area: { alt: true, coords: true, href: true, nohref: true, shape: true, target: true },
  article: { align: true },
  aside: { align: true },
  audio: { autoplay: true, controls: true, loop: true, muted: true, preload: true, src: true },
  b: {},
  bdo: {},
  big: {},
  blockquote: { cite: true },
  br: {},
  button: { disabled: true, name: true, type: true, value: true },
  caption: { align: true },
  cite: {},
  code: {},
  col: { align: true, char: true, charoff: true, span: true, valign: true, width: true },
  colgroup: { align: true, char: true, charoff: true, span: true, valign: true, width: true },
  dd: {},
  del: { datetime: true },
  details: { align: true, open: true },
  dfn: {},
  div: { align: true },
  dl: {},
  dt: {},
  em: {},
  fieldset: {},
  figcaption: { align: true },
  figure: { align: true },
  font: { color: true, face: true, size: true },
  footer: { align: true },
  h1: { align: true },
  h2: { align: true },
  h3: { align: true },
  h4: { align: true },
  h5: { align: true },
  h6: { align: true },
  header: { align: true },
  hgroup: { align: true },
  hr: { align: true, noshade: true, size: true, width: true },
  i: {},
  img: { alt: true, align: true, border: true, height: true, hspace: true, loading: true, longdesc: true, vspace: true, src: true, usemap: true, width: true },
  ins: { datetime: true, cite: true },
  kbd: {},
  label: { for: true },
  legend: { align: true },
  li: { align: true, value: true },
  main: { align: true },
  map: { name: true },
  mark: {},
  menu: { type: true },
  nav: { align: true },
  object: { data: { required: true, value_callback: "_wp_kses_allow_pdf_objects" }, type: { required: true, values: ["application/pdf"] } },
  ol: { start: true, type: true, reversed: true },
  p: { align: true },
  pre: { width: true },
  q: { cite: true },
  rb: {},
  rp: {},
  rt: {},
  rtc: {},
  ruby: {},
  s: {},
  samp: {},
  section: { align: true },
  small: {},
  span: { align: true },
  strike: {},
  strong: {},
  sub: {},
  summary: { align: true },
  sup: {},
  table: { align: true, bgcolor: true, border: true, cellpadding: true, cellspacing: true, rules: true, summary: true, width: true },
  tbody: { align: true, char: true, charoff: true, valign: true },
  td: { abbr: true, align: true, axis: true, bgcolor: true, char: true, charoff: true, colspan: true, headers: true, height: true, nowrap: true, rowspan: true, scope: true, valign: true, width: true },
  textarea: { cols: true, rows: true, disabled: true, name: true, readonly: true },
  tfoot: { align: true, char: true, charoff: true, valign: true },
  th: { abbr: true, align: true, axis: true, bgcolor: true, char: true, charoff: true, colspan: true, headers: true, height: true, nowrap: true, rowspan: true, scope: true, valign: true, width: true },
  thead: { align: true, char: true, charoff: true, valign: true },
  title: {},
  tr: { align: true, bgcolor: true, char: true, charoff: true, valign: true },
  track: { default: true, kind: true, label: true, src: true, srclang: true },
  tt: {},
  u: {},
  ul: { type: true },
  var: {},
  video: { autoplay: true, controls: true, height: true, loop: true, muted: true, playsinline: true, poster: true, preload: true, src: true, width: true }
};
const KSES_POST_TAGS: KsesTags = Object.fromEntries(
  Object.entries(POST_OWN_ATTRIBUTES).map(([el, own]) => [el, { ...own, ...Object.fromEntries(KSES_GLOBAL_ATTRIBUTES.map((a) => [a, true])) }]),
);

/** wp_allowed_protocols(). */
export const WP_ALLOWED_PROTOCOLS: readonly string[] = [
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
];

/** wp_kses_uri_attributes(). */
const URI_ATTRIBUTES = new Set(['action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction', 'href', 'icon', 'longdesc', 'manifest', 'poster', 'profile', 'src', 'usemap', 'xmlns']);

/** wp_kses_no_null(): control characters go; with `slashZero` 'remove', also backslash-zero runs (`\0`, `\\00`). */
function ksesNoNull(s: string, slashZero: 'keep' | 'remove' = 'remove'): string {
  const out = s.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '');
  // Started only at the first backslash of a run: a later start in the same run fails where the first did, and
  // trying each would read a long run of backslashes once per backslash.
  return slashZero === 'remove' ? out.replace(/(?<!\\)\\+0+/g, '') : out;
}

/** wp_kses_decode_entities(): numeric references to their byte (PHP's chr(), modulo 256), for protocol checks only. */
function ksesDecodeEntities(s: string): string {
  return s.replace(/&#([0-9]+);/g, (_m, d: string) => String.fromCharCode(Number(BigInt(d) % 256n))).replace(/&#[Xx]([0-9A-Fa-f]+);/g, (_m, h: string) => String.fromCharCode(Number(BigInt(`0x${h}`) % 256n)));
}

/** wp_kses_bad_protocol_once2(): the protocol with its colon when allowed, else ''. */
function badProtocolOnce2(s: string, allowed: readonly string[]): string {
  const p = ksesNoNull(ksesDecodeEntities(s).replace(/[ \t\n\v\f\r]/g, '')).toLowerCase();
  return allowed.some((a) => a.toLowerCase() === p) ? `${p}:` : '';
}

/** wp_kses_bad_protocol_once(). */
function badProtocolOnce(s0: string, allowed: readonly string[], count = 1): string {
  let s = s0.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
  const sep = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(s);
  if (!sep) return s;
  const head = s.slice(0, sep.index);
  if (/\/\?/.test(head)) return s;
  s = phpTrim(s.slice(sep.index + sep[0].length));
  const protocol = badProtocolOnce2(head, allowed);
  if (protocol === 'feed:') {
    if (count > 2) return '';
    s = badProtocolOnce(s, allowed, count + 1);
    if (s === '') return s;
  }
  return protocol + s;
}

/** wp_kses_bad_protocol(): a value whose protocol is not allowed loses it (up to six rounds, then ''). */
export function ksesBadProtocol(s0: string, allowed: readonly string[] = WP_ALLOWED_PROTOCOLS): string {
  let s = ksesNoNull(s0);
  let original: string;
  let iterations = 0;
  do {
    original = s;
    s = badProtocolOnce(s, allowed);
  } while (original !== s && ++iterations < 6);
  return original !== s ? '' : s;
}

interface Attr {
  name: string;
  value: string;
  whole: string;
  vless: boolean;
}

/** PHP's `\s` (no /u): space, \t, \n, \v, \f, \r. */
const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** wp_kses_html_error(): drops what `^("[^"]*("|$)|'[^']*('|$)|\S)*\s*` matches from `at`, returning the new start. */
function htmlErrorEnd(s: string, at: number): number {
  let i = at;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      const close = s.indexOf(s[i]!, i + 1);
      i = close < 0 ? s.length : close + 1;
    } else if (!isSpace(c)) i++;
    else break;
  }
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

// PCRE's `\s` without /u is space, \t, \n, \v, \f and \r, not JavaScript's Unicode spaces (a no-break space is text).
const NAME = /[_a-zA-Z][-_a-zA-Z0-9:.]*/y;
const EQUALS = /[ \t\n\v\f\r]*=[ \t\n\v\f\r]*/y;
const SPACES = /[ \t\n\v\f\r]+/y;
const DOUBLE = /"([^"]*)"([ \t\n\v\f\r]+|\/?$)/y;
const SINGLE = /'([^']*)'([ \t\n\v\f\r]+|\/?$)/y;
const BARE = /([^ \t\n\v\f\r"']+)([ \t\n\v\f\r]+|\/?$)/y;

function stickyAt(re: RegExp, s: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(s);
}

/**
 * wp_kses_hair(): the attribute list split into attributes (the first of a name wins), URI values through
 * wp_kses_bad_protocol(), unquoted values quoted, anything unreadable skipped. After a value, its quote and the
 * following spaces are consumed as WordPress's second, unanchored-at-the-slash replacement does.
 */
function ksesHair(attr: string, allowed: readonly string[]): Attr[] {
  const out = new Map<string, Attr>();
  let mode = 0;
  let name = '';
  let i = 0;
  const add = (a: Attr): void => {
    if (!out.has(a.name)) out.set(a.name, a);
  };
  while (i < attr.length) {
    let working = false;
    if (mode === 0) {
      const m = stickyAt(NAME, attr, i);
      if (m) {
        name = m[0];
        working = true;
        mode = 1;
        i += m[0].length;
      }
    } else if (mode === 1) {
      const eq = stickyAt(EQUALS, attr, i);
      if (eq) {
        working = true;
        mode = 2;
        i += eq[0].length;
      } else {
        const sp = stickyAt(SPACES, attr, i);
        if (sp) {
          working = true;
          mode = 0;
          add({ name, value: '', whole: name, vless: true });
          i += sp[0].length;
        }
      }
    } else {
      const value = (raw: string): string => (URI_ATTRIBUTES.has(name.toLowerCase()) ? ksesBadProtocol(raw, allowed) : raw);
      const d = stickyAt(DOUBLE, attr, i);
      const q = d ? null : stickyAt(SINGLE, attr, i);
      const b = d || q ? null : stickyAt(BARE, attr, i);
      if (d || q) {
        const m = (d ?? q)!;
        const v = value(m[1]!);
        const quote = d ? '"' : "'";
        add({ name, value: v, whole: `${name}=${quote}${v}${quote}`, vless: false });
        working = true;
        mode = 0;
        // preg_replace('/^"[^"]*"(\s+|$)/'): the quoted value and its spaces; a `/` after it stays.
        i += m[1]!.length + 2;
        const sp = stickyAt(SPACES, attr, i);
        if (sp) i += sp[0].length;
      } else if (b) {
        const v = value(b[1]!);
        add({ name, value: v, whole: `${name}="${v}"`, vless: false });
        working = true;
        mode = 0;
        i += b[1]!.length;
        const sp = stickyAt(SPACES, attr, i);
        if (sp) i += sp[0].length;
      }
    }
    if (!working) {
      i = htmlErrorEnd(attr, i);
      mode = 0;
    }
  }
  if (mode === 1) add({ name, value: '', whole: name, vless: true });
  return [...out.values()];
}

/** wp_kses_check_attr_val(). */
function checkAttrVal(value: string, vless: boolean, check: string, expected: unknown): boolean {
  switch (check.toLowerCase()) {
    case 'maxlen':
      return new TextEncoder().encode(value).length <= Number(expected);
    case 'minlen':
      return new TextEncoder().encode(value).length >= Number(expected);
    case 'maxval':
      return /^\s{0,6}[0-9]{1,6}\s{0,6}$/.test(value) && Number(value) <= Number(expected);
    case 'minval':
      return /^\s{0,6}[0-9]{1,6}\s{0,6}$/.test(value) && Number(value) >= Number(expected);
    case 'valueless':
      return String(expected).toLowerCase() === (vless ? 'y' : 'n');
    case 'values':
      return Array.isArray(expected) && expected.includes(value.toLowerCase());
    default:
      return true;
  }
}

/** wp_kses_attr_check() for the tables of this layer (`style` aside: see wpFilterPostKses()). */
function attrAllowed(a: Attr, element: string, tags: KsesTags): boolean {
  const rules = tags[element.toLowerCase()];
  const name = a.name.toLowerCase();
  // A data- attribute the element names nowhere takes the rule of `data-*` when its name is data(-[a-z0-9_]+)+.
  const rule = rules?.[name] ?? (rules?.['data-*'] && /^data(?:-[a-z0-9_]+)+$/.test(name) ? rules['data-*'] : undefined);
  if (rule === undefined) return false;
  if (rule !== true) for (const [check, expected] of Object.entries(rule)) if (!checkAttrVal(a.value, a.vless, check, expected)) return false;
  return true;
}

/** Whether `attr` ends with a slash and spaces only (wp_kses_attr()'s XHTML slash test), read from the end. */
function hasXhtmlSlash(attr: string): boolean {
  let i = attr.length;
  // PHP's `$` also matches before a final newline, which `\s*` swallows anyway.
  while (i > 0 && isSpace(attr.charCodeAt(i - 1))) i--;
  return i > 0 && attr.charCodeAt(i - 1) === 0x2f;
}

/** wp_kses_attr(). */
function ksesAttr(element: string, attr: string, tags: KsesTags, allowed: readonly string[]): string {
  const slash = hasXhtmlSlash(attr) ? ' /' : '';
  const rules = tags[element.toLowerCase()];
  if (!rules || Object.keys(rules).length === 0) return `<${element}${slash}>`;
  let kept = '';
  for (const a of ksesHair(attr, allowed)) if (attrAllowed(a, element, tags)) kept += ` ${a.whole}`;
  return `<${element}${kept.replace(/[<>]/g, '')}${slash}>`;
}

// The element name is taken whole (a lookahead and its backreference stand for PCRE's possessive match): giving
// letters back to `[^>]*` cannot make `>?$` match, and trying would read a long name once per letter.
const TAG = /^<[ \t\n\v\f\r]*(\/[ \t\n\v\f\r]*)?(?=([a-zA-Z0-9-]+))\2([^>]*)>?$/;

/** wp_kses_split2(): one piece wp_kses_split() found (a tag, a comment, a stray `>`). */
function ksesSplit2(piece0: string, tags: KsesTags, allowed: readonly string[]): string {
  const piece = piece0.replaceAll('\\"', '"');
  if (!piece.startsWith('<')) return '&gt;';
  if (piece.startsWith('<!--')) {
    let s = piece.replaceAll('<!--', '').replaceAll('-->', '');
    for (let next = wpKses(s, tags, allowed); next !== s; next = wpKses(s, tags, allowed)) s = next;
    if (s === '') return '';
    s = s.replace(/--+/g, '-').replace(/-$/, '');
    return `<!--${s}-->`;
  }
  // `$` of PCRE without /D also matches before a final newline: a tag followed by one still reads as a tag.
  const m = TAG.exec(piece.endsWith('\n') ? piece.slice(0, -1) : piece) ?? TAG.exec(piece);
  if (!m) return '';
  const [, closing, elem, attrs] = m;
  if (!(elem!.toLowerCase() in tags)) return '';
  if (phpTrim(closing ?? '') !== '') return `</${elem}>`;
  return ksesAttr(elem!, attrs!, tags, allowed);
}

/**
 * wp_kses_split(): `%(<!--.*?(-->|$))|(<[^>]*(>|$)|>)%`, each match through wp_kses_split2(). A comment runs to its
 * `-->` on the same line (or the end); otherwise a `<` runs to the next `>` or the end; a lone `>` is a match alone.
 * The next `>`, `-->` and line end are found once each and reused until passed.
 */
function ksesSplit(s: string, tags: KsesTags, allowed: readonly string[]): string {
  let out = '';
  let from = 0;
  let gt = -2;
  let arrow = -2;
  let eol = -2;
  const find = (cached: number, needle: string, at: number): number => (cached !== -1 && cached < at ? s.indexOf(needle, at) : cached);
  for (let i = 0; i < s.length; ) {
    const lt = s.indexOf('<', i);
    gt = find(gt, '>', i);
    const start = lt < 0 ? gt : gt < 0 ? lt : Math.min(lt, gt);
    if (start < 0) break;
    let end: number;
    if (start === gt) end = gt + 1;
    else {
      end = -1;
      if (s.startsWith('<!--', start)) {
        arrow = find(arrow, '-->', start + 4);
        eol = find(eol, '\n', start + 4);
        const lineStop = eol < 0 ? s.length : eol;
        if (arrow >= 0 && arrow < lineStop) end = arrow + 3;
        // `$`: the very end, or just before a final newline.
        else if (eol < 0) end = s.length;
        else if (eol === s.length - 1) end = eol;
      }
      if (end < 0) {
        gt = find(gt, '>', start + 1);
        end = gt < 0 ? s.length : gt + 1;
      }
    }
    out += s.slice(from, start) + ksesSplit2(s.slice(start, end), tags, allowed);
    from = end;
    i = end;
  }
  return from === 0 && out === '' ? s : out + s.slice(from);
}

/**
 * wp_kses( $string, $allowed_html ): control characters out, entities normalized, the `pre_kses` filters
 * (wp_pre_kses_less_than(); wp_pre_kses_block_attributes() changes only block delimiters, which this port does not
 * parse: text with `<!-- wp:` is outside what it answers for), then every tag checked.
 */
export function wpKses(s: string, tags: KsesTags, allowed: readonly string[] = WP_ALLOWED_PROTOCOLS): string {
  return ksesSplit(wpPreKsesLessThan(ksesNormalizeEntities(ksesNoNull(s, 'keep'))), tags, allowed);
}

/** wp_filter_kses() as a `pre_*` filter runs it (the `data` tags), on unslashed text. */
export function wpFilterKses(s: string): string {
  return wpKses(s, KSES_DATA_TAGS);
}

/**
 * wp_filter_post_kses() (content_save_pre and excerpt_save_pre for a user without unfiltered_html): wp_kses() with the
 * `post` tags. Undefined (not predicted) for text with a `style` attribute (safecss_filter_attr() is not ported) or an
 * `object` element (its required attributes and value callback are not either).
 */
export function wpFilterPostKses(s: string): string | undefined {
  if (/style\s*=|<\s*object/i.test(s)) return undefined;
  return wpKses(s, KSES_POST_TAGS);
}
