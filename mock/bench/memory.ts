// Memory of a store holding many events. Not a test (numbers depend on the machine); run:
//   node --expose-gc --import tsx mock/bench/memory.ts [events=10000]
// Loads generated fixtures with that many events the way the mock would (text -> validate -> store),
// then also creates the same number of events through createPost, and prints RSS and heap.

import { generateFixtures, renderFixtureFiles } from '../../fixtures/lib/generate-all.ts';
import { parseFixtureTexts } from '../src/store/load-fixtures.ts';
import { FIXTURE_FILES, type FixtureSet } from '../../contracts/model/records.ts';
import { createStore, type Store } from '../src/store/store.ts';

const count = Number(process.argv[2] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc so the figures exclude garbage');
  process.exit(1);
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
function measure(label: string): { rss: number; heap: number } {
  for (let i = 0; i < 3; i++) gc?.();
  const m = process.memoryUsage();
  console.log(`${label.padEnd(44)} rss ${mb(m.rss).padStart(9)}  heapUsed ${mb(m.heapUsed).padStart(9)}`);
  return { rss: m.rss, heap: m.heapUsed };
}

const base = measure('baseline (modules loaded)');

let texts: Record<string, string> | undefined = renderFixtureFiles(generateFixtures({ eventCount: count }));
const bytes = Object.values(texts).reduce((n, t) => n + Buffer.byteLength(t), 0);
const files = { calendar: FIXTURE_FILES.calendar, addons: FIXTURE_FILES.addons, users: FIXTURE_FILES.users };
let set: FixtureSet | undefined = parseFixtureTexts(
  { calendar: texts[files.calendar] as string, addons: texts[files.addons] as string, users: texts[files.users] as string },
  files,
);
texts = undefined;
let store: Store | undefined = createStore(set);
set = undefined;
const loaded = measure(`store with ${store.events.size} events from fixtures`);
console.log(`  fixture text ${mb(bytes)}; store adds ${mb(loaded.heap - base.heap)} heap, ${mb(loaded.rss - base.rss)} RSS over baseline`);

const t0 = performance.now();
const venue = store.venues.values()[0]?.id ?? 0;
const category = store.categories.values()[0]?.id ?? 0;
for (let i = 0; i < count; i++) {
  store.createPost('event', {
    title: `Created event ${i}`,
    content: '<!-- wp:paragraph -->\n<p>' + 'Created through the store API to measure per-record cost. '.repeat(8) + '</p>\n<!-- /wp:paragraph -->',
    start_date: '2027-01-01 19:00:00',
    venues: [venue],
    categories: [category],
  });
}
const ms = performance.now() - t0;
const grown = measure(`after ${count} more via createPost`);
console.log(`  ${(ms / count * 1000).toFixed(0)} µs per createPost; ${mb(grown.heap - loaded.heap)} heap for ${count} created events`);

const c0 = performance.now();
const copy = store.clone();
const snap = store.snapshot();
console.log(`  clone ${(performance.now() - c0).toFixed(1)} ms incl. snapshot of ${snap.calendar.events.length} events`);
measure('after clone + snapshot');
store = undefined;
void copy;
