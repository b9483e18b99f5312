import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli.ts';
import type { RunArgs } from './args.ts';
import { configValues, findConfig, type ConfigFile } from './config.ts';
import { UsageError } from '../errors.ts';
import { captureDeps } from '../testing/cli.ts';
import { defaultCommands } from './commands/index.ts';

/** An in-memory directory: path -> text. */
function io(files: Record<string, string>, cwd = '/project') {
  return {
    cwd,
    readFile: async (path: string) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    },
  };
}

const file = (data: unknown, source = 'site-contracts.config.json'): ConfigFile => ({ source, data });

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('no usage error');
}

describe('findConfig', () => {
  it('reads site-contracts.config.json, else the "site-contracts" key of package.json, else nothing', async () => {
    expect(await findConfig(undefined, io({ '/project/site-contracts.config.json': '{"test": {}}' }))).toEqual({ source: 'site-contracts.config.json', data: { test: {} } });
    expect(await findConfig(undefined, io({ '/project/package.json': '{"name": "app", "site-contracts": {"diff": {}}}' }))).toEqual({
      source: 'package.json "site-contracts"',
      data: { diff: {} },
    });
    expect(await findConfig(undefined, io({ '/project/package.json': '{"name": "app"}' }))).toBeUndefined();
    expect(await findConfig(undefined, io({}))).toBeUndefined();
    // No working directory given (tests, embedders): only --config is read.
    expect(await findConfig(undefined, { readFile: io({ 'site-contracts.config.json': '{}' }).readFile })).toBeUndefined();
  });

  it('refuses both at once, since one would be silently ignored', async () => {
    const both = io({ '/project/site-contracts.config.json': '{}', '/project/package.json': '{"site-contracts": {}}' });
    await expect(findConfig(undefined, both)).rejects.toThrow('both site-contracts.config.json and the "site-contracts" key of package.json hold a configuration');
  });

  it('reads --config FILE instead, and a package.json given there for its key', async () => {
    const files = io({ 'ci/staging.json': '{"test": {"runs": 1}}', 'other/package.json': '{"site-contracts": {"test": {}}}', '/project/site-contracts.config.json': '{}' });
    expect(await findConfig('ci/staging.json', files)).toEqual({ source: 'ci/staging.json', data: { test: { runs: 1 } } });
    expect(await findConfig('other/package.json', files)).toMatchObject({ source: 'other/package.json "site-contracts"' });
    await expect(findConfig('missing.json', files)).rejects.toThrow('--config missing.json: cannot read it (ENOENT)');
    await expect(findConfig('bad/package.json', io({ 'bad/package.json': '{}' }))).rejects.toThrow('--config bad/package.json: it has no "site-contracts" key');
  });

  it('names the file whose JSON is broken', async () => {
    await expect(findConfig(undefined, io({ '/project/site-contracts.config.json': '{"test": ' }))).rejects.toThrow(/^site-contracts\.config\.json:1:10: not valid JSON/);
    await expect(findConfig(undefined, io({ '/project/package.json': '{,' }))).rejects.toThrow(/^package\.json:1:2: not valid JSON/);
  });

  it('gives the line and column of the mistake: a trailing comma on line 4', async () => {
    const text = '{\n  "test": {\n    "base-url": "https://staging.example.org",\n    "only": ["cal/v1"],\n  }\n}\n';
    const e = await findConfig(undefined, io({ '/project/site-contracts.config.json': text })).catch((x: unknown) => x as Error);
    expect((e as Error).message).toMatch(/^site-contracts\.config\.json:5:3: not valid JSON: .*\(line 5, column 3: "}"\)$/);
    // Well formed, the same file reads.
    expect(await findConfig(undefined, io({ '/project/site-contracts.config.json': text.replace('"],\n', '"]\n') }))).toMatchObject({ data: { test: { only: ['cal/v1'] } } });
  });

  it('reads the config in YAML too, and reports broken YAML with line and column', async () => {
    const yaml = 'test:\n  base-url: https://staging.example.org\n  only: [cal/v1]\n  max-failures: 20\n';
    expect(await findConfig(undefined, io({ '/project/site-contracts.config.yaml': yaml }))).toEqual({
      source: 'site-contracts.config.yaml',
      data: { test: { 'base-url': 'https://staging.example.org', only: ['cal/v1'], 'max-failures': 20 } },
    });
    expect(await findConfig('ci/staging.yml', io({ 'ci/staging.yml': yaml }))).toMatchObject({ source: 'ci/staging.yml', data: { test: { only: ['cal/v1'] } } });
    await expect(findConfig(undefined, io({ '/project/site-contracts.config.yml': 'test:\n  only: [cal/v1\n' }))).rejects.toThrow(/^site-contracts\.config\.yml:3:1: not valid YAML: .*\(line 3, column 1\)$/);
    await expect(findConfig(undefined, io({ '/project/site-contracts.config.yaml': 'test:\n  runs: 1\n  runs: 2\n' }))).rejects.toThrow(/^site-contracts\.config\.yaml:3:3: not valid YAML: Map keys must be unique/);
    await expect(findConfig(undefined, io({ '/project/site-contracts.config.yaml': yaml, '/project/site-contracts.config.json': '{}' }))).rejects.toThrow(
      'both site-contracts.config.json and site-contracts.config.yaml hold a configuration',
    );
  });
});

