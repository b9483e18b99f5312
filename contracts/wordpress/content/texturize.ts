// What WordPress does to a post's text before the REST API shows it as `rendered`: wptexturize() (curly quotes,
// apostrophes, dashes, ellipses, `&` as `&#038;`), then for titles convert_chars(), trim() and capital_P_dangit(),
// and for private posts the "Private: " prefix get_the_title() adds outside wp-admin. A frontend that shows
// `title.rendered` must decode these entities; a mock that printed the raw text would hide that bug until
// production. Ported from WordPress 6.1 wp-includes/formatting.php (wptexturize, wptexturize_primes,
// _wptexturize_pushpop_element, _get_wptexturize_split_regex, wp_spaces_regexp, convert_chars, capital_P_dangit)
// and post-template.php (get_the_title); checked against a live WordPress 6.1.9 (texturize.cases.ts).
//
// PHP runs these regexes on bytes and this port on UTF-16 code units: they agree because every pattern is ASCII
// except the no-break space (PHP's `\xC2\xA0`, here U+00A0). Not ported: shortcodes (none is registered here, so
// WordPress would texturize `[...]` as text too, as this does), the `no_texturize_*` and `run_wptexturize` filters.
import { escapeRegExp } from '../regexp.ts';
import { phpTrim } from '../php/index.ts';
import { splitHtml, timesSign } from '../linear-text.ts';
import { runNow, STEP_PARTS, type Work } from '../steps.ts';

const SPACES = '[\\r\\n\\t ]|\\u00A0|&nbsp;';

const OPEN_Q = '&#8220;';
const CLOSE_Q = '&#8221;';
const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPEN_SQ = '&#8216;';
const CLOSE_SQ = '&#8217;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';

const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';

const COCKNEY = ["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"];
const STATIC: ReadonlyArray<readonly [string, string]> = [
  ['...', '&#8230;'],
  ['``', OPEN_Q],
  ["''", CLOSE_Q],
  [' (tm)', ' &#8482;'],
  ...COCKNEY.map((w) => [w, w.replaceAll("'", APOS)] as const),
];

/** The apostrophe patterns, in WordPress's order (PHP's `\Z` is `$` here: every use also allows a newline next). */
export const DYNAMIC_APOS: ReadonlyArray<readonly [RegExp, string]> = [
  // '99' and '99" are ambiguous among other patterns; assume it's an abbreviated year at the end of a quotation.
  [new RegExp(`'(\\d\\d)'(?=$|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g'), `${APOS_FLAG}$1${CLOSE_SQ}`],
  [new RegExp(`'(\\d\\d)"(?=$|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g'), `${APOS_FLAG}$1${CLOSE_Q}`],
  // '99 '99s '99's (apostrophe), but never '9 or '99% or '999 or '99.0.
  [/'(?=\d\d(?:$|(?![%\d]|[.,]\d)))/g, APOS_FLAG],
  // Quoted numbers like '0.42'.
  [new RegExp(`(?<=^|${SPACES})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSE_SQ}`],
  // Single quote at start, or preceded by (, {, <, [, ", -, or spaces.
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SPACES})'`, 'g'), OPEN_SQ_FLAG],
  // Apostrophe in a word. No spaces, double apostrophes, or other punctuation.
  [new RegExp(`(?<!${SPACES})'(?!$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SPACES})`, 'g'), APOS_FLAG],
];

export const DYNAMIC_QUOTE: ReadonlyArray<readonly [RegExp, string]> = [
  // Quoted numbers like "42".
  [new RegExp(`(?<=^|${SPACES})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSE_Q}`],
  // Double quote at start, or preceded by (, {, <, [, -, or spaces, and not followed by spaces.
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SPACES})"(?!${SPACES})`, 'g'), OPEN_Q_FLAG],
];

