// The renderers' regular expressions that backtracked over long runs (wpautop, wptexturize, wp_strip_all_tags,
// wp_filter_content_tags) were rewritten to run in linear time. Each rewrite must give what WordPress's own pattern
// (as ported before, kept here as the reference) gives: compared on generated text built from the pieces each
// pattern reacts to.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockDelimiters, replaceBeforeLast, replaceElements, splitHtml, stripTagsAndComments, timesSign, unwrapListItems } from '../linear-text.ts';
import { ALLBLOCKS as BLOCKS, AUTOP_PATTERNS, HTML_SPLIT } from './autop.ts';
import { SPLIT } from './texturize.ts';

const SEED = Number(process.env.FC_SEED ?? 20261124);
const S = '[ \\t\\n\\x0B\\f\\r]';
const re = (src: string) => new RegExp(src, 'g');
const text = (pieces: string[], maxLength = 16) => fc.array(fc.constantFrom(...pieces), { maxLength }).map((a) => a.join(''));
const same = (gen: fc.Arbitrary<string>, reference: (s: string) => string, linear: (s: string) => string) =>
  fc.assert(
    fc.property(gen, (s) => {
      expect(linear(s)).toBe(reference(s));
    }),
    { seed: SEED, numRuns: 3000 },
  );

const WS = [' ', '\t', '\n', '\r', '\x0B', '\f'];

