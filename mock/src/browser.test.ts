// The browser entry without a browser: it bundles for the browser platform (so no `node:` module is reachable), and
// the mock it builds from memory is the Node entry's mock. adapters/msw.browser.test.ts runs it in Chromium.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { createBrowserMock, FixtureError } from './browser.ts';
import type { Mock } from './index.ts';
import { call, freshMock, sharedContract, sharedFixtures, TEST_NOW } from './testing/harness.ts';

const clock = { now: () => TEST_NOW };

describe('site-contracts/mock/browser', () => {
  it('bundles for the browser platform: nothing it reaches imports a node: module', async () => {
    const out = await build({
      entryPoints: [fileURLToPath(new URL('./browser.ts', import.meta.url))],
      absWorkingDir: fileURLToPath(new URL('../../', import.meta.url)),
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(out.errors).toEqual([]);
    const imports = Object.values(out.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(imports.filter((p) => p.startsWith('node:'))).toEqual([]);
    // The Node entry's file-reading modules stay out.
    const nodeSide = ['mock/src/index.ts', 'contracts/lib/loader.ts', 'mock/src/store/load-fixtures.ts', 'mock/src/store/persist.ts', 'mock/src/adapters/node-http.ts'];
    expect(Object.keys(out.metafile.inputs).filter((p) => nodeSide.includes(p))).toEqual([]);
    expect(Object.keys(out.metafile.inputs)).toContain('mock/src/assemble.ts');
  });

  it('answers as createMock() does over the same contract and fixtures', async () => {
    const node = await freshMock();
    const browser = await createBrowserMock({ contract: sharedContract(), fixtures: await sharedFixtures(), seed: 42, clock });
    const same = (m: Mock, method: string, url: string, body?: unknown) => {
      const r = call(m, method, url, body === undefined ? {} : { body });
      return { status: r.status, headers: r.headers, body: r.body };
    };
    for (const url of ['/wp-json/cal/v1/events?per_page=3', '/uk/wp-json/cal/v1/events?per_page=2', '/wp-json/cal/events/v1/events/92', '/wp-json/cal/v1/events?per_page=0', '/wp-json/']) {
      expect(same(browser, 'GET', url)).toEqual(same(node, 'GET', url));
    }
    const create = { title: 'Same everywhere', start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 21:30:00', venues: [11] };
    expect(same(browser, 'POST', '/wp-json/cal/v1/events', create)).toEqual(same(node, 'POST', '/wp-json/cal/v1/events', create));
    expect(browser.credentials()).toEqual(node.credentials());
  });

  it('without fixtures generates seed 1, which is the committed fixtures; takes the contract as a parsed document', async () => {
    const browser = await createBrowserMock({ contract: sharedContract().doc, clock });
    expect(browser.contract.operations).toHaveLength(sharedContract().operations.length);
    const node = await freshMock();
    expect(browser.snapshot()).toEqual(node.snapshot());
  });

  it('checks the fixtures it is given as the Node entry checks the files', async () => {
    const { calendar, addons, users } = await sharedFixtures();
    const broken = { ...calendar, events: [{ ...calendar.events[0]!, status: 'bogus' }, ...calendar.events.slice(1)] };
    const attempt = createBrowserMock({ contract: sharedContract(), fixtures: { calendar: broken, addons, users } });
    await expect(attempt).rejects.toBeInstanceOf(FixtureError);
    await expect(attempt).rejects.toThrow(/calendar\.json.*\/events\/0\/status/s);
  });
});
