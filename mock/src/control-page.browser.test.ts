// The mock's page (GET /__mock/) in Chromium, at desktop and phone sizes: it loads with its own script and style
// under its Content-Security-Policy and no error, shows the recent requests and the counts within the width, its
// collection links answer, and its reset button resets the store. Under --auth the browser's credentials (the
// answer to the page's WWW-Authenticate) open the page and go with the reset; without them the page is refused.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mock } from './index.ts';
import { listen, type Listening } from './adapters/node-http.ts';
import { freshMock } from './testing/harness.ts';
import { CHROMIUM, hasChromium, launchChromium, pageProblems, serveStatic } from './testing/browser.ts';

if (!hasChromium) console.warn(`control-page.browser.test.ts: SKIPPED, ${CHROMIUM} is missing (apt-get install -y chromium)`);

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

describe.skipIf(!hasChromium)("the mock's page in Chromium", () => {
  let browser: Browser;
  let mock: Mock;
  let server: Listening;
  let guarded: Mock;
  let guardedServer: Listening;

  beforeAll(async () => {
    browser = await launchChromium();
    mock = await freshMock();
    server = await listen(mock.handleNow, { port: 0, host: '127.0.0.1' });
    guarded = await freshMock({ auth: true });
    guardedServer = await listen(guarded.handleNow, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await guardedServer?.close();
  });

  for (const v of VIEWPORTS) {
    it(`shows requests, counts and routes within the ${v.name} width, and its reset button resets the store`, async () => {
      const context = await browser.newContext({ viewport: { width: v.width, height: v.height } });
      const page = await context.newPage();
      const problems = pageProblems(page);
      try {
        const before = mock.store.events.size;
        // A request the page should list, and a write its reset should undo.
        await page.request.get(`${server.url}/wp-json/cal/v1/events?per_page=101`);
        const created = await page.request.post(`${server.url}/wp-json/cal/v1/events`, { data: { title: `Page test ${v.name}`, start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' } });
        expect(created.status()).toBe(201);
        expect(mock.store.events.size).toBe(before + 1);

        await page.goto(`${server.url}/__mock/`);
        await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui');
        expect(await page.textContent('#recent')).toContain('rest_invalid_param (per_page)');
        expect(await page.textContent('#store')).toContain(`event ${before + 1}`);
        // Nothing wider than the screen: no sideways scrolling of the page itself.
        const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
        expect(widths.doc, `${v.name}: page ${widths.doc}px in a ${widths.view}px viewport`).toBeLessThanOrEqual(widths.view);
        const button = await page.$('#reset');
        const box = (await button!.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(v.width);
        expect(box.y + box.height, 'the reset button above the fold').toBeLessThanOrEqual(v.height);

        // A request opens on its own page: query, headers, the answer; the page keeps working under its policy.
        await page.click('#recent a[title*="per_page=101"]');
        await expect.poll(() => page.textContent('h1')).toContain('400');
        expect(await page.textContent('#query')).toContain('per_page');
        expect(await page.textContent('#answer-body')).toContain('rest_invalid_param');
        expect(await page.textContent('#request-headers')).toContain('user-agent');
        await page.goBack();
        // A collection link answers in the browser.
        await page.click('summary:has-text("cal/v1")');
        const href = await page.getAttribute('a[href="/wp-json/cal/v1/venues"]', 'href');
        expect(href).toBe('/wp-json/cal/v1/venues');

        await page.click('#reset');
        await expect.poll(() => mock.store.events.size).toBe(before);
        await expect.poll(() => page.textContent('#result')).toContain('reset: 200');
        expect(problems.filter((p) => !p.includes('400 (Bad Request)'))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('stays a few screens tall on a phone with 50 long requests listed, each on one line, and times them to the tenth of a millisecond', async () => {
    const busy = await freshMock();
    const busyServer = await listen(busy.handleNow, { port: 0, host: '127.0.0.1' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      for (let i = 0; i < 60; i++) {
        const res = await fetch(`${busyServer.url}/wp-json/cal/v1/events?per_page=${i % 3 ? 5 : 101}&search=some+longer+search+words+${i}&_fields=id,title,start_date,venues,organizers&page=1`);
        await res.arrayBuffer();
      }
      await page.goto(`${busyServer.url}/__mock/`);
      const heights = await page.evaluate(() => ({ total: document.documentElement.scrollHeight, row: document.querySelector('#recent tbody tr')!.getBoundingClientRect().height }));
      // 12,562 px before (each path wrapped over many lines); the page is now the 50 one-line rows, the counts and
      // the routes collapsed by namespace.
      expect(heights.total, `${JSON.stringify(heights)}`).toBeLessThanOrEqual(4 * 844);
      expect(await page.$$eval('#recent tbody tr', (rows) => rows.length)).toBe(50);
      expect(await page.$$eval('details.ns[open]', (open) => open.length)).toBe(0);
      const times = await page.$$eval('#recent td.ms', (cells) => cells.map((c) => c.textContent ?? ''));
      for (const t of times) expect(t).toMatch(/^(\d+\.\d{1,2}|\d{2,}) ms$/);
      expect(times.some((t) => t !== '0.0 ms' && t !== '1.0 ms')).toBe(true);
    } finally {
      await context.close();
      await busyServer.close();
    }
  });

  it('under --auth opens to the administrator the browser was given, whose reset goes through, and not to nobody', async () => {
    const admin = guarded.credentials()!;
    const context = await browser.newContext({ httpCredentials: { username: admin.username, password: admin.password }, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems = pageProblems(page);
    try {
      const answer = await page.goto(`${guardedServer.url}/__mock/`);
      expect(answer!.status()).toBe(200);
      expect(await page.textContent('header')).toContain('--auth: writes need credentials');
      await page.click('#reset');
      await expect.poll(() => page.textContent('#result')).toContain('reset: 200');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    // Without credentials: refused, and the answer asks for them (a browser then shows its login prompt).
    const refused = await fetch(`${guardedServer.url}/__mock/`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Basic realm="site-contracts mock"');
  });

  it('refuses a page of another site: its form POST does not reset the store under --auth with the browser\'s credentials, and a rebinding name gets a 403', async () => {
    // evil.test is another site that resolves to this machine (as a rebinding name does).
    const other = await launchChromium(['--host-resolver-rules=MAP evil.test 127.0.0.1']);
    const admin = guarded.credentials()!;
    const port = new URL(guardedServer.url).port;
    const attacker = await serveStatic({
      '/': { type: 'text/html', body: `<!doctype html><form id="f" method="post" action="${guardedServer.url}/__mock/reset"></form><script>document.getElementById('f').submit()</script>` },
    });
    const context = await other.newContext({ httpCredentials: { username: admin.username, password: admin.password } });
    const page = await context.newPage();
    try {
      // The administrator opens the mock's page (the browser now holds the credentials for it), writes, then visits the other site.
      expect((await page.goto(`${guardedServer.url}/__mock/`))!.status()).toBe(200);
      const created = await page.request.post(`${guardedServer.url}/wp-json/cal/v1/events`, {
        data: { title: 'Kept across a visit', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' },
        headers: { Authorization: `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}` },
      });
      expect(created.status()).toBe(201);
      const before = guarded.store.events.size;
      const answer = page.waitForResponse((r) => r.url().endsWith('/__mock/reset'));
      await page.goto(`http://evil.test:${new URL(attacker.url).port}/`);
      const refused = await answer;
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toContain('mock_cross_site');
      expect(guarded.store.events.size).toBe(before);
      // A name that is not the mock's (DNS rebinding): refused on the REST routes too.
      const rebound = await page.goto(`http://evil.test:${port}/wp-json/cal/v1/events?per_page=1`);
      expect(rebound!.status()).toBe(403);
      expect(await rebound!.text()).toContain('mock_host_not_allowed');
    } finally {
      await context.close();
      await other.close();
      await attacker.close();
    }
  });
});
