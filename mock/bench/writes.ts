// In-process cost of the bench's write scenarios, without HTTP: the same create and 25-create batch bodies as
// run.ts, sent through `mock.handleNow`, timed per request. For profiling:
//
//   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof mock/bench/writes.ts [create|batch|both] [N]
//
// Prints CPU µs per request (best and median of 5 rounds from a fresh state) and the heap after a full GC (run with
// --expose-gc) once N writes are in.
import { wpJsonEncode } from '../../contracts/wordpress/php/index.ts';
import { createMock } from '../src/index.ts';

const which = process.argv[2] ?? 'both';
const n = Number(process.argv[3] ?? 4000);

const EVENT_BODY = { title: 'Bench event', start_date: '2026-12-01 18:00:00', end_date: '2026-12-01 20:00:00', status: 'publish' };
const createBody = Buffer.from(JSON.stringify(EVENT_BODY));
const batchBody = Buffer.from(JSON.stringify({ requests: Array.from({ length: 25 }, () => ({ method: 'POST', path: '/cal/v1/events', body: EVENT_BODY })) }));

const mock = await createMock({ compileAll: true });
const gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
const headers = { host: '127.0.0.1:4010', 'content-type': 'application/json' };

const send = (url: string, body: Buffer) =>
  mock.handleNow({ method: 'POST', url, headers: { ...headers, 'content-length': String(body.length) }, origin: 'http://127.0.0.1:4010', body });

/** `rounds` timed runs of `count` requests from a fresh state each; CPU time per request (the machine is shared). */
function run(name: string, url: string, body: Buffer, count: number, expect: number, rounds = 5): void {
  mock.reset();
  for (let i = 0; i < Math.min(200, count); i++) send(url, body);
  const perRequest: number[] = [];
  let heap = 0;
  for (let r = 0; r < rounds; r++) {
    mock.reset();
    gc?.();
    const c0 = process.cpuUsage();
    for (let i = 0; i < count; i++) {
      const res = send(url, body);
      if (res.status !== expect) throw new Error(`${name}: status ${res.status}: ${res.body.slice(0, 300)}`);
    }
    const c = process.cpuUsage(c0);
    perRequest.push((c.user + c.system) / count);
    gc?.();
    heap = process.memoryUsage().heapUsed;
  }
  perRequest.sort((a, b) => a - b);
  const best = perRequest[0]!;
  const median = perRequest[Math.floor(rounds / 2)]!;
  process.stdout.write(`${name}: ${rounds} x ${count} requests, CPU µs each: best ${best.toFixed(1)}, median ${median.toFixed(1)} (${Math.round(1e6 / best)}/s on one core); events after a round ${mock.store.events.size}; heap after GC ${(heap / 2 ** 20).toFixed(0)} MB\n`);
  if (gc) survivors(name, url, body, expect);
}

/**
 * What a young-generation collection keeps of finished requests, per request: the new records (kept for good) and
 * anything else still reachable, or reachable from garbage of the old generation, which such a collection cannot tell
 * apart (.ci/layers/per-call-classes.ts). What a full collection then keeps is the first part alone. A scavenge's
 * pause grows with what it copies.
 */
function survivors(name: string, url: string, body: Buffer, expect: number, count = 25): void {
  const young: number[] = [];
  const kept: number[] = [];
  for (let r = 0; r < 5; r++) {
    gc!();
    gc!();
    const heap = process.memoryUsage().heapUsed;
    for (let i = 0; i < count; i++) if (send(url, body).status !== expect) throw new Error(`${name}: unexpected status`);
    gc!({ type: 'minor' });
    young.push((process.memoryUsage().heapUsed - heap) / count);
    gc!();
    kept.push((process.memoryUsage().heapUsed - heap) / count);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  process.stdout.write(`${name}: bytes per request a young-generation collection keeps ${median(young).toFixed(0)}, a full one ${median(kept).toFixed(0)} (median of 5 x ${count})\n`);
}

if (which === 'create' || which === 'both') run('create', '/wp-json/cal/v1/events', createBody, n, 201);
if (which === 'batch' || which === 'both') {
  run('batch', '/wp-json/batch/v1', batchBody, Math.max(1, Math.round(n / 25)), 207);
  // What part of a batch is only encoding its answer: the same 207 body, parsed back, through the mock's encoder.
  const answer = send('/wp-json/batch/v1', batchBody).body;
  const parsed: unknown = JSON.parse(answer);
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < 200; i++) wpJsonEncode(parsed);
    const c = process.cpuUsage(c0);
    times.push((c.user + c.system) / 200);
  }
  process.stdout.write(`batch answer: ${answer.length} bytes; encoding it alone: ${Math.min(...times).toFixed(0)} µs CPU (best of 5 x 200)\n`);
}
process.exit(0);
