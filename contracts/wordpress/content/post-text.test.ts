// the_title, the_content and the_excerpt against what a live WordPress 6.1.9 printed for the same inputs
// (post-text.recorded.json, written by mock/test/record-wordpress-rendering.ts): hand-picked cases, the fixtures'
// block contents with their generated excerpts, and a few hundred seeded strings built from the tokens every
// rule of wptexturize() and wpautop() reacts to.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderContent, renderContentSteps, renderExcerpt, renderTitle } from './post-text.ts';
import { STEP_PARTS } from '../steps.ts';
import { wpautop } from './autop.ts';
import { wptexturize } from './texturize.ts';

interface Recorded {
  input: { title: string; content: string; excerpt: string };
  rawTitle: string;
  title: string;
  content: string;
  excerpt: string;
}
const { cases } = JSON.parse(readFileSync(new URL('./post-text.recorded.json', import.meta.url), 'utf8')) as { cases: Recorded[] };

/** Block markup the random strings break (a stray closer): WP_Block_Parser keeps it as text, this port drops it. */
const malformedBlocks = (s: string) => s.includes('<!-- wp:') || s.includes('<!-- /wp:');

describe('post texts as WordPress renders them (recorded from a live 6.1.9)', () => {
  it('has enough recorded cases to mean something', () => {
    expect(cases.length).toBeGreaterThan(300);
  });

  it('the stored title is trimmed, and title.rendered matches for every case', () => {
    const wrong = cases.filter((c) => c.input.title.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '') !== c.rawTitle || renderTitle(c.rawTitle) !== c.title);
    expect(wrong.map((c) => ({ input: c.input.title, wp: c.title, mock: renderTitle(c.rawTitle) }))).toEqual([]);
  });

  it('content.rendered matches for every case with well-formed (or no) block markup', () => {
    const checked = cases.filter((c) => !malformedBlocks(c.input.content) || c.input.content.includes('<!-- /wp:') || /wp:[a-z]+ \/-->/.test(c.input.content));
    const wrong = checked.filter((c) => renderContent(c.input.content) !== c.content);
    expect(wrong.map((c) => ({ input: c.input.content, wp: c.content, mock: renderContent(c.input.content) }))).toEqual([]);
    expect(checked.length).toBeGreaterThan(300);
  });

  it('excerpt.rendered matches, including excerpts generated from the content (55 words, then [&hellip;])', () => {
    const wrong = cases.filter((c) => !(c.input.excerpt === '' && malformedBlocks(c.input.content) && !c.input.content.includes('<!-- /wp:')) && renderExcerpt(c.input.excerpt, c.input.content) !== c.excerpt);
    expect(wrong.map((c) => ({ input: c.input, wp: c.excerpt, mock: renderExcerpt(c.input.excerpt, c.input.content) }))).toEqual([]);
    expect(cases.filter((c) => c.input.excerpt === '').length).toBeGreaterThan(10);
  });

  it('an excerpt generated from content without blocks takes the content\'s rendering when given, instead of rendering it again', () => {
    // Same answers for every recorded case with the rendering passed in...
    const wrong = cases.filter((c) => renderExcerpt(c.input.excerpt, c.input.content, renderContent(c.input.content)) !== renderExcerpt(c.input.excerpt, c.input.content));
    expect(wrong.map((c) => c.input)).toEqual([]);
    // ...and it is that rendering the words come from (a post of 8 MB was rendered twice per answer), except for block
    // content, whose excerpt renders the content without its non-text blocks.
    expect(renderExcerpt('', 'stored words', '<p>rendered words</p>\n')).toBe('<p>rendered words</p>\n');
    expect(renderExcerpt('', '<!-- wp:paragraph --><p>block words</p><!-- /wp:paragraph -->', '<p>other</p>')).toBe('<p>block words</p>\n');
    const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' \n\t ');
    expect(renderExcerpt('', long, renderContent(long))).toBe(`<p>${Array.from({ length: 55 }, (_, i) => `w${i}`).join(' ')} [&hellip;]</p>\n`);
  });

  it('the_content of a long post pauses inside its filters (renderContentSteps); a short one never does', () => {
    const steps = (text: string) => {
      const g = renderContentSteps(text);
      let pauses = 0;
      for (let r = g.next(); ; r = g.next(), pauses++) if (r.done) return { pauses, html: r.value };
    };
    const paragraphs = 20_000;
    const long = 'A "quoted" word -- and more :) text.\n\n'.repeat(paragraphs);
    const { pauses, html } = steps(long);
    expect(html).toBe(renderContent(long));
    // wptexturize() pauses every STEP_PARTS pieces, wpautop() every STEP_PARTS paragraphs: no step handles more.
    expect(pauses).toBeGreaterThanOrEqual(2 * Math.floor(paragraphs / STEP_PARTS));
    for (const c of cases.slice(0, 50)) expect(steps(c.input.content)).toEqual({ pauses: 0, html: renderContent(c.input.content) });
  });

  it('a private post\'s title says so; a protected one does not (the posts controller)', () => {
    expect(renderTitle("Staff's party", 'private')).toBe('Private: Staff&#8217;s party');
    expect(renderTitle('Secret', 'publish')).toBe('Secret');
  });

  it('leaves code and pre alone, and is idempotent on its own output where WordPress is', () => {
    expect(wptexturize("<code>don't</code> don't")).toBe("<code>don't</code> don&#8217;t");
    expect(wpautop('<pre>a\n\nb</pre>')).toBe('<pre>a\n\nb</pre>\n');
    // Smilies become emoji between spaces, not inside code, not glued to a word (use_smilies is on by default).
    expect(renderContent('Great :) day :???: <code>:)</code> a:)')).toBe('<p>Great \u{1F642} day \u{1F615} <code>:)</code> a:)</p>\n');
  });
});

describe("a site's configuration (SiteRendering): what the suite tries before it calls a rendering a fault", () => {
  it('use_smilies off keeps the smiley, run_wptexturize false the quotes; the defaults are what WordPress prints', () => {
    expect(renderContent("it's :)")).toBe('<p>it&#8217;s \u{1F642}</p>\n');
    expect(renderContent("it's :)", { smilies: false })).toBe('<p>it&#8217;s :)</p>\n');
    expect(renderContent("it's :)", { texturize: false })).toBe("<p>it's \u{1F642}</p>\n");
    expect(renderTitle(`it's "q"`, 'private', { texturize: false })).toBe(`Private: it's "q"`);
  });

  it('excerpt_length and excerpt_more cut a generated excerpt at the site\'s length, with its "more"', () => {
    const content = Array.from({ length: 60 }, (_, i) => `w${i + 1}`).join(' ');
    expect(renderExcerpt('', content)).toBe(`<p>${content.split(' ').slice(0, 55).join(' ')} [&hellip;]</p>\n`);
    expect(renderExcerpt('', content, undefined, { excerptLength: 56, excerptMore: '' })).toBe(`<p>${content.split(' ').slice(0, 56).join(' ')}</p>\n`);
    // An own excerpt is never cut.
    expect(renderExcerpt('x y', content, undefined, { excerptLength: 1 })).toBe('<p>x y</p>\n');
  });
});
