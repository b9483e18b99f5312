// Shared set-up for the mock's real-browser tests: Debian's Chromium through playwright-core (launched as
// suites/src/report/html.browser.test.ts does), a record of what went wrong in the page, and a throwaway static
// server on 127.0.0.1 for the pages themselves.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** `extraArgs`: e.g. `--host-resolver-rules=MAP evil.test 127.0.0.1`, for a page of another site served here. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', ...extraArgs],
  });
}

/**
 * Collects the page's uncaught errors and console errors (with the URL they concern, if any), to be asserted at the
 * end. Chromium itself logs "Failed to load resource" for every 4xx answer, so a test that asks for errors on
 * purpose sees those too.
 */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    const at = msg.location().url;
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}${at ? ` (${at})` : ''}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return problems;
}

interface StaticFile {
  type: string;
  body: string | Uint8Array;
}

export interface StaticSite {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request it received, as `METHOD /path?query`. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `files` (path → content) on 127.0.0.1 at a random port; anything else is a 404. */
export function serveStatic(files: Record<string, StaticFile>): Promise<StaticSite> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const file = files[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : file.body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