describe('wpautop', () => {
  it.each([
    ['optionOpen', `${S}*<option`, ['<option', '<opt', 'x', '>']],
    ['objectClose', `${S}*</object>`, ['</object>', '</obj', 'x']],
    ['mediaClose', `${S}*([<\\[]/(?:audio|video)[>\\]])`, ['</audio>', '[/video]', '</video', 'x']],
  ])('%s: a leading white-space run is only tried from its start', (name, original, pieces) => {
    const linear = AUTOP_PATTERNS[name as keyof typeof AUTOP_PATTERNS];
    same(text([...WS, ...pieces]), (s) => s.replace(re(original), '<$&>'), (s) => s.replace(linear, '<$&>'));
  });

  it('newline: `(?<!<br />)S*\\n` from where WordPress can first match in a run', () => {
    same(text([...WS, '<br />', '<br/>', 'x', '>', '/']), (s) => s.replace(re(`(?<!<br />)${S}*\\n`), '<br />\n'), (s) => s.replace(AUTOP_PATTERNS.newline, '<br />\n'));
  });

  it.each([
    ['objectOpen', '>', `(<object[^>]*>)${S}*`, ['<object', '>', ' ', 'x', '<']],
    ['paramEmbed', '>', `${S}*(</?(?:param|embed)[^>]*>)${S}*`, ['<param', '</embed', '>', ' ', '\n', 'x']],
    ['mediaOpen', '>]', `([<\\[](?:audio|video)[^>\\]]*[>\\]])${S}*`, ['<audio', '[video', '>', ']', ' ', 'x', '[']],
    ['sourceTrack', '>', `${S}*(<(?:source|track)[^>]*>)${S}*`, ['<source', '<track', '>', ' ', 'x']],
    ['figcaptionOpen', '>', `${S}*(<figcaption[^>]*>)`, ['<figcaption', '>', ' ', 'x']],
  ])('%s: matched only up to the last terminator', (name, terminators, original, pieces) => {
    const linear = AUTOP_PATTERNS[name as keyof typeof AUTOP_PATTERNS];
    same(text(pieces), (s) => s.replace(re(original), '$1'), (s) => replaceBeforeLast(s, terminators, linear, '$1'));
  });

  it.each([
    ['blockBeforeP', `(</?${BLOCKS}[^>]*>)${S}*</p>`, ['</p>', '<br />']],
    ['blockBr', `(</?${BLOCKS}[^>]*>)${S}*<br />`, ['<br />', '</p>']],
  ])('%s: a block tag without its tail is kept whole, tried only up to the last `>`', (name, original, tails) => {
    const linear = AUTOP_PATTERNS[name as keyof typeof AUTOP_PATTERNS];
    const keep = (m: string, tag: string, tail: string | undefined) => (tail === undefined ? m : tag);
    same(text(['<div', '</li', '<p', '<pre', '>', ' ', '\n', 'x', '<', ...tails]), (s) => s.replace(re(original), '$1'), (s) => replaceBeforeLast(s, '>', linear, keep));
  });

  it('list items lose the paragraph around them: `/<p>(<li.+?)<\\/p>/g`', () => {
    same(text(['<p><li', '<p>', '</p>', '<li', 'x', '\n', '\r', '\u2028', '>']), (s) => s.replace(/<p>(<li.+?)<\/p>/g, '$1'), unwrapListItems);
  });

  it('split into text and HTML: get_html_split_regex()', () => {
    const pieces = ['<', '>', '<!--', '-->', '-', '<![CDATA[', ']]>', ']', '!', 'x', ' ', '\n'];
    fc.assert(
      fc.property(text(pieces), (s) => {
        expect(splitHtml(s, true)).toEqual(s.split(HTML_SPLIT));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('script, style and svg keep their line breaks: `/<(script|style|svg).*?<\\/\\1>/gs`', () => {
    const mark = (m: string) => m.replaceAll('\n', '|');
    same(
      text(['<script', '<style>', '<svg', '</script>', '</style>', '</svg>', '</SVG>', '<SCRIPT', '\n', 'x', '>', '</']),
      (s) => s.replace(/<(script|style|svg).*?<\/\1>/gs, mark),
      (s) => replaceElements(s, { words: ['script', 'style', 'svg'], ignoreCase: false, openTagEnds: false }, mark),
    );
  });
});

describe('wptexturize, wp_strip_all_tags, wp_filter_content_tags', () => {
  it('split into text and HTML: _get_wptexturize_split_regex()', () => {
    const pieces = ['<', '>', '<!--', '-->', '-', '<![CDATA[', ']]>', '!', 'x', ' '];
    fc.assert(
      fc.property(text(pieces), (s) => {
        expect(splitHtml(s, false)).toEqual(s.split(SPLIT));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('block delimiters: `/<!--\\s+(\\/)?wp:(…)\\s+(?:\\{[\\s\\S]*?\\}\\s+)?(\\/)?-->/g`', () => {
    let matched = 0;
    const reference = /<!--\s+(\/)?wp:([a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?)\s+(?:\{[\s\S]*?\}\s+)?(\/)?-->/g;
    const pieces = ['<!-- wp:a ', '<!-- /wp:core/b ', '<!--', ' ', '\n', '/', 'wp:', 'a', '{', '}', '} ', '"x":1', '-->', '/-->', '<'];
    fc.assert(
      fc.property(text(pieces, 20), (s) => {
        const expected = [...s.matchAll(reference)].map((m) => ({ index: m.index, text: m[0], closer: m[1] !== undefined, name: m[2], selfClosing: m[3] !== undefined }));
        expect(blockDelimiters(s)).toEqual(expected);
        matched += expected.length > 0 ? 1 : 0;
      }),
      { seed: SEED, numRuns: 5000 },
    );
    // The pieces make real delimiters often enough for the comparison to mean something.
    expect(matched).toBeGreaterThan(250);
  });

  it('9x9: `/\\b(0[\\d.,]+|[1-9][\\d.,]*)x(\\d[\\d.,]*)\\b/g`', () => {
    same(text(['0', '1', '9', '.', ',', 'x', 'a', ' ', '_', '-']), (s) => s.replace(/\b(0[\d.,]+|[1-9][\d.,]*)x(\d[\d.,]*)\b/g, '$1&#215;$2'), timesSign);
  });

  it('tags and comments: `/<!--[\\s\\S]*?-->|<\\/?[A-Za-z!?][^>]*>/g`', () => {
    same(text(['<!--', '-->', '<', '>', '/', 'a', '!', '?', '1', '-', ' ']), (s) => s.replace(/<!--[\s\S]*?-->|<\/?[A-Za-z!?][^>]*>/g, ''), stripTagsAndComments);
  });

  it('images: `/<img\\s[^>]+>/g` up to the last `>`', () => {
    const mark = (m: string) => `[${m}]`;
    same(text(['<img', ' ', '\t', '>', 'x', '<']), (s) => s.replace(/<img\s[^>]+>/g, mark), (s) => replaceBeforeLast(s, '>', /<img\s[^>]+>/g, mark));
  });
});
