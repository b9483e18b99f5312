import { describe, expect, it } from 'vitest';
import { parseCli, reportableOptions, secretHeadersOf, secretsOf, type RunArgs } from './args.ts';
import { UsageError } from '../errors.ts';

const env = {};
const parse = (line: string, e: Record<string, string> = env) => parseCli(line.split(' ').filter(Boolean), e);
const run = (line: string, e: Record<string, string> = env) => parse(line, e) as RunArgs;
const usage = (line: string, e: Record<string, string> = env): string => {
  try {
    parse(line, e);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`no usage error for: ${line}`);
};

describe('parseCli: test and diff', () => {
  it('applies the documented defaults', () => {
    expect(run('test --base-url https://staging.example.org/')).toEqual({
      command: 'test',
      baseUrl: 'https://staging.example.org',
      apiRoot: '/wp-json',
      headers: [],
      readOnly: false,
      only: [],
      skip: [],
      stateful: 300,
      runs: 3,
      maxRequests: 20000,
      rps: 0,
      timeoutMs: 10000,
      reportDir: 'reports',
      formats: ['junit', 'json', 'html'],
      policy: { conventions: 'error', responseShapes: 'warn' },
      workers: 6,
      maxDurationMs: 3_600_000,
    });
  });

  it('reads every flag', () => {
    const a = run(
      'diff --base-url http://localhost:8080/blog --api-root rest_route --read-only --only wp/v2,cal/v1 --only not_a_server_error ' +
        '--skip /wp/v2/users --seed 123 --runs 5 --max-requests 100 --rps 2.5 --timeout-ms 3000 --shard 2/4 --report-dir out ' +
        '--format json --format html,json --baseline base.yaml --conventions warn --response-shapes error',
    );
    expect(a).toMatchObject({
      command: 'diff',
      baseUrl: 'http://localhost:8080/blog',
      apiRoot: '/?rest_route=',
      readOnly: true,
      only: ['wp/v2', 'cal/v1', 'not_a_server_error'],
      skip: ['/wp/v2/users'],
      seed: 123,
      runs: 5,
      maxRequests: 100,
      rps: 2.5,
      timeoutMs: 3000,
      shard: { index: 2, total: 4 },
      reportDir: 'out',
      formats: ['json', 'html'],
      baseline: 'base.yaml',
      policy: { conventions: 'warn', responseShapes: 'error' },
    });
    expect(run('test --base-url=http://h --api-root=/custom/api/').apiRoot).toBe('/custom/api');
  });

  it.each([
    ['test', '--base-url'],
    ['test --base-url ftp://h', '--base-url expects an http(s) URL such as https://staging.example.org, got "ftp://h"'],
    ['test --base-url not-a-url', '--base-url expects an http(s) URL'],
    ['test --base-url http://h?x=1', 'without query or fragment'],
    ['test --base-url http://h --shard 3/2', '--shard expects i/n with 1 <= i <= n, got "3/2"'],
    ['test --base-url http://h --shard 0/2', '--shard expects i/n with 1 <= i <= n, got "0/2"'],
    ['test --base-url http://h --shard 2', '--shard expects i/n'],
    ['test --base-url http://h --runs 0', '--runs expects a whole number of cases per parameter, at least 1, got "0"'],
    ['test --base-url http://h --seed -1', '--seed expects an integer from 0 to 4294967295, got another flag (-1); write --seed=VALUE'],
    ['test --base-url http://h --seed=-1', '--seed expects an integer from 0 to 4294967295, got "-1"'],
    ['test --base-url --read-only', '--base-url expects an http(s) URL such as https://staging.example.org, got another flag'],
    ['test --base-url http://h --seed 1.5', '--seed expects an integer from 0 to 4294967295, got "1.5"'],
    ['test --base-url http://h --max-requests lots', '--max-requests expects'],
    ['test --base-url http://h --rps -1', '--rps expects'],
    ['test --base-url http://h --timeout-ms', '--timeout-ms expects a whole number of milliseconds, at least 1, got nothing'],
    ['test --base-url http://h --format pdf', '--format expects a comma-separated list of junit, json, html, json-full, har, got "pdf"'],
    ['test --base-url http://h --format ,', '--format expects'],
    ['test --base-url http://h --only ,', '--only expects a comma-separated list of namespaces, routes or checks, or one case id from a report (check:operationId:variant), got ","'],
    ['test --base-url http://h --conventions loud', '--conventions expects error or warn, got "loud"'],
    ['test --base-url http://h --response-shapes off', '--response-shapes expects error or warn, got "off"'],
    ['test --base-url http://h --api-root wp-json', `--api-root expects a path such as /wp-json, or 'rest_route', got "wp-json"`],
    ['test --base-url http://h --read-only=yes', '--read-only takes no value'],
    ['test --base-url http://h --bse-url x', 'unknown flag --bse-url'],
    ['test --base-url http://h --upstream http://u', '--upstream does not apply to test (it is for proxy)'],
    ['test --base-url http://h extra', 'test takes no arguments besides flags, got "extra"'],
    ['', 'missing command'],
    ['deploy', 'unknown command "deploy"'],
  ])('%s -> %s', (line, message) => {
    expect(usage(line)).toContain(message);
  });

  it('suggests the flag that was probably meant, among the command\'s own', () => {
    expect(usage('test --base-url http://h --basline x')).toBe('unknown flag --basline (did you mean --baseline?)');
    expect(usage('test --bse-url http://h')).toBe('unknown flag --bse-url (did you mean --base-url?)');
    expect(usage('proxy --upstream http://u --prot 9000')).toBe('unknown flag --prot (did you mean --port?)');
    // Nothing close: no guess. And --port is proxy's, so test does not offer it.
    expect(usage('test --base-url http://h --bogus')).toBe('unknown flag --bogus');
    expect(usage('test --base-url http://h --prot 9000')).toBe('unknown flag --prot');
    expect(usage('test --base-url http://h -q')).toBe('unknown flag -q');
    expect(usage('test --base-url http://h --bogus=1')).toBe('unknown flag --bogus');
  });

  it("points people from other tools' flags to ours: --exclude is --skip, --include is --only", () => {
    expect(usage('test --base-url http://h --exclude cal/v1')).toBe('unknown flag --exclude (did you mean --skip?)');
    expect(usage('test --base-url http://h --include cal/v1')).toBe('unknown flag --include (did you mean --only?)');
    expect(usage('test --url http://h')).toBe('unknown flag --url (did you mean --base-url?)');
    // Only a flag of the command itself: merge takes no --skip.
    expect(usage('merge a.json --exclude x')).toBe('unknown flag --exclude');
  });

  it('says to drop /wp-json from --base-url, and keeps a site in a folder as it is', () => {
    expect(usage('test -u https://site.example/wp-json')).toBe(
      "--base-url https://site.example/wp-json: give the site's address without /wp-json: --base-url https://site.example (the suite adds the REST root, /wp-json by default; --api-root sets another)",
    );
    expect(usage('test -u https://site.example/blog/wp-json/')).toContain('--base-url https://site.example/blog (');
    expect(usage('test -u https://site.example/uk/wp-json/cal/v1')).toContain('--base-url https://site.example/uk (');
    expect((parseCli(['test', '-u', 'https://site.example/blog/'], {}) as { baseUrl: string }).baseUrl).toBe('https://site.example/blog');
    expect((parseCli(['test', '-u', 'https://site.example/wp-jsonx'], {}) as { baseUrl: string }).baseUrl).toBe('https://site.example/wp-jsonx');
  });

  it('says what a flag without its value expected, naming a short flag with its long form', () => {
    expect(usage('test -u')).toBe('-u (--base-url) expects an http(s) URL such as https://staging.example.org, got nothing');
    expect(usage('test -u http://h -H')).toBe("-H (--header) expects 'Name: value', e.g. -H 'X-Waf-Token: ...' (a header name, a colon, a value), got nothing");
    expect(usage('test --base-url http://h --runs')).toBe('--runs expects a whole number of cases per parameter, at least 1, got nothing');
    expect(usage('test -u --read-only')).toBe('-u (--base-url) expects an http(s) URL such as https://staging.example.org, got another flag (--read-only); write --base-url=VALUE for a value that starts with -');
    expect(usage('test -u http://h -x=1')).toContain('unknown flag');
  });

  it('takes the short flags Schemathesis and Prism users type', () => {
    expect(run('test -u https://staging.example.org -x')).toMatchObject({ baseUrl: 'https://staging.example.org', maxFailures: 1 });
    expect(parse('proxy --upstream http://u -p 9000')).toMatchObject({ port: 9000 });
    expect(parse('diff -u http://h')).toMatchObject({ command: 'diff', baseUrl: 'http://h' });
    // -n (Schemathesis's --max-examples, per operation) would not mean --runs (per parameter): not taken.
    expect(usage('test -u http://h -n 5')).toBe('unknown flag -n');
  });
});

