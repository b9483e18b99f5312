// The bundled entries (`npm run build`'s dist/bundle/, what package.json's exports run) answer byte for byte what the
// sources answer: the bundle is built here afresh by the build's own function (bundle.ts) into a folder of its own
// below the checkout (so package-root.ts finds the contract, the fixtures and package.json from it, as from dist/),
// loaded by Node as a project loads it, and a mock from each answers the same fixed requests through each one's MSW
// handlers (msw's getResponse(), no server): status, status text, headers in order and body. The bundled mock loads
// its contract through the bundled 'site-contracts' with the validator cache, the sources' compile every validator
// (cold), so the comparison also covers the cache as a bundled project reads it; the bundled mock's fixtures come
// from the checked set the build kept (mock/src/store/checked-fixtures.ts), the sources' from the cold checks, and
// the bundled model validators are loaded on the first write, not at the start.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getResponse, type RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTRACT_PATH, loadContractFile } from '../../contracts/lib/loader.ts';
import { wordpressHandlers } from '../../mock/src/adapters/msw.ts';
import { createMock, DEFAULT_FIXTURES_DIR } from '../../mock/src/index.ts';
import { fixedRequests } from '../../mock/src/testing/fixed-requests.ts';
import { bundlePackage, fixtureCacheOf, modelValidatorsOf } from './bundle.ts';
import { bundledExports, readPackageJson } from './source-exports.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ORIGIN = 'https://events.example.org';
const OPTIONS = { seed: 42, clock: { now: () => Date.parse('2026-05-01T12:00:00Z') } };

type Mocks = { createMock: typeof createMock; DEFAULT_FIXTURES_DIR: string };
type Msw = { wordpressHandlers: typeof wordpressHandlers };
type Contracts = { loadContractFile: typeof loadContractFile };

async function answers(mock: Awaited<ReturnType<typeof createMock>>, handlers: RequestHandler[]): Promise<string[]> {
  const admin = mock.credentials();
  if (!admin) throw new Error('the mock has no credentials');
  const auth = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
  const out: string[] = [];
  for (const r of fixedRequests(loadContractFile())) {
    const headers: Record<string, string> = { authorization: auth, ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}) };
    const request = new Request(`${ORIGIN}${r.url}`, { method: r.method, headers, ...(r.body !== undefined ? { body: JSON.stringify(r.body) } : {}) });
    const res = await getResponse(handlers, request);
    out.push(JSON.stringify([r.method, r.url, res?.status, res?.statusText, res ? [...res.headers] : null, res ? await res.text() : null]));
  }
  return out;
}

