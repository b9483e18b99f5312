// The stylesheet and script inlined into the HTML report. They are plain strings rather than files so
// that rendering stays a pure function and the report needs nothing beside itself.
// The script builds every element with createElement/textContent and never assigns HTML, because
// everything it shows (response bodies above all) comes from the server under test.
// (Written without backticks or dollar-brace so String.raw keeps it verbatim.)

export const CLIENT_CSS = String.raw`
:root { --fail: #b3261e; --err: #8a2be2; --warn: #9a6700; --inc: #0550ae; --pass: #1a7f37; --skip: #6e7781; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header, section { margin: 0 auto; max-width: 1400px; padding: 12px 20px; }
h1 { font-size: 20px; margin: 8px 0; }
h2 { font-size: 16px; margin: 16px 0 8px; }
.meta { color: #57606a; margin: 0; }
.verdict { display: inline-block; font-weight: 700; padding: 2px 10px; border-radius: 4px; color: #fff; }
.verdict.passed { background: var(--pass); }
.verdict.failed { background: var(--fail); }
.verdict.interrupted { background: var(--err); }
.counts { display: flex; flex-wrap: wrap; gap: 8px; }
.count { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 96px; cursor: pointer; text-align: left; font: inherit; }
.count .n { display: block; font-size: 22px; font-weight: 700; }
.count.failed .n, .count.failing .n { color: var(--fail); }
.count.errored .n { color: var(--err); }
.count.warned .n { color: var(--warn); }
.count.inconclusive .n { color: var(--inc); }
.count.passed .n { color: var(--pass); }
.count.skipped .n { color: var(--skip); }
.baseline-box { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; }
.baseline-box ul { margin: 4px 0; padding-left: 20px; }
.matrix-wrap { overflow-x: auto; }
table { border-collapse: collapse; background: #fff; width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eaeef2; position: sticky; top: 0; }
.matrix td.cell button { font: inherit; border: 0; background: none; cursor: pointer; padding: 0; width: 100%; text-align: left; }
.matrix td.w-failed, .matrix td.w-errored { background: #ffebe9; }
.matrix td.w-warned { background: #fff8c5; }
.matrix td.w-inconclusive { background: #ddf4ff; }
.matrix td.w-passed { background: #dafbe1; }
.matrix td.w-skipped { background: #f6f8fa; }
.filters { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; margin-bottom: 8px; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: #57606a; }
.filters select, .filters input { font: inherit; padding: 3px 6px; }
.filters input[type=search] { min-width: 260px; }
tr.case { cursor: pointer; }
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
.toggle { font: inherit; border: 0; background: none; cursor: pointer; padding: 0 4px 0 0; }
.msg { max-width: 480px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
tr.detail > td { background: #fbfcfd; }
.detail h3 { font-size: 13px; margin: 8px 0 2px; }
pre { margin: 0; padding: 6px 8px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; word-break: break-all; max-height: 420px; overflow: auto; }
.copy { font: inherit; font-size: 12px; margin-left: 8px; }
.more { margin: 8px 0; font: inherit; }
.empty { color: #57606a; padding: 12px; }
`;

