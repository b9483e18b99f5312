// Hostile clients against the mock as `npm run mock` starts it (`mock/cli.ts --auth`, a child process): each probe
// runs while another connection sends a small GET every 50 ms, and prints its answers, the longest of those small
// GETs (how long others waited) and the child's RSS (VmRSS, VmHWM from /proc). Not a test: the figures depend on the
// machine. Issue 19's probes not already in the tests or the other benches (the embedded lists write 600 records
// first, so run them last or alone); run:
//   npx tsx mock/bench/hostile.ts [probe-name-filter]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOST = '127.0.0.1';
const port = await freePort(HOST);
const BASE = `http://${HOST}:${port}`;
const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', '--port', String(port), '--auth', '--log', 'quiet'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
let banner = '';
await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => ((banner += d.toString()), banner.includes('--auth: a subscriber') && resolve())));
child.stdout!.resume();
const [, user, password] = /user "([^"]+)" password "([^"]+)"/.exec(banner)!;
const AUTH = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function mem(): string {
  const s = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const mb = (k: string) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)![1]) / 1024);
  return `RSS ${mb('VmRSS')} MB (peak ${mb('VmHWM')})`;
}

/**
 * The longest of the small GETs sent every 50 ms while a probe runs. `prepare` builds the probe's body first, outside
 * the measured time: building 8 MB of JSON here would stall this process's own small GETs and count against the mock.
 */
async function whileProbing(prepare: () => () => Promise<string>): Promise<string> {
  const probe = prepare();
  let on = true;
  let worst = 0;
  const reads = (async () => {
    while (on) {
      const t = performance.now();
      await fetch(`${BASE}/wp-json/cal/v1/events?per_page=1&_fields=id`).then((r) => r.arrayBuffer(), () => undefined);
      worst = Math.max(worst, performance.now() - t);
      await sleep(50);
    }
  })();
  const what = await probe();
  on = false;
  await reads;
  return `${what}; others waited up to ${worst.toFixed(0)} ms; ${mem()}`;
}

async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<string> {
  const t = performance.now();
  const r = await fetch(BASE + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await r.text();
  const code = /"code":"([^"]+)"/.exec(text.slice(0, 300))?.[1];
  return `${r.status}${code ? ` ${code}` : ''} in ${(performance.now() - t).toFixed(0)} ms`;
}

function open(): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect(port, HOST, () => resolve(s));
    s.on('error', () => undefined);
  });
}

/** `n` sockets that each declare 8 MiB and send all but 128 KiB of it, then stop: what answered, as status lines. */
async function unfinishedBodies(n: number): Promise<string> {
  const socks: Socket[] = [];
  const answers = new Map<Socket, string>();
  const block = Buffer.alloc(64 * 1024, 0x61);
  for (let i = 0; i < n; i++) {
    const s = await open();
    socks.push(s);
    s.on('data', (d: Buffer) => answers.has(s) || answers.set(s, d.toString('latin1').split('\r\n')[0]!));
    s.write(`POST /wp-json/cal/v1/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${8 * 1024 * 1024}\r\n\r\n`);
    for (let sent = 0; sent < 8 * 1024 * 1024 - 128 * 1024 && !answers.has(s); sent += block.length) {
      if (!s.write(block)) await Promise.race([new Promise((r) => s.once('drain', r)), sleep(1000)]);
    }
  }
  await sleep(500);
  const tally: Record<string, number> = {};
  for (const s of socks) tally[answers.get(s) ?? 'held'] = (tally[answers.get(s) ?? 'held'] ?? 0) + 1;
  const line = `${n} unfinished 8 MiB bodies: ${JSON.stringify(tally)} (${mem()} while held)`;
  for (const s of socks) s.destroy();
  return line;
}

