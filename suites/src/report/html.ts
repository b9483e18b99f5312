// One self-contained HTML page: the run is embedded as JSON and rendered by an inline script, so the
// file can be attached to a CI run or mailed and opened anywhere without a server or network.
// Injection safety rests on three things: the data never passes through an HTML parser as markup
// (it sits in JSON script blocks with every `<` escaped, and the few lines written as markup, the
// verdict and why, go through htmlEscape), the script only ever sets textContent, and a
// Content-Security-Policy allows no script but the one whose hash is computed here.

import { createHash } from 'node:crypto';
import { CLIENT_CSS, CLIENT_JS } from './html-assets.ts';
import { htmlView, OUTCOMES, type HtmlView } from './html-view.ts';
import type { RunResult } from './model.ts';
import { summarizeCases } from './summary-form.ts';

/** JSON that cannot end its <script> element early nor be misread by the HTML tokenizer. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function htmlEscape(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * The view as the page embeds it: each case's outcome as one digit, its place in OUTCOMES (which the view's
 * labels list in that order, so the page reads it back by them): as words, 19,000 cases took 170 KB of the page.
 */
export function embeddedView(view: HtmlView): Omit<HtmlView, 'outcomes'> & { outcomes: string } {
  return { ...view, outcomes: view.outcomes.map((o) => OUTCOMES.indexOf(o)).join('') };
}

function cspHash(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
}

export function renderHtml(run: RunResult): string {
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(CLIENT_JS)}`,
    `style-src ${cspHash(CLIENT_CSS)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const view = htmlView(run);
  // The verdict and why are markup, so they show before (and without) the script; all else is drawn by it.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${htmlEscape(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${htmlEscape(view.title)}</title>
<style>${CLIENT_CSS}</style>
</head>
<body>
<a class="skip" href="#cases-section">Skip to the cases</a>
<header><div class="verdict-box ${view.verdict}" id="verdict-box">
<p class="heading" id="heading">${htmlEscape(view.heading)}</p>
<h1><span class="verdict ${view.verdict}" id="verdict-text">${view.verdict.toUpperCase()}</span> <span class="target" id="target">${htmlEscape(run.target.baseUrl)}</span></h1>
<p class="why" id="why">${htmlEscape(view.why)}</p>
<p class="meta" id="meta">${view.meta.map(htmlEscape).join(' <span aria-hidden="true">\u00b7</span> ')}</p>
<noscript><p>The rest of this report is drawn by JavaScript. The same data is in the JSON report.</p></noscript>
</div></header>
<section id="failing" aria-labelledby="failing-h" hidden><h2 id="failing-h">Failing checks</h2><ol class="failing" id="failing-list"></ol><p id="failing-more" hidden></p></section>
<section aria-label="Counts" id="summary"><div class="counts" id="summary-counts"></div>
<details class="legend" id="legend"><summary>What each count means</summary><dl id="legend-list"></dl></details></section>
<section id="baseline" hidden></section>
<section id="grid-section" aria-labelledby="grid-h"><h2 id="grid-h"></h2><p class="hint" id="grid-hint"></p><div class="matrix-wrap" id="matrix" tabindex="0"></div></section>
<section id="cases-section" aria-labelledby="cases-h">
<h2 id="cases-h" tabindex="-1">Cases</h2>
<div class="filters" role="search">
<label>Status<select id="filter-outcome"></select></label>
<label>Severity<select id="filter-severity"></select></label>
<label>Namespace<select id="filter-namespace"></select></label>
<label>Check<select id="filter-check"></select></label>
<label class="q">Search<input type="search" id="filter-q" placeholder="route, message, id..."></label>
<button type="button" id="filter-reset">Clear filters</button>
</div>
<div class="active" id="active-filters" aria-live="polite"></div>
<div class="table-wrap">
<table id="cases" class="cases">
<thead><tr><th scope="col">Status</th><th scope="col">Severity</th><th scope="col">Check</th><th scope="col">Operation</th><th scope="col">Message</th><th scope="col">ms</th></tr></thead>
<tbody id="cases-body"></tbody>
</table>
</div>
<button type="button" class="more" id="more" hidden></button>
</section>
<script type="application/json" id="run-data">${jsonForScript(summarizeCases(run))}</script>
<script type="application/json" id="view-data">${jsonForScript(embeddedView(view))}</script>
<script>${CLIENT_JS}</script>
</body>
</html>
`;
}
