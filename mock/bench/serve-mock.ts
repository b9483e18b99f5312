// The mock with generated data of a chosen size, for the bench's memory figure and its uncached reads:
// `--events N --port P [--no-cache]`.
// Prints `listening <url>` and `rss <bytes>` measured after a full garbage collection (run with --expose-gc).
import { createMock, listen } from '../src/index.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const mock = await createMock({ eventCount: arg('events', 300), seed: 1, compileAll: true, cache: !process.argv.includes('--no-cache') });
const server = await listen(mock.handleNow, { port: arg('port', 0), host: '127.0.0.1' });
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
process.stdout.write(`listening ${server.url}\nevents ${mock.store.events.size}\nrss ${process.memoryUsage().rss}\n`);
