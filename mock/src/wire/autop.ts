// wpautop(): WordPress turns double line breaks into paragraphs and single ones into <br />, around block-level
// HTML, in every `content.rendered` and `excerpt.rendered` of a post without blocks. Ported from WordPress 6.1
// wp-includes/formatting.php (wpautop, wp_replace_in_html_tags, wp_html_split, get_html_split_regex,
// _autop_newline_preservation_helper) and checked against a live WordPress 6.1.9 (autop.test.ts).
//
// PHP's `\s` without the u flag is ASCII whitespace; JavaScript's also matches U+00A0 and other Unicode spaces,
// so `\s` is spelled out as S. PHP's `$` also matches before a final newline, hence `(?=\n?$)`.
import { phpTrim } from './php/index.ts';

const S = '[ \\t\\n\\x0B\\f\\r]';
const ALLBLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

const re = (src: string, flags = 'g') => new RegExp(src, flags);

/** get_html_split_regex(): comments, CDATA sections and elements (the captured delimiters). */
const COMMENTS = '!(?:-(?!->)[^\\-]*)*(?:-->)?';
const CDATA = '!\\[CDATA\\[[^\\]]*(?:\\](?!\\]>)[^\\]]*)*(?:\\]\\]>)?';
const HTML_SPLIT = re(`(<(?:(?=!--)${COMMENTS}|(?=!\\[CDATA\\[)${CDATA}|(?!!--|!\\[CDATA\\[)[^>]*>?))`, '');

/** wp_replace_in_html_tags() with one pair: replace only inside elements (the odd parts of wp_html_split()). */
function replaceInHtmlTags(haystack: string, needle: string, replacement: string): string {
  const parts = haystack.split(HTML_SPLIT);
  let changed = false;
  for (let i = 1; i < parts.length; i += 2) {
    if (parts[i]!.includes(needle)) {
      parts[i] = parts[i]!.replaceAll(needle, replacement);
      changed = true;
    }
  }
  return changed ? parts.join('') : haystack;
}

const R = {
  brbr: re(`<br${S}*/?>${S}*<br${S}*/?>`),
  blockOpen: re(`(<${ALLBLOCKS}[ \\t\\n\\x0B\\f\\r/>])`),
  blockClose: re(`(</${ALLBLOCKS}>)`),
  hr: re(`(<hr${S}*?/?>)`),
  optionOpen: re(`${S}*<option`),
  optionClose: re(`</option>${S}*`),
  objectOpen: re(`(<object[^>]*>)${S}*`),
  objectClose: re(`${S}*</object>`),
  paramEmbed: re(`${S}*(</?(?:param|embed)[^>]*>)${S}*`),
  mediaOpen: re(`([<\\[](?:audio|video)[^>\\]]*[>\\]])${S}*`),
  mediaClose: re(`${S}*([<\\[]/(?:audio|video)[>\\]])`),
  sourceTrack: re(`${S}*(<(?:source|track)[^>]*>)${S}*`),
  figcaptionOpen: re(`${S}*(<figcaption[^>]*>)`),
  figcaptionClose: re(`</figcaption>${S}*`),
  manyNewlines: /\n\n+/g,
  paragraphSplit: re(`\\n${S}*\\n`, ''),
  emptyP: re(`<p>${S}*</p>`),
  pInDiv: /<p>([^<]+)<\/(div|address|form)>/g,
  pAroundBlock: re(`<p>${S}*(</?${ALLBLOCKS}[^>]*>)${S}*</p>`),
  pAroundLi: /<p>(<li.+?)<\/p>/g,
  pBlockquote: /<p><blockquote([^>]*)>/gi,
  pBeforeBlock: re(`<p>${S}*(</?${ALLBLOCKS}[^>]*>)`),
  blockBeforeP: re(`(</?${ALLBLOCKS}[^>]*>)${S}*</p>`),
  preserve: /<(script|style|svg).*?<\/\1>/gs,
  newline: re(`(?<!<br />)${S}*\\n`),
  blockBr: re(`(</?${ALLBLOCKS}[^>]*>)${S}*<br />`),
  brBeforeBlock: re(`<br />(${S}*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)`),
  lastP: /\n<\/p>(?=\n?$)/,
};

/** PHP trim($s, "\n") */
const trimNewlines = (s: string) => s.replace(/^\n+|\n+$/g, '');

/** wpautop( $text, $br = true ) */
export function wpautop(input: string, br = true): string {
  if (phpTrim(input) === '') return '';
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
  text = text.replace(R.brbr, '\n\n');
  text = text.replace(R.blockOpen, '\n\n$1');
  text = text.replace(R.blockClose, '$1\n\n');
  text = text.replace(R.hr, '$1\n\n');
  text = text.replaceAll('\r\n', '\n').replaceAll('\r', '\n');
  text = replaceInHtmlTags(text, '\n', ' <!-- wpnl --> ');
  if (text.includes('<option')) text = text.replace(R.optionOpen, '<option').replace(R.optionClose, '</option>');
  if (text.includes('</object>')) text = text.replace(R.objectOpen, '$1').replace(R.objectClose, '</object>').replace(R.paramEmbed, '$1');
  if (text.includes('<source') || text.includes('<track')) text = text.replace(R.mediaOpen, '$1').replace(R.mediaClose, '$1').replace(R.sourceTrack, '$1');
  if (text.includes('<figcaption')) text = text.replace(R.figcaptionOpen, '$1').replace(R.figcaptionClose, '</figcaption>');
  text = text.replace(R.manyNewlines, '\n\n');
  const paragraphs = text.split(R.paragraphSplit).filter((p) => p !== '');
  text = '';
  for (const p of paragraphs) text += `<p>${trimNewlines(p)}</p>\n`;
  text = text.replace(R.emptyP, '');
  text = text.replace(R.pInDiv, '<p>$1</p></$2>');
  text = text.replace(R.pAroundBlock, '$1');
  text = text.replace(R.pAroundLi, '$1');
  text = text.replace(R.pBlockquote, '<blockquote$1><p>').replaceAll('</blockquote></p>', '</p></blockquote>');
  text = text.replace(R.pBeforeBlock, '$1');
  text = text.replace(R.blockBeforeP, '$1');
  if (br) {
    text = text.replace(R.preserve, (m) => m.replaceAll('\n', '<WPPreserveNewline />'));
    text = text.replaceAll('<br>', '<br />').replaceAll('<br/>', '<br />');
    text = text.replace(R.newline, '<br />\n');
    text = text.replaceAll('<WPPreserveNewline />', '\n');
  }
  text = text.replace(R.blockBr, '$1');
  text = text.replace(R.brBeforeBlock, '$1');
  text = text.replace(R.lastP, '</p>');
  for (const [name, pre] of preTags) text = text.replaceAll(name, pre);
  if (text.includes('<!-- wpnl -->')) text = text.replaceAll(' <!-- wpnl --> ', '\n').replaceAll('<!-- wpnl -->', '\n');
  return text;
}