export const DYNAMIC_DASH: ReadonlyArray<readonly [RegExp, string]> = [
  [/---/g, EM_DASH],
  [new RegExp(`(?<=^|${SPACES})--(?=$|${SPACES})`, 'g'), EM_DASH],
  [/(?<!xn)--/g, EN_DASH],
  [new RegExp(`(?<=^|${SPACES})-(?=$|${SPACES})`, 'g'), EN_DASH],
];

/** _get_wptexturize_split_regex() without shortcodes: HTML comments and elements are the delimiters. */
export const SPLIT = /(<(?:(?=!--)!(?:-(?!->)[^-]*)*(?:-->)?|(?!!--)[^>]*>?))/;
export const AMP_NOT_ENTITY = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;
const NO_TEXTURIZE_TAGS: readonly string[] = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];

function applyAll(s: string, rules: ReadonlyArray<readonly [RegExp, string]>): string {
  for (const [re, to] of rules) s = s.replace(re, to);
  return s;
}

const PRIME_FLAG = '<!--wp-prime-or-quote-->';

/** wptexturize_primes()'s patterns for one needle, made once (it runs for every text node with a quote in it). */
function primePatterns(needle: "'" | '"') {
  const n = escapeRegExp(needle);
  return {
    quotePattern: new RegExp(`${n}(?=$|[.,:;!?)}\\-\\]]|&gt;|${SPACES})`, 'g'),
    primePattern: new RegExp(`(?<=\\d)${n}`, 'g'),
    flagAfterDigit: new RegExp(`(?<=\\d)${escapeRegExp(PRIME_FLAG)}`, 'g'),
    flagNoDigit: new RegExp(`(?<!\\d)${escapeRegExp(PRIME_FLAG)}`, 'g'),
  };
}
const PRIME_PATTERNS = { "'": primePatterns("'"), '"': primePatterns('"') } as const;

/** wptexturize_primes(): primes after digits, closing quotes elsewhere, one opening quote at a time. */
function primes(haystack: string, needle: "'" | '"', prime: string, openQuote: string, closeQuote: string): string {
  const flag = PRIME_FLAG;
  // Global patterns, used only through replace(), which starts each from 0: sharing them between calls is safe.
  const { quotePattern, primePattern, flagAfterDigit, flagNoDigit } = PRIME_PATTERNS[needle];
  const sentences = haystack.split(openQuote);
  for (let key = 0; key < sentences.length; key++) {
    let sentence = sentences[key]!;
    if (!sentence.includes(needle)) continue;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      let count = 0;
      sentence = sentence.replace(quotePattern, () => {
        count++;
        return flag;
      });
      if (count > 1) {
        // This sentence appears to have multiple closing quotes. Attempt Vulcan logic.
        let count2 = 0;
        sentence = sentence.replace(flagNoDigit, () => {
          count2++;
          return closeQuote;
        });
        if (count2 === 0) {
          // The rightmost quote-period match is the end of the quotation; failing that, the rightmost candidate.
          const pos = sentence.includes(`${flag}.`) ? sentence.lastIndexOf(`${flag}.`) : sentence.lastIndexOf(flag);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + flag.length);
        }
        sentence = sentence.replace(primePattern, prime).replace(flagAfterDigit, prime).replaceAll(flag, closeQuote);
      } else if (count === 1) {
        sentence = sentence.replaceAll(flag, closeQuote).replace(primePattern, prime);
      } else {
        sentence = sentence.replace(primePattern, prime);
      }
    } else {
      sentence = sentence.replace(primePattern, prime).replace(quotePattern, closeQuote);
    }
    if (needle === '"' && sentence.includes('"')) sentence = sentence.replaceAll('"', closeQuote);
    sentences[key] = sentence;
  }
  return sentences.join(openQuote);
}

