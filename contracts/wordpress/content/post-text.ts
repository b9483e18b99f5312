// A post's `rendered` texts as the wp/v2 posts controller prints them (WordPress 6.1, default filters, no theme or
// plugins): the_title, the_content and the_excerpt(get_the_excerpt()). Checked against a live WordPress 6.1.9 with
// the fixtures' own block content and a few hundred generated strings (post-text.test.ts holds the recorded pairs).
//
// Not reproduced: dynamic blocks (none in the data), shortcodes (none registered), the `:mrgreen:` smiley (an image
// under the site's wp-includes), srcset/sizes for attachment images, and malformed block markup (WP_Block_Parser
// keeps a stray closer as text; here every delimiter goes).
import { wpautop, wpautopSteps } from './autop.ts';
import { blockDelimiters, removeScriptStyle, replaceBeforeLast, splitTags, stripTagsAndComments } from '../linear-text.ts';
import { escapeRegExp } from '../regexp.ts';
import { phpTrim } from '../php/index.ts';
import { capitalPDangitContent, convertChars, renderTitle, wptexturize, wptexturizeSteps } from './texturize.ts';
import { runNow, STEP_CHARS, STEP_PARTS, type Work } from '../steps.ts';

export { renderTitle };

/**
 * What a site's configuration changes in the rendered texts, beside WordPress's defaults (all absent): a
 * `run_wptexturize` filter answering false (texturize false), the use_smilies option off (smilies false), the
 * excerpt_length and excerpt_more filters (excerptLength words, then excerptMore, for a generated excerpt). The mock
 * renders with the defaults; the suite tries these to tell a site's configuration from a fault.
 */
export interface SiteRendering {
  texturize?: boolean;
  smilies?: boolean;
  excerptLength?: number;
  excerptMore?: string;
}

/** WordPress's default excerpt_length and excerpt_more (wp_trim_excerpt()). */
export const EXCERPT_LENGTH = 55;
export const EXCERPT_MORE = ' [&hellip;]';

/** A block delimiter: an opener, a closer (group 1) or a self-closing one (group 3), with the block's name (group 2). */

/**
 * smilies_init()'s table (use_smilies is on by default): every smiley but `:mrgreen:` is an emoji now. `:mrgreen:`
 * is an image under the site's wp-includes, which these pure renderers do not know, so it stays text.
 */
const SMILIES: Readonly<Record<string, string>> = {
  ':neutral:': '\u{1F610}', ':twisted:': '\u{1F608}', ':arrow:': '\u{27A1}', ':shock:': '\u{1F62F}', ':smile:': '\u{1F642}',
  ':???:': '\u{1F615}', ':cool:': '\u{1F60E}', ':evil:': '\u{1F47F}', ':grin:': '\u{1F600}', ':idea:': '\u{1F4A1}',
  ':oops:': '\u{1F633}', ':razz:': '\u{1F61B}', ':roll:': '\u{1F644}', ':wink:': '\u{1F609}', ':cry:': '\u{1F625}',
  ':eek:': '\u{1F62E}', ':lol:': '\u{1F606}', ':mad:': '\u{1F621}', ':sad:': '\u{1F641}', '8-)': '\u{1F60E}', '8-O': '\u{1F62F}',
  ':-(': '\u{1F641}', ':-)': '\u{1F642}', ':-?': '\u{1F615}', ':-D': '\u{1F600}', ':-P': '\u{1F61B}', ':-o': '\u{1F62E}',
  ':-x': '\u{1F621}', ':-|': '\u{1F610}', ';-)': '\u{1F609}', '8O': '\u{1F62F}', ':(': '\u{1F641}', ':)': '\u{1F642}',
  ':?': '\u{1F615}', ':D': '\u{1F600}', ':P': '\u{1F61B}', ':o': '\u{1F62E}', ':x': '\u{1F621}', ':|': '\u{1F610}',
  ';)': '\u{1F609}', ':!:': '\u{2757}', ':?:': '\u{2753}',
};

/** $wp_smiliessearch: the keys in krsort() order (so `:???:` is tried before `:?`), between spaces or line ends. */
export const SMILIES_SEARCH = (() => {
  const spaces = '[\\r\\n\\t ]|\\u00A0|&nbsp;';
  const keys = Object.keys(SMILIES).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  return new RegExp(`(?<=${spaces}|^)(?:${keys.map(escapeRegExp).join('|')})(?=${spaces}|$)`, 'gm');
})();

/** convert_smilies(): only in text between tags, and never inside code, pre, style, script or textarea. */
function convertSmilies(text: string): string {
  return runNow(convertSmiliesSteps(text));
}

/** convert_smilies(), in steps: a pause after every STEP_PARTS pieces of the split text. */
function* convertSmiliesSteps(text: string): Work<string> {
  if (!/[:;8]/.test(text)) return text;
  const parts = splitTags(text);
  let ignore = '';
  for (let i = 0; i < parts.length; i++) {
    if (i % STEP_PARTS === STEP_PARTS - 1) yield;
    const part = parts[i]!;
    if (ignore === '') {
      const m = /^<(code|pre|style|script|textarea)[^>]*>/.exec(part);
      if (m) ignore = m[1]!;
    }
    if (ignore === '' && part.length > 0 && part[0] !== '<') parts[i] = part.replace(SMILIES_SEARCH, (s) => SMILIES[s]!);
    if (ignore !== '' && part === `</${ignore}>`) ignore = '';
  }
  return parts.join('');
}

