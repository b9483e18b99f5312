// The stylesheet and script inlined into the HTML report. They are plain strings rather than files so
// that rendering stays a pure function and the report needs nothing beside itself.
// The script draws what html-view.ts decided (verdict, tiles, failing checks, grid order, the case
// list's order) and filters; it counts nothing itself, so no number on the page can disagree with
// another. It builds every element with createElement/textContent and never assigns HTML, because
// everything it shows (response bodies above all) comes from the server under test.
// (Written without backticks or dollar-brace so String.raw keeps it verbatim.)

export const CLIENT_CSS = String.raw`
:root { --fail: #b3261e; --err: #8a2be2; --acc: #6e5494; --warn: #9a6700; --inc: #0550ae; --pass: #1a7f37; --skip: #6e7781; --line: #d0d7de; --muted: #57606a; --focus: #0969da; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; overflow-wrap: anywhere; }
header, section { margin: 0 auto; max-width: 1400px; padding: 8px 20px; }
[hidden] { display: none !important; }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 1px; }
.skip { position: absolute; left: -10000px; top: 0; }
.skip:focus { left: 8px; top: 8px; z-index: 10; background: #fff; padding: 4px 8px; border: 1px solid var(--line); }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.verdict-box { margin-top: 4px; background: #fff; border: 1px solid var(--line); border-left: 8px solid var(--skip); border-radius: 6px; padding: 10px 16px; }
.verdict-box.failed { border-left-color: var(--fail); }
.verdict-box.passed { border-left-color: var(--pass); }
.verdict-box.interrupted, .verdict-box.incomplete { border-left-color: var(--err); }
.heading { margin: 0; color: var(--muted); font-weight: 600; }
h1 { font-size: 20px; margin: 2px 0 4px; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 12px; }
.target { font-weight: 600; }
.why { margin: 0 0 4px; font-size: 15px; }
.meta { color: var(--muted); margin: 0; font-size: 13px; }
.verdict { display: inline-block; font-weight: 700; padding: 2px 12px; border-radius: 4px; color: #fff; letter-spacing: 0.02em; }
.verdict.passed { background: var(--pass); }
.verdict.failed { background: var(--fail); }
.verdict.interrupted, .verdict.incomplete { background: var(--err); }
h2 { font-size: 16px; margin: 4px 0 8px; }
h2:focus { outline: none; }
.failing { list-style: none; margin: 0; padding: 0; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
.fail-item { display: grid; grid-template-columns: minmax(0, 1fr) auto; column-gap: 16px; padding: 6px 12px; border-top: 1px solid var(--line); align-items: center; }
.fail-item:first-child { border-top: 0; }
.fail-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 2px 10px; min-width: 0; }
.fail-check { font-weight: 700; }
.fail-more { color: var(--muted); font-size: 13px; }
.fail-msg { grid-column: 1; margin: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; color: #32383f; }
.case-link { grid-column: 2; grid-row: 1 / span 2; white-space: nowrap; color: var(--focus); }
#failing-more { margin: 6px 0 0; }
.link-button { font: inherit; border: 0; background: none; padding: 0; color: var(--focus); text-decoration: underline; cursor: pointer; }
.sev { font-size: 12px; border-radius: 10px; padding: 0 8px; background: #eaeef2; white-space: nowrap; }
.sev.documented { background: #ffebe9; }
.sev.convention { background: #fff8c5; }
.sev.assumed { background: #ddf4ff; }
.counts { display: grid; grid-template-columns: repeat(auto-fill, minmax(132px, 1fr)); gap: 8px; }
.count { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; cursor: pointer; text-align: left; font: inherit; color: inherit; }
.count:hover { border-color: #8c959f; }
.count[aria-pressed="true"] { border-color: var(--focus); box-shadow: inset 0 0 0 1px var(--focus); background: #ddf4ff; }
.count .n { display: block; font-size: 22px; font-weight: 700; line-height: 1.25; }
.count .label, .count .note { display: block; }
.count .note { font-size: 12px; color: var(--muted); }
.tone-failed .n { color: var(--fail); }
.tone-errored .n { color: var(--err); }
.tone-accepted .n { color: var(--acc); }
.tone-warned .n { color: var(--warn); }
.tone-inconclusive .n { color: var(--inc); }
.tone-passed .n { color: var(--pass); }
.tone-skipped .n { color: var(--skip); }
.legend { margin-top: 6px; font-size: 13px; }
.legend summary { cursor: pointer; color: var(--muted); }
.legend dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 6px 0; }
.legend dt { font-weight: 600; }
.legend dd { margin: 0; color: var(--muted); }
.baseline-box { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; }
.baseline-box ul { margin: 4px 0; padding-left: 20px; }
.hint { margin: -4px 0 6px; color: var(--muted); font-size: 13px; }
.matrix-wrap { overflow: auto; max-width: 100%; max-height: 70vh; background: #fff; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; background: #fff; width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eaeef2; }
table.matrix { width: auto; min-width: 100%; border-style: hidden; }
.matrix thead th { position: sticky; top: 0; z-index: 2; font-size: 12px; min-width: 64px; max-width: 116px; vertical-align: bottom; overflow-wrap: normal; }
.matrix th[scope="row"] { position: sticky; left: 0; z-index: 1; background: #f6f8fa; white-space: nowrap; overflow-wrap: normal; }
.matrix thead th.corner { left: 0; z-index: 3; }
.matrix th.col.failing { color: var(--fail); background: #ffebe9; }
.matrix tr.op th[scope="row"] { font-weight: 400; font-size: 12px; padding-left: 28px; }
.matrix .ns-count { color: var(--fail); font-weight: 400; font-size: 12px; margin-left: 6px; }
.matrix td { padding: 0; white-space: nowrap; overflow-wrap: normal; }
.matrix td.none { color: #8c959f; text-align: center; padding: 4px 8px; }
.matrix td.cell button { font: inherit; border: 0; background: none; cursor: pointer; padding: 4px 8px; width: 100%; text-align: left; color: inherit; }
.matrix td.w-failed, .matrix td.w-errored { background: #ffebe9; font-weight: 700; color: var(--fail); }
.matrix td.w-accepted { background: #eee8f7; }
.matrix td.w-warned { background: #fff8c5; }
.matrix td.w-inconclusive { background: #ddf4ff; }
.matrix td.w-passed { background: #dafbe1; }
.matrix td.w-skipped { background: #f6f8fa; color: var(--muted); }
.ns-toggle { font: inherit; font-weight: 600; border: 0; background: none; cursor: pointer; padding: 0; color: inherit; text-align: left; }
.filters { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; margin-bottom: 6px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
.filters select, .filters input, .filters button { font: inherit; padding: 3px 6px; }
.filters input[type="search"] { min-width: 260px; }
.active { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; margin: 0 0 8px; }
.active p { margin: 0; }
.chip { display: inline-flex; align-items: center; gap: 2px; background: #ddf4ff; border: 1px solid #54aeff; border-radius: 12px; padding: 0 2px 0 10px; }
.chip-x { font: inherit; font-size: 16px; line-height: 1; border: 0; background: none; cursor: pointer; padding: 2px 6px; }
.table-wrap { overflow-x: auto; max-width: 100%; }
tr.case { cursor: pointer; scroll-margin-top: 8px; }
tr.case > td:first-child { white-space: nowrap; }
tr.case:hover { background: #f6f8fa; }
.status { font-weight: 700; text-transform: uppercase; font-size: 12px; }
.status.failed { color: var(--fail); }
.status.errored { color: var(--err); }
.status.warned { color: var(--warn); }
.status.inconclusive { color: var(--inc); }
.status.passed { color: var(--pass); }
.status.skipped { color: var(--skip); }
.mark { font-size: 11px; border-radius: 3px; padding: 0 4px; margin-left: 4px; background: #eaeef2; }
.mark.new { background: #ffebe9; }
.mark.fixed { background: #dafbe1; }
.mark.accepted { background: #eee8f7; }
.toggle { font: inherit; border: 0; background: none; cursor: pointer; padding: 0 4px 0 0; }
.cases td.msg { max-width: 520px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.cases td.where { white-space: nowrap; }
tr.detail > td { background: #fbfcfd; }
.detail h3 { font-size: 13px; margin: 8px 0 2px; }
pre { margin: 0; padding: 6px 8px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; word-break: break-all; max-height: 420px; overflow: auto; }
.copy { font: inherit; font-size: 12px; margin-left: 8px; }
.more { margin: 8px 0; font: inherit; }
.empty { color: var(--muted); padding: 12px; }
@media (max-width: 720px) {
  body { font-size: 15px; }
  header, section { padding: 6px 10px; }
  .verdict-box { margin-top: 0; padding: 8px 10px; border-left-width: 6px; }
  h1 { font-size: 18px; }
  .fail-item { grid-template-columns: minmax(0, 1fr); padding: 6px 10px; }
  .fail-msg { white-space: normal; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
  .case-link { grid-column: 1; grid-row: auto; }
  .counts { grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 6px; }
  .count { padding: 4px 8px; }
  .count .n { font-size: 18px; }
  .count .label, .count .note { font-size: 12px; line-height: 1.3; }
  .legend dl { grid-template-columns: minmax(0, 1fr); }
  .legend dd { margin-bottom: 4px; }
  .matrix-wrap { max-height: 60vh; }
  .matrix th[scope="row"] { white-space: normal; overflow-wrap: anywhere; min-width: 150px; max-width: 170px; }
  .matrix tr.op th[scope="row"] { padding-left: 14px; }
  .filters label { flex: 1 1 40%; }
  .filters label.q { flex-basis: 100%; }
  .filters input[type="search"] { min-width: 0; width: 100%; }
  .cases thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .cases, .cases tbody, .cases tr, .cases td { display: block; width: 100%; }
  .cases { background: none; }
  .cases tr.case { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin-top: 6px; padding: 4px 0; }
  .cases td { border: 0; padding: 1px 10px; }
  .cases td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-size: 12px; }
  .cases td.msg { max-width: none; white-space: normal; }
  .cases td.where { white-space: normal; }
  tr.detail > td { border: 1px solid var(--line); padding: 6px 10px; }
}
`;

