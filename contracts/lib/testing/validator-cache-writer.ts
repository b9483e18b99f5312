// validator-cache.test.ts's racing writer: writes one entry of the validator cache from each of `threads` worker
// threads of this process (as vitest's threads pool runs several files in one process), then writes that text
// `times` times more through the same file writes, back to back, so that writes race the others' often.
//
//   node --import tsx contracts/lib/testing/validator-cache-writer.ts DIR TIMES THREADS
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { createAjv } from '../ajv.ts';
import { lazyAjv } from '../ajv-setup.ts';
import { fileCacheIo } from '../loader.ts';
import { validatorCache } from '../validator-cache.ts';
import type { JsonSchema } from '../types.ts';

const schema: JsonSchema = {
  type: 'object',
  properties: { query: { type: 'object', properties: { per_page: { type: 'integer', minimum: 1, maximum: 100 }, phone: { type: 'string', format: 'tel' }, when: { type: 'string', format: 'date-time' } } } },
};

function write(dir: string, times: number): void {
  let last: { path: string; text: string } | undefined;
  const io = { read: () => undefined, write: (path: string, text: string) => (fileCacheIo.write(path, text), (last = { path, text })) };
  validatorCache({ dirs: [join(dir, 'entries')], io, requireModule: createRequire(import.meta.url) }).compile('op', schema, lazyAjv(createAjv, { allErrors: false, standalone: 'commonjs' }));
  for (let i = 0; i < times && last; i++) {
    try {
      fileCacheIo.write(last.path, last.text);
    } catch {
      // A write that fails is allowed (the cache carries on); one that leaves a torn entry is what the test looks for.
    }
  }
}

if (isMainThread) {
  const [dir, times, threads] = process.argv.slice(2);
  const workers = Array.from({ length: Number(threads) }, () => new Promise<void>((resolve, reject) => {
    // A worker does not inherit this process's tsx hooks (Node 20): it registers them before importing this file.
    const source = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(source, { eval: true, workerData: { dir, times: Number(times) } });
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}`))));
  }));
  await Promise.all(workers);
} else {
  const { dir, times } = workerData as { dir: string; times: number };
  write(dir, times);
}
