// The HTML reports in a real browser, as people open them from a CI artifact, at a desktop's size and a
// phone's. The data is real: a whole run of the suite against the mock with faults injected (failures in
// six checks over three namespaces, one of them accepted by a baseline), and a diff against the mock
// whose descriptor lost routes and a method, changed arguments and gained a route. A small hostile run
// (markup and script in response bodies) proves nothing from the target becomes markup.
// Screenshots go to reports/screenshots/ (ignored by git) for people to look at.

import * as nodeFs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../contracts/lib/loader.ts';
import { createMock, listen, type Mock, type MockRequest, type MockResponse } from '../../../mock/src/index.ts';
import { main, type MainDeps } from '../../cli.ts';
import { defaultCommands } from '../cli/commands/index.ts';
import { makeDiffCommand } from '../cli/commands/diff.ts';
import { makeTestCommand, processTestDeps } from '../cli/commands/test.ts';
import type { DiffResult } from '../diff/diff.ts';
import { renderJunit } from './junit.ts';
import type { CaseResult, RunResult } from './model.ts';
import { failsRun } from './run.ts';
import { sampleRun } from './sample.ts';
import { writeReports } from './write.ts';
import { parseRunJson } from './json.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`html.browser.test.ts: SKIPPED, ${CHROMIUM} is missing (apt-get install -y chromium)`);
}
const SCREENSHOTS = fileURLToPath(new URL('../../../reports/screenshots/', import.meta.url));
const VIEWPORTS = [
  { name: '1400x1000', width: 1400, height: 1000 },
  { name: '390x844', width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];
/** The create_status failure of the run below, accepted by its baseline. */
const ACCEPTED = 'create_status:postCalV1Venues:cal/v1/venue/create';

// ---- the realistic run: the mock with five faults ------------------------------------------------------

type Next = (req: MockRequest) => MockResponse;

function routeOf(req: MockRequest): { route: string; query: URLSearchParams } {
  const url = new URL(req.url, 'http://x');
  return { route: url.pathname.replace(/^\/wp-json/, '').replace(/\/+$/, '') || '/', query: url.searchParams };
}

function fresh(res: MockResponse, edit: Partial<MockResponse>): MockResponse {
  // The cached bytes would be sent instead of an edited body.
  const { bodyBytes: _stale, ...rest } = res;
  return { ...rest, ...edit };
}

function faulty(next: Next): Next {
  return (req) => {
    const { route, query } = routeOf(req);
    // not_a_server_error (and the negative_rejection of its parameter): a valid filter crashes the server.
    if (req.method === 'GET' && route === '/cal/v1/organizers' && query.has('only_with_upcoming')) {
      return { status: 500, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: '{"code":"internal_server_error","message":"Fatal error","data":{"status":500}}' };
    }
    // negative_rejection: per_page above the documented maximum is taken.
    if (req.method === 'GET' && route === '/cal/v1/events' && Number(query.get('per_page')) > 100) {
      const url = new URL(req.url, 'http://x');
      url.searchParams.set('per_page', '100');
      return fresh(next({ ...req, url: `${url.pathname}?${url.searchParams.toString()}` }), {});
    }
    const res = next(req);
    // create_status: a create answers 200 without Location (accepted by the baseline).
    if (req.method === 'POST' && route === '/cal/v1/venues' && res.status === 201) {
      return fresh(res, { status: 200, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.toLowerCase() !== 'location')) });
    }
    // pagination: the legacy venue list loses its Link header.
    if (req.method === 'GET' && route === '/cal/events/v1/venues') {
      return fresh(res, { headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.toLowerCase() !== 'link')) });
    }
    // error_envelope: the forms' 400s do not say which parameter.
    if (res.status === 400 && route.startsWith('/forms/v1')) {
      const body = JSON.parse(res.body) as { code: string; data?: Record<string, unknown> };
      if (body.code === 'rest_invalid_param') {
        const { params: _p, details: _d, ...data } = body.data ?? {};
        return fresh(res, { body: JSON.stringify({ ...body, data }) });
      }
    }
    return fresh(res, {});
  };
}

