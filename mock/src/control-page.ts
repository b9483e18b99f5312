// GET /__mock/: the mock's page for people. The routes by namespace with their methods (each collection a link),
// the recent requests (a bounded ring) with status and error code, each opening on its own page (GET
// /__mock/requests/<n>: query, headers, bodies and the answer, secrets hidden as in the log), what the store holds
// per type, and buttons for the control routes. Under --auth the page, like every control route, opens to the administrator's credentials
// only (the browser asks for them: WWW-Authenticate), and its reset button sends them along. One pure function
// from data to HTML; every text from a request is escaped, and the Content-Security-Policy allows no script and no
// style but this page's own (served beside it, /__mock/page.js and /__mock/page.css: the module also runs in a
// browser through MSW, where no hashing is at hand).
import { formatMs, type RequestDetail, type RequestRecord } from './request-record.ts';
import type { BodyShown } from './redact.ts';
import { CONTROL_PREFIX } from './core/control.ts';

export interface PageRoute {
  namespace: string;
  path: string;
  methods: readonly string[];
}

interface ControlPageInput {
  routes: readonly PageRoute[];
  recent: readonly RequestRecord[];
  counts: Readonly<Record<string, number>>;
  auth: boolean;
  /** The REST root as seen from the page: `/wp-json`. */
  apiRoot: string;
  /** --deviations: the site's deviations the mock plays, and the report's failures it cannot. */
  deviations?: {
    site: string;
    played: readonly { id: string; summary: string; on: boolean }[];
    unplayable: readonly { caseId: string; reason: string }[];
  };
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export const PAGE_STYLE = `
:root { color-scheme: light dark; --line: #8884; --muted: #777; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 12px; max-width: 1100px; }
h1 { font-size: 1.3em; margin: 0.2em 0; } h2 { font-size: 1.1em; margin: 1.2em 0 0.4em; }
p.lead { color: var(--muted); margin: 0 0 0.8em; overflow-wrap: anywhere; }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.controls form { margin: 0; }
button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid var(--line); cursor: pointer; }
.wrap { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.route, td.value { overflow-wrap: anywhere; word-break: break-word; }
table.recent { table-layout: fixed; }
table.recent th.method { width: 5.5em; } table.recent th.at { width: 6em; } table.recent th.ms { width: 6em; } table.recent th.status { width: 30%; }
/* One line a request, whatever its length: the whole of it is on its own page (and in the link's title). */
td.path, td.status { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
td.path a { color: inherit; }
pre { font: 13px ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.3em 0; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; max-height: 70vh; overflow: auto; }
th.name { width: 30%; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.s2 { color: #1a7f37; } .s3 { color: #0a6fa8; } .s4 { color: #a36100; } .s5 { color: #c62828; }
code { font: 13px ui-monospace, monospace; }
details { margin: 4px 0; } summary { cursor: pointer; font-weight: 600; }
.counts { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 4px 12px; padding: 0; list-style: none; }
#result { color: var(--muted); overflow-wrap: anywhere; }
@media (max-width: 600px) { th.ms, td.ms, th.at, td.at { display: none; } body { font-size: 14px; } table.recent th.status { width: 40%; } table.recent th.method { width: 4.5em; } }
`;

// Reset through fetch, so the answer shows on the page instead of replacing it; the form works without script.
export const PAGE_SCRIPT = `
document.querySelectorAll('form[data-fetch]').forEach(function (form) {
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var out = document.getElementById('result');
    fetch(form.action, { method: form.method.toUpperCase(), credentials: 'same-origin' }).then(function (r) {
      return r.text().then(function (t) { out.textContent = form.dataset.fetch + ': ' + r.status + ' ' + t.slice(0, 300); if (r.ok) setTimeout(function () { location.reload(); }, 400); });
    }, function (err) { out.textContent = form.dataset.fetch + ' failed: ' + err; });
  });
});
`;

/** The pages' policy: their own script and style only, forms and fetches to the mock alone, and never in a frame (a page of another site cannot overlay the reset button). */
export const CONTROL_PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; img-src 'none'; frame-ancestors 'none'";

function routesSection(routes: readonly PageRoute[], apiRoot: string): string {
  const byNamespace = new Map<string, PageRoute[]>();
  for (const r of routes) byNamespace.set(r.namespace, [...(byNamespace.get(r.namespace) ?? []), r]);
  const blocks = [...byNamespace].map(([ns, list]) => {
    const rows = list
      .map((r) => {
        // A collection (a GET with no path parameter) is a link: it answers in the browser.
        const link = r.methods.includes('GET') && !r.path.includes('{');
        const shown = escape(r.path);
        return `<tr><td class="route"><code>${link ? `<a href="${escape(apiRoot + r.path)}">${shown}</a>` : shown}</code></td><td><code>${r.methods.map(escape).join(' ')}</code></td></tr>`;
      })
      .join('');
    return `<details class="ns"><summary>${escape(ns || '/ (the REST root)')} <span class="lead">${list.length} route(s)</span></summary><div class="wrap"><table><thead><tr><th>route</th><th>methods</th></tr></thead><tbody>${rows}</tbody></table></div></details>`;
  });
  return `<section id="routes"><h2>Routes by namespace</h2>${blocks.join('')}</section>`;
}

function statusCell(r: RequestRecord): string {
  const error = `${r.code ? ` <code>${escape(r.code)}</code>` : ''}${r.params?.length ? ` (${r.params.map(escape).join(', ')})` : ''}`;
  return `<span class="s${Math.floor(r.status / 100)}">${r.status}</span>${error}`;
}

function recentSection(recent: readonly RequestRecord[]): string {
  const rows = recent
    .map(
      (r) =>
        `<tr><td class="at">${escape(r.at.slice(11, 19))}</td><td><code>${escape(r.method)}</code></td>` +
        `<td class="path"><a href="${CONTROL_PREFIX}/requests/${r.id}" title="${escape(r.path)}"><code>${escape(r.path)}</code></a></td>` +
        `<td class="status">${statusCell(r)}</td><td class="num ms">${formatMs(r.ms)}</td></tr>`,
    )
    .join('');
  const body = recent.length
    ? `<div class="wrap"><table class="recent"><thead><tr><th class="at">time</th><th class="method">method</th><th>path (open for the whole exchange)</th><th class="status">status</th><th class="ms">took</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : '<p class="lead">No request yet.</p>';
  return `<section id="recent"><h2>Recent requests</h2>${body}</section>`;
}

function countsSection(counts: Readonly<Record<string, number>>): string {
  const items = Object.entries(counts)
    .map(([k, v]) => `<li><span>${escape(k)}</span> <b>${v}</b></li>`)
    .join('');
  return `<section id="store"><h2>What the store holds</h2><ul class="counts">${items}</ul></section>`;
}

/** The document around a page's body: its own style and script only (the Content-Security-Policy allows no other). */
function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escape(title)}</title>
<link rel="stylesheet" href="${CONTROL_PREFIX}/page.css">
</head>
<body>
${body}
<script src="${CONTROL_PREFIX}/page.js"></script>
</body>
</html>
`;
}

export function renderControlPage(input: ControlPageInput): string {
  const total = input.routes.length;
  const namespaces = new Set(input.routes.map((r) => r.namespace)).size;
  return htmlPage(
    'site-contracts mock',
    `<header><h1>site-contracts mock</h1>
<p class="lead">A WordPress REST stand-in: ${total} routes in ${namespaces} namespaces under <a href="${escape(input.apiRoot)}/"><code>${escape(input.apiRoot)}/</code></a>${input.auth ? '; --auth: writes need credentials' : '; open mode'}.</p>
<div class="controls">
<form method="post" action="/__mock/reset" data-fetch="reset"><button type="submit" id="reset">Reset the store to the fixtures</button></form>
<a href="/__mock/state">state (JSON)</a>
<a href="/__mock/">refresh</a>
</div>
<p id="result" aria-live="polite"></p>
</header>
${input.deviations ? deviationsSection(input.deviations) : ''}
${recentSection(input.recent)}
${countsSection(input.counts)}
${routesSection(input.routes, input.apiRoot)}`,
  );
}

function deviationsSection(d: NonNullable<ControlPageInput['deviations']>): string {
  const rows = d.played
    .map((p) => {
      const action = `${CONTROL_PREFIX}/deviation-${p.on ? 'off' : 'on'}/${encodeURIComponent(p.id)}`;
      return `<tr><td class="value"><code>${escape(p.id)}</code></td><td class="value">${escape(p.summary)}</td><td>${p.on ? 'played' : 'off'}</td><td><form method="post" action="${escape(action)}" data-fetch="${escape(p.id)}"><button type="submit">${p.on ? 'switch off' : 'switch on'}</button></form></td></tr>`;
    })
    .join('');
  const skipped = d.unplayable.map((u) => `<li><code>${escape(u.caseId)}</code>: ${escape(u.reason)}</li>`).join('');
  return `<section><h2>Deviations of ${escape(d.site)} (${d.played.length} played)</h2>
<div class="wrap"><table><thead><tr><th class="name">id</th><th>what the site does</th><th>state</th><th></th></tr></thead><tbody>${rows}</tbody></table></div>
${d.unplayable.length ? `<details><summary>${d.unplayable.length} failures of the report not played</summary><ul>${skipped}</ul></details>` : ''}
</section>`;
}

function pairsTable(pairs: readonly (readonly [string, string])[], empty: string): string {
  if (pairs.length === 0) return `<p class="lead">${empty}</p>`;
  const rows = pairs.map(([k, v]) => `<tr><td class="value"><code>${escape(k)}</code></td><td class="value"><code>${escape(v)}</code></td></tr>`).join('');
  return `<div class="wrap"><table><thead><tr><th class="name">name</th><th>value</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function bodyBlock(body: BodyShown | undefined, bytes: number): string {
  if (body === undefined) return '<p class="lead">No body.</p>';
  if ('withheld' in body) return `<p class="lead">${escape(body.withheld[0]!.toUpperCase() + body.withheld.slice(1))}.</p>`;
  return `<p class="lead">${bytes} bytes</p><pre>${escape(body.text)}</pre>`;
}

/** GET /__mock/requests/<n>: one recent request and its answer, secrets hidden; `id` when it is no longer kept. */
export function renderRequestPage(detail: RequestDetail | undefined, id: string, capacity: number): string {
  const back = `<p><a href="${CONTROL_PREFIX}/">&larr; the mock's page</a></p>`;
  if (!detail) {
    return htmlPage(`request ${id}: not kept`, `<header>${back}<h1>Request ${escape(id)}</h1><p class="lead">Not kept: the page keeps the last ${capacity} requests.</p></header>`);
  }
  const r = detail.record;
  return htmlPage(
    `${r.method} ${r.path}`,
    `<header>${back}<h1>Request ${r.id}: <code>${escape(r.method)}</code> ${statusCell(r)}</h1>
<p class="lead"><code>${escape(detail.url)}</code></p>
<p class="lead">${escape(r.at)}, answered in ${formatMs(r.ms)}</p></header>
<section id="query"><h2>Query</h2>${pairsTable(detail.query, 'No query.')}</section>
<section id="request-headers"><h2>Request headers</h2>${pairsTable(detail.requestHeaders, 'No headers.')}</section>
<section id="request-body"><h2>Request body</h2>${bodyBlock(detail.requestBody, detail.requestBytes)}</section>
<section id="answer-headers"><h2>Answer: ${r.status}, headers</h2>${pairsTable(detail.responseHeaders, 'No headers.')}</section>
<section id="answer-body"><h2>Answer body</h2>${bodyBlock(detail.responseBody, detail.responseBytes)}</section>`,
  );
}
