// The mock inside a real browser page, behind MSW's service worker, as a frontend team runs it (mock/README.md):
// msw.browser.page.ts is bundled for the browser platform (which fails if anything it reaches needs Node), served
// with MSW's worker script from a throwaway server on 127.0.0.1, and opened in Chromium; the page's own fetch()
// calls are answered by the mock, never by the server.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPackageJson, sourceExports } from '../../../.ci/packaging/source-exports.ts';
import { createMock } from '../index.ts';
import { sharedContract, sharedFixtures } from '../testing/harness.ts';
import { CHROMIUM, hasChromium, launchChromium, pageProblems, serveStatic, type StaticSite } from '../testing/browser.ts';

if (!hasChromium) console.warn(`msw.browser.test.ts: SKIPPED, ${CHROMIUM} is missing (apt-get install -y chromium)`);

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The package's own names ('site-contracts/mock/browser') as the sources they are built from, as in vitest.config.ts. */
const packageNames: Plugin = {
  name: 'site-contracts-sources',
  setup(b) {
    const sources = sourceExports(readPackageJson(ROOT));
    b.onResolve({ filter: /^site-contracts(?:\/|$)/ }, (args) => {
      const source = sources.get(args.path);
      return source === undefined ? undefined : { path: join(ROOT, source) };
    });
  },
};

/** `import text from '<file>?raw'` as Vite reads it: the file's text. */
const rawText: Plugin = {
  name: 'raw-text',
  setup(b) {
    b.onResolve({ filter: /\?raw$/ }, async (args) => {
      const r = await b.resolve(args.path.slice(0, -'?raw'.length), { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir });
      return r.errors.length ? { errors: r.errors } : { path: r.path, namespace: 'raw-text' };
    });
    b.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text' }));
  },
};

async function bundlePage(): Promise<string> {
  const out = await build({
    entryPoints: [fileURLToPath(new URL('./msw.browser.page.ts', import.meta.url))],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [packageNames, rawText],
  });
  return out.outputFiles[0]!.text;
}

interface Fetched {
  status: number;
  headers: Record<string, string>;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- response JSON
}