describe('configValues: one section per command, keyed by long flag names, read strictly', () => {
  it('gives the section of the command run, as the command line would give it', () => {
    const f = file({
      test: { 'base-url': 'https://staging.example.org', only: ['cal/v1', 'root'], skip: 'batch/v1', runs: 5, 'read-only': true, exitfirst: false, header: ['Accept-Language: uk'] },
      diff: { 'base-url': 'https://staging.example.org' },
    });
    expect(configValues(f, 'test')).toEqual({
      source: 'site-contracts.config.json',
      values: { 'base-url': 'https://staging.example.org', only: ['cal/v1', 'root'], skip: ['batch/v1'], runs: '5', 'read-only': true, header: ['Accept-Language: uk'] },
    });
    expect(configValues(f, 'merge').values).toEqual({});
  });

  it.each([
    [[], 'site-contracts.config.json: expected an object with a section per command (test, diff, proxy, merge), got a list'],
    [{ tset: {} }, 'site-contracts.config.json: unknown section "tset" (did you mean "test"?)'],
    [{ 'base-url': 'http://h' }, 'site-contracts.config.json: unknown section "base-url"'],
    [{ test: 'http://h' }, 'site-contracts.config.json: section "test" must be an object of flags, got the string "http://h"'],
    [{ test: { basurl: 'http://h' } }, 'site-contracts.config.json: "test.basurl": unknown key (did you mean "base-url"?)'],
    [{ test: { baseUrl: 'http://h' } }, 'site-contracts.config.json: "test.baseUrl": unknown key'],
    [{ test: { help: true } }, 'site-contracts.config.json: "test.help": unknown key'],
    [{ test: { config: 'x.json' } }, 'site-contracts.config.json: "test.config": unknown key'],
    [{ test: { upstream: 'http://u' } }, 'site-contracts.config.json: "test.upstream": test takes no --upstream (it is for proxy)'],
    [{ test: { 'read-only': 'yes' } }, 'site-contracts.config.json: "test.read-only" expects true or false, got the string "yes"'],
    [{ test: { runs: [1, 2] } }, 'site-contracts.config.json: "test.runs" expects a string (or a number), got a list'],
    [{ test: { only: [{}] } }, 'site-contracts.config.json: "test.only" expects a string or a list of strings (or a number), got an object'],
    [{ test: { header: ['X-Broken'] } }, `site-contracts.config.json: "test.header": --header expects 'Name: value'`],
  ])('refuses %j', (data, message) => {
    expect(refusal(() => configValues(file(data), 'test'))).toContain(message);
  });

  it('checks every section, not only the one run', () => {
    expect(refusal(() => configValues(file({ test: {}, diff: { rnus: 2 } }), 'test'))).toContain('"diff.rnus": unknown key (did you mean "runs"?)');
  });

  it.each([['password'], ['app-password'], ['token'], ['apiKey'], ['auth'], ['Authorization'], ['secret'], ['credentials'], ['cookie']])(
    'refuses a secret-looking key %s and says where secrets go',
    (key) => {
      const message = refusal(() => configValues(file({ test: { [key]: 'hunter2-value' } }), 'test'));
      expect(message).toContain(`"test.${key}" looks like a secret`);
      expect(message).toContain('environment variable');
      expect(message).not.toContain('hunter2');
    },
  );

  it('refuses an Authorization header, or any header whose value is secret, pointing at the environment', () => {
    const auth = refusal(() => configValues(file({ test: { header: ['Authorization: Basic aHVudGVyMi12YWx1ZQ=='] } }), 'test'));
    expect(auth).toContain('Authorization holds a secret');
    expect(auth).toContain('--auth-env');
    expect(auth).not.toContain('aHVudGVy');
    const waf = refusal(() => configValues(file({ diff: { header: ['Accept: application/json', 'X-Waf-Token: hunter2-value'] } }), 'test'));
    expect(waf).toContain('"diff.header": X-Waf-Token holds a secret');
    expect(waf).toContain('-H "X-Waf-Token: $X_WAF_TOKEN"');
    expect(waf).not.toContain('hunter2');
    // auth-env holds a NAME, which is no secret.
    expect(configValues(file({ test: { 'auth-env': 'STAGING_AUTH' } }), 'test').values).toEqual({ 'auth-env': 'STAGING_AUTH' });
  });
});

