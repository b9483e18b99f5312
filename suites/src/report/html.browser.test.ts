// The HTML report in a real browser: what a person sees when they open the file from a CI artifact.

import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJunit } from './junit.ts';
import { sampleRun } from './sample.ts';
import { writeReports } from './write.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`html.browser.test.ts: SKIPPED, ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

describe.skipIf(!hasChromium)('HTML report in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let dir = '';
  const problems: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-html-'));
    const [written] = await writeReports(sampleRun(), { dir, formats: ['html'], secrets: [] });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    page = await browser.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('request', (req) => {
      if (!req.url().startsWith('file:')) problems.push(`network: ${req.url()}`);
    });
    await page.goto(pathToFileURL(written!.path).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const visibleCases = (): Promise<{ status: string | null; text: string }[]> =>
    page.$$eval('#cases-body tr.case', (rows) => rows.map((r) => ({ status: r.getAttribute('data-status'), text: r.textContent ?? '' })));

  it('shows the summary counts and verdict', async () => {
    const count = (name: string): Promise<string> => page.textContent(`#count-${name}`).then((t) => t ?? '');
    expect(await count('total')).toBe('6');
    expect(await count('failing')).toBe('3');
    expect(await count('failed')).toBe('2');
    expect(await count('errored')).toBe('1');
    expect(await count('warned')).toBe('1');
    expect(await count('passed')).toBe('1');
    expect(await count('skipped')).toBe('1');
    expect(await count('inconclusive')).toBe('0');
    expect(await page.$$eval('#filter-status option', (os) => os.map((o) => o.getAttribute('value')))).toContain('inconclusive');
    expect(await page.textContent('#verdict-text')).toBe('FAILED');
    expect(await page.$$eval('.matrix tbody tr', (rows) => rows.length)).toBe(3);
    expect(await visibleCases()).toHaveLength(6);
  });

  it('filters by status, then by text', async () => {
    await page.selectOption('#filter-status', 'failed');
    const failed = await visibleCases();
    expect(failed.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(await page.textContent('#shown')).toContain('Showing 2 of 2');

    await page.fill('#filter-q', 'rejection');
    expect((await visibleCases()).map((r) => r.text)).toEqual([expect.stringContaining('negative_rejection')]);
    await page.click('#filter-reset');
    expect(await visibleCases()).toHaveLength(6);
  });

  it('expands a failure to show message, curl line and response, as text', async () => {
    await page.selectOption('#filter-status', 'failed');
    const row = page.locator('#cases-body tr.case[data-status="failed"]', { hasText: 'not_a_server_error' });
    await row.click();
    const detail = page.locator('#cases-body tr.detail');
    await detail.waitFor({ state: 'visible' });
    const curl = await detail.locator('pre.curl').textContent();
    expect(curl).toMatch(/^curl -sS -i -g 'https:\/\/staging\.example\.org\/wp-json\/wp\/v2\/posts\?per_page=5&status\[\]=publish'/);
    expect(curl).toContain('-u "$SITE_CONTRACTS_AUTH"');
    expect(await detail.locator('pre.curl').isVisible()).toBe(true);
    const response = detail.locator('pre.response');
    expect(await response.isVisible()).toBe(true);
    expect(await response.textContent()).toContain('HTTP 500');
    expect(await response.textContent()).toContain('</script><script>window.__pwned=1</script>');
    expect(await detail.locator('pre.message').textContent()).toBe('expected a status below 500, got 500');

    await detail.locator('button.copy').click();
    await page.waitForFunction(() => document.querySelector('button.copy')?.textContent !== 'Copy', undefined, { timeout: 5000 });

    await row.click();
    expect(await page.locator('#cases-body tr.detail').count()).toBe(0);
    await page.click('#filter-reset');
  });

  it('narrows the case list from a namespace x check cell', async () => {
    await page.click('.matrix td.cell[data-namespace="cal/v1"][data-check="negative_rejection"] button');
    expect(await page.inputValue('#filter-namespace')).toBe('cal/v1');
    expect((await visibleCases()).map((r) => r.status)).toEqual(['skipped']);
    await page.click('#filter-reset');
  });

  it('ran none of the markup from response bodies and logged no error', async () => {
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('shows an interrupted run as INTERRUPTED, never PASSED, even when every case that ran passed', async () => {
    const passing = sampleRun(sampleRun().cases.filter((c) => c.status === 'passed'));
    const [written] = await writeReports({ ...passing, interrupted: { signal: 'SIGINT' }, summary: { ...passing.summary, verdict: 'interrupted' } }, { dir: join(dir, 'interrupted'), formats: ['html'], secrets: [] });
    const other = await browser.newPage();
    try {
      await other.goto(pathToFileURL(written!.path).href);
      await other.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      expect(await other.textContent('#verdict-text')).toBe('INTERRUPTED');
      expect(await other.textContent('#meta')).toContain('stopped by SIGINT: only part of the run happened');
      expect(await other.title()).toMatch(/^INTERRUPTED: /);
    } finally {
      await other.close();
    }
  });

  it('JUnit output parses as XML', async () => {
    const xml = renderJunit(sampleRun());
    const error = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return doc.querySelector('parsererror')?.textContent ?? null;
    }, xml);
    expect(error).toBeNull();
  });
});
