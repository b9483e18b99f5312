import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote, toCurl } from './curl.ts';
import type { RecordedRequest } from './model.ts';

/** Runs the line in a real shell with `curl` replaced by a function that prints its arguments. */
function argvOf(line: string, env: Record<string, string> = {}): string[] {
  const script = `curl() { printf '%s\\0' "$@"; }\n${line}`;
  const results = SHELLS.map((shell) =>
    execFileSync(shell, ['-c', script], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
      .toString('utf8')
      .split('\0')
      .slice(0, -1),
  );
  // POSIX sh and bash must agree: people paste into either.
  for (const r of results.slice(1)) expect(r).toEqual(results[0]);
  return results[0] ?? [];
}

const SHELLS = ['sh', 'bash'];

const tricky = `it's "quoted" $HOME \`date\` $(id) \\ back\nslash\ttab !bang *glob ~ ;&|<>`;

describe('shellQuote', () => {
  it.each([['plain'], [''], ["'"], ["''"], [tricky], ['a b'], ['$SITE_CONTRACTS_AUTH'], ['ünïcødé ✓']])(
    'round-trips %j through bash',
    (word) => {
      expect(argvOf(`curl ${shellQuote(word)}`)).toEqual([word]);
    },
  );
});

describe('toCurl', () => {
  const secret = 'editor:abcd efgh ijkl mnop';
  const basic = `Basic ${Buffer.from(secret).toString('base64')}`;

  it('replays method, URL, headers and a JSON body exactly, with credentials as an env reference', () => {
    const body = JSON.stringify({ title: tricky, content: 'line1\nline2', price: '$5' });
    const req: RecordedRequest = {
      method: 'post',
      url: 'https://example.org/wp-json/wp/v2/posts?status[]=publish&search=a b',
      headers: { 'Content-Type': 'application/json', Authorization: basic, 'X-Note': "it's $x", 'Content-Length': '99' },
      body,
    };
    const line = toCurl(req);
    expect(line).not.toContain(secret);
    expect(line).not.toContain(basic.slice(6));
    expect(line).not.toContain('Content-Length');
    expect(line).toContain('-u "$SITE_CONTRACTS_AUTH"');
    expect(argvOf(line, { SITE_CONTRACTS_AUTH: secret })).toEqual([
      '-sS',
      '-i',
      '-g',
      '-X',
      'POST',
      'https://example.org/wp-json/wp/v2/posts?status[]=publish&search=a b',
      '-H',
      'Content-Type: application/json',
      '-H',
      "X-Note: it's $x",
      '-u',
      secret,
      '--data-raw',
      body,
    ]);
  });

  it('replays a form body and names a custom auth variable', () => {
    const line = toCurl(
      {
        method: 'POST',
        url: 'https://example.org/?rest_route=/wp/v2/posts',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: 'title=a%20b&status=draft',
      },
      { authEnv: 'STAGING_AUTH' },
    );
    expect(line).toContain('-u "$STAGING_AUTH"');
    const args = argvOf(line, { STAGING_AUTH: secret });
    expect(args.slice(-4)).toEqual(['-u', secret, '--data-raw', 'title=a%20b&status=draft']);
  });

  it('omits -X for GET, uses --head for HEAD, and sends empty headers as empty', () => {
    expect(argvOf(toCurl({ method: 'GET', url: 'http://h/x', headers: { 'X-Empty': '' } }))).toEqual([
      '-sS',
      '-i',
      '-g',
      'http://h/x',
      '-H',
      'X-Empty;',
    ]);
    expect(toCurl({ method: 'HEAD', url: 'http://h/x', headers: {} })).toBe('curl -sS -i -g --head http://h/x');
  });

  it('moves credentials out of the URL', () => {
    const line = toCurl({ method: 'GET', url: 'https://editor:p4ss%20word@example.org/wp-json/', headers: {} });
    expect(line).not.toContain('p4ss');
    expect(argvOf(line, { SITE_CONTRACTS_AUTH: 'x:y' })).toEqual(['-sS', '-i', '-g', 'https://example.org/wp-json/', '-u', 'x:y']);
  });

  it('refuses an auth variable name that could inject into the shell', () => {
    expect(() => toCurl({ method: 'GET', url: 'http://h/', headers: {} }, { authEnv: 'X"; rm -rf /; "' })).toThrow(/invalid environment variable/);
  });
});
