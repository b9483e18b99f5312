// Secrets through a whole run into every report format: a target that echoes the run's credentials in
// every encoding, in headers and bodies, with the password straddling the 4 KiB cut of a report body,
// and the value of a header given with -H (secret by default), which the target also echoes. No form of any of
// them may reach JSON, JUnit, HTML, stdout or stderr.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContractFile } from '../../../../contracts/lib/loader.ts';
import { main } from '../../../cli.ts';
import { sendJson, startServer, type TestServer } from '../../testing/server.ts';
import { jsonForScript } from '../../report/html.ts';
import { RESPONSE_BODY_LIMIT, type RunResult } from '../../report/model.ts';
import { SECRET_ENCODINGS } from '../../report/secret-encodings.ts';
import { xmlAttr, xmlText } from '../../report/xml.ts';
import { captureDeps } from '../../testing/cli.ts';
import { defaultCommands } from './index.ts';
import { makeTestCommand, processTestDeps } from './test.ts';
import { parseRunJson } from '../../report/json.ts';

const contract = loadContractFile();
const USER = 'editor';
// Characters that every encoding spells differently, so that each encoding is a different string.
const PASSWORD = 'Qx7/pa ss+wörd=&"1';
const PAIR = `${USER}:${PASSWORD}`;
const API_KEY = 'key-0f9e8d7c6b5a';

/** What the target sends back: every encoding of every secret, and the password across the 4 KiB report cut. */
function leakyBody(): string {
  const echoes = [PAIR, PASSWORD, API_KEY].flatMap((s) => SECRET_ENCODINGS.map(([, encode]) => encode(s)));
  const head = JSON.stringify({ code: 'boom', message: 'echo', data: { status: 500, echoes } }).slice(0, -1) + ',"pad":"';
  // The password begins 6 bytes before the cut: a cut before redaction would leave its beginning.
  const padBytes = RESPONSE_BODY_LIMIT - 6 - Buffer.byteLength(head);
  // What follows keeps the body longer than the cut once the echoes before it are redacted (and so shorter).
  return `${head}${'p'.repeat(padBytes)}${JSON.stringify(PASSWORD).slice(1, -1)}${'q'.repeat(RESPONSE_BODY_LIMIT)}"}`;
}

describe('a run against a target that echoes the credentials', () => {
  let target: TestServer;
  let dir: string;
  let code: number;
  let out = '';
  let err = '';
  const files: Record<string, string> = {};
  /** How many requests reached the target, and how many carried the -H header with its value. */
  const received = { all: 0, withHeader: 0 };

  beforeAll(async () => {
    const body = leakyBody();
    expect(Buffer.byteLength(body)).toBeGreaterThan(RESPONSE_BODY_LIMIT);
    target = await startServer((req, res) => {
      received.all++;
      if (req.headers['x-api-key'] === API_KEY) received.withHeader++;
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/wp-json/') {
        return sendJson(res, 200, {
          namespaces: ['oembed/1.0', 'wp/v2'],
          routes: {
            '/oembed/1.0/embed': { namespace: 'oembed/1.0', methods: ['GET'], endpoints: [{ methods: ['GET'], args: { url: { type: 'string', required: true } } }] },
            '/wp/v2/users/me': { namespace: 'wp/v2', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] },
          },
        });
      }
      if (path === '/wp-json/wp/v2/users/me') return sendJson(res, 200, { id: 1, name: USER, description: `you logged in as ${PAIR}` });
      res.writeHead(500, {
        'Content-Type': 'application/json',
        'X-Echo': `Basic ${Buffer.from(PAIR).toString('base64')} ${encodeURIComponent(encodeURIComponent(PASSWORD))}`,
        'Set-Cookie': `wp_session=${Buffer.from(PASSWORD).toString('hex')}`,
        'X-Api-Key': API_KEY,
      });
      res.end(body);
    });
    dir = await mkdtemp(join(tmpdir(), 'sc-redaction-'));
    const t = captureDeps({ commands: { ...defaultCommands, test: makeTestCommand({ ...processTestDeps, loadContract: () => contract }) }, env: { STAGING_AUTH: PAIR } });
    code = await main(['test', '--base-url', target.url, '--auth-env', 'STAGING_AUTH', '--only', 'oembed/1.0', '--seed', '1', '-H', `X-Api-Key: ${API_KEY}`, '--report-dir', dir], t.deps);
    out = t.out();
    err = t.err();
    for (const f of ['site-contracts.json', 'site-contracts.junit.xml', 'site-contracts.html']) files[f] = await readFile(join(dir, f), 'utf8');
  });

  afterAll(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sent the -H header on every request, the credential check and the anonymous probes included', () => {
    expect(received.all).toBeGreaterThan(10);
    expect(received.withHeader).toBe(received.all);
  });

  it('ran, failed on the 500s, and kept their (cut) bodies in the reports', () => {
    expect(code).toBe(1);
    const run = parseRunJson(files['site-contracts.json']!, 'site-contracts.json');
    const withBody = run.cases.filter((c) => c.response?.bodyTruncated && c.response.body !== undefined);
    expect(withBody.length).toBeGreaterThan(0);
    expect(files['site-contracts.json']).toContain('[REDACTED]');
    // The header is named, its value blanked: in the options, in every recorded request and its curl line.
    expect(run.options['headers']).toEqual(['X-Api-Key: [REDACTED]']);
    const sent = run.cases.filter((c) => c.request);
    expect(sent.length).toBeGreaterThan(0);
    for (const c of sent) {
      expect(c.request!.headers['X-Api-Key']).toBe('[REDACTED]');
      expect(c.curl).toContain(`-H 'X-Api-Key: [REDACTED]'`);
    }
  });

  /** How a string shows up inside each format, after that format's own escaping. */
  const SHOWN: Record<string, (s: string) => string[]> = {
    'site-contracts.json': (s) => [s, JSON.stringify(s).slice(1, -1)],
    'site-contracts.junit.xml': (s) => [s, xmlText(s), xmlAttr(s)],
    'site-contracts.html': (s) => [s, jsonForScript(s).slice(1, -1)],
  };
  const cases = Object.keys(SHOWN).flatMap((file) => SECRET_ENCODINGS.map(([name, encode]) => [file, name, encode] as const));

  it.each(cases)('%s holds no %s form of the pair, the password or the marked header', (file, _name, encode) => {
    const text = files[file]!;
    for (const secret of [PAIR, PASSWORD, API_KEY]) {
      for (const shown of SHOWN[file]!(encode(secret))) expect(text.includes(shown), `${file} contains ${JSON.stringify(shown)}`).toBe(false);
    }
  });

  it.each(Object.keys(SHOWN))('%s holds no beginning of the password the 4 KiB cut would have left', (file) => {
    const start = PASSWORD.slice(0, 6);
    for (const shown of SHOWN[file]!(start)) expect(files[file]!.includes(shown), `${file} contains ${JSON.stringify(shown)}`).toBe(false);
  });

  it('prints none of them either', () => {
    for (const secret of [PAIR, PASSWORD, API_KEY]) {
      for (const [, encode] of SECRET_ENCODINGS) {
        expect(out.includes(encode(secret))).toBe(false);
        expect(err.includes(encode(secret))).toBe(false);
      }
    }
    expect(err).toMatch(/credentials from STAGING_AUTH accepted/);
  });
});
