// wpautop(): WordPress turns double line breaks into paragraphs and single ones into <br />, around block-level
// HTML, in every `content.rendered` and `excerpt.rendered` of a post without blocks. Ported from WordPress 6.1
// wp-includes/formatting.php (wpautop, wp_replace_in_html_tags, wp_html_split, get_html_split_regex,
// _autop_newline_preservation_helper) and checked against a live WordPress 6.1.9 (autop.test.ts).
//
// PHP's `\s` without the u flag is ASCII whitespace; JavaScript's also matches U+00A0 and other Unicode spaces,
// so `\s` is spelled out as S. PHP's `$` also matches before a final newline, hence `(?=\n?$)`.
import { phpTrim } from '../php/index.ts';
import { replaceBeforeLast, replaceElements, splitHtml, unwrapListItems } from '../linear-text.ts';
import { runNow, STEP_CHARS, STEP_PARTS, type Work } from '../steps.ts';

const S = '[ \\t\\n\\x0B\\f\\r]';
export const ALLBLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

const re = (src: string, flags = 'g') => new RegExp(src, flags);

/** get_html_split_regex(): comments, CDATA sections and elements (the captured delimiters). */
const COMMENTS = '!(?:-(?!->)[^\\-]*)*(?:-->)?';
const CDATA = '!\\[CDATA\\[[^\\]]*(?:\\](?!\\]>)[^\\]]*)*(?:\\]\\]>)?';
export const HTML_SPLIT = re(`(<(?:(?=!--)${COMMENTS}|(?=!\\[CDATA\\[)${CDATA}|(?!!--|!\\[CDATA\\[)[^>]*>?))`, '');

/** wp_replace_in_html_tags() with one pair: replace only inside elements (the odd parts of wp_html_split()). */
function replaceInHtmlTags(haystack: string, needle: string, replacement: string): string {
  // haystack.split(HTML_SPLIT), in one scan (linear-patterns.test.ts compares them).
  const parts = splitHtml(haystack, true);
  let changed = false;
  for (let i = 1; i < parts.length; i += 2) {
    if (parts[i]!.includes(needle)) {
      parts[i] = parts[i]!.replaceAll(needle, replacement);
      changed = true;
    }
  }
  return changed ? parts.join('') : haystack;
}

/**
 * The patterns wpautop() applies (regex-audit.test.ts checks them for super-linear backtracking). WordPress's
 * `\s*<tag` would look through a run of white space again from each of its characters; `(?<!S)` tries it from the
 * run's start only, which is where WordPress's first match in the run starts (linear-patterns.test.ts compares them).
 */
export const AUTOP_PATTERNS = {
  brbr: re(`<br${S}*/?>${S}*<br${S}*/?>`),
  blockOpen: re(`(<${ALLBLOCKS}[ \\t\\n\\x0B\\f\\r/>])`),
  blockClose: re(`(</${ALLBLOCKS}>)`),
  hr: re(`(<hr${S}*?/?>)`),
  optionOpen: re(`(?<!${S})${S}*<option`),
  optionClose: re(`</option>${S}*`),
  objectOpen: re(`(<object[^>]*>)${S}*`),
  objectClose: re(`(?<!${S})${S}*</object>`),
  // A leading run of white space is tried from its start only; right after a match that took it, from the tag.
  paramEmbed: re(`(?:(?<!${S})${S}*)?(</?(?:param|embed)[^>]*>)${S}*`),
  mediaOpen: re(`([<\\[](?:audio|video)[^>\\]]*[>\\]])${S}*`),
  mediaClose: re(`(?<!${S})${S}*([<\\[]/(?:audio|video)[>\\]])`),
  sourceTrack: re(`(?:(?<!${S})${S}*)?(<(?:source|track)[^>]*>)${S}*`),
  figcaptionOpen: re(`(?<!${S})${S}*(<figcaption[^>]*>)`),
  figcaptionClose: re(`</figcaption>${S}*`),
  manyNewlines: /\n\n+/g,
  paragraphSplit: re(`\\n${S}*\\n`, ''),
  emptyP: re(`<p>${S}*</p>`),
  pInDiv: /<p>([^<]+)<\/(div|address|form)>/g,
  pAroundBlock: re(`<p>${S}*(</?${ALLBLOCKS}[^>]*>)${S}*</p>`),
  pBlockquote: /<p><blockquote([^>]*)>/gi,
  pBeforeBlock: re(`<p>${S}*(</?${ALLBLOCKS}[^>]*>)`),
  // WordPress's `(<block…>)\s*</p>` with the tail optional: a block tag found without it is kept as it is (see
  // keepUnlessTail), so no later `<block` before the same `>` is tried again.
  blockBeforeP: re(`(</?${ALLBLOCKS}[^>]*>)(${S}*</p>)?`),
  // `(?<!<br />)S*\n`, tried only where WordPress's can first match in a run of white space: at its start, or one
  // later when `<br />` precedes it (elsewhere the original would look through the same run again).
  newline: re(`(?:(?<!<br />)(?<!${S})|(?<=<br />${S}))${S}*\\n`),
  blockBr: re(`(</?${ALLBLOCKS}[^>]*>)(${S}*<br />)?`),
  brBeforeBlock: re(`<br />(${S}*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)`),
  lastP: /\n<\/p>(?=\n?$)/,
};