describe('site-contracts with a config file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sc-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function cli(argv: string[], files: Record<string, string>, env: Record<string, string> = {}) {
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    let seen: RunArgs | undefined;
    const t = captureDeps({
      cwd: dir,
      env,
      commands: {
        ...defaultCommands,
        test: async (args) => {
          seen = args;
          return 0;
        },
      },
    });
    const code = await main(argv, t.deps);
    for (const name of Object.keys(files)) await rm(join(dir, name), { force: true });
    return { code, out: t.out(), err: t.err(), seen };
  }

  it('runs with the file\'s flags, overridden by the command line', async () => {
    const r = await cli(['test', '--runs', '2'], { 'site-contracts.config.json': JSON.stringify({ test: { 'base-url': 'https://staging.example.org', runs: 7, 'max-failures': 5 } }) });
    expect(r.code).toBe(0);
    expect(r.seen).toMatchObject({ baseUrl: 'https://staging.example.org', runs: 2, maxFailures: 5 });
  });

  it('reads the "site-contracts" key of package.json', async () => {
    const r = await cli(['test'], { 'package.json': JSON.stringify({ name: 'app', 'site-contracts': { test: { 'base-url': 'http://from-package' } } }) });
    expect(r.seen).toMatchObject({ baseUrl: 'http://from-package' });
  });

  it('--print-config lists every flag with its value and where it came from, secrets redacted, and sends nothing', async () => {
    const r = await cli(
      ['test', '--print-config', '-H', 'X-Waf-Token: waf-secret-0123456789', '--runs', '4'],
      { 'site-contracts.config.json': JSON.stringify({ test: { 'base-url': 'https://staging.example.org', only: ['cal/v1'], header: ['Accept-Language: uk'] } }) },
      { SITE_CONTRACTS_AUTH: 'editor:abcd efgh ijkl' },
    );
    expect(r.code).toBe(0);
    expect(r.seen).toBeUndefined();
    const line = (flag: string) => r.out.split('\n').find((l) => l.trimStart().startsWith(`${flag} `)) ?? '';
    expect(line('--base-url')).toMatch(/https:\/\/staging\.example\.org\s+site-contracts\.config\.json$/);
    expect(line('--only')).toMatch(/cal\/v1\s+site-contracts\.config\.json$/);
    expect(line('--runs')).toMatch(/4\s+command line$/);
    expect(line('--timeout-ms')).toMatch(/10000\s+default$/);
    expect(line('--auth-env')).toMatch(/SITE_CONTRACTS_AUTH\s+environment \(SITE_CONTRACTS_AUTH is set\)$/);
    // The command line's -H replaces the file's list, and its secret value is not printed.
    expect(line('--header')).toMatch(/X-Waf-Token: \[REDACTED\]\s+command line$/);
    expect(r.out).not.toContain('waf-secret');
    expect(r.out).not.toContain('abcd efgh');
  });

  it('a bad file exits 2 naming the file and the key, before anything runs', async () => {
    const r = await cli(['test', '-u', 'http://h'], { 'site-contracts.config.json': JSON.stringify({ test: { password: 'x' } }) });
    expect(r.code).toBe(2);
    expect(r.seen).toBeUndefined();
    expect(r.err).toMatch(/^site-contracts test: site-contracts\.config\.json: "test\.password" looks like a secret/);
  });

  it('a YAML alias bomb or an alias without its anchor exits 2 with the file, line, column and reason, no stack trace', async () => {
    const bomb = ['test:', '  base-url: http://h', 'a: &a [x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]', ''].join('\n');
    const r = await cli(['test'], { 'site-contracts.config.yaml': bomb });
    expect(r.code).toBe(2);
    expect(r.seen).toBeUndefined();
    expect(r.err).toMatch(/^site-contracts test: site-contracts\.config\.yaml:6:8: the aliases expand past 100 nodes \(at \*c\); a YAML alias bomb is refused \(line 6, column 8\); see site-contracts test --help\n$/);
    expect(r.err).not.toMatch(/\n\s+at /);
    const undefinedAlias = await cli(['test'], { 'site-contracts.config.yml': 'test:\n  base-url: *site\n' });
    expect(undefinedAlias.code).toBe(2);
    expect(undefinedAlias.err).toMatch(/^site-contracts test: site-contracts\.config\.yml:2:13: the alias \*site names no anchor &site before it \(line 2, column 13\); see site-contracts test --help\n$/);
    // Aliases within the bound are YAML as people write it: one section shared by two commands.
    const shared = await cli(['test'], { 'site-contracts.config.yaml': 'test: &both\n  base-url: http://shared\ndiff: *both\n' });
    expect(shared.seen).toMatchObject({ baseUrl: 'http://shared' });
  });

  it('help needs no config, even a broken one', async () => {
    const r = await cli(['test', '--help'], { 'site-contracts.config.json': '{broken' });
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: site-contracts test');
  });
});
