// How long a state-file compaction holds the event loop, with a state of 200+ MB. Not a test (the figures depend on
// the machine); run:
//   node --expose-gc --max-old-space-size=8000 --import tsx mock/bench/compaction.ts [events=100000] [content-bytes=2000]
//
// Builds a store from 20,000 generated events plus `events` created through the store with `content-bytes` of
// content each (writing them through the state file's journal as it goes), then compacts while
// perf_hooks.monitorEventLoopDelay watches, and a 1 ms interval measures the longest gap between its ticks. For
// comparison it also times what the old save did in one go: JSON.stringify of the whole snapshot.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { generateFixtures } from '../../fixtures/lib/generate-all.ts';
import { openStateFile } from '../src/store/persist.ts';

const count = Number(process.argv[2] ?? 100_000);
const contentBytes = Number(process.argv[3] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'compaction-bench-'));
const path = join(dir, 'state.json');
const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;

const fixtures = generateFixtures({ eventCount: 20_000 });
const { store, persister } = await openStateFile(fixtures, { path, compactAfterBytes: 2 ** 40 });
const content = `<p>${'Долгий опис події, щоб стан був великим. Long description of the event. '.repeat(Math.ceil(contentBytes / 70)).slice(0, contentBytes)}</p>`;
const t0 = performance.now();
for (let i = 0; i < count; i++) {
  store.createPost('event', { title: `Bench event ${i}`, content, start_date: '2027-01-01 19:00:00' });
  if (i % 1000 === 999) await persister.durable(store.version);
}
await persister.durable(store.version);
const built = performance.now() - t0;

const s0 = performance.now();
let whole: string | undefined = JSON.stringify(store.snapshot());
const stringifyMs = performance.now() - s0;
const stateBytes = Buffer.byteLength(whole);
whole = undefined;
(globalThis as { gc?: () => void }).gc?.();

/** Event-loop delay (monitorEventLoopDelay) and the longest gap between 1 ms ticks while `work` runs. */
async function watch(work: () => Promise<void>): Promise<{ ms: number; max: number; p99: number; mean: number; gap: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let gap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  histogram.enable();
  const t = performance.now();
  await work();
  const ms = performance.now() - t;
  histogram.disable();
  clearInterval(ticker);
  return { ms, max: histogram.max / 1e6, p99: histogram.percentile(99) / 1e6, mean: histogram.mean / 1e6, gap };
}
const show = (w: { max: number; p99: number; mean: number; gap: number }) =>
  `max ${w.max.toFixed(1)} ms, p99 ${w.p99.toFixed(1)} ms, mean ${w.mean.toFixed(1)} ms; longest gap between 1 ms ticks ${w.gap.toFixed(1)} ms`;

// The machine's own noise (other processes on the same cores), for scale: the same watch over an idle loop.
const idle = await watch(() => new Promise((r) => setTimeout(r, 3000)));
const compaction = await watch(() => persister.compact());
process.stdout.write(
  [
    `state: ${store.events.size} events, ${mb(stateBytes)} as JSON (state file ${mb(statSync(path).size)}); built in ${(built / 1000).toFixed(1)} s through the journal`,
    `old save, JSON.stringify of the whole snapshot in one go: ${stringifyMs.toFixed(0)} ms with the event loop held`,
    `idle event loop for 3 s (the machine's own noise): ${show(idle)}`,
    `compaction: ${compaction.ms.toFixed(0)} ms in all; event loop delay while it ran: ${show(compaction)}`,
  ].join('\n') + '\n',
);
await persister.close();
rmSync(dir, { recursive: true, force: true });