/** A descriptor that lost the organizer record routes and events' POST, changed two arguments and gained a route. */
function driftedDescriptor(next: Next): Next {
  return (req) => {
    const res = next(req);
    if (req.method !== 'GET' || routeOf(req).route !== '/' || res.status !== 200) return res;
    type Endpoint = { methods: string[]; args: Record<string, Record<string, unknown>> };
    const body = JSON.parse(res.body) as { routes: Record<string, { namespace: string; methods: string[]; endpoints: Endpoint[] }> };
    for (const key of Object.keys(body.routes)) if (key.startsWith('/cal/v1/organizers/')) delete body.routes[key];
    const events = body.routes['/cal/v1/events']!;
    events.endpoints = events.endpoints.filter((e) => !e.methods.includes('POST'));
    events.methods = events.methods.filter((m) => m !== 'POST');
    const list = events.endpoints.find((e) => e.methods.includes('GET'))!;
    list.args['per_page'] = { ...list.args['per_page'], maximum: 50 };
    delete list.args['order'];
    body.routes['/cal/v1/export'] = { namespace: 'cal/v1', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] };
    return fresh(res, { body: JSON.stringify(body) });
  };
}

function deps(env: Record<string, string>, contract: ReturnType<typeof loadContractFile>): MainDeps {
  return {
    commands: {
      ...defaultCommands,
      test: makeTestCommand({ ...processTestDeps, loadContract: () => contract, signals: undefined }),
      diff: makeDiffCommand({ loadContract: () => contract }),
    },
    tool: { name: 'site-contracts', version: '0.0.0-test' },
    env,
    stdout: { write: () => true },
    stderr: { write: () => true },
    now: () => new Date(),
    readFile: (p) => nodeFs.readFile(p, 'utf8'),
    fs: nodeFs,
  };
}

// ---- the browser ----------------------------------------------------------------------------------------

interface Opened {
  page: Page;
  problems: string[];
}

async function open(browser: Browser, file: string, viewport: Viewport): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    if (!req.url().startsWith('file:')) problems.push(`network: ${req.url()}`);
  });
  // No wall-clock limit of Playwright's own (0): vitest's guard is the one, and the page's work is what is bounded.
  page.setDefaultTimeout(0);
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, problems };
}

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Where an element is, against the viewport. */
async function box(page: Page, selector: string): Promise<{ top: number; bottom: number; left: number; right: number }> {
  return page.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  });
}

async function expectInFirstViewport(page: Page, selector: string, v: Viewport): Promise<void> {
  const b = await box(page, selector);
  expect(b.top, `${selector} top`).toBeGreaterThanOrEqual(0);
  expect(b.bottom, `${selector} bottom at ${v.name}`).toBeLessThanOrEqual(v.height);
  expect(b.left, `${selector} left`).toBeGreaterThanOrEqual(0);
  expect(b.right, `${selector} right at ${v.name}`).toBeLessThanOrEqual(v.width);
}

/** The accessible description Chromium computes for an element (what a screen reader reads after its name). */
async function accessibleDescription(page: Page, selector: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const value: unknown = nodes[0]?.description?.value;
    return typeof value === 'string' ? value : '';
  } finally {
    await cdp.detach();
  }
}

async function reset(page: Page): Promise<void> {
  await page.click('#filter-reset');
  await page.evaluate(() => window.scrollTo(0, 0));
  // No hover left on a tile for the screenshots.
  await page.mouse.move(0, 0);
}

const visibleRows = (page: Page): Promise<{ outcome: string | null; check: string; id: string | null }[]> =>
  page.$$eval('#cases-body tr.case', (rows) =>
    rows.map((r) => ({ outcome: r.getAttribute('data-outcome'), check: r.children[2]?.textContent ?? '', id: r.getAttribute('data-id') })),
  );

/** Failing cases per key, most first; what the grid's order must follow. */
function failingBy(cases: readonly CaseResult[], key: (c: CaseResult) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const c of cases) if (failsRun(c)) m.set(key(c), (m.get(key(c)) ?? 0) + 1);
  return m;
}

