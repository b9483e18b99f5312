// `--format har` opened by a real HAR reader: Chromium through Playwright's routeFromHAR, which parses HAR 1.2 the
// way its recorder writes it and answers the page's requests from the file's entries. A file it refuses, or entries it
// cannot match by method and URL, fail here; the unit test (har.test.ts) checks the fields one by one.

import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHar } from './har.ts';
import { SAMPLE_BASE, sampleRun } from './sample.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`har.browser.test.ts: SKIPPED, ${CHROMIUM} is missing (apt-get install -y chromium)`);

describe.skipIf(!hasChromium)('the HAR report in a HAR reader (Playwright routeFromHAR, Chromium)', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-contracts-har-browser-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is read as HAR 1.2, and a page is answered from its entries: status, type and body as the run recorded them', async () => {
    const file = join(dir, 'site-contracts.har');
    await writeFile(file, renderHar(sampleRun()));
    const context = await browser.newContext();
    try {
      // notFound 'abort': a request the file does not answer fails instead of going to the network.
      await context.routeFromHAR(file, { notFound: 'abort' });
      const page = await context.newPage();
      const res = await page.goto(`${SAMPLE_BASE}/wp-json/cal/v1/events/3`);
      expect(res?.status()).toBe(200);
      expect(res?.headers()['content-type']).toContain('application/json');
      expect(await res?.text()).toBe('{"id":3}');
      // The 500 with markup in its body, recorded with its query string, is served as recorded too.
      const fatal = await page.goto(`${SAMPLE_BASE}/wp-json/wp/v2/posts?per_page=5&status[]=publish`);
      expect(fatal?.status()).toBe(500);
      expect(await fatal?.text()).toContain('<h1>Fatal</h1>');
      // And a URL no entry holds is not invented.
      await expect(page.goto(`${SAMPLE_BASE}/wp-json/cal/v1/events/999`)).rejects.toThrow();
    } finally {
      await context.close();
    }
  });
});