/** _wptexturize_pushpop_element(): track opening and closing no-texturize tags. */
function pushPop(text: string, stack: string[]): void {
  let opening: boolean;
  let nameOffset: number;
  if (text.length > 1 && text[1] !== '/') {
    opening = true;
    nameOffset = 1;
  } else if (stack.length === 0) {
    return;
  } else {
    opening = false;
    nameOffset = 2;
  }
  // PHP: substr($text, $offset, strpos($text, ' ') - $offset), or to the last character but one when no space.
  const space = text.indexOf(' ');
  const tag = space < 0 ? text.slice(nameOffset, -1) : text.slice(nameOffset, space);
  if (!NO_TEXTURIZE_TAGS.includes(tag)) return;
  if (opening) stack.push(tag);
  else if (stack[stack.length - 1] === tag) stack.pop();
}

function texturizeText(curl: string): string {
  for (const [from, to] of STATIC) if (curl.includes(from)) curl = curl.replaceAll(from, to);
  if (curl.includes("'")) {
    curl = applyAll(curl, DYNAMIC_APOS);
    curl = primes(curl, "'", PRIME, OPEN_SQ_FLAG, CLOSE_SQ);
    curl = curl.replaceAll(APOS_FLAG, APOS).replaceAll(OPEN_SQ_FLAG, OPEN_SQ);
  }
  if (curl.includes('"')) {
    curl = applyAll(curl, DYNAMIC_QUOTE);
    curl = primes(curl, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSE_Q);
    curl = curl.replaceAll(OPEN_Q_FLAG, OPEN_Q);
  }
  if (curl.includes('-')) curl = applyAll(curl, DYNAMIC_DASH);
  // 9x9 (times), but never 0x9999.
  if (/(?<=\d)x\d/.test(curl)) curl = timesSign(curl);
  return curl.replace(AMP_NOT_ENTITY, '&#038;');
}

/** wptexturize(), in steps: a pause after every STEP_PARTS pieces of the split text. */
export function* wptexturizeSteps(text: string): Work<string> {
  if (text === '') return text;
  // text.split(SPLIT), in one scan (linear-patterns.test.ts compares them).
  const parts = splitHtml(text, false).filter((p) => p !== '');
  const stack: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i % STEP_PARTS === STEP_PARTS - 1) yield;
    const curl = parts[i]!;
    if (curl[0] === '<') {
      if (curl.startsWith('<!--')) continue;
      // An HTML element: only its `&`s change.
      parts[i] = curl.replace(AMP_NOT_ENTITY, '&#038;');
      pushPop(parts[i]!, stack);
    } else if (phpTrim(curl) === '') {
      continue;
    } else if (stack.length === 0) {
      parts[i] = texturizeText(curl);
    }
  }
  return parts.join('');
}

/** wptexturize() */
export function wptexturize(text: string): string {
  return runNow(wptexturizeSteps(text));
}

/** convert_chars() */
export function convertChars(text: string): string {
  return text.includes('&') ? text.replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1') : text;
}

/** capital_P_dangit() on the_content: only after a space, an opening quote, a tag or a parenthesis. */
export function capitalPDangitContent(text: string): string {
  if (!text.includes('Wordpress')) return text;
  return text.replace(/( |&#8216;|&#8220;|>|\()Wordpress/g, '$1WordPress');
}

/**
 * The `title.rendered` of wp/v2 posts: get_the_title() with the_title's filters. The posts controller lets a
 * protected post keep its plain title (protected_title_format is `%s` there) but not a private one. `site.texturize`
 * false: a site whose run_wptexturize filter answers false (wptexturize() then returns its text unchanged).
 */
export function renderTitle(title: string, status?: string, site: { texturize?: boolean } = {}): string {
  // Most titles have nothing these filters change; skipping them keeps creates cheap.
  const texturized = site.texturize === false ? title : wptexturize(title);
  const base = NEEDS_FILTERS.test(title) ? phpTrim(convertChars(texturized)).replaceAll('Wordpress', 'WordPress') : phpTrim(title);
  return status === 'private' ? `Private: ${base}` : base;
}

/** Anything wptexturize(), convert_chars() or capital_P_dangit() could change. */
const NEEDS_FILTERS = /['"&`<-]|\.\.\.|\(tm\)|\dx\d|Wordpress/;
