import { describe, expect, it } from 'vitest';
import { parseCli, reportableOptions, secretsOf, type RunArgs } from './args.ts';
import { UsageError } from './errors.ts';

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
      readOnly: false,
      only: [],
      skip: [],
      runs: 3,
      maxRequests: 10000,
      rps: 0,
      timeoutMs: 10000,
      reportDir: 'reports',
      formats: ['junit', 'json', 'html'],
      policy: { conventions: 'error', responseShapes: 'warn' },
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
    ['test --base-url http://h --seed -1', '--seed expects an integer from 0 to 4294967295, got another flag; write --seed=VALUE'],
    ['test --base-url http://h --seed=-1', '--seed expects an integer from 0 to 4294967295, got "-1"'],
    ['test --base-url --read-only', '--base-url expects an http(s) URL such as https://staging.example.org, got another flag'],
    ['test --base-url http://h --seed 1.5', '--seed expects an integer from 0 to 4294967295, got "1.5"'],
    ['test --base-url http://h --max-requests lots', '--max-requests expects'],
    ['test --base-url http://h --rps -1', '--rps expects'],
    ['test --base-url http://h --timeout-ms', '--timeout-ms expects a whole number of milliseconds, at least 1, got nothing'],
    ['test --base-url http://h --format pdf', '--format expects a comma-separated list of junit, json, html, got "pdf"'],
    ['test --base-url http://h --format ,', '--format expects'],
    ['test --base-url http://h --only ,', '--only expects a comma-separated list of namespaces, routes or checks, got ","'],
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

  it('suggests the flag that was probably meant', () => {
    expect(usage('test --base-url http://h --basline x')).toBe('unknown flag --basline; did you mean --baseline?');
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

  it('takes header names to redact with --secret-header, in any case, for every command that writes reports', () => {
    expect(run('test --base-url http://h --secret-header X-Api-Key,x-session --secret-header X-API-KEY').secretHeaders).toEqual(['x-api-key', 'x-session']);
    expect(parse('merge a.json --secret-header X-Token')).toMatchObject({ secretHeaders: ['x-token'] });
    expect(run('test --base-url http://h').secretHeaders).toBeUndefined();
    expect(usage('test --base-url http://h --secret-header "X Api"')).toContain('--secret-header expects a comma-separated list of header names');
  });

  it('recognises help and version anywhere', () => {
    expect(parse('--help')).toEqual({ command: 'help' });
    expect(parse('test -h')).toEqual({ command: 'help', topic: 'test' });
    expect(parse('help merge')).toEqual({ command: 'help', topic: 'merge' });
    expect(parse('bogus --help')).toEqual({ command: 'help' });
    expect(usage('help bogus')).toBe('help: unknown command "bogus": expected one of test, diff, proxy, merge');
    expect(parse('help')).toEqual({ command: 'help' });
    expect(parse('--version')).toEqual({ command: 'version' });
  });
});
