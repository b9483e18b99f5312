// Entities as WordPress writes and rewrites them: the names kses lets through ($allowedentitynames), the Windows-1252
// references it corrects on save (convert_invalid_entities()), and _wp_specialchars() (esc_html()'s engine, and the
// last filter on a term name). wp-includes/kses.php and formatting.php of WordPress 6.1, on PHP 8.2.

/** $allowedentitynames (kses.php). */
const ALLOWED_ENTITY_NAMES = [
  'nbsp', 'iexcl', 'cent', 'pound', 'curren', 'yen', 'brvbar', 'sect', 'uml', 'copy', 'ordf', 'laquo', 'not', 'shy',
  'reg', 'macr', 'deg', 'plusmn', 'acute', 'micro', 'para', 'middot', 'cedil', 'ordm', 'raquo', 'iquest', 'Agrave',
  'Aacute', 'Acirc', 'Atilde', 'Auml', 'Aring', 'AElig', 'Ccedil', 'Egrave', 'Eacute', 'Ecirc', 'Euml', 'Igrave',
  'Iacute', 'Icirc', 'Iuml', 'ETH', 'Ntilde', 'Ograve', 'Oacute', 'Ocirc', 'Otilde', 'Ouml', 'times', 'Oslash',
  'Ugrave', 'Uacute', 'Ucirc', 'Uuml', 'Yacute', 'THORN', 'szlig', 'agrave', 'aacute', 'acirc', 'atilde', 'auml',
  'aring', 'aelig', 'ccedil', 'egrave', 'eacute', 'ecirc', 'euml', 'igrave', 'iacute', 'icirc', 'iuml', 'eth',
  'ntilde', 'ograve', 'oacute', 'ocirc', 'otilde', 'ouml', 'divide', 'oslash', 'ugrave', 'uacute', 'ucirc', 'uuml',
  'yacute', 'thorn', 'yuml', 'quot', 'amp', 'lt', 'gt', 'apos', 'OElig', 'oelig', 'Scaron', 'scaron', 'Yuml', 'circ',
  'tilde', 'ensp', 'emsp', 'thinsp', 'zwnj', 'zwj', 'lrm', 'rlm', 'ndash', 'mdash', 'lsquo', 'rsquo', 'sbquo', 'ldquo',
  'rdquo', 'bdquo', 'dagger', 'Dagger', 'permil', 'lsaquo', 'rsaquo', 'euro', 'fnof', 'Alpha', 'Beta', 'Gamma',
  'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta', 'Iota', 'Kappa', 'Lambda', 'Mu', 'Nu', 'Xi', 'Omicron', 'Pi', 'Rho',
  'Sigma', 'Tau', 'Upsilon', 'Phi', 'Chi', 'Psi', 'Omega', 'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta',
  'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigmaf', 'sigma', 'tau', 'upsilon',
  'phi', 'chi', 'psi', 'omega', 'thetasym', 'upsih', 'piv', 'bull', 'hellip', 'prime', 'Prime', 'oline', 'frasl',
  'weierp', 'image', 'real', 'trade', 'alefsym', 'larr', 'uarr', 'rarr', 'darr', 'harr', 'crarr', 'lArr', 'uArr',
  'rArr', 'dArr', 'hArr', 'forall', 'part', 'exist', 'empty', 'nabla', 'isin', 'notin', 'ni', 'prod', 'sum', 'minus',
  'lowast', 'radic', 'prop', 'infin', 'ang', 'and', 'or', 'cap', 'cup', 'int', 'sim', 'cong', 'asymp', 'ne', 'equiv',
  'le', 'ge', 'sub', 'sup', 'nsub', 'sube', 'supe', 'oplus', 'otimes', 'perp', 'sdot', 'lceil', 'rceil', 'lfloor',
  'rfloor', 'lang', 'rang', 'loz', 'spades', 'clubs', 'hearts', 'diams', 'sup1', 'sup2', 'sup3', 'frac14', 'frac12',
  'frac34', 'there4'
];
const entityNamesAllowed: ReadonlySet<string> = new Set(ALLOWED_ENTITY_NAMES);

/** valid_unicode(). */
function validUnicode(i: number): boolean {
  return i === 0x9 || i === 0xa || i === 0xd || (i >= 0x20 && i <= 0xd7ff) || (i >= 0xe000 && i <= 0xfffd) || (i >= 0x10000 && i <= 0x10ffff);
}

/** PHP ltrim( $s, '0' ). */
const ltrimZeros = (s: string): string => s.replace(/^0+/, '');

/**
 * wp_kses_normalize_entities() (the `html` context): every `&` is disarmed to `&amp;`, then the entities kses knows are
 * given back: allowed names, decimal references of valid code points (written with at least three digits, `&#065;`),
 * hexadecimal ones without their leading zeros.
 */