describe('parseCli: credentials', () => {
  const secret = 'editor:abcd efgh ijkl mnop';

  it('refuses password flags without echoing the value', () => {
    for (const flag of ['--password=hunter2-secret', '--password', '--auth', '--auth=hunter2-secret', '--app-password', '--token=x']) {
      const message = usage(`test --base-url http://h ${flag}`);
      expect(message).toContain('--auth-env');
      expect(message).not.toContain('hunter2');
    }
  });

  it('reads credentials from the named variable, or SITE_CONTRACTS_AUTH by default', () => {
    expect(run('test --base-url http://h --auth-env STAGING', { STAGING: secret }).auth).toEqual({ envVar: 'STAGING', credentials: secret });
    expect(run('test --base-url http://h', { SITE_CONTRACTS_AUTH: secret }).auth).toEqual({ envVar: 'SITE_CONTRACTS_AUTH', credentials: secret });
    expect(run('test --base-url http://h').auth).toBeUndefined();
  });

  it('says what is wrong with the variable without printing its value', () => {
    expect(usage('test --base-url http://h --auth-env STAGING')).toContain('the environment variable STAGING is not set');
    expect(usage('test --base-url http://h --auth-env STAGING', { STAGING: 'nocolon-secretvalue' })).toContain('STAGING must hold user:application-password');
    expect(usage('test --base-url http://h --auth-env STAGING', { STAGING: 'nocolon-secretvalue' })).not.toContain('secretvalue');
    const pasted = usage(`test --base-url http://h --auth-env editor:pasted-secret`);
    expect(pasted).toContain('NAME of an environment variable');
    expect(pasted).not.toContain('pasted-secret');
    expect(usage('test --base-url https://editor:pw-in-url@h')).not.toContain('pw-in-url');
  });

  it('--low-auth-env: a second, different user, beside --auth-env; named in the options, its password only in the redaction list', () => {
    const low = 'reader:LOWS ecre tpw0 1234';
    const a = run('test --base-url http://h --auth-env STAGING --low-auth-env LOW', { STAGING: secret, LOW: low });
    expect(a.lowAuth).toEqual({ envVar: 'LOW', credentials: low });
    expect(reportableOptions(a)).toMatchObject({ authEnv: 'STAGING', lowAuthEnv: 'LOW' });
    expect(JSON.stringify(reportableOptions(a))).not.toContain('LOWS');
    expect(secretsOf(a, {})).toContain(low);
    expect(usage('test --base-url http://h --low-auth-env LOW', { LOW: low })).toMatch(/^--low-auth-env asks a user with fewer rights .* give them too \(--auth-env VAR\)/);
    expect(usage('test --base-url http://h --auth-env STAGING --low-auth-env LOW', { STAGING: secret })).toContain('the environment variable LOW is not set');
    expect(usage('test --base-url http://h --auth-env STAGING --low-auth-env LOW', { STAGING: secret, LOW: 'nocolon-lowsecret' })).not.toContain('lowsecret');
    expect(usage('test --base-url http://h --auth-env STAGING --low-auth-env LOW', { STAGING: secret, LOW: `${secret.split(':')[0]}:other` })).toContain('names the same user as --auth-env STAGING');
    expect(usage('diff --base-url http://h --low-auth-env LOW', { LOW: low })).toMatch(/low-auth-env/);
  });

  it('keeps the secret out of the reportable options but in the redaction list', () => {
    const a = run('test --base-url http://h --auth-env STAGING', { STAGING: secret });
    const options = reportableOptions(a);
    expect(JSON.stringify(options)).not.toContain('abcd');
    expect(options['authEnv']).toBe('STAGING');
    expect(secretsOf(a, { SITE_CONTRACTS_AUTH: 'other:pw' })).toEqual([secret, 'other:pw']);
  });
});