describe.skipIf(!hasChromium)('HTML reports in Chromium', () => {
  let browser: Browser;
  let mock: Mock;
  let dir = '';
  let run: RunResult;
  let diffRun: RunResult;
  let diff: DiffResult;
  const pages = new Map<string, Opened>();
  const opened = (report: 'test' | 'diff' | 'sample', v: Viewport): Opened => pages.get(`${report} ${v.name}`)!;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-html-'));
    const contract = loadContractFile();
    mock = await createMock({ contract, auth: true });
    const c = mock.credentials()!;
    const env = { MOCK_AUTH: `${c.username}:${c.password}`, CI: 'true' };
    const server = await listen(faulty(mock.handleNow), { port: 0, host: '127.0.0.1' });
    const drifted = await listen(driftedDescriptor(mock.handleNow), { port: 0, host: '127.0.0.1' });
    try {
      await writeFile(join(dir, 'baseline.yaml'), `accepted:\n  - id: "${ACCEPTED}"\n    reason: staging answers creates with 200; ticket open\n`);
      const code = await main(
        ['test', '--base-url', server.url, '--auth-env', 'MOCK_AUTH', '--seed', '7', '--runs', '1', '--baseline', join(dir, 'baseline.yaml'), '--report-dir', join(dir, 'test'), '--format', 'json,html'],
        deps(env, contract),
      );
      expect(code).toBe(1);
      run = parseRunJson(await readFile(join(dir, 'test', 'site-contracts.json'), 'utf8'), 'site-contracts.json');
      expect(await main(['diff', '--base-url', drifted.url, '--report-dir', join(dir, 'diff'), '--format', 'json,html'], deps(env, contract))).toBe(1);
      diffRun = parseRunJson(await readFile(join(dir, 'diff', 'site-contracts-diff.json'), 'utf8'), 'site-contracts-diff.json');
      diff = JSON.parse(await readFile(join(dir, 'diff', 'diff.json'), 'utf8')) as DiffResult;
    } finally {
      await server.close();
      await drifted.close();
    }
    const [sample] = await writeReports(sampleRun(), { dir: join(dir, 'sample'), formats: ['html'], secrets: [] });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    for (const v of VIEWPORTS) {
      pages.set(`test ${v.name}`, await open(browser, join(dir, 'test', 'site-contracts.html'), v));
      pages.set(`diff ${v.name}`, await open(browser, join(dir, 'diff', 'site-contracts-diff.html'), v));
    }
    pages.set(`sample ${VIEWPORTS[0].name}`, await open(browser, sample!.path, VIEWPORTS[0]));
  });

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the run is realistic: failures in several checks and namespaces, one accepted, many operations', () => {
    const failing = run.cases.filter(failsRun);
    // wire_headers too, rightly: two of the faults drop headers WordPress's serve_request() sends before any handler
    // runs: the organizers' 500 is written by hand with none of them (no X-Content-Type-Options, X-Robots-Tag, Link,
    // no-cache), and the legacy venue list loses its whole Link header, the API root's rel="https://api.w.org/"
    // with its pagination links.
    expect(new Set(failing.map((c) => c.check))).toEqual(new Set(['not_a_server_error', 'negative_rejection', 'pagination', 'error_envelope', 'wire_headers']));
    expect(new Set(failing.map((c) => c.namespace))).toEqual(new Set(['cal/v1', 'cal/events/v1', 'forms/v1']));
    expect(run.summary.accepted).toBe(1);
    // Every operation of the contract has cases (besides those about a whole namespace: descriptor_routes' extras).
    expect(new Set(run.cases.flatMap((c) => (c.operationId ? [c.operationId] : []))).size).toBe(204);
    expect(new Set(run.cases.map((c) => c.check)).size).toBeGreaterThanOrEqual(15);
  });

  it('draws the short rows of passed and skipped cases as the JSON reader reads them, each at its place in the run', async () => {
    const { page } = opened('test', VIEWPORTS[0]);
    for (const key of ['skipped', 'passed']) {
      await reset(page);
      await page.click(`#tile-${key}`);
      // All the skips; the first page of the passes.
      if (key === 'skipped' && (await page.isVisible('#more'))) await page.click('#more');
      const rows = await page.$$eval('#cases-body tr.case', (trs) =>
        trs.map((r) => ({
          index: Number(r.getAttribute('data-index')),
          id: r.getAttribute('data-id'),
          status: r.getAttribute('data-status'),
          severity: r.getAttribute('data-severity'),
          cells: [...r.children].slice(2).map((td) => td.textContent ?? ''),
        })),
      );
      expect(rows.length, key).toBeGreaterThan(key === 'skipped' ? 10 : 400);
      if (key === 'skipped') expect(rows).toHaveLength(run.summary.skipped);
      for (const r of rows) {
        const c = run.cases[r.index]!;
        const where = [c.method, c.route].filter(Boolean).join(' ') || c.namespace;
        expect({ id: r.id, status: r.status, severity: r.severity, cells: r.cells }).toEqual({
          id: c.id,
          status: c.status,
          severity: c.severity,
          cells: [c.check, where, c.message ?? '', String(c.durationMs)],
        });
      }
    }
    await reset(page);
  });

  describe.each(VIEWPORTS)('the test report at $name', (v) => {
    it('shows the verdict and the first failing check on the first screen', async () => {
      const { page } = opened('test', v);
      await reset(page);
      expect(await page.textContent('#verdict-text')).toBe('FAILED');
      expect(await page.textContent('#why')).toMatch(/^\d+ cases fail the run \(\d+ failed, 0 errored\) in 5 checks on \d+ operations, out of [\d,]+ cases; 1 accepted by the baseline/);
      await expectInFirstViewport(page, '#verdict-text', v);
      await expectInFirstViewport(page, '#why', v);
      await expectInFirstViewport(page, '#failing-0', v);
      // On a desktop, every failing check: five, each a line.
      const lines = await page.$$eval('#failing-list > li', (lis) => lis.map((li) => li.id));
      expect(lines).toHaveLength(new Set(run.cases.filter(failsRun).map((c) => c.check)).size);
      if (v.width >= 1000) for (const id of lines) await expectInFirstViewport(page, `#${id}`, v);
      // It is one of the run's documented failures, as the case says it.
      const first = page.locator('#failing-0');
      const shown = {
        check: await first.locator('.fail-check').textContent(),
        where: await first.locator('.fail-where').textContent(),
        severity: await first.locator('.sev').textContent(),
        message: await first.locator('.fail-msg').textContent(),
      };
      expect(shown.severity).toBe('documented');
      const same = run.cases.filter((c) => failsRun(c) && c.check === shown.check && `${c.method} ${c.route}` === shown.where && c.message?.split('\n')[0] === shown.message);
      expect(same.length, JSON.stringify(shown)).toBeGreaterThan(0);
      expect(await first.locator('a.case-link').textContent()).toMatch(/with curl$/);
      await screenshot(page, `report-${v.name}`);
    });

    it('never scrolls the page sideways: the grid scrolls in its own box', async () => {
      const { page } = opened('test', v);
      await reset(page);
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, wrap: document.getElementById('matrix')!.getBoundingClientRect().right }));
      expect(widths.page).toBeLessThanOrEqual(v.width);
      expect(widths.wrap).toBeLessThanOrEqual(v.width);
      expect(await page.$eval('#matrix', (e) => getComputedStyle(e).overflowX)).toBe('auto');
    });

    it('filters by a tile and brings the filtered cases into view, the filter shown and clearable', async () => {
      const { page } = opened('test', v);
      for (const key of ['failed', 'accepted', 'warned', 'inconclusive']) {
        await reset(page);
        const count = Number((await page.textContent(`#count-${key}`))!.replace(/,/g, ''));
        expect(count, key).toBeGreaterThan(0);
        await page.click(`#tile-${key}`);
        const section = await box(page, '#cases-section');
        const table = await box(page, '#cases');
        expect(section.top, `${key}: the case list is scrolled to`).toBeGreaterThanOrEqual(-1);
        expect(section.top).toBeLessThan(v.height);
        expect(table.top, `${key}: the table's top is on screen`).toBeGreaterThanOrEqual(0);
        expect(table.top).toBeLessThan(v.height);
        const rows = await visibleRows(page);
        expect(rows).toHaveLength(count);
        expect(new Set(rows.map((r) => r.outcome))).toEqual(new Set([key]));
        expect(await page.getAttribute(`#tile-${key}`, 'aria-pressed')).toBe('true');
        const chip = page.locator('#active-filters .chip[data-field="outcome"]');
        expect(await chip.isVisible()).toBe(true);
        expect(await chip.textContent()).toContain(`status: ${key === 'accepted' ? 'accepted by the baseline' : key}`);
        if (key === 'failed') await screenshot(page, `report-${v.name}-after-failed-tile`);
        await chip.locator('button').click();
        expect(await page.textContent('#shown')).toMatch(/of all [\d,]+ cases/);
        expect(await page.getAttribute(`#tile-${key}`, 'aria-pressed')).toBe('false');
      }
    });

    it('opens the first failing check\'s case, with its curl line, in view', async () => {
      const { page } = opened('test', v);
      await reset(page);
      const check = await page.textContent('#failing-0 .fail-check');
      const route = ((await page.textContent('#failing-0 .fail-where')) ?? '').split(' ')[1]!;
      await page.click('#failing-0 a.case-link');
      const detail = page.locator('#cases-body tr.detail');
      await detail.waitFor({ state: 'visible' });
      const curl = (await detail.locator('pre.curl').textContent()) ?? '';
      expect(curl).toMatch(new RegExp(`^curl .*'http://127\\.0\\.0\\.1:\\d+/wp-json${route.replace(/[{}]/g, '.')}[?']`));
      expect(curl).toContain('"$MOCK_AUTH"');
      const row = await box(page, '#cases-body tr.case');
      expect(row.top).toBeGreaterThanOrEqual(0);
      expect(row.top).toBeLessThan(v.height);
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('toggle');
      expect((await visibleRows(page)).every((r) => r.check === check && r.outcome === 'failed')).toBe(true);
    });
  });

  it('gives every tile a tooltip and an accessible description saying what it counts, one tile per meaning', async () => {
    const { page } = opened('test', VIEWPORTS[0]);
    const tiles = await page.$$eval('#summary-counts button.count', (bs) =>
      bs.map((b) => ({ id: b.id, title: b.getAttribute('title') ?? '', label: b.querySelector('.label')?.textContent ?? '', n: Number((b.querySelector('.n')?.textContent ?? '').replace(/,/g, '')) })),
    );
    expect(tiles.map((t) => t.label)).toEqual(['failed', 'errored', 'accepted by the baseline', 'warned', 'inconclusive', 'passed', 'skipped']);
    // A partition: every case in exactly one tile.
    expect(tiles.reduce((a, t) => a + t.n, 0)).toBe(run.summary.total);
    expect(tiles.find((t) => t.label === 'failed')!.n + tiles.find((t) => t.label === 'errored')!.n).toBe(run.summary.failing);
    for (const t of tiles) {
      expect(t.title.length, t.label).toBeGreaterThan(40);
      expect(await accessibleDescription(page, `#${t.id}`)).toBe(t.title);
    }
    expect(tiles.find((t) => t.label === 'failed')!.title).toMatch(/^Cases where the target did what the contract rules out/);
  });

  it('puts failing columns first, most failures first, and failing namespaces and operations first', async () => {
    const { page } = opened('test', VIEWPORTS[0]);
    const columns = await page.$$eval('.matrix thead th.col', (ths) => ths.map((th) => th.getAttribute('data-column')!));
    const byCheck = failingBy(run.cases, (c) => c.check);
    const failingChecks = [...byCheck.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
    expect(columns.slice(0, failingChecks.length).sort()).toEqual([...failingChecks].sort());
    expect(columns.slice(0, failingChecks.length).map((k) => byCheck.get(k))).toEqual(failingChecks.map((k) => byCheck.get(k)));
    expect(columns.length).toBe(new Set(run.cases.map((c) => c.check)).size);

    const rows = await page.$$eval('.matrix tbody tr.ns', (trs) => trs.map((tr) => tr.getAttribute('data-namespace')!));
    const byNs = failingBy(run.cases, (c) => c.namespace);
    expect(rows.slice(0, byNs.size).map((ns) => byNs.get(ns) ?? 0)).toEqual([...byNs.values()].sort((a, b) => b - a));
    expect(rows.slice(byNs.size).every((ns) => !byNs.has(ns))).toBe(true);

    // The first namespace is open on its operations, failing ones first.
    const ops = await page.$$eval(`.matrix tbody tr.op`, (trs) => trs.filter((tr) => !(tr as HTMLElement).hidden).map((tr) => tr.getAttribute('data-operation')!));
    const byOp = failingBy(run.cases.filter((c) => c.namespace === rows[0]), (c) => c.operationId ?? '');
    const firstNsOps = ops.slice(0, new Set(run.cases.filter((c) => c.namespace === rows[0]).map((c) => c.operationId)).size);
    expect(firstNsOps.slice(0, byOp.size).map((o) => byOp.get(o))).toEqual([...byOp.values()].sort((a, b) => b - a));
    expect(firstNsOps.slice(byOp.size).every((o) => !byOp.has(o))).toBe(true);
  });

  it.each(VIEWPORTS)('filters by a grid cell and brings the cases into view at $name', async (v) => {
    const { page } = opened('test', v);
    await reset(page);
    const cell = page.locator('.matrix tbody tr.op td.cell.w-failed').first();
    const operation = (await cell.getAttribute('data-operation'))!;
    const check = (await cell.getAttribute('data-column'))!;
    await cell.locator('button').click();
    const table = await box(page, '#cases');
    expect(table.top).toBeGreaterThanOrEqual(0);
    expect(table.top).toBeLessThan(v.height);
    const expected = run.cases.filter((c) => c.operationId === operation && c.check === check);
    const rows = await visibleRows(page);
    expect(rows.map((r) => r.id).sort()).toEqual(expected.map((c) => c.id).sort());
    expect(rows[0]!.outcome).toBe('failed');
    expect(await page.textContent('#active-filters')).toContain(`operation: ${operation}`);
  });

  it('works from the keyboard: a skip link first, Enter on a tile filters and moves focus to the cases', async () => {
    const { page, problems } = await open(browser, join(dir, 'test', 'site-contracts.html'), VIEWPORTS[0]);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the cases');
    await page.keyboard.press('Enter');
    expect((await box(page, '#cases-section')).top).toBeLessThan(5);
    await page.focus('#tile-warned');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('cases-h');
    // Exactly the run's warned cases, and nothing else.
    const warnedRows = await visibleRows(page);
    expect(warnedRows.length).toBe(run.cases.filter((c) => c.status === 'warned').length);
    expect(new Set(warnedRows.map((r) => r.outcome))).toEqual(new Set(['warned']));
    await page.focus('.matrix tbody tr.ns .ns-toggle');
    await page.keyboard.press('Enter');
    expect(await page.getAttribute('.matrix tbody tr.ns .ns-toggle', 'aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    expect(await page.getAttribute('.matrix tbody tr.ns .ns-toggle', 'aria-expanded')).toBe('true');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  describe.each(VIEWPORTS)('the diff report at $name', (v) => {
    it('has its own title and summary, no seed, and its first difference on the first screen', async () => {
      const { page } = opened('diff', v);
      await reset(page);
      expect(await page.title()).toMatch(/^FAILED: http:\/\/127\.0\.0\.1:\d+ \(site-contracts diff, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/);
      expect(await page.textContent('#heading')).toBe('site-contracts diff');
      const s = diff.summary;
      expect(s).toMatchObject({ routeMissing: 4, methodMissing: 1, argDiffs: 2, withArgDiffs: 1, extras: 1 });
      const tiles = await page.$$eval('#summary-counts button.count', (bs) => bs.map((b) => `${b.querySelector('.n')?.textContent} ${b.querySelector('.label')?.textContent}`));
      expect(tiles).toEqual([
        `${s.operations} operations compared`,
        `${s.same} the same`,
        `${s.routeMissing} on missing routes`,
        `${s.methodMissing} missing methods`,
        `${s.argDiffs} argument differences`,
        `${s.extras} extra routes or methods`,
      ]);
      expect(await page.textContent('#why')).toBe(
        `The target's descriptor differs from the contract: 4 on missing routes, 1 missing method, 2 argument differences on 1 operation, 1 extra route or method; ${s.same} of ${s.operations} operations the same.`,
      );
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).not.toMatch(/\bseed\b/i);
      expect(text).not.toContain('site-contracts report');
      await expectInFirstViewport(page, '#verdict-text', v);
      await expectInFirstViewport(page, '#failing-0', v);
      await screenshot(page, `diff-${v.name}`);
    });

    it('filters by a difference tile: exactly the cases it counts, in view', async () => {
      const { page } = opened('diff', v);
      for (const [key, count] of [['route-missing', 4], ['args', 2], ['same', diff.summary.same]] as const) {
        await reset(page);
        await page.click(`#tile-${key}`);
        expect(await visibleRows(page)).toHaveLength(count);
        const table = await box(page, '#cases');
        expect(table.top).toBeGreaterThanOrEqual(0);
        expect(table.top).toBeLessThan(v.height);
      }
    });
  });

  it('logged no error and made no network request', () => {
    for (const [name, { problems }] of pages) expect(problems, name).toEqual([]);
    expect(diffRun.options['command']).toBe('diff');
  });

  describe('a hostile run', () => {
    const sample = (): Page => opened('sample', VIEWPORTS[0]).page;

    it('shows the counts and verdict', async () => {
      const page = sample();
      const count = (name: string): Promise<string> => page.textContent(`#count-${name}`).then((t) => t ?? '');
      expect([await count('failed'), await count('errored'), await count('warned'), await count('inconclusive'), await count('passed'), await count('skipped')]).toEqual(['2', '1', '1', '0', '1', '1']);
      expect(await page.$$eval('#filter-outcome option', (os) => os.map((o) => o.getAttribute('value')))).toContain('inconclusive');
      expect(await page.textContent('#verdict-text')).toBe('FAILED');
      expect(await page.$$eval('.matrix tbody tr.ns', (rows) => rows.length)).toBe(3);
      expect(await visibleRows(page)).toHaveLength(6);
    });

    it('filters by status, then by text', async () => {
      const page = sample();
      await page.selectOption('#filter-outcome', 'failed');
      expect((await visibleRows(page)).map((r) => r.outcome)).toEqual(['failed', 'failed']);
      expect(await page.textContent('#shown')).toContain('Showing 2 of 2');
      await page.fill('#filter-q', 'rejection');
      expect((await visibleRows(page)).map((r) => r.check)).toEqual(['negative_rejection']);
      await page.click('#filter-reset');
      expect(await visibleRows(page)).toHaveLength(6);
    });

    it('expands a failure to show message, curl line and response, as text', async () => {
      const page = sample();
      await page.selectOption('#filter-outcome', 'failed');
      const row = page.locator('#cases-body tr.case[data-outcome="failed"]', { hasText: 'not_a_server_error' });
      await row.click();
      const detail = page.locator('#cases-body tr.detail');
      await detail.waitFor({ state: 'visible' });
      const curl = await detail.locator('pre.curl').textContent();
      expect(curl).toMatch(/^curl -sS -i -g 'https:\/\/staging\.example\.org\/wp-json\/wp\/v2\/posts\?per_page=5&status\[\]=publish'/);
      expect(curl).toContain('-u "$SITE_CONTRACTS_AUTH"');
      const response = detail.locator('pre.response');
      expect(await response.isVisible()).toBe(true);
      expect(await response.textContent()).toContain('HTTP 500');
      expect(await response.textContent()).toContain('</script><script>window.__pwned=1</script>');
      expect(await detail.locator('pre.message').textContent()).toBe('expected a status below 500, got 500');
      await detail.locator('button.copy').click();
      await page.waitForFunction(() => document.querySelector('button.copy')?.textContent !== 'Copy');
      await row.click();
      expect(await page.locator('#cases-body tr.detail').count()).toBe(0);
      await page.click('#filter-reset');
    });

    it('narrows the case list from a namespace x check cell', async () => {
      const page = sample();
      await page.click('.matrix tr.ns td.cell[data-namespace="cal/v1"][data-column="negative_rejection"] button');
      expect(await page.textContent('#active-filters')).toContain('namespace: cal/v1');
      expect((await visibleRows(page)).map((r) => r.outcome)).toEqual(['skipped']);
      await page.click('#filter-reset');
    });

    it('ran none of the markup from response bodies', async () => {
      const page = sample();
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('img').count()).toBe(0);
    });
  });

  it('shows an interrupted run as INTERRUPTED, never PASSED, even when every case that ran passed', async () => {
    const passing = sampleRun(sampleRun().cases.filter((c) => c.status === 'passed'));
    const [written] = await writeReports({ ...passing, interrupted: { signal: 'SIGINT' }, summary: { ...passing.summary, verdict: 'interrupted' } }, { dir: join(dir, 'interrupted'), formats: ['html'], secrets: [] });
    const { page, problems } = await open(browser, written!.path, VIEWPORTS[1]);
    expect(await page.textContent('#verdict-text')).toBe('INTERRUPTED');
    expect(await page.textContent('#why')).toBe('Stopped by Ctrl-C (SIGINT) after 1 case: only part of the run happened, so it cannot pass.');
    expect(await page.title()).toMatch(/^INTERRUPTED: /);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('JUnit output parses as XML', async () => {
    const { page } = opened('sample', VIEWPORTS[0]);
    const error = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return doc.querySelector('parsererror')?.textContent ?? null;
    }, renderJunit(sampleRun()));
    expect(error).toBeNull();
  });
});