describe('the bundled entries (dist/bundle/)', () => {
  it('answer through MSW byte for byte what the sources answer', async () => {
    mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'node_modules/.cache/site-contracts-bundle-'));
    try {
      const built = await bundlePackage(ROOT, relative(ROOT, dir));
      const exports = bundledExports(readPackageJson(ROOT));
      const load = async <T,>(key: string): Promise<T> => {
        const target = exports.get(key)?.target;
        if (!target) throw new Error(`package.json bundles no ${key}`);
        return (await import(pathToFileURL(join(dir, relative('dist/bundle', target))).href)) as T;
      };
      const bundled = { mocks: await load<Mocks>('./mock'), msw: await load<Msw>('./mock/msw'), contracts: await load<Contracts>('.') };
      // What Node loaded is the bundle, not the sources under another name.
      expect(bundled.mocks.createMock).not.toBe(createMock);
      expect(bundled.mocks.DEFAULT_FIXTURES_DIR).toBe(DEFAULT_FIXTURES_DIR);
      // The bundle reads no module of the project outside itself: its imports are its own chunks, packages and node:.
      for (const file of built.files.filter((f) => f.endsWith('.js'))) {
        const specifiers = [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?from\s*"([^"]+)"/gm)].map((m) => m[1]!);
        for (const s of specifiers) expect(s.startsWith('.') ? s.includes('chunks/') || s.startsWith('./chunk-') : true, `${file} imports ${s}`).toBe(true);
      }

      const fromBundle = await bundled.mocks.createMock({ contract: bundled.contracts.loadContractFile(), fixturesDir: bundled.mocks.DEFAULT_FIXTURES_DIR, ...OPTIONS });
      // The model's validators (900 KB) are not even loaded until a record is written (bundle.ts's stand-ins).
      const validatorsFile = join(ROOT, modelValidatorsOf(relative(ROOT, dir)));
      const required = createRequire(import.meta.url).cache;
      expect(Object.keys(required)).not.toContain(validatorsFile);
      const fromSources = await createMock({ contract: loadContractFile(DEFAULT_CONTRACT_PATH, undefined, null), fixturesDir: DEFAULT_FIXTURES_DIR, ...OPTIONS });
      const bundledAnswers = await answers(fromBundle, bundled.msw.wordpressHandlers(fromBundle, { origin: ORIGIN }));
      const sourceAnswers = await answers(fromSources, wordpressHandlers(fromSources, { origin: ORIGIN }));
      await fromBundle.close?.();
      await fromSources.close?.();
      expect(bundledAnswers).toEqual(sourceAnswers);
      expect(Object.keys(required)).toContain(validatorsFile);
      // Both refusals and acceptances were compared, every one answered by the mock.
      const statuses = new Set(sourceAnswers.map((a) => (JSON.parse(a) as unknown[])[2]));
      expect([...statuses]).toEqual(expect.arrayContaining([200, 201, 207, 400]));
      expect(statuses.has(undefined)).toBe(false);

      // The bundled mock's fixtures came from the checked set the build kept (fixture-cache/, one entry, for the
      // bundled texts): a mock started after that entry is edited serves the edit.
      const cacheDir = join(ROOT, fixtureCacheOf(relative(ROOT, dir)));
      const entries = readdirSync(cacheDir);
      expect(entries).toHaveLength(1);
      const entry = join(cacheDir, entries[0]!);
      const kept = JSON.parse(readFileSync(entry, 'utf8')) as { calendar: { events: { title: string }[] } };
      for (const event of kept.calendar.events) event.title = 'served from the kept set';
      writeFileSync(entry, JSON.stringify(kept));
      const fromEdited = await bundled.mocks.createMock({ fixturesDir: bundled.mocks.DEFAULT_FIXTURES_DIR, ...OPTIONS });
      const listed = await fromEdited.handle({ method: 'GET', url: '/wp-json/cal/v1/events?per_page=1', headers: { host: 'events.example.org' }, origin: ORIGIN });
      await fromEdited.close?.();
      expect(listed.status).toBe(200);
      expect(String(listed.body)).toContain('served from the kept set');

      // A fixture the checks refuse: the bundle's stand-ins hand on the real validators' errors, so both say the same.
      const broken = join(dir, 'broken-fixtures');
      mkdirSync(broken);
      for (const name of ['calendar.json', 'addons.json', 'users.json']) writeFileSync(join(broken, name), readFileSync(join(DEFAULT_FIXTURES_DIR, name)));
      const calendar = JSON.parse(readFileSync(join(broken, 'calendar.json'), 'utf8')) as { events: Record<string, unknown>[] };
      delete calendar.events[1]!.title;
      calendar.events[2]!.status = 'gone';
      writeFileSync(join(broken, 'calendar.json'), JSON.stringify(calendar));
      const refusal = async (make: () => Promise<unknown>) => make().then(() => 'accepted', (e: unknown) => String(e));
      const bundledRefusal = await refusal(() => bundled.mocks.createMock({ fixturesDir: broken, ...OPTIONS }));
      expect(bundledRefusal).toContain("/events/1 must have property 'title'");
      expect(bundledRefusal).toContain('/events/2/status');
      expect(bundledRefusal).toBe(await refusal(() => createMock({ fixturesDir: broken, ...OPTIONS })));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