export const CLIENT_JS = String.raw`
(function () {
  'use strict';
  var run = JSON.parse(document.getElementById('run-data').textContent);
  var STATUS_ORDER = { errored: 0, failed: 1, warned: 2, inconclusive: 3, passed: 4, skipped: 5 };
  var PAGE = 500;
  var state = { status: '', severity: '', namespace: '', check: '', q: '', limit: PAGE };
  var cases = run.cases.slice().sort(function (a, b) {
    return rank(a) - rank(b) || cmp(a.namespace, b.namespace) || cmp(a.check, b.check) || cmp(a.route || '', b.route || '') || cmp(a.id, b.id);
  });

  function rank(c) {
    var r = STATUS_ORDER[c.status];
    // Accepted failures sort after the ones that fail the run: those are what a reader needs first.
    if (c.baseline === 'accepted') r += 0.5;
    return r === undefined ? 9 : r;
  }
  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  function $(id) { return document.getElementById(id); }
  function el(tag, props, children) {
    var node = document.createElement(tag);
    if (props) {
      for (var k in props) {
        if (!Object.prototype.hasOwnProperty.call(props, k)) continue;
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
  function uniq(values) {
    var seen = {};
    var out = [];
    values.forEach(function (v) { if (!Object.prototype.hasOwnProperty.call(seen, v)) { seen[v] = true; out.push(v); } });
    return out.sort(cmp);
  }
  function failsRun(c) { return (c.status === 'failed' || c.status === 'errored') && c.baseline !== 'accepted'; }

  function renderHeader() {
    var s = run.summary;
    var verdict = run.interrupted ? 'interrupted' : s.failing === 0 ? 'passed' : 'failed';
    $('verdict').appendChild(el('span', { className: 'verdict ' + verdict, id: 'verdict-text', text: verdict.toUpperCase() }));
    var parts = [
      run.target.baseUrl + run.target.apiRoot,
      'started ' + run.startedAt,
      'took ' + (run.durationMs / 1000).toFixed(1) + ' s',
      'seed ' + run.seed,
      run.tool.name + ' ' + run.tool.version
    ];
    if (run.shard) parts.push('shard ' + run.shard.index + '/' + run.shard.total);
    if (run.interrupted) parts.unshift('stopped by ' + run.interrupted.signal + ': only part of the run happened');
    $('meta').textContent = parts.join(' \u00b7 ');
  }

  function renderSummary() {
    var s = run.summary;
    var items = [
      ['total', s.total, ''], ['failing', s.failing, ''], ['failed', s.failed, 'failed'], ['errored', s.errored, 'errored'],
      ['warned', s.warned, 'warned'], ['inconclusive', s.inconclusive || 0, 'inconclusive'], ['passed', s.passed, 'passed'], ['skipped', s.skipped, 'skipped']
    ];
    if (run.baseline) items.push(['accepted', s.accepted, '']);
    var box = $('summary-counts');
    items.forEach(function (item) {
      box.appendChild(el('button', {
        type: 'button', className: 'count ' + item[0], title: item[2] ? 'Show only ' + item[2] : null,
        onclick: function () { setFilter('status', item[2]); }
      }, [el('span', { className: 'n', id: 'count-' + item[0], text: item[1] }), el('span', { className: 'label', text: item[0] })]));
    });
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

  function renderMatrix() {
    var namespaces = uniq(cases.map(function (c) { return c.namespace; }));
    var checks = uniq(cases.map(function (c) { return c.check; }));
    var cells = {};
    cases.forEach(function (c) {
      var key = c.namespace + '\u0000' + c.check;
      var cell = cells[key] || (cells[key] = { total: 0, failed: 0, errored: 0, warned: 0, inconclusive: 0, passed: 0, skipped: 0 });
      cell.total++;
      if (cell[c.status] !== undefined) cell[c.status]++;
    });
    var head = el('tr', null, [el('th', { text: 'namespace \\ check' })].concat(checks.map(function (ch) { return el('th', { text: ch }); })));
    var rows = namespaces.map(function (ns) {
      return el('tr', null, [el('th', { text: ns })].concat(checks.map(function (ch) {
        var cell = cells[ns + '\u0000' + ch];
        if (!cell) return el('td', { className: 'none', text: '\u2013' });
        var worst = cell.errored ? 'errored' : cell.failed ? 'failed' : cell.warned ? 'warned' : cell.inconclusive ? 'inconclusive' : cell.passed ? 'passed' : 'skipped';
        var label = [];
        ['failed', 'errored', 'warned', 'inconclusive', 'passed', 'skipped'].forEach(function (st) { if (cell[st]) label.push(cell[st] + ' ' + st); });
        return el('td', { className: 'cell w-' + worst, data: { namespace: ns, check: ch } }, [
          el('button', { type: 'button', title: 'Show these cases', text: label.join(', '),
            onclick: function () { setFilters({ namespace: ns, check: ch, status: '' }); } })
        ]);
      })));
    });
    $('matrix').appendChild(el('table', { className: 'matrix' }, [el('thead', null, [head]), el('tbody', null, rows)]));
  }

  function fillSelect(id, values, all) {
    var select = $(id);
    select.appendChild(el('option', { value: '', text: all }));
    values.forEach(function (v) { select.appendChild(el('option', { value: v, text: v })); });
  }

  function renderFilters() {
    fillSelect('filter-status', ['failed', 'errored', 'warned', 'inconclusive', 'passed', 'skipped'], 'any status');
    fillSelect('filter-severity', ['documented', 'convention', 'assumed'], 'any severity');
    fillSelect('filter-namespace', uniq(cases.map(function (c) { return c.namespace; })), 'any namespace');
    fillSelect('filter-check', uniq(cases.map(function (c) { return c.check; })), 'any check');
    ['status', 'severity', 'namespace', 'check'].forEach(function (name) {
      $('filter-' + name).addEventListener('change', function (e) { setFilter(name, e.target.value); });
    });
    $('filter-q').addEventListener('input', function (e) { setFilter('q', e.target.value); });
    $('filter-reset').addEventListener('click', function () { setFilters({ status: '', severity: '', namespace: '', check: '', q: '' }); });
  }

  function setFilter(name, value) { var f = {}; f[name] = value; setFilters(f); }
  function setFilters(f) {
    for (var k in f) if (Object.prototype.hasOwnProperty.call(f, k)) state[k] = f[k];
    state.limit = PAGE;
    ['status', 'severity', 'namespace', 'check'].forEach(function (name) { $('filter-' + name).value = state[name]; });
    if ($('filter-q').value !== state.q) $('filter-q').value = state.q;
    renderCases();
  }

  function matches(c) {
    if (state.status && c.status !== state.status) return false;
    if (state.severity && c.severity !== state.severity) return false;
    if (state.namespace && c.namespace !== state.namespace) return false;
    if (state.check && c.check !== state.check) return false;
    if (state.q) {
      var hay = [c.id, c.check, c.namespace, c.method, c.route, c.operationId, c.message, c.status, c.severity].join(' ').toLowerCase();
      if (hay.indexOf(state.q.toLowerCase()) < 0) return false;
    }
    return true;
  }

  function renderCases() {
    var body = $('cases-body');
    body.textContent = '';
    var shown = cases.filter(matches);
    shown.slice(0, state.limit).forEach(function (c) { body.appendChild(caseRow(c)); });
    if (shown.length === 0) body.appendChild(el('tr', null, [el('td', { colspan: 8, className: 'empty', text: 'No case matches these filters.' })]));
    $('shown').textContent = 'Showing ' + Math.min(shown.length, state.limit) + ' of ' + shown.length + ' matching case(s); ' + cases.length + ' in all.';
    var more = $('more');
    more.hidden = shown.length <= state.limit;
    more.textContent = 'Show all ' + shown.length;
  }

  function caseRow(c) {
    var expandable = !!(c.message || c.request || c.response || c.curl);
    var statusCell = el('td', null, [
      expandable ? el('button', { type: 'button', className: 'toggle', 'aria-expanded': 'false', 'aria-label': 'Show details', text: '\u25b8' }) : null,
      el('span', { className: 'status ' + c.status, text: c.status }),
      c.baseline ? el('span', { className: 'mark ' + c.baseline, title: c.acceptedReason || null, text: c.baseline }) : null
    ]);
    var row = el('tr', { className: 'case' + (failsRun(c) ? ' failing' : ''), data: { status: c.status, severity: c.severity, id: c.id } }, [
      statusCell,
      el('td', { text: c.severity }),
      el('td', { text: c.namespace }),
      el('td', { text: c.check }),
      el('td', { text: c.method || '' }),
      el('td', { text: c.route || '' }),
      el('td', { className: 'msg', title: c.message || null, text: c.message || '' }),
      el('td', { text: String(c.durationMs) })
    ]);
    if (!expandable) return row;
    var detail = null;
    row.addEventListener('click', function (e) {
      // Let people select text in the row without toggling it.
      var sel = window.getSelection();
      if (sel && !sel.isCollapsed && sel.containsNode(row, true) && e.target.className !== 'toggle') return;
      var toggle = row.querySelector('.toggle');
      if (detail) {
        detail.remove();
        detail = null;
        toggle.setAttribute('aria-expanded', 'false');
        toggle.textContent = '\u25b8';
        return;
      }
      detail = detailRow(c);
      row.after(detail);
      toggle.setAttribute('aria-expanded', 'true');
      toggle.textContent = '\u25be';
    });
    return row;
  }

  function detailRow(c) {
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
    var cell = el('td', { colspan: 8 }, parts);
    cell.addEventListener('click', function (e) { e.stopPropagation(); });
    return el('tr', { className: 'detail', data: { for: c.id } }, [cell]);
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

  renderHeader();
  renderSummary();
  renderBaseline();
  renderMatrix();
  renderFilters();
  $('more').addEventListener('click', function () { state.limit = Infinity; renderCases(); });
  renderCases();
  document.body.setAttribute('data-ready', 'true');
})();
`;
