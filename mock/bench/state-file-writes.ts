// Creates per second through the mock, in process, with and without a state file. Not a test (the figures depend on
// the machine and its disk); run:
//   node --import tsx mock/bench/state-file-writes.ts [seconds-per-run=3]
//
// `clients` loops each send a create through `mock.respond()` (what the CLI's server calls) and wait for its
// answer before the next, so with a state file every answer waits for its journal fsync, and concurrent creates
// share one (group commit). The bench's create body and title, as mock/bench/writes.ts sends them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMock, loadContract } from '../src/index.ts';

const seconds = Number(process.argv[2] ?? 3);
const body = Buffer.from(JSON.stringify({ title: 'Bench event', start_date: '2026-12-01 18:00:00', end_date: '2026-12-01 20:00:00', status: 'publish' }));
const headers = { host: '127.0.0.1:4010', 'content-type': 'application/json', 'content-length': String(body.length) };
const contract = loadContract();
contract.compileAll('bounded');

async function run(stateFile: string | undefined, clients: number): Promise<string> {
  const mock = await createMock({ contract, ...(stateFile ? { stateFile } : {}) });
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const c0 = process.cpuUsage();
  const client = async () => {
    while (performance.now() < until) {
      const res = await mock.respond({ method: 'POST', url: '/wp-json/cal/v1/events', headers, origin: 'http://127.0.0.1:4010', body });
      if (res.status !== 201) throw new Error(`status ${res.status}: ${res.body.slice(0, 200)}`);
      done++;
      // Without a state file nothing waits: give the other clients their turn as a server's sockets would.
      if (!stateFile) await new Promise<void>((r) => setImmediate(r));
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  await mock.close();
  return `${stateFile ? 'state file   ' : 'no state file'} ${String(clients).padStart(3)} clients: ${Math.round((done / ms) * 1000).toString().padStart(6)} creates/s, CPU ${((cpu.user + cpu.system) / done).toFixed(0)} µs per create`;
}

const dir = mkdtempSync(join(tmpdir(), 'state-file-writes-'));
const lines: string[] = [];
for (const clients of [1, 16, 64]) {
  lines.push(await run(undefined, clients));
  lines.push(await run(join(dir, `state-${clients}.json`), clients));
}
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${lines.join('\n')}\n`);
