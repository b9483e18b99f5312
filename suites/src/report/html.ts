// One self-contained HTML page: the run is embedded as JSON and rendered by an inline script, so the
// file can be attached to a CI run or mailed and opened anywhere without a server or network.
// Injection safety rests on three things: the data never passes through an HTML parser as markup
// (it sits in a JSON script block with every `<` escaped), the script only ever sets textContent,
// and a Content-Security-Policy allows no script but the one whose hash is computed here.

import { createHash } from 'node:crypto';
import { CLIENT_CSS, CLIENT_JS } from './html-assets.ts';
import type { RunResult } from './model.ts';

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
  const verdict = run.interrupted ? 'INTERRUPTED' : run.summary.verdict === 'passed' ? 'PASSED' : 'FAILED';
  const title = `${verdict}: ${run.target.baseUrl} (site-contracts)`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${htmlEscape(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${htmlEscape(title)}</title>
<style>${CLIENT_CSS}</style>
</head>
<body>
<header>
<h1>site-contracts report <span id="verdict"></span></h1>
<p class="meta" id="meta"></p>
<noscript><p>This report is drawn by JavaScript. The same data is in the JSON report.</p></noscript>
</header>
<section aria-label="Summary"><div class="counts" id="summary-counts"></div></section>
<section id="baseline" hidden></section>
<section><h2>By namespace and check</h2><div class="matrix-wrap" id="matrix"></div></section>
<section>
<h2>Cases</h2>
<div class="filters" role="search">
<label>Status<select id="filter-status"></select></label>
<label>Severity<select id="filter-severity"></select></label>
<label>Namespace<select id="filter-namespace"></select></label>
<label>Check<select id="filter-check"></select></label>
<label>Search<input type="search" id="filter-q" placeholder="route, message, id..."></label>
<button type="button" id="filter-reset">Reset</button>
</div>
<p id="shown"></p>
<table id="cases">
<thead><tr><th>Status</th><th>Severity</th><th>Namespace</th><th>Check</th><th>Method</th><th>Route</th><th>Message</th><th>ms</th></tr></thead>
<tbody id="cases-body"></tbody>
</table>
<button type="button" class="more" id="more" hidden></button>
</section>
<script type="application/json" id="run-data">${jsonForScript(run)}</script>
<script>${CLIENT_JS}</script>
</body>
</html>
`;
}