/** has_blocks() */
function hasBlocks(text: string): boolean {
  return text.includes('<!-- wp:');
}

/** do_blocks() for static blocks: each block prints its saved HTML, so the delimiters go and all else stays. */
function doBlocks(text: string): string {
  let out = '';
  let from = 0;
  for (const d of blockDelimiters(text)) {
    out += text.slice(from, d.index);
    from = d.index + d.text.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * wp_filter_content_tags() as far as it applies without attachments: `loading="lazy"` on images with both width and
 * height, then `decoding="async"` on images without a decoding attribute (6.1).
 */
function filterContentTags(html: string): string {
  if (!html.includes('<img')) return html;
  return replaceBeforeLast(html, '>', /<img\s[^>]+>/g, (img) => {
    let out = img;
    if (!/\sloading=/.test(out) && out.includes(' width=') && out.includes(' height=')) out = out.replace('<img', '<img loading="lazy"');
    if (!/\sdecoding=/.test(out)) out = out.replace('<img ', '<img decoding="async" ');
    return out;
  });
}

/** the_content: do_blocks, wptexturize, wpautop (not for block content), wp_filter_content_tags, capital_P_dangit. */
export function renderContent(stored: string, site: SiteRendering = {}): string {
  return runNow(renderContentSteps(stored, site));
}

/**
 * the_content in steps: a long post (STEP_CHARS or more) pauses between its filters and inside the long ones, so a
 * server that runs the steps one per turn (the mock's writes of large posts) answers other clients between them.
 */
export function* renderContentSteps(stored: string, site: SiteRendering = {}): Work<string> {
  if (stored === '') return '';
  const pausing = stored.length >= STEP_CHARS;
  const blocks = hasBlocks(stored);
  const text = blocks ? doBlocks(stored) : stored;
  let html = site.texturize === false ? text : yield* wptexturizeSteps(text);
  if (!blocks) html = yield* wpautopSteps(html);
  if (pausing) yield;
  html = capitalPDangitContent(filterContentTags(html));
  if (pausing) yield;
  return site.smilies === false ? html : yield* convertSmiliesSteps(html);
}

/** wp_strip_all_tags(): script and style with their content, then every tag and comment, then trim. */
function stripAllTags(html: string): string {
  return phpTrim(stripTagsAndComments(removeScriptStyle(html)));
}

/** Blocks excerpt_remove_blocks() keeps (their inner HTML); any other block is dropped from a generated excerpt. */
const EXCERPT_BLOCKS = new Set(['freeform', 'heading', 'html', 'list', 'media-text', 'paragraph', 'preformatted', 'pullquote', 'quote', 'table', 'verse', 'columns', 'column', 'group']);

/** excerpt_remove_blocks(): text outside blocks stays, a top-level block stays only when it is text. */
function excerptRemoveBlocks(text: string): string {
  let out = '';
  let depth = 0;
  let keep = true;
  let last = 0;
  for (const d of blockDelimiters(text)) {
    if (depth === 0 || keep) out += text.slice(last, d.index);
    last = d.index + d.text.length;
    if (d.closer) depth = Math.max(0, depth - 1);
    else if (!d.selfClosing) {
      if (depth === 0) keep = EXCERPT_BLOCKS.has(d.name.replace(/^core\//, ''));
      depth++;
    }
  }
  if (depth === 0 || keep) out += text.slice(last);
  return out;
}

/** The first `n` words of `text` (split on PHP's `[\n\r\t ]+`, empty pieces dropped), and whether there were more. */
function firstWords(text: string, n: number): { words: string[]; more: boolean } {
  const words: string[] = [];
  const word = /[^\n\r\t ]+/g;
  for (let m = word.exec(text); m; m = word.exec(text)) {
    if (words.length === n) return { words, more: true };
    words.push(m[0]);
  }
  return { words, more: false };
}

/**
 * wp_trim_excerpt() for an empty excerpt: the first 55 words of the rendered content, then " [&hellip;]" (or the
 * site's excerpt_length and excerpt_more, `site`). Content
 * without blocks is rendered as the_content renders it, so `rendered` (that rendering, when the caller has made it)
 * is taken instead of rendering the same text twice: a post of 8 MB took two renderings of a second each.
 */
function generatedExcerpt(content: string, rendered: string | undefined, site: SiteRendering): string {
  const blocks = hasBlocks(content);
  const html = !blocks && rendered !== undefined ? rendered : renderContent(blocks ? excerptRemoveBlocks(content) : content, site);
  // Only the first excerptLength + 1 words are looked at: splitting every word of a long post allocated one string per word.
  const { words, more } = firstWords(stripAllTags(html.replaceAll(']]>', ']]&gt;')), site.excerptLength ?? EXCERPT_LENGTH);
  return more ? `${words.join(' ')}${site.excerptMore ?? EXCERPT_MORE}` : words.join(' ');
}

/**
 * the_excerpt( get_the_excerpt() ): wptexturize, convert_chars, wpautop, wp_filter_content_tags. `renderedContent`,
 * when given, is renderContent(content, site) (what the post's content.rendered already holds).
 */
export function renderExcerpt(stored: string, content: string, renderedContent?: string, site: SiteRendering = {}): string {
  const source = stored === '' ? generatedExcerpt(content, renderedContent, site) : stored;
  if (source === '') return '';
  const texturized = site.texturize === false ? source : wptexturize(source);
  return filterContentTags(wpautop(convertChars(site.smilies === false ? texturized : convertSmilies(texturized))));
}
