import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CLIENT_CSS, CLIENT_JS } from './html-assets.ts';
import { embeddedView, htmlEscape, jsonForScript, renderHtml } from './html.ts';
import { htmlView } from './html-view.ts';
import { sampleRun } from './sample.ts';
import { summarizeCases } from './summary-form.ts';

describe('renderHtml', () => {
  const run = sampleRun();
  run.target.baseUrl = 'https://x.example/"><script>alert(1)</script>';
  const html = renderHtml(run);

  it('is one page with no external reference', () => {
    // The embedded data is inert JSON (it holds a hostile <img src=...> on purpose), so look around it.
    const markup = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/g, '');
    // Only links within the page (the skip link).
    expect(markup).not.toMatch(/\bsrc\s*=|\bhref\s*=\s*(?!["']?#)/i);
    expect(markup).not.toMatch(/@import|url\(/i);
    expect(html.match(/<script\b/g)).toHaveLength(3);
  });

  it('embeds the run so that no server text can close or open an element', () => {
    const data = /<script type="application\/json" id="run-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(data).not.toMatch(/[<>&]/);
    expect(JSON.parse(data)).toEqual(JSON.parse(JSON.stringify(summarizeCases(run))));
    const view = /<script type="application\/json" id="view-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(view).not.toMatch(/[<>&]/);
    const embedded = JSON.parse(view) as ReturnType<typeof embeddedView>;
    expect(embedded).toEqual(JSON.parse(JSON.stringify(embeddedView(htmlView(run)))));
    // The outcomes, one digit a case, read back by the labels as the page's script does.
    expect(embedded.outcomes).toMatch(/^[0-6]+$/);
    expect(embedded.outcomes.split('').map((d) => embedded.labels.outcome[Number(d)]!.key)).toEqual(htmlView(run).outcomes);
    // Only the two JSON blocks and the client script: the body's own </script><script> never became markup.
    expect(html.split('</script>')).toHaveLength(4);
    expect(html).toContain('<title>FAILED: https://x.example/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; (site-contracts test, 2026-01-02 03:04:05 UTC)</title>');
    expect(html).toContain('<span class="target" id="target">https://x.example/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</span>');
  });

  it('allows only its own script and style by hash', () => {
    const hash = (s: string): string => createHash('sha256').update(s).digest('base64');
    const csp = (/http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '').replace(/&#39;/g, "'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'sha256-${hash(CLIENT_JS)}'`);
    expect(csp).toContain(`style-src 'sha256-${hash(CLIENT_CSS)}'`);
    expect(html).toContain(`<script>${CLIENT_JS}</script>`);
  });

  it('writes the verdict and why as markup, so they show first and without the script', () => {
    const header = /<header>([\s\S]*?)<\/header>/.exec(html)?.[1] ?? '';
    expect(header).toContain('<p class="heading" id="heading">site-contracts test</p>');
    expect(header).toContain('<span class="verdict failed" id="verdict-text">FAILED</span>');
    expect(header).toContain(`<p class="why" id="why">${htmlEscape(htmlView(run).why)}</p>`);
    expect(html.indexOf('id="verdict-text"')).toBeLessThan(html.indexOf('id="failing-list"'));
    expect(html.indexOf('id="failing-list"')).toBeLessThan(html.indexOf('id="summary-counts"'));
  });

  it('never hands data to an HTML parser in the client', () => {
    expect(CLIENT_JS).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});

describe('escaping helpers', () => {
  it('escapes what would end a script element or an attribute', () => {
    expect(jsonForScript({ a: '</script><!--&\u2028' })).toBe('{"a":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028"}');
    expect(htmlEscape(`<a href="x" title='y'>&`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;');
  });
});
