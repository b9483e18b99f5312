// test --calls: a small client's calls recorded against the mock (mock --record) and replayed. Against the mock they
// pass, one case per call; against the mock broken in one way the client meets (an event create answered 200
// instead of 201; the 404 of a deleted event without data.status) the call that meets it fails naming that
// deviation (recorded_calls; error_envelope) and no call names another; the records the replay
// makes are removed. A recording cut short, of another version, or missing is exit 2 with one line naming it.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import { readRecording } from '../../../../contracts/lib/calls-format.ts';
import { createMock, listen, withCallRecord } from '../../../../mock/src/index.ts';
import { basicAuth, harnessForFile, json, parse, withJson, wpError, type Fault } from '../../testing/faulty-mock.ts';
import { smallClient } from '../../testing/calls-client.ts';
import { main } from '../../../cli.ts';
import { captureDeps } from '../../testing/cli.ts';
import { parseRunJson } from '../../report/json.ts';
import type { RunResult } from '../../report/model.ts';
import { deviationsOf } from '../../runner/calls.ts';
import { defaultCommands } from './index.ts';
import { makeTestCommand, processTestDeps } from './test.ts';

const contract = loadContractFile();

async function runCli(argv: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string; run?: RunResult; junit?: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'site-contracts-calls-'));
  const { deps, out, err } = captureDeps({
    commands: { ...defaultCommands, test: makeTestCommand({ ...processTestDeps, loadContract: () => contract, signals: undefined }) },
    env,
    now: () => new Date(),
  });
  try {
    const code = await main([...argv, '--report-dir', dir, '--format', 'json-full,junit'], deps);
    const text = await readFile(join(dir, 'site-contracts.full.json'), 'utf8').catch(() => undefined);
    const junit = await readFile(join(dir, 'site-contracts.junit.xml'), 'utf8').catch(() => undefined);
    return { code, out: out(), err: err(), ...(text === undefined ? {} : { run: parseRunJson(text, 'site-contracts.full.json') }), ...(junit === undefined ? {} : { junit }) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('test --calls', () => {
  const h = harnessForFile({ createMock, listen }, { contract });
  // The edge of the create's status: WordPress answers 201 Created; 200 is one off.
  const create200: Fault = (req, next) => {
    const res = next(req);
    return req.method === 'POST' && parse(req).route === '/cal/v1/events' && res.status === 201 ? { ...res, status: 200 } : res;
  };

  /** The calls `client` makes to the mock, as `mock --record` writes them (`identity`: who made each, as the mock tells). */
  const recordCalls = async (client: (base: string) => Promise<void>, identity = false): Promise<string> => {
    let text = '';
    const recorder = await listen(withCallRecord((req) => h.mock.handleNow(req), { write: (l) => void (text += l) }, { contract: '1.0.0', ...(identity ? { identityOf: (req: Parameters<typeof h.mock.identityOf>[0]) => h.mock.identityOf(req) } : {}) }), { port: 0, host: '127.0.0.1' });
    try {
      await client(recorder.url);
    } finally {
      await recorder.close();
    }
    return text;
  };

  /** The mock's administrator: the Authorization header and the --auth-env variable the CLI reads. */
  const administrator = () => {
    const c = h.mock.credentials()!;
    return { auth: basicAuth(c), env: { MOCK_AUTH: `${c.username}:${c.password}` } };
  };
  /** The id of the mock's first venue, as a client reads it. */
  const firstVenue = async (base: string, auth: string): Promise<number> => ((await (await fetch(`${base}/wp-json/cal/v1/venues?per_page=1`, { headers: { authorization: auth } })).json()) as { id: number }[])[0]!.id;
  /** How many venues the mock holds: the replay's stand-ins are gone again after it. */
  const venueCount = (auth: string) => h.mock.handleNow({ method: 'GET', url: '/wp-json/cal/v1/venues?per_page=1&status=any', headers: { authorization: auth } }).headers['X-WP-Total'];

  it('replays a recorded client: as the mock answered against the mock, and names exactly the deviation a broken mock shows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-calls-rec-'));
    try {
      const c = h.mock.credentials()!;
      const env = { MOCK_AUTH: `${c.username}:${c.password}` };
      const text = await recordCalls(async (base) => {
        await smallClient(base, basicAuth(c));
      });
      const file = join(dir, 'calls.ndjson');
      await writeFile(file, text);
      const calls = readRecording(text, file).calls;
      expect(calls.map((x) => `${x.method} ${x.status}`)).toEqual(['GET 200', 'GET 200', 'GET 200', 'POST 201', 'GET 200', 'GET 200', 'DELETE 200', 'GET 404', 'GET 200']);

      const before = await h.mock.handleNow({ method: 'GET', url: '/wp-json/cal/v1/events?per_page=1&status=any', headers: { authorization: basicAuth(c) } }).headers['X-WP-Total'];
      const sound = await runCli(['test', '--base-url', await h.serve(), '--auth-env', 'MOCK_AUTH', '--calls', file], env);
      const cases = sound.run!.cases;
      // One case per call, in the recording's order, each naming its line, method and path.
      expect(cases.map((x) => [x.variant, x.method, x.status]), cases.map((x) => x.message).join("\n")).toEqual(calls.map((x) => [`L${x.line}`, x.method, 'passed']));
      expect(cases[3]!.message).toMatch(/^line 5: POST \/wp-json\/cal\/v1\/events: answered 201 as the mock did/);
      expect(cases[3]!.message).toContain('judged by');
      expect(sound.code).toBe(0);
      // JUnit too: one testcase per call, named by its line, passes included.
      expect([...sound.junit!.matchAll(/<testcase [^>]*name="([^"]*)"/g)].map((m) => /\[(L\d+)\]/.exec(m[1]!)?.[1]).sort()).toEqual(calls.map((x) => `L${x.line}`).sort());
      // The replay's own records (the created event, the one standing for the site's event it read) are gone again.
      expect(h.mock.handleNow({ method: 'GET', url: '/wp-json/cal/v1/events?per_page=1&status=any', headers: { authorization: basicAuth(c) } }).headers['X-WP-Total']).toBe(before);

      const broken = await runCli(['test', '--base-url', await h.serve(create200), '--auth-env', 'MOCK_AUTH', '--calls', file], env);
      const met = broken.run!.cases.filter((x) => x.check === 'recorded_calls').map((x) => [x.variant, deviationsOf(x)]);
      expect(met).toEqual(calls.map((x) => [`L${x.line}`, x.method === 'POST' ? ['recorded_calls'] : []]));
      expect(broken.run!.cases[3]!.message).toContain('status 200 where the mock answered 201');
      expect(broken.code).toBe(1);

      // The read of the deleted event answered 404 with its code but without data.status: error_envelope names it, alone.
      const bareError: Fault = (req, next) => {
        const res = next(req);
        if (req.method !== 'GET' || res.status !== 404 || !/^\/cal\/v1\/events\/\d+$/.test(parse(req).route)) return res;
        const { data: _data, ...rest } = json(res);
        return withJson(res, rest);
      };
      const enveloped = await runCli(['test', '--base-url', await h.serve(bareError), '--auth-env', 'MOCK_AUTH', '--calls', file], env);
      const gone = calls.find((x) => x.status === 404)!;
      expect(enveloped.run!.cases.filter((x) => x.check === 'recorded_calls').map((x) => [x.variant, deviationsOf(x)])).toEqual(calls.map((x) => [`L${x.line}`, x === gone ? ['error_envelope'] : []]));
      expect(enveloped.code).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('maps the records a written body names to the run\'s own: a create naming the mock\'s venue passes on a site without it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-calls-ids-'));
    try {
      const { auth, env } = administrator();
      let venue = 0;
      const text = await recordCalls(async (base) => {
        venue = await firstVenue(base, auth);
        const made = await fetch(`${base}/wp-json/cal/v1/events`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'At the usual place', status: 'publish', start_date: '2027-03-04 18:00:00', end_date: '2027-03-04 21:00:00', venues: [venue] }),
        });
        const id = ((await made.json()) as { id: number }).id;
        await (await fetch(`${base}/wp-json/cal/v1/events/${id}?force=true`, { method: 'DELETE', headers: { authorization: auth } })).text();
      });
      const file = join(dir, 'calls.ndjson');
      await writeFile(file, text);
      // A site that has no venue of that id: WordPress's posts controller refuses an event naming it.
      const noSuchVenue: Fault = (req, next) => {
        if (req.method === 'POST' && parse(req).route === '/cal/v1/events' && typeof req.body === 'string' && (JSON.parse(req.body) as { venues?: number[] }).venues?.includes(venue)) {
          return wpError(400, 'rest_invalid_param', { params: { venues: `Invalid venue ID ${venue}.` } });
        }
        return next(req);
      };
      const venuesBefore = venueCount(auth);
      const r = await runCli(['test', '--base-url', await h.serve(noSuchVenue), '--auth-env', 'MOCK_AUTH', '--calls', file], env);
      const create = r.run!.cases.find((x) => x.check === 'recorded_calls' && x.method === 'POST')!;
      expect(create.status, create.message).toBe('passed');
      expect(create.message).toContain(`a record of the run's own stood for venue ${venue} of the recording`);
      expect(JSON.parse(create.request!.body!).venues).not.toEqual([venue]);
      expect(r.code, r.run!.cases.map((x) => `${x.id} ${x.status} ${x.message}`).join('\n')).toBe(0);
      // The venue that stood for the mock's is removed with the run's other records.
      expect(venueCount(auth)).toBe(venuesBefore);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('maps the records a query and a form-encoded body name: a filtered list and a form create of the mock\'s venue pass on a site without it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-calls-qids-'));
    try {
      const { auth, env } = administrator();
      let venue = 0;
      const text = await recordCalls(async (base) => {
        venue = await firstVenue(base, auth);
        await (await fetch(`${base}/wp-json/cal/v1/events?venue=${venue}&per_page=2`, { headers: { authorization: auth } })).text();
        const form = new URLSearchParams({ title: 'By form', status: 'publish', start_date: '2027-03-04 18:00:00', end_date: '2027-03-04 21:00:00', 'venues[]': String(venue) });
        const made = await fetch(`${base}/wp-json/cal/v1/events`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
        expect(made.status).toBe(201);
        const id = ((await made.json()) as { id: number }).id;
        await (await fetch(`${base}/wp-json/cal/v1/events/${id}?force=true`, { method: 'DELETE', headers: { authorization: auth } })).text();
      });
      const file = join(dir, 'calls.ndjson');
      await writeFile(file, text);
      const recorded = readRecording(text, file).calls;
      const filtered = recorded.find((x) => x.path.includes('venue='))!;
      const created = recorded.find((x) => x.method === 'POST')!;
      expect(filtered.path).toContain(`venue=${venue}`);
      expect(created.body).toContain(`venues%5B%5D=${venue}`);
      // A site whose ids differ from the mock's: it has no venue of that id, and refuses a filter or a create naming it.
      const names = (req: { url: string; body?: string | Uint8Array }): boolean => {
        const q = new URL(req.url, 'http://x').searchParams;
        const form = req.body === undefined ? undefined : new URLSearchParams(typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString());
        return q.get('venue') === String(venue) || form?.get('venues[]') === String(venue);
      };
      const noSuchVenue: Fault = (req, next) => (parse(req).route === '/cal/v1/events' && names(req) ? wpError(400, 'rest_invalid_param', { params: { venue: `Invalid venue ID ${venue}.` } }) : next(req));
      const url = await h.serve(noSuchVenue);
      // The other way: the calls as recorded are refused by that site.
      expect((await fetch(`${url}${filtered.path}`, { headers: { authorization: auth } })).status).toBe(400);
      expect((await fetch(`${url}/wp-json/cal/v1/events`, { method: 'POST', headers: { authorization: auth, 'content-type': created.contentType! }, body: created.body! })).status).toBe(400);
      const venuesBefore = venueCount(auth);
      const r = await runCli(['test', '--base-url', url, '--auth-env', 'MOCK_AUTH', '--calls', file], env);
      const cases = r.run!.cases.filter((x) => x.check === 'recorded_calls');
      const list = cases.find((x) => x.variant === `L${filtered.line}`)!;
      const create = cases.find((x) => x.variant === `L${created.line}`)!;
      expect([list.status, create.status], `${list.message}\n${create.message}`).toEqual(['passed', 'passed']);
      expect(list.message).toContain(`a record of the run's own stood for venue ${venue} of the recording`);
      expect(list.request!.url).toMatch(/[?&]venue=\d+/);
      expect(list.request!.url).not.toContain(`venue=${venue}&`);
      // The one stand-in serves both calls: the create names the venue the list was filtered by.
      const own = /[?&]venue=(\d+)/.exec(list.request!.url)![1];
      expect(new URLSearchParams(create.request!.body!).get('venues[]')).toBe(own);
      expect(new URLSearchParams(create.request!.body!).get('title')).toMatch(/By form$/);
      expect(r.code, r.run!.cases.map((x) => `${x.id} ${x.status} ${x.message}`).join('\n')).toBe(0);
      expect(venueCount(auth)).toBe(venuesBefore);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('replays each call as the identity that made it: an anonymous list anonymously, a subscriber\'s with --low-auth-env', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-calls-who-'));
    try {
      const admin = h.mock.credentials()!;
      const reader = h.mock.credentials('subscriber')!;
      const env = { MOCK_AUTH: `${admin.username}:${admin.password}`, MOCK_LOW: `${reader.username}:${reader.password}` };
      const text = await recordCalls(async (base) => {
        const api = `${base}/wp-json/cal/v1/events`;
        await (await fetch(`${api}?per_page=1`)).text();
        await (await fetch(`${api}?per_page=2`, { headers: { authorization: basicAuth(admin) } })).text();
        await (await fetch(`${api}?per_page=3`, { headers: { authorization: basicAuth(reader) } })).text();
      }, true);
      const file = join(dir, 'calls.ndjson');
      await writeFile(file, text);
      const recorded = readRecording(text, file);
      expect([recorded.version, recorded.calls.map((x) => [x.auth, x.role, x.status])]).toEqual([2, [['anonymous', undefined, 200], ['authenticated', 'administrator', 200], ['authenticated', 'subscriber', 200]]]);
      // A site that answers an anonymous list otherwise than a signed-in one (members only); who asked is noted per list.
      const seen = new Map<string, string>();
      const membersOnly: Fault = (req, next) => {
        if (req.method !== 'GET' || parse(req).route !== '/cal/v1/events') return next(req);
        seen.set(new URL(req.url, 'http://x').searchParams.get('per_page') ?? '', req.headers.authorization ?? 'anonymous');
        return req.headers.authorization ? next(req) : wpError(401, 'rest_forbidden', { status: 401 });
      };
      const url = await h.serve(membersOnly);
      const verdicts = (r: { run?: RunResult }) => r.run!.cases.filter((x) => x.check === 'recorded_calls').map((x) => [x.variant, x.status]);
      const r = await runCli(['test', '--base-url', url, '--auth-env', 'MOCK_AUTH', '--low-auth-env', 'MOCK_LOW', '--calls', file], env);
      expect(verdicts(r)).toEqual([['L2', 'failed'], ['L3', 'passed'], ['L4', 'passed']]);
      expect(r.run!.cases[0]!.message).toContain('status 401 rest_forbidden where the mock answered 200');
      expect([seen.get('1'), seen.get('2'), seen.get('3')]).toEqual(['anonymous', basicAuth(admin), basicAuth(reader)]);
      // The subscriber's call's curl line names --low-auth-env's variable.
      expect(r.run!.cases[2]!.curl).toContain('MOCK_LOW');
      // Without --low-auth-env the subscriber's call goes as --auth-env's user, and says so.
      seen.clear();
      const noLow = await runCli(['test', '--base-url', url, '--auth-env', 'MOCK_AUTH', '--calls', file], env);
      expect(seen.get('3')).toBe(basicAuth(admin));
      expect(noLow.run!.cases[2]!.message).toContain("sent with --auth-env's user: the recording's call was a signed-in subscriber's, and no --low-auth-env was given");
      // The other way: the same calls in a version 1 recording (no identity) still read, go with the run's
      // credentials, and the members-only site's refusal of the anonymous list is not seen.
      const v1 = text.split('\n').map((l, i) => (i === 0 ? l.replace('"version":2', '"version":1') : l.replace(/"auth":"[a-z]+",("role":"[a-z]+",)?/, ''))).join('\n');
      expect(v1).not.toContain('"auth"');
      await writeFile(file, v1);
      const old = await runCli(['test', '--base-url', url, '--auth-env', 'MOCK_AUTH', '--calls', file], env);
      expect(verdicts(old)).toEqual([['L2', 'passed'], ['L3', 'passed'], ['L4', 'passed']]);
      expect(old.run!.cases[0]!.message).toContain('the recording (version 1) does not say who made the call');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a recording it cannot trust with exit 2 and one line naming the file and line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-contracts-calls-bad-'));
    try {
      const url = await h.serve();
      const header = '{"format":"site-contracts-calls","version":1,"contract":"1.0.0"}\n';
      const call = '{"method":"GET","path":"/wp-json/cal/v1/events","status":200,"headers":{}}';
      const v2 = '{"format":"site-contracts-calls","version":2,"contract":"1.0.0"}\n';
      const cases: [string, string, RegExp][] = [
        ['cut.ndjson', header + call + '\n' + call.slice(0, 30), /^site-contracts test: --calls .*cut\.ndjson: line 3: cut short \(the file ends inside a line\)/],
        ['v3.ndjson', '{"format":"site-contracts-calls","version":3,"contract":"1.0.0"}\n', /^site-contracts test: --calls .*v3\.ndjson: line 1: site-contracts-calls version 3: expected version 1 or 2/],
        ['who.ndjson', v2 + '{"method":"GET","path":"/x","auth":"admin","status":200,"headers":{}}\n', /^site-contracts test: --calls .*who\.ndjson: line 2: expected a recorded call with "auth" one of "anonymous", "authenticated"/],
        ['nobody.ndjson', v2 + call + '\n', /^site-contracts test: --calls .*nobody\.ndjson: line 2: expected a recorded call with "auth" one of .*version 2 records who made each call/],
        ['role.ndjson', v2 + '{"method":"GET","path":"/x","auth":"anonymous","role":"administrator","status":200,"headers":{}}\n', /^site-contracts test: --calls .*role\.ndjson: line 2: expected a recorded call with "role" a WordPress role name/],
        ['other.ndjson', '{"method":"GET"}\n', /^site-contracts test: --calls .*other\.ndjson: line 1: expected the header line/],
        ['bad.ndjson', header + '{"method":"GET","path":"/x","status":"200","headers":{}}\n', /^site-contracts test: --calls .*bad\.ndjson: line 2: expected a recorded call with "status" an HTTP status/],
        ['missing.ndjson', '', /^site-contracts test: --calls .*missing\.ndjson: cannot read it \(ENOENT\)/],
      ];
      for (const [name, text, message] of cases) {
        const file = join(dir, name);
        if (name !== 'missing.ndjson') await writeFile(file, text);
        const r = await runCli(['test', '--base-url', url, '--calls', file], {});
        expect([r.code, r.err.trim().split('\n').length], r.err).toEqual([2, 1]);
        expect(r.err).toMatch(message);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
