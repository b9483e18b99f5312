// Byte-identity of batch answers across a change: a fixed, generated sequence of batches (creates with Cyrillic,
// slashes, long content that renders in steps; reads, updates, deletes, bad paths, 26 items, require-all-validate,
// _fields, _envelope, /uk/; anonymous and with an administrator's application password) through handleNow and
// through respond (steps), with a fixed clock and seed, and a list read after every tenth. Prints one sha256 over
// every status, header set and body: run it before and after a change and compare (HIST=1 also prints the item
// statuses and error codes it saw, to show the mix is not all refusals; EACH=FILE writes one line per answer, its
// number, status and sha256, so two runs can be diffed answer by answer to say which changed).
//
//   node --import tsx mock/bench/batch-answers.ts
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createMock } from '../src/index.ts';

let seed = 12345;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T,>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;
const titles = ['Bench event', 'Концерт / вечір', 'a/b "quoted" & <tag>', 'Ünïcödé 🎉 test', '', 'x'.repeat(300), 'Події: 2026'];
const dates = ['2026-12-01 18:00:00', '2026-12-01 20:00:00', '2026-12-02 09:00:00', '2026-12-01 18:00:00', 'not a date', '2026-02-30 10:00:00', '2027-03-28 02:30:00'];
const contents = ['', 'Short <b>content</b> -- "quoted"', 'Привіт, світе! :)\n\nSecond para', '<p>' + 'Long para -- "x" '.repeat(5000) + '</p>'];
function item(): unknown {
  const r = rnd();
  if (r < 0.55) return { method: 'POST', path: pick(['/cal/v1/events', '/cal/v1/events', '/cal/v1/venues', '/tribe/events/v1/events']), body: { title: pick(titles), start_date: rnd() < 0.8 ? dates[0] : pick(dates), end_date: rnd() < 0.8 ? dates[1] : pick(dates), status: pick(['publish', 'publish', 'publish', 'draft', 'bogus']), content: pick(contents) } };
  if (r < 0.65) return { method: 'GET', path: pick(['/cal/v1/events?per_page=2', '/cal/v1/events/1', '/wp/v2/posts']) };
  if (r < 0.75) return { method: 'PUT', path: `/cal/v1/events/${1 + Math.floor(rnd() * 1200)}`, body: { title: pick(titles) } };
  if (r < 0.82) return { method: 'DELETE', path: `/cal/v1/events/${1 + Math.floor(rnd() * 1200)}` };
  if (r < 0.9) return { path: pick(['nope', '/nope/v1/x', '/cal/v1/events/abc']) };
  return { method: 'POST', path: '/cal/v1/events', body: { title: pick(titles) }, headers: { 'X-Test': ['a', 'b'] } };
}
const h = createHash('sha256');
let n = 0;
const hist: Record<string, number> = {};
const count = (k: string) => (hist[k] = (hist[k] ?? 0) + 1);
const each: string[] = [];
const answered = (label: string, res: { status: number; headers: unknown; body: string }) => {
  const text = `${res.status}\n${JSON.stringify(res.headers)}\n${res.body}\n`;
  h.update(text);
  each.push(`${n} ${label} ${res.status} ${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);
  n++;
};
for (const auth of [false, true]) {
  const mock = await createMock({ compileAll: true, seed: 7, clock: { now: () => Date.UTC(2026, 10, 20, 12, 0, 0) }, auth });
  const headers: Record<string, string> = { host: '127.0.0.1:4010', 'content-type': 'application/json' };
  // The administrator of this mock's data (seed 7 generates its own users and passwords; the fixtures' admin
  // password, used here until issue 27, named nobody, so the second half ran anonymous under --auth).
  const admin = mock.credentials();
  if (auth && admin) headers.authorization = 'Basic ' + Buffer.from(`${admin.username}:${admin.password}`).toString('base64');
  for (let i = 0; i < 120; i++) {
    const len = pick([1, 2, 5, 25, 25, 25, 25, 26, 0]);
    const body = { requests: Array.from({ length: len }, item), ...(rnd() < 0.2 ? { validation: 'require-all-validate' } : {}) };
    const buf = Buffer.from(JSON.stringify(body));
    const url = pick(['/wp-json/batch/v1', '/wp-json/batch/v1', '/uk/wp-json/batch/v1', '/wp-json/batch/v1?_fields=responses', '/wp-json/batch/v1?_envelope=1']);
    const req = { method: 'POST', url, headers: { ...headers, 'content-length': String(buf.length) }, origin: 'http://127.0.0.1:4010', body: buf };
    const res = i % 2 === 0 ? mock.handleNow(req) : await mock.respond(req);
    answered(`${auth ? 'admin' : 'anonymous'} batch ${i} ${url}`, res);
    if (process.env.HIST) {
      for (const m of res.body.matchAll(/"code":"(\w+)"/g)) count(m[1]!);
      for (const m of res.body.matchAll(/"status":(\d+)/g)) count(`${res.status}/${m[1]}`);
    }
    if (i % 10 === 0) {
      const g = mock.handleNow({ method: 'GET', url: '/wp-json/cal/v1/events?per_page=5&orderby=id&order=desc', headers, origin: 'http://127.0.0.1:4010' });
      answered(`${auth ? 'admin' : 'anonymous'} list after batch ${i}`, g);
    }
  }
}
console.log(n, 'answers', h.digest('hex'));
if (process.env.EACH) writeFileSync(process.env.EACH, `${each.join('\n')}\n`);
if (process.env.HIST) console.log(hist);
process.exit(0);
