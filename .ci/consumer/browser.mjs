// The browser entry from the installed package, in Chromium: src/page.js bundled for the browser platform (esbuild,
// as Vite would; the contract imported as text), served with MSW's worker script from a throwaway server, opened in
// Debian's Chromium; the page's own fetch() calls must be answered by the mock in the page, never by the server.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const require = createRequire(import.meta.url);

const bundle = await build({
  entryPoints: [new URL('./src/page.js', import.meta.url).pathname],
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  loader: { '.yaml': 'text' },
  write: false,
  logLevel: 'error',
});
const files = {
  '/': ['text/html; charset=utf-8', '<!doctype html><html><head><link rel="icon" href="data:,"><script type="module" src="/page.js"></script></head><body></body></html>'],
  '/page.js': ['text/javascript; charset=utf-8', bundle.outputFiles[0].text],
  '/mockServiceWorker.js': ['text/javascript; charset=utf-8', await readFile(join(dirname(require.resolve('msw/package.json')), 'lib/mockServiceWorker.js'))],
};
const seen = [];
const server = createServer((req, res) => {
  seen.push(req.url);
  const file = files[req.url];
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { 'Content-Type': file[0] }).end(file[1]);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const site = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(site);
  await page.waitForSelector('html[data-mock="ready"]', { timeout: 30_000 });
  const get = (path) =>
    page.evaluate(async (p) => {
      const res = await fetch(p);
      return { status: res.status, total: res.headers.get('x-wp-total'), json: await res.json() };
    }, path);
  const list = await get('/wp-json/cal/v1/events?per_page=3');
  assert.equal(list.status, 200);
  assert.equal(list.total, '137');
  assert.equal(list.json.length, 3);
  const refused = await get('/wp-json/cal/v1/events?per_page=101');
  assert.equal(refused.status, 400);
  assert.equal(refused.json.code, 'rest_invalid_param');
  assert.deepEqual(errors, []);
  assert.deepEqual(seen.filter((u) => u.includes('wp-json')), [], 'the server was asked for a REST route: the mock did not answer it');
  console.log(`browser: the mock ran in Chromium from a ${Math.round(bundle.outputFiles[0].contents.length / 1024)} KiB bundle; per_page=3 answered 200 (X-WP-Total ${list.total}), per_page=101 answered 400 ${refused.json.code}, no request reached the server`);
} finally {
  await browser.close();
  server.close();
}