let linked = false;
/** 500 organizers and 100 events linking all of them, written signed in, once. */
async function linkRecords(): Promise<void> {
  if (linked) return;
  linked = true;
  const headers = { authorization: AUTH, 'content-type': 'application/json' };
  const orgs: number[] = [];
  for (let b = 0; b < 20; b++) {
    const requests = Array.from({ length: 25 }, (_, i) => ({ method: 'POST', path: '/cal/v1/organizers', body: { title: `Org ${b}-${i}`, status: 'publish' } }));
    const r = (await (await fetch(`${BASE}/wp-json/batch/v1`, { method: 'POST', headers, body: JSON.stringify({ requests }) })).json()) as { responses: { body: { id: number } }[] };
    orgs.push(...r.responses.map((x) => x.body.id));
  }
  for (let e = 0; e < 100; e++) {
    await fetch(`${BASE}/wp-json/cal/v1/events`, { method: 'POST', headers, body: JSON.stringify({ title: `Linked ${e}`, status: 'publish', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', organizers: orgs }) });
  }
}

const EMBEDDED = '/wp-json/cal/v1/events?per_page=100&search=Linked&_embed';

/** `n` anonymous embedded lists (49 MB each) at once, each read whole; `extra` adds to the query (`&_envelope`). */
async function embeddedLists(n: number, extra = ''): Promise<string> {
  await linkRecords();
  const t = performance.now();
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => fetch(`${BASE}${EMBEDDED}${extra}&n=${i}`).then(async (r) => ({ status: r.status, size: (await r.text()).length }))));
  const whole = answers.filter((a) => a.status === 200);
  const tally = answers.map((a) => a.status).sort().join(' ');
  return `${n} lists at once (${tally}; ${whole.length} of ${((whole[0]?.size ?? 0) / 1e6).toFixed(1)} MB) in ${(performance.now() - t).toFixed(0)} ms`;
}

/**
 * `n` raw sockets that each ask for an embedded list and never read a byte of it: what they got (status lines, or
 * held), the RSS while they are held, and after they have left.
 */
async function unreadLists(n: number): Promise<string> {
  await linkRecords();
  const socks: Socket[] = [];
  const first = new Map<Socket, string>();
  const closed = new Set<Socket>();
  for (let i = 0; i < n; i++) {
    const s = await open();
    socks.push(s);
    s.once('data', (d: Buffer) => first.set(s, d.toString('latin1').split('\r\n')[0]!));
    s.on('close', () => closed.add(s));
    s.write(`GET ${EMBEDDED}&unread=${i} HTTP/1.1\r\nHost: x\r\n\r\n`);
  }
  // Reading the first bytes only: pause at once so the rest stays unread.
  for (const s of socks) s.on('data', () => s.pause());
  await sleep(8000);
  const tally: Record<string, number> = {};
  for (const s of socks) {
    const k = `${first.get(s) ?? 'nothing'}${closed.has(s) ? ' (closed)' : ''}`;
    tally[k] = (tally[k] ?? 0) + 1;
  }
  const held = mem();
  for (const s of socks) s.destroy();
  await sleep(3000);
  return `${n} unread lists after 8 s: ${JSON.stringify(tally)} (${held} while held; ${mem()} 3 s after they left)`;
}

const keys = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
type Probe = () => () => Promise<string>;
/** A POST whose body is built before the measuring starts. */
const posting = (path: string, body: () => string, headers: Record<string, string> = {}): Probe => () => {
  const text = body();
  return () => post(path, text, headers);
};
const signedIn = { authorization: AUTH };
const probes: [string, Probe][] = [
  ['unfinished bodies', () => () => unfinishedBodies(30)],
  ['1M bad list values', posting('/wp-json/cal/v1/events', () => JSON.stringify({ title: 't', tags: Array.from({ length: 1_000_000 }, () => 'a') }), signedIn)],
  ['2M duplicate list values', posting('/wp-json/cal/v1/events', () => JSON.stringify({ title: 't', tags: Array.from({ length: 2_000_000 }, () => 1) }), signedIn)],
  ['500k body keys signed in', posting('/wp-json/cal/v1/events', () => keys(500_000), signedIn)],
  ['500k body keys anonymous', posting('/wp-json/cal/v1/events?_method=GET&per_page=1', () => keys(500_000))],
  ['batch 25 x 12k keys', posting('/wp-json/batch/v1', () => JSON.stringify({ requests: Array.from({ length: 25 }, () => ({ method: 'POST', path: '/cal/v1/events', body: JSON.parse(keys(12_000)) as unknown })) }), signedIn)],
  ['deep JSON 100k', posting('/wp-json/cal/v1/events', () => `{"meta":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`, signedIn)],
  ['embedded lists', () => () => embeddedLists(3)],
  ['embedded lists x8', () => () => embeddedLists(8)],
  ['embedded lists x8 _envelope', () => () => embeddedLists(8, '&_envelope')],
  ['embedded lists x8 _pretty', () => () => embeddedLists(8, '&_pretty')],
  ['unread embedded lists', () => () => unreadLists(8)],
];

const only = process.argv[2];
try {
  console.log(`mock at ${BASE}, ${mem()}`);
  for (const [name, probe] of probes) {
    if (only && !name.includes(only)) continue;
    console.log(`${name.padEnd(26)} ${await whileProbing(probe)}`);
    await sleep(300);
  }
} finally {
  child.kill();
}