describe.skipIf(!hasChromium)('the browser entry behind MSW setupWorker, in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let site: StaticSite;
  let problems: string[] = [];

  /** fetch() run in the page, so that the service worker sees it. */
  const pageFetch = (path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Fetched> =>
    page.evaluate(
      async ([p, i]) => {
        const res = await fetch(p, i);
        const text = await res.text();
        return { status: res.status, headers: Object.fromEntries(res.headers), json: text ? JSON.parse(text) : undefined };
      },
      [path, init ?? {}] as const,
    );

  beforeAll(async () => {
    const require = createRequire(import.meta.url);
    const [script, worker] = await Promise.all([bundlePage(), readFile(join(dirname(require.resolve('msw/package.json')), 'lib/mockServiceWorker.js'))]);
    site = await serveStatic({
      '/': { type: 'text/html; charset=utf-8', body: '<!doctype html><html><head><link rel="icon" href="data:,"><script type="module" src="/page.js"></script></head><body></body></html>' },
      '/page.js': { type: 'text/javascript; charset=utf-8', body: script },
      '/mockServiceWorker.js': { type: 'text/javascript; charset=utf-8', body: worker },
    });
    browser = await launchChromium();
    page = await browser.newPage();
    // No wall-clock limit of Playwright's own (0): vitest's guard is the one.
    page.setDefaultTimeout(0);
    problems = pageProblems(page);
    await page.goto(site.url);
    await page.waitForSelector('html[data-mock="ready"]');
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('lists events with the pagination headers, counting as the Node mock counts', async () => {
    const res = await pageFetch('/wp-json/cal/v1/events?per_page=5');
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(5);
    const node = await createMock({ contract: sharedContract(), fixtures: await sharedFixtures() });
    const expected = node.handleNow({ method: 'GET', url: '/wp-json/cal/v1/events?per_page=5', headers: {} });
    expect(res.headers['x-wp-total']).toBe(expected.headers['X-WP-Total']);
    expect(Number(res.headers['x-wp-total'])).toBeGreaterThan(5);
    expect(res.headers['x-wp-totalpages']).toBe(expected.headers['X-WP-TotalPages']);
    expect(res.headers.link).toBe(`<${site.url}/wp-json/cal/v1/events?per_page=5&page=2>; rel="next"`);
    expect(res.json.map((e: { id: number }) => e.id)).toEqual(JSON.parse(expected.body).map((e: { id: number }) => e.id));
  });

  it('creates an event through cal/v1 (201, Location) and reads it back through cal/events/v1', async () => {
    const created = await pageFetch('/wp-json/cal/v1/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Open-air cinema', start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 21:30:00', venues: [11] }),
    });
    expect(created.status).toBe(201);
    const id = created.json.id as number;
    expect(created.headers.location).toBe(`${site.url}/wp-json/cal/v1/events/${id}`);
    expect(created.json.title).toMatchObject({ raw: 'Open-air cinema' });

    const legacy = await pageFetch(`/wp-json/cal/events/v1/events/${id}?_fields=id,title,start_date,utc_start_date,venue.venue`);
    expect(legacy.status).toBe(200);
    expect(legacy.json).toEqual({ id, title: 'Open-air cinema', start_date: '2026-12-05 19:00:00', utc_start_date: '2026-12-05 17:00:00', venue: { venue: 'Podil Chamber Hall' } });

    // Same origin, so no preflight stands in the way of the method override (cross-origin, WordPress refuses it).
    const trashed = await pageFetch(`/wp-json/cal/v1/events/${id}`, { method: 'POST', headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    expect(trashed).toMatchObject({ status: 200, json: { id, status: 'trash' } });
  });

  it('answers WordPress errors: 404 rest_no_route, 400 rest_invalid_param', async () => {
    const none = await pageFetch('/wp-json/cal/v1/no-such-route');
    expect(none.status).toBe(404);
    expect(none.json).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
    const bad = await pageFetch('/wp-json/cal/v1/events?per_page=101');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' } } });
  });

  it('a large POST runs in steps, each waiting for a message to the page itself, not a 4 ms timer (work.ts)', async () => {
    const counted = await page.evaluate(async () => {
      // The mock's turns post null; MSW's own messages to its worker carry objects.
      const proto = MessagePort.prototype;
      const post = proto.postMessage;
      let turns = 0;
      proto.postMessage = function (this: MessagePort, ...args: Parameters<MessagePort['postMessage']>) {
        if (args[0] === null) turns++;
        return post.apply(this, args);
      } as MessagePort['postMessage'];
      const started = performance.now();
      try {
        const res = await fetch('/wp-json/cal/v1/events', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ title: 'Long programme', content: 'A night of chamber music. '.repeat(12_000), start_date: '2026-12-06 19:00:00', end_date: '2026-12-06 22:00:00' }),
        });
        return { status: res.status, turns, ms: Math.round(performance.now() - started) };
      } finally {
        proto.postMessage = post;
      }
    });
    console.log(`msw in Chromium: a 300 KB POST took ${counted.turns} turns, ${counted.ms} ms`);
    expect(counted.status).toBe(201);
    // A body over 256 KiB takes a turn between stages, and its content is rendered in steps: several turns at least.
    expect(counted.turns).toBeGreaterThanOrEqual(4);
  });

  it('served every REST request in the page: the server saw only the page and the worker script; no errors', () => {
    expect(site.requests.filter((r) => r.includes('wp-json'))).toEqual([]);
    expect(site.requests).toEqual(expect.arrayContaining(['GET /', 'GET /page.js', 'GET /mockServiceWorker.js']));
    // Only Chromium's own notes on the two errors asked for above.
    expect(problems).toEqual([
      `console: Failed to load resource: the server responded with a status of 404 (Not Found) (${site.url}/wp-json/cal/v1/no-such-route)`,
      `console: Failed to load resource: the server responded with a status of 400 (Bad Request) (${site.url}/wp-json/cal/v1/events?per_page=101)`,
    ]);
  });
});
