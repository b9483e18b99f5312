// `npx site-contracts mock` from the installed package as a person runs it: a first line at once, a log line per
// request by default (here into a pipe, as under concurrently or docker compose: plain text) naming a 4xx's code
// and parameters, and the mock's page, GET /__mock/, in Debian's Chromium
// at desktop and phone sizes: the request just made listed, the store counted, nothing wider than the screen, and
// the reset button undoing a write. Also the time from launch to the first answer.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const t0 = performance.now();
const child = spawn('npx', ['--no-install', 'site-contracts', 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
let out = '';
let firstLineMs;
child.stdout.on('data', (d) => {
  firstLineMs ??= performance.now() - t0;
  out += d;
});
child.stderr.on('data', (d) => (out += d));
const stop = () => {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {}
};
process.on('exit', stop);

let url;
for (let i = 0; i < 1200 && !url; i++) {
  url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  if (!url) await new Promise((r) => setTimeout(r, 50));
}
assert.ok(url, `the mock did not start:\n${out}`);
const listeningMs = performance.now() - t0;
assert.match(out.split('\n')[0], /^mock: starting: loading the contract and the bundled fixtures\.\.\.$/);

const bad = await fetch(`${url}/wp-json/cal/v1/events?per_page=101`);
assert.equal(bad.status, 400);
const firstAnswerMs = performance.now() - t0;
for (let i = 0; i < 200 && !/per_page=101 400/.test(out); i++) await new Promise((r) => setTimeout(r, 25));
const line = out.split('\n').find((l) => l.includes('per_page=101'));
assert.match(line ?? '', /^\d\d:\d\d:\d\d GET {4}\/wp-json\/cal\/v1\/events\?per_page=101 400 rest_invalid_param \(per_page\) [\d.]+ ms$/, out);
assert.ok(!out.includes('\x1b['), 'colour codes in a pipe');
console.log(`mock log: ${line}`);
console.log(`mock start: first line ${Math.round(firstLineMs)} ms, listening ${Math.round(listeningMs)} ms, first answer ${Math.round(firstAnswerMs)} ms after launch (npx included)`);

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
try {
  for (const v of [{ name: 'desktop', width: 1280, height: 800 }, { name: 'phone', width: 390, height: 844 }]) {
    const context = await browser.newContext({ viewport: { width: v.width, height: v.height } });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    const created = await page.request.post(`${url}/wp-json/cal/v1/events`, { data: { title: `Consumer ${v.name}`, start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' } });
    assert.equal(created.status(), 201);
    const count = async () => (await (await fetch(`${url}/__mock/state`)).json()).loaded.events;
    const before = await count();
    await page.goto(`${url}/__mock/`);
    assert.match(await page.textContent('#recent'), /rest_invalid_param \(per_page\)/);
    assert.match(await page.textContent('#store'), new RegExp(`event ${before}(?!\\d)`));
    const w = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: innerWidth }));
    assert.ok(w.doc <= w.view, `${v.name}: the page is ${w.doc}px wide in a ${w.view}px viewport`);
    await page.click('#reset');
    for (let i = 0; i < 200 && (await count()) !== before - 1; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(await count(), before - 1, 'the reset button did not reset the store');
    assert.deepEqual(problems, []);
    console.log(`mock page (${v.name} ${v.width}x${v.height}): requests listed, ${before} events counted, ${w.doc}px wide, reset ${before} -> ${before - 1} events`);
    await context.close();
  }
} finally {
  await browser.close();
  stop();
}