describe('parseCli: proxy, merge, help', () => {
  it('parses proxy flags', () => {
    expect(parse('proxy --upstream https://staging.example.org --port 9000')).toMatchObject({
      command: 'proxy',
      upstream: 'https://staging.example.org',
      port: 9000,
      apiRoot: '/wp-json',
    });
    expect(parse('proxy --upstream http://u')).toMatchObject({ port: 8787 });
    expect(usage('proxy')).toContain('proxy needs --upstream');
    expect(usage('proxy --upstream http://u --port 70000')).toContain('--port expects a port number from 0 to 65535, got "70000"');
    expect(usage('proxy --upstream http://u --base-url http://h')).toContain('give the server to forward to with --upstream');
    // Prism writes no report and sends nothing of its own: flags that would do nothing there are refused.
    expect(usage('proxy --upstream http://u --only cal/v1')).toBe('--only does not apply to proxy (it is for test, diff)');
    expect(usage('proxy --upstream http://u --report-dir out')).toBe('--report-dir does not apply to proxy (it is for test, diff, merge)');
  });

  it('parses merge inputs and refuses flags that would change the verdict after the fact', () => {
    expect(parse('merge reports/shard-1-of-2.json reports/shard-2-of-2.json --report-dir out --format html')).toEqual({
      command: 'merge',
      inputs: ['reports/shard-1-of-2.json', 'reports/shard-2-of-2.json'],
      reportDir: 'out',
      formats: ['html'],
    });
    expect(usage('merge')).toContain('merge expects one or more JSON reports');
    expect(usage('merge a.json --conventions warn')).toContain('--conventions does not apply to merge');
  });

  it('has no --secret-header: every -H value is secret unless its name never carries one', () => {
    expect(usage('test --base-url http://h --secret-header X-Api-Key')).toBe('unknown flag --secret-header');
  });

  it('suggests the command that was probably meant, and none for a word far from all of them', () => {
    expect(usage('tset --base-url http://h')).toBe('unknown command "tset" (did you mean test?): expected one of test, diff, proxy, merge, mock');
    expect(usage('mrege')).toBe('unknown command "mrege" (did you mean merge?): expected one of test, diff, proxy, merge, mock');
    expect(usage('mokc')).toContain('(did you mean mock?)');
    expect(usage('help dif')).toBe('help: unknown command "dif" (did you mean diff?): expected one of test, diff, proxy, merge, mock');
    expect(usage('deploy')).toBe('unknown command "deploy": expected one of test, diff, proxy, merge, mock');
  });

  it('recognises help and version anywhere', () => {
    expect(parse('--help')).toEqual({ command: 'help' });
    expect(parse('test -h')).toEqual({ command: 'help', topic: 'test' });
    expect(parse('help merge')).toEqual({ command: 'help', topic: 'merge' });
    expect(parse('bogus --help')).toEqual({ command: 'help' });
    expect(usage('help bogus')).toBe('help: unknown command "bogus": expected one of test, diff, proxy, merge, mock');
    expect(parse('help')).toEqual({ command: 'help' });
    expect(parse('--version')).toEqual({ command: 'version' });
  });
});