export const CLIENT_JS = String.raw`
(function () {
  'use strict';
  function $(id) { return document.getElementById(id); }
  var run = JSON.parse($('run-data').textContent);
  var view = JSON.parse($('view-data').textContent);
  // Each case's outcome comes as one digit, its place in the outcome labels (html.ts, embeddedView).
  view.outcomes = view.outcomes.split('').map(function (d) { return view.labels.outcome[+d].key; });
  // Passed and skipped cases come as short rows (summary-form.ts): [prefix, variant, kind, durationMs, extra?]; the
  // id is prefixes[prefix] + ':' + variant (check:operationId:variant), kinds[kind] the [status, severity, skip
  // reason?]; the namespace, method and route are in the operation table; extra holds what differs (a null: the
  // case has none of that field).
  var DERIVED = ['check', 'operationId', 'variant', 'namespace', 'method', 'route'];
  if (run.summarized) {
    var s = run.summarized, ops = s.operations, whole = run.cases, at = s.wholeAt, all = [], w = 0;
    run.cases = all;
    s.rows.forEach(function (row) {
      // The whole cases back in their places: the view refers to cases by their index in the run.
      while (w < at.length && at[w] === all.length) all.push(whole[w++]);
      var id = s.prefixes[row[0]] + ':' + row[1], a = id.indexOf(':'), b = id.indexOf(':', a + 1);
      var op = id.slice(a + 1, b), variant = row[1], known = ops[op], kind = s.kinds[row[2]];
      var c = { check: id.slice(0, a), namespace: '' };
      if (op !== '-') { c.operationId = op; if (known) { c.namespace = known[0]; if (known[1] !== null) c.method = known[1]; if (known[2] !== null) c.route = known[2]; } }
      if (variant !== '') c.variant = variant;
      c.id = id; c.status = kind[0]; c.severity = kind[1];
      if (kind.length > 2) c.message = kind[2];
      c.durationMs = row[3];
      var extra = row[4] || {};
      Object.keys(extra).forEach(function (k) { c[k] = extra[k]; });
      DERIVED.forEach(function (k) { if (c[k] === null) delete c[k]; });
      all.push(c);
    });
    while (w < at.length) all.push(whole[w++]);
  }
  var cases = run.cases;
  var PAGE = 500;
  // The filters a click can set, in the order the active ones are listed.
  var FIELDS = ['outcome', 'difference', 'severity', 'namespace', 'check', 'operation', 'q'];
  var SELECTS = ['outcome', 'severity', 'namespace', 'check'];
  var NAMES = { outcome: 'status', difference: 'difference', severity: 'severity', namespace: 'namespace', check: 'check', operation: 'operation', q: 'search' };
  // Symbols as well as colours, so the grid reads without colour vision.
  var SYMBOL = { failed: '\u2717', errored: '\u2298', accepted: '\u2248', warned: '!', inconclusive: '?', passed: '\u2713', skipped: '\u2013' };
  var FAILING = 'failing';
  var state = blank();
  state.limit = PAGE;
  var shownRows = {};

  function blank() { return { outcome: '', difference: '', severity: '', namespace: '', check: '', operation: '', q: '' }; }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function fmt(n) { return Number(n).toLocaleString('en-US'); }
  function el(tag, props, children) {
    var node = document.createElement(tag);
    if (props) {
      for (var k in props) {
        if (!has(props, k)) continue;
        var v = props[k];
        if (v === undefined || v === null) continue;
        if (k === 'text') node.textContent = String(v);
        else if (k === 'className') node.className = v;
        else if (k === 'data') { for (var d in v) node.setAttribute('data-' + d, String(v[d])); }
        else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
        else node.setAttribute(k, String(v));
      }
    }
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }
  function labelsOf(list) { var out = {}; list.forEach(function (x) { out[x.key] = x.label; }); return out; }
  var OUTCOME_LABEL = labelsOf(view.labels.outcome);
  OUTCOME_LABEL[FAILING] = 'fails the run (failed or errored)';
  var DIFFERENCE_LABEL = labelsOf(view.labels.difference);
  var operationName = {};
  cases.forEach(function (c) {
    if (c.operationId && !has(operationName, c.operationId)) operationName[c.operationId] = [c.method, c.route].filter(Boolean).join(' ');
  });
  function uniq(values) {
    var seen = {};
    var out = [];
    values.forEach(function (v) { if (!has(seen, v)) { seen[v] = true; out.push(v); } });
    return out.sort();
  }
  function firstLine(text) { return String(text || '').split('\n')[0]; }
  // Long names wrap at their underscores and slashes instead of widening the grid.
  function breakable(text) {
    var out = [];
    var start = 0;
    for (var i = 0; i < text.length; i++) {
      var ch = text.charAt(i);
      if (ch === '_' || ch === '/') { out.push(text.slice(start, i + 1), el('wbr')); start = i + 1; }
    }
    out.push(text.slice(start));
    return out;
  }
  function describe(field, value) {
    if (field === 'outcome') return OUTCOME_LABEL[value] || value;
    if (field === 'difference') return DIFFERENCE_LABEL[value] || value;
    if (field === 'operation') return value + (operationName[value] ? ' (' + operationName[value] + ')' : '');
    return value;
  }

  function renderTiles() {
    var box = $('summary-counts');
    var legend = $('legend-list');
    view.tiles.forEach(function (t, i) {
      var descId = 'tile-desc-' + i;
      legend.appendChild(el('dt', { text: t.label }));
      legend.appendChild(el('dd', { id: descId, text: t.description }));
      box.appendChild(el('button', {
        type: 'button', className: 'count tone-' + t.tone, id: 'tile-' + (t.key || 'all'), title: t.description,
        'aria-describedby': descId, 'aria-pressed': 'false', data: { field: t.field, key: t.key },
        onclick: function () { var f = {}; f[t.field] = t.key; showCases(f); }
      }, [
        el('span', { className: 'n', id: 'count-' + (t.key || 'all'), text: fmt(t.count) }),
        el('span', { className: 'label', text: t.label }),
        t.note ? el('span', { className: 'note', text: t.note }) : null
      ]));
    });
  }

  function markPressed() {
    view.tiles.forEach(function (t) {
      var on = t.key !== '' && state[t.field] === t.key;
      $('tile-' + (t.key || 'all')).setAttribute('aria-pressed', on ? 'true' : 'false');
    });
  }

  function renderFailing() {
    var f = view.failing;
    if (!f.total) return;
    $('failing').hidden = false;
    $('failing-h').textContent = (view.command === 'diff' ? 'Differences' : 'Failing checks') + ' (' + fmt(f.cases) + ' case' + (f.cases === 1 ? '' : 's') + ')';
    var list = $('failing-list');
    f.groups.forEach(function (g, gi) {
      var c = cases[g.first];
      var where = [g.method, g.route].filter(Boolean).join(' ') || g.namespace;
      var others = g.operations > 1 ? 'and ' + fmt(g.operations - 1) + ' more operation' + (g.operations > 2 ? 's' : '') : '';
      list.appendChild(el('li', { className: 'fail-item ' + g.outcome, id: 'failing-' + gi, data: { field: g.field, key: g.key, first: g.first } }, [
        el('div', { className: 'fail-head' }, [
          el('span', { className: 'status ' + g.outcome, text: g.outcome }),
          el('span', { className: 'fail-check', text: g.label }),
          el('code', { className: 'fail-where', title: g.operationId ? 'operation ' + g.operationId : null, text: where }),
          others ? el('span', { className: 'fail-more', text: others }) : null,
          el('span', { className: 'sev ' + g.severity, text: g.severity })
        ]),
        el('p', { className: 'fail-msg', title: c.message || null, text: firstLine(c.message) }),
        el('a', {
          className: 'case-link', href: '#case-' + g.first,
          text: (g.count > 1 ? 'first of ' + fmt(g.count) + ' cases' : 'the case') + ', with curl',
          onclick: function (e) { e.preventDefault(); showCase(g); }
        })
      ]));
    });
    if (f.total > f.groups.length) {
      var more = $('failing-more');
      more.hidden = false;
      more.appendChild(el('button', {
        type: 'button', className: 'link-button', id: 'failing-all',
        text: 'and ' + fmt(f.total - f.groups.length) + ' more: show all ' + fmt(f.cases) + ' failing cases',
        onclick: function () { showCases({ outcome: FAILING }); }
      }));
    }
  }

  function renderBaseline() {
    var b = run.baseline;
    if (!b) return;
    var box = $('baseline');
    box.hidden = false;
    box.appendChild(el('h2', { text: 'Baseline' }));
    var inner = el('div', { className: 'baseline-box' }, [
      el('p', { text: 'Compared with ' + b.source + ': ' + b.newFailures.length + ' new failure(s), ' + b.accepted.length +
        ' accepted, ' + b.fixed.length + ' fixed, ' + b.notRun.length + ' accepted but not run.' })
    ]);
    if (b.fixed.length) {
      inner.appendChild(el('p', { text: 'Fixed (passing now; remove from the baseline):' }));
      inner.appendChild(el('ul', { id: 'baseline-fixed' }, b.fixed.map(function (id) { return el('li', { text: id }); })));
    }
    box.appendChild(inner);
  }

  function gridCell(cell, filter, where, column) {
    if (!cell) return el('td', { className: 'none', text: '\u00b7' });
    var parts = [];
    view.labels.outcome.forEach(function (o) { if (cell.counts[o.key]) parts.push(fmt(cell.counts[o.key]) + ' ' + o.label); });
    var label = where + ', ' + column.label + ': ' + parts.join(', ') + '. Show these cases.';
    var data = { column: column.key, worst: cell.worst };
    if (filter.namespace) data.namespace = filter.namespace;
    if (filter.operation) data.operation = filter.operation;
    return el('td', { className: 'cell w-' + cell.worst, data: data }, [
      el('button', { type: 'button', title: label, 'aria-label': label, text: SYMBOL[cell.worst] + ' ' + fmt(cell.counts[cell.worst]), onclick: function () { showCases(filter); } })
    ]);
  }

  function renderGrid() {
    var g = view.grid;
    var byCheck = g.field === 'check';
    $('grid-h').textContent = byCheck ? 'By namespace and check' : 'By namespace and difference';
    var symbols = view.labels.outcome.map(function (o) { return SYMBOL[o.key] + ' ' + o.label; }).join(' \u00b7 ');
    $('grid-hint').textContent = 'Failures first: columns and rows with failing cases lead, most first; \u25b8 opens a namespace\'s operations; a cell shows the cases it counts. ' + symbols;
    if (!g.rows.length) { $('matrix').appendChild(el('p', { className: 'empty', text: 'No case ran.' })); return; }
    var head = el('tr', null, [el('th', { scope: 'col', className: 'corner', text: byCheck ? 'namespace \\ check' : 'namespace \\ difference' })].concat(g.columns.map(function (col) {
      return el('th', { scope: 'col', className: 'col' + (col.failing ? ' failing' : ''), data: { column: col.key }, title: col.failing ? fmt(col.failing) + ' failing' : null }, breakable(col.label));
    })));
    var body = el('tbody');
    g.rows.forEach(function (r) {
      var opRows = r.operations.map(function (op) {
        var where = [op.method, op.route].filter(Boolean).join(' ') || op.operationId;
        return el('tr', { className: 'op', data: { operation: op.operationId } }, [el('th', { scope: 'row', title: 'operation ' + op.operationId, text: where })].concat(g.columns.map(function (col) {
          var f = { operation: op.operationId };
          f[g.field] = col.key;
          return gridCell(op.cells[col.key], f, where, col);
        })));
      });
      var open = r.failing > 0;
      opRows.forEach(function (tr) { tr.hidden = !open; });
      var title = [r.namespace, r.failing ? el('span', { className: 'ns-count', text: fmt(r.failing) + ' failing' }) : null];
      var rowHead = opRows.length
        ? el('button', { type: 'button', className: 'ns-toggle', 'aria-expanded': String(open), title: 'Operations of ' + r.namespace, onclick: function (e) {
            var now = e.currentTarget.getAttribute('aria-expanded') !== 'true';
            e.currentTarget.setAttribute('aria-expanded', String(now));
            e.currentTarget.firstChild.textContent = now ? '\u25be ' : '\u25b8 ';
            opRows.forEach(function (tr) { tr.hidden = !now; });
          } }, [open ? '\u25be ' : '\u25b8 '].concat(title))
        : el('span', null, title);
      body.appendChild(el('tr', { className: 'ns', data: { namespace: r.namespace } }, [el('th', { scope: 'row' }, [rowHead])].concat(g.columns.map(function (col) {
        var f = { namespace: r.namespace };
        f[g.field] = col.key;
        return gridCell(r.cells[col.key], f, r.namespace, col);
      }))));
      opRows.forEach(function (tr) { body.appendChild(tr); });
    });
    $('matrix').appendChild(el('table', { className: 'matrix', 'aria-label': byCheck ? 'Cases by namespace and check' : 'Cases by namespace and difference' }, [el('thead', null, [head]), body]));
  }

  function fillSelect(name, values, all) {
    var select = $('filter-' + name);
    select.appendChild(el('option', { value: '', text: all }));
    values.forEach(function (v) { select.appendChild(el('option', { value: v, text: describe(name, v) })); });
  }

  function renderFilters() {
    fillSelect('outcome', [FAILING].concat(view.labels.outcome.map(function (o) { return o.key; }).filter(function (k) { return k !== 'accepted' || run.baseline; })), 'any status');
    fillSelect('severity', ['documented', 'convention', 'assumed'], 'any severity');
    fillSelect('namespace', uniq(cases.map(function (c) { return c.namespace; })), 'any namespace');
    fillSelect('check', uniq(cases.map(function (c) { return c.check; })), 'any check');
    SELECTS.forEach(function (name) {
      $('filter-' + name).addEventListener('change', function (e) { setFilter(name, e.target.value); });
    });
    $('filter-q').addEventListener('input', function (e) { setFilter('q', e.target.value); });
    $('filter-reset').addEventListener('click', function () { applyFilters(blank()); });
    $('more').addEventListener('click', function () { state.limit = Infinity; renderCases(); });
  }

  function setFilter(name, value) {
    var next = {};
    FIELDS.forEach(function (k) { next[k] = state[k]; });
    next[name] = value;
    applyFilters(next);
  }
  function applyFilters(next) {
    FIELDS.forEach(function (k) { state[k] = next[k] || ''; });
    state.limit = PAGE;
    SELECTS.forEach(function (name) { $('filter-' + name).value = state[name]; });
    $('filter-q').value = state.q;
    markPressed();
    renderCases();
  }
  // What a tile, a grid cell or a failing check shows: those cases only, with the list in view.
  function showCases(filter) {
    var next = blank();
    for (var k in filter) if (has(filter, k)) next[k] = filter[k];
    applyFilters(next);
    $('cases-section').scrollIntoView({ block: 'start' });
    $('cases-h').focus({ preventScroll: true });
  }
  // A failing check's line: its failing cases, the first one open on its curl line.
  function showCase(g) {
    var filter = { outcome: g.outcome };
    filter[g.field] = g.key;
    applyFilters(filter);
    var entry = shownRows[g.first];
    if (!entry) return;
    if (!entry.detail) toggleDetail(g.first);
    entry.row.scrollIntoView({ block: 'start' });
    if (entry.toggle) entry.toggle.focus({ preventScroll: true });
  }

  function matches(c, i) {
    var o = view.outcomes[i];
    if (state.outcome === FAILING ? o !== 'failed' && o !== 'errored' : state.outcome && o !== state.outcome) return false;
    if (state.difference && !(view.differences && view.differences[i] === state.difference)) return false;
    if (state.severity && c.severity !== state.severity) return false;
    if (state.namespace && c.namespace !== state.namespace) return false;
    if (state.check && c.check !== state.check) return false;
    if (state.operation && c.operationId !== state.operation) return false;
    if (state.q) {
      var hay = [c.id, c.check, c.namespace, c.method, c.route, c.operationId, c.message, c.status, c.severity].join(' ').toLowerCase();
      if (hay.indexOf(state.q.toLowerCase()) < 0) return false;
    }
    return true;
  }

  function renderActive(matching) {
    var box = $('active-filters');
    box.textContent = '';
    var on = FIELDS.filter(function (k) { return state[k]; });
    var shown = Math.min(matching, state.limit);
    var what = on.length
      ? 'Showing ' + fmt(shown) + ' of ' + fmt(matching) + ' matching case' + (matching === 1 ? '' : 's') + ' (' + fmt(cases.length) + ' in all), filtered by:'
      : 'Showing ' + fmt(shown) + ' of all ' + fmt(cases.length) + ' cases, what fails the run first.';
    box.appendChild(el('p', { id: 'shown', text: what }));
    on.forEach(function (k) {
      var text = NAMES[k] + ': ' + describe(k, state[k]);
      box.appendChild(el('span', { className: 'chip', data: { field: k } }, [text,
        el('button', { type: 'button', className: 'chip-x', 'aria-label': 'Remove the filter ' + text, title: 'Remove this filter', text: '\u00d7', onclick: function () { setFilter(k, ''); } })]));
    });
  }

  function renderCases() {
    var body = $('cases-body');
    body.textContent = '';
    shownRows = {};
    var shown = view.order.filter(function (i) { return matches(cases[i], i); });
    shown.slice(0, state.limit).forEach(function (i) { body.appendChild(caseRow(cases[i], i)); });
    if (shown.length === 0) body.appendChild(el('tr', null, [el('td', { colspan: 6, className: 'empty', text: 'No case matches these filters.' })]));
    renderActive(shown.length);
    var more = $('more');
    more.hidden = shown.length <= state.limit;
    more.textContent = 'Show all ' + fmt(shown.length);
  }

  function caseRow(c, i) {
    var expandable = !!(c.message || c.request || c.response || c.curl);
    var toggle = expandable ? el('button', { type: 'button', className: 'toggle', 'aria-expanded': 'false', 'aria-controls': 'detail-' + i, 'aria-label': 'Details of ' + c.id, text: '\u25b8' }) : null;
    var where = [c.method, c.route].filter(Boolean).join(' ');
    var row = el('tr', { className: 'case' + (view.outcomes[i] === 'failed' || view.outcomes[i] === 'errored' ? ' failing' : ''), id: 'case-' + i,
      data: { status: c.status, outcome: view.outcomes[i], severity: c.severity, id: c.id, index: i } }, [
      el('td', { 'data-label': 'Status' }, [
        toggle,
        el('span', { className: 'status ' + c.status, text: c.status }),
        c.baseline ? el('span', { className: 'mark ' + c.baseline, title: c.acceptedReason || null, text: c.baseline }) : null
      ]),
      el('td', { 'data-label': 'Severity', text: c.severity }),
      el('td', { 'data-label': 'Check', text: c.check }),
      el('td', { 'data-label': 'Operation', className: 'where', title: c.operationId ? 'operation ' + c.operationId : null, text: where || c.namespace }),
      el('td', { 'data-label': 'Message', className: 'msg', title: c.message || null, text: c.message || '' }),
      el('td', { 'data-label': 'ms', text: String(c.durationMs) })
    ]);
    shownRows[i] = { row: row, toggle: toggle, detail: null, c: c };
    if (!expandable) return row;
    row.addEventListener('click', function (e) {
      // Let people select text in the row without toggling it.
      var sel = window.getSelection();
      if (sel && !sel.isCollapsed && sel.containsNode(row, true) && e.target !== toggle) return;
      toggleDetail(i);
    });
    return row;
  }

  function toggleDetail(i) {
    var entry = shownRows[i];
    if (entry.detail) {
      entry.detail.remove();
      entry.detail = null;
      entry.toggle.setAttribute('aria-expanded', 'false');
      entry.toggle.textContent = '\u25b8';
      return;
    }
    entry.detail = detailRow(entry.c, i);
    entry.row.after(entry.detail);
    entry.toggle.setAttribute('aria-expanded', 'true');
    entry.toggle.textContent = '\u25be';
  }

  function detailRow(c, i) {
    var parts = [];
    parts.push(el('p', { text: 'Case ' + c.id + (c.operationId ? ' (operation ' + c.operationId + ')' : '') }));
    if (c.acceptedReason) parts.push(el('p', { text: 'Accepted by the baseline: ' + c.acceptedReason }));
    if (c.message) parts.push(el('h3', { text: 'Message' }), el('pre', { className: 'message', text: c.message }));
    if (c.curl) {
      var pre = el('pre', { className: 'curl', text: c.curl });
      parts.push(el('h3', null, ['Reproduce', el('button', { type: 'button', className: 'copy', text: 'Copy',
        onclick: function (e) { e.stopPropagation(); copy(c.curl, pre, e.target); } })]), pre);
    }
    if (c.request) {
      var req = c.request.method + ' ' + c.request.url + '\n' + headerLines(c.request.headers) + (c.request.body ? '\n\n' + c.request.body : '');
      parts.push(el('h3', { text: 'Request' }), el('pre', { className: 'request', text: req }));
    }
    if (c.response) {
      var r = c.response;
      var res = 'HTTP ' + r.status + '\n' + headerLines(r.headers) + (r.body !== undefined ? '\n\n' + r.body : '');
      if (r.bodyTruncated) res += '\n\n[truncated: first 4 KiB of ' + (r.bodyBytes || '?') + ' bytes]';
      parts.push(el('h3', { text: 'Response' }), el('pre', { className: 'response', text: res }));
    }
    var cell = el('td', { colspan: 6 }, parts);
    cell.addEventListener('click', function (e) { e.stopPropagation(); });
    return el('tr', { className: 'detail', id: 'detail-' + i, data: { for: c.id } }, [cell]);
  }

  function headerLines(h) {
    return Object.keys(h || {}).map(function (k) { return k + ': ' + h[k]; }).join('\n');
  }

  function copy(text, pre, button) {
    function report(ok) {
      button.textContent = ok ? 'Copied' : 'Selected: press Ctrl+C';
      setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    }
    function fallback() {
      var range = document.createRange();
      range.selectNodeContents(pre);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (err) { ok = false; }
      report(ok);
    }
    // The async clipboard is refused on some file:// pages; selecting the text still lets people copy it.
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { report(true); }, fallback);
    } else {
      fallback();
    }
  }

  renderFailing();
  renderTiles();
  renderBaseline();
  renderGrid();
  renderFilters();
  applyFilters(blank());
  document.body.setAttribute('data-ready', 'true');
})();
`;