export function ksesNormalizeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s
    .replaceAll('&', '&amp;')
    .replace(/&amp;([A-Za-z]{2,8}[0-9]{0,2});/g, (_m, name: string) => (entityNamesAllowed.has(name) ? `&${name};` : `&amp;${name};`))
    // PHP's empty() is true for the string "0": `&#0;` and `&#x0;` go altogether.
    .replace(/&amp;#(0*[0-9]{1,7});/g, (_m, digits: string) => (digits === '0' ? '' : validUnicode(Number(digits)) ? `&#${ltrimZeros(digits).padStart(3, '0')};` : `&amp;#${digits};`))
    .replace(/&amp;#[Xx](0*[0-9A-Fa-f]{1,6});/g, (_m, hex: string) => (hex === '0' ? '' : validUnicode(parseInt(hex, 16)) ? `&#x${ltrimZeros(hex)};` : `&amp;#x${hex};`));
}

/** convert_invalid_entities()'s table: Windows-1252's 128-159 as the Unicode characters they stand for. */
const WIN_TO_UNI: Readonly<Record<string, string>> = {
  '&#128;': '&#8364;', '&#129;': '', '&#130;': '&#8218;', '&#131;': '&#402;', '&#132;': '&#8222;', '&#133;': '&#8230;',
  '&#134;': '&#8224;', '&#135;': '&#8225;', '&#136;': '&#710;', '&#137;': '&#8240;', '&#138;': '&#352;', '&#139;': '&#8249;',
  '&#140;': '&#338;', '&#141;': '', '&#142;': '&#381;', '&#143;': '', '&#144;': '', '&#145;': '&#8216;', '&#146;': '&#8217;',
  '&#147;': '&#8220;', '&#148;': '&#8221;', '&#149;': '&#8226;', '&#150;': '&#8211;', '&#151;': '&#8212;', '&#152;': '&#732;',
  '&#153;': '&#8482;', '&#154;': '&#353;', '&#155;': '&#8250;', '&#156;': '&#339;', '&#157;': '', '&#158;': '&#382;', '&#159;': '&#376;',
};

/**
 * convert_invalid_entities(): strtr() with the table above (every key is `&#1xx;`, so one pattern finds them all, and
 * strtr's longest-first rule never matters: no key is a prefix of another).
 */
export function convertInvalidEntities(content: string): string {
  if (!content.includes('&#1')) return content;
  return content.replace(/&#1(?:2[89]|[34][0-9]|5[0-9]);/g, (m) => WIN_TO_UNI[m] ?? m);
}

/** A numeric reference PHP's htmlspecialchars() leaves alone under ENT_HTML401 (numeric_entity_is_allowed()). */
const html401Allows = (cp: number): boolean => cp <= 0x10ffff;

/** The entity names of HTML 4.01 (PHP's ENT_HTML401 table): the allowed names but `apos`. */
const HTML401_NAMES: ReadonlySet<string> = new Set(ALLOWED_ENTITY_NAMES.filter((n) => n !== 'apos'));

/**
 * htmlspecialchars( $s, ENT_NOQUOTES or ENT_QUOTES, 'UTF-8', false ): `&`, `<`, `>` (and with quotes `"`, `'`) escaped,
 * except an `&` that starts an entity PHP knows (an HTML 4.01 name, or a numeric reference to a code point the doctype
 * allows).
 */
function htmlSpecialCharsNoDouble(s: string, quotes: boolean): string {
  const re = quotes ? /&(?:([a-zA-Z][a-zA-Z0-9]*);|#([0-9]+);|#[xX]([0-9a-fA-F]+);)?|[<>"']/g : /&(?:([a-zA-Z][a-zA-Z0-9]*);|#([0-9]+);|#[xX]([0-9a-fA-F]+);)?|[<>]/g;
  return s.replace(re, (m, name?: string, dec?: string, hex?: string) => {
    if (m === '<') return '&lt;';
    if (m === '>') return '&gt;';
    if (m === '"') return '&quot;';
    if (m === "'") return '&#039;';
    if (name !== undefined) return HTML401_NAMES.has(name) ? m : `&amp;${m.slice(1)}`;
    if (dec !== undefined || hex !== undefined) {
      const cp = dec !== undefined ? (dec.length > 8 ? Infinity : Number(dec)) : hex!.length > 7 ? Infinity : parseInt(hex!, 16);
      return html401Allows(cp) ? m : `&amp;${m.slice(1)}`;
    }
    return '&amp;';
  });
}

/**
 * _wp_specialchars( $string, $quote_style ) without double encoding: entities normalized as kses does, then `&`, `<`
 * and `>` escaped, and with ENT_QUOTES (`quotes`) `"` and `'` too. With its defaults (ENT_NOQUOTES) it is the last
 * filter on a term's name (pre_term_name); with ENT_QUOTES it is esc_html().
 */
export function wpSpecialchars(s: string, quotes = false): string {
  if (s === '' || !/[&<>"']/.test(s)) return s;
  return htmlSpecialCharsNoDouble(ksesNormalizeEntities(s), quotes);
}

/** esc_html() of valid UTF-8 (wp_check_invalid_utf8() has nothing to do on a JavaScript string). */
export function escHtml(s: string): string {
  return wpSpecialchars(s, true);
}

/**
 * wp_pre_kses_less_than() (a `pre_kses` filter, and the first step of sanitize_text_field()): a `<` that no `>` closes
 * before the next `<` is escaped with what follows it, `a < b` → `a &lt; b`. `%<[^>]*?((?=<)|>|$)%`: each match ends at
 * the next `<`, `>` or the end, so one pass reads every character once.
 */
export function wpPreKsesLessThan(s: string): string {
  if (!s.includes('<')) return s;
  let out = '';
  let from = 0;
  for (let lt = s.indexOf('<'); lt >= 0; ) {
    let end = lt + 1;
    while (end < s.length && s[end] !== '<' && s[end] !== '>') end++;
    const closed = end < s.length && s[end] === '>';
    const piece = s.slice(lt, closed ? end + 1 : end);
    out += s.slice(from, lt) + (closed ? piece : escHtml(piece));
    from = lt + piece.length;
    lt = s.indexOf('<', from);
  }
  return out + s.slice(from);
}