/**
 * `(tag)(tail)?` → the tag alone when the tail followed, else the match unchanged: the same text as WordPress's
 * `(tag)tail` → `$1`, since every start inside an unchanged tag meets the same `>` and the same missing tail.
 */
const keepUnlessTail = (match: string, tag: string, tail: string | undefined) => (tail === undefined ? match : tag);

/** PHP trim($s, "\n") */
const trimNewlines = (s: string) => s.replace(/^\n+|(?<!\n)\n+$/g, '');

/** wpautop( $text, $br = true ) */
export function wpautop(input: string, br = true): string {
  return runNow(wpautopSteps(input, br));
}

/** wpautop(), in steps: for a text of STEP_CHARS or more, a pause between groups of its passes over the whole text. */
export function* wpautopSteps(input: string, br = true): Work<string> {
  if (phpTrim(input) === '') return '';
  const pausing = input.length >= STEP_CHARS;
  let text = `${input}\n`;
  const preTags = new Map<string, string>();
  if (text.includes('<pre')) {
    const parts = text.split('</pre>');
    const last = parts.pop()!;
    text = '';
    let i = 0;
    for (const part of parts) {
      const start = part.indexOf('<pre');
      if (start < 0) {
        text += part;
        continue;
      }
      const name = `<pre wp-pre-tag-${i}></pre>`;
      preTags.set(name, `${part.slice(start)}</pre>`);
      text += part.slice(0, start) + name;
      i++;
    }
    text += last;
  }
  if (pausing) yield;
  text = text.replace(AUTOP_PATTERNS.brbr, '\n\n');
  text = text.replace(AUTOP_PATTERNS.blockOpen, '\n\n$1');
  text = text.replace(AUTOP_PATTERNS.blockClose, '$1\n\n');
  text = text.replace(AUTOP_PATTERNS.hr, '$1\n\n');
  text = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
  if (pausing) yield;
  text = replaceInHtmlTags(text, '\n', ' <!-- wpnl --> ');
  if (text.includes('<option')) text = text.replace(AUTOP_PATTERNS.optionOpen, '<option').replace(AUTOP_PATTERNS.optionClose, '</option>');
  if (text.includes('</object>')) text = replaceBeforeLast(replaceBeforeLast(text, '>', AUTOP_PATTERNS.objectOpen, '$1').replace(AUTOP_PATTERNS.objectClose, '</object>'), '>', AUTOP_PATTERNS.paramEmbed, '$1');
  if (text.includes('<source') || text.includes('<track')) {
    text = replaceBeforeLast(replaceBeforeLast(text, '>]', AUTOP_PATTERNS.mediaOpen, '$1').replace(AUTOP_PATTERNS.mediaClose, '$1'), '>', AUTOP_PATTERNS.sourceTrack, '$1');
  }
  if (text.includes('<figcaption')) text = replaceBeforeLast(text, '>', AUTOP_PATTERNS.figcaptionOpen, '$1').replace(AUTOP_PATTERNS.figcaptionClose, '</figcaption>');
  if (pausing) yield;
  text = text.replace(AUTOP_PATTERNS.manyNewlines, '\n\n');
  if (pausing) yield;
  const paragraphs = text.split(AUTOP_PATTERNS.paragraphSplit).filter((p) => p !== '');
  text = '';
  for (let i = 0; i < paragraphs.length; i++) {
    if (pausing && i % STEP_PARTS === STEP_PARTS - 1) yield;
    text += `<p>${trimNewlines(paragraphs[i]!)}</p>\n`;
  }
  if (pausing) yield;
  text = text.replace(AUTOP_PATTERNS.emptyP, '');
  text = text.replace(AUTOP_PATTERNS.pInDiv, '<p>$1</p></$2>');
  text = text.replace(AUTOP_PATTERNS.pAroundBlock, '$1');
  if (pausing) yield;
  text = unwrapListItems(text);
  text = text.replace(AUTOP_PATTERNS.pBlockquote, '<blockquote$1><p>').replaceAll('</blockquote></p>', '</p></blockquote>');
  text = text.replace(AUTOP_PATTERNS.pBeforeBlock, '$1');
  if (pausing) yield;
  text = replaceBeforeLast(text, '>', AUTOP_PATTERNS.blockBeforeP, keepUnlessTail);
  if (br) {
    // `/<(script|style|svg).*?<\/\1>/gs`, found in one pass.
    text = replaceElements(text, { words: ['script', 'style', 'svg'], ignoreCase: false, openTagEnds: false }, (m) => m.replaceAll('\n', '<WPPreserveNewline />'));
    text = text.replaceAll('<br>', '<br />').replaceAll('<br/>', '<br />');
    if (pausing) yield;
    text = text.replace(AUTOP_PATTERNS.newline, '<br />\n');
    text = text.replaceAll('<WPPreserveNewline />', '\n');
  }
  if (pausing) yield;
  text = replaceBeforeLast(text, '>', AUTOP_PATTERNS.blockBr, keepUnlessTail);
  text = text.replace(AUTOP_PATTERNS.brBeforeBlock, '$1');
  text = text.replace(AUTOP_PATTERNS.lastP, '</p>');
  if (pausing) yield;
  for (const [name, pre] of preTags) text = text.replaceAll(name, pre);
  if (text.includes('<!-- wpnl -->')) text = text.replaceAll(' <!-- wpnl --> ', '\n').replaceAll('<!-- wpnl -->', '\n');
  return text;
}