describe('parseCli: -H/--header', () => {
  const TOKEN = 'waf-0123456789abcdef';
  const withHeaders = (...headers: string[]) => parseCli(['test', '-u', 'http://h', ...headers.flatMap((h) => ['-H', h])], {}) as RunArgs;

  it('takes Name: value, repeatable, long and short, secret unless the name never carries a secret', () => {
    const a = parseCli(['test', '-u', 'http://h', '-H', `X-Waf-Token: ${TOKEN}`, '--header', 'Accept-Language:uk', '-HX-Other:  spaced value  '], {}) as RunArgs;
    expect(a.headers).toEqual([
      { name: 'X-Waf-Token', value: TOKEN, secret: true },
      { name: 'Accept-Language', value: 'uk', secret: false },
      { name: 'X-Other', value: 'spaced value', secret: true },
    ]);
  });

  it('puts secret values in the redaction list and their names among the secret headers; reports show names only', () => {
    const a = withHeaders(`X-Waf-Token: ${TOKEN}`, 'Accept-Language: uk', 'X-Debug: 1');
    expect(secretsOf(a, {})).toEqual([TOKEN]);
    // X-Debug is still blanked wherever it appears; "1" is not searched for in bodies (it would blank every 1).
    expect(secretHeadersOf(a)).toEqual(['x-waf-token', 'x-debug']);
    expect(reportableOptions(a)['headers']).toEqual(['X-Waf-Token: [REDACTED]', 'Accept-Language: uk', 'X-Debug: [REDACTED]']);
    expect(JSON.stringify(reportableOptions(a))).not.toContain(TOKEN);
  });

  it.each([
    ['X-Waf-Token', "--header expects 'Name: value'"],
    [': value', "--header expects 'Name: value'"],
    ['X Waf: value', '--header expects \'Name: value\', e.g. -H \'X-Waf-Token: ...\' (a header name, a colon, a value); got the name "X Waf"'],
    ['X-Waf-Token:', '--header X-Waf-Token: expects a value after the colon'],
    ['X-Waf-Token:   ', '--header X-Waf-Token: expects a value after the colon'],
    ['X-Waf-Token: a\r\nX-Injected: 1', '--header X-Waf-Token: the value holds a line break or control character'],
    ['Host: evil.example', '--header Host: the suite sets this header itself'],
    ['content-length: 5', '--header content-length: the suite sets this header itself'],
    ['Content-Type: text/plain', '--header Content-Type: the suite sets this header itself'],
  ])('refuses %j', (header, message) => {
    const h = header.replace('\\r\\n', '\r\n');
    let err: unknown;
    try {
      withHeaders(h);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(message);
    expect((err as Error).message).not.toContain('evil');
  });

  it('refuses a header given twice, in any case', () => {
    expect(() => withHeaders('X-A: one-value', 'x-a: two-value')).toThrow('--header x-a is given twice');
  });

  it('takes an Authorization header (a front\'s basic auth) only without WordPress credentials', () => {
    expect(withHeaders('Authorization: Basic c3RhZ2luZzpmcm9udA==').headers[0]).toMatchObject({ name: 'Authorization', secret: true });
    const both = () => parseCli(['test', '-u', 'http://h', '-H', 'Authorization: Basic c3RhZ2luZzpmcm9udA=='], { SITE_CONTRACTS_AUTH: 'editor:abcd efgh' });
    expect(both).toThrow('would both go in the one Authorization header');
    expect(both).toThrow('SITE_CONTRACTS_AUTH is set, so it is used');
  });

  it('is for test and diff only', () => {
    expect(usage('proxy --upstream http://u -H X-A:b')).toBe('--header does not apply to proxy (it is for test, diff)');
    expect(usage('merge a.json -H X-A:b')).toBe('--header does not apply to merge (it is for test, diff)');
  });
});

describe('parseCli: --max-failures and -x', () => {
  it('reads N, at least 1; -x is --max-failures 1; test only', () => {
    expect(run('test -u http://h --max-failures 25').maxFailures).toBe(25);
    expect(run('test -u http://h').maxFailures).toBeUndefined();
    expect(run('test -u http://h --exitfirst').maxFailures).toBe(1);
    expect(run('test -u http://h -x --max-failures 1').maxFailures).toBe(1);
    expect(usage('test -u http://h -x --max-failures 3')).toBe('-x (--exitfirst) is --max-failures 1; it cannot go with --max-failures 3');
    expect(usage('test -u http://h --max-failures 0')).toBe('--max-failures expects a whole number of failing cases, at least 1, got "0"');
    expect(usage('test -u http://h --max-failures ten')).toContain('--max-failures expects');
    expect(usage('diff -u http://h --max-failures 3')).toBe('--max-failures does not apply to diff (it is for test)');
  });
});

describe('parseCli: values from a config file', () => {
  const config = (values: Record<string, string | boolean | string[]>) => ({ source: 'site-contracts.config.json', values });

  it('fills what the command line leaves out, and the command line wins, whole lists included', () => {
    const c = config({ 'base-url': 'https://staging.example.org', only: ['cal/v1', 'root'], 'read-only': true, runs: '5' });
    expect(parseCli(['test'], {}, c)).toMatchObject({ baseUrl: 'https://staging.example.org', only: ['cal/v1', 'root'], readOnly: true, runs: 5 });
    expect(parseCli(['test', '-u', 'http://other', '--only', 'batch/v1', '--runs', '2'], {}, c)).toMatchObject({ baseUrl: 'http://other', only: ['batch/v1'], readOnly: true, runs: 2 });
  });

  it('names the file when one of its values is refused, and not when the command line\'s is', () => {
    const c = config({ 'base-url': 'https://staging.example.org', runs: '0' });
    expect(() => parseCli(['test'], {}, c)).toThrow('site-contracts.config.json: "test" section, "runs": --runs expects a whole number of cases per parameter, at least 1, got "0"');
    expect(() => parseCli(['test', '--runs', '0'], {}, config({ 'base-url': 'http://h' }))).toThrow(/^--runs expects/);
  });

  it('reports where each value came from with --print-config', () => {
    const a = parseCli(['test', '--print-config', '--seed', '7'], { SITE_CONTRACTS_AUTH: 'editor:abcd efgh' }, config({ 'base-url': 'http://h' }));
    expect(a).toMatchObject({ command: 'print-config', args: { command: 'test', baseUrl: 'http://h', seed: 7 }, sources: { 'base-url': 'site-contracts.config.json', seed: 'command line' } });
  });
});
