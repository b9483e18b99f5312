// The mock's flags in our own words: Prism's short flags (-p port, -h host), and every refusal naming the flag and
// what it expects, never node's parseArgs text.
import { describe, expect, it } from 'vitest';
import { allowedHostsOf, parseCliArgs, usage, UsageError, USAGE } from './cli-args.ts';

function refusal(argv: string[]): string {
  try {
    parseCliArgs(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('parseCliArgs', () => {
  it('takes Prism\'s -p and -h for port and host, and the long forms', () => {
    expect(parseCliArgs(['-p', '8080', '-h', '0.0.0.0'])).toMatchObject({ port: 8080, host: '0.0.0.0', help: false });
    expect(parseCliArgs(['--port=0', '--host', '::1'])).toMatchObject({ port: 0, host: '::1' });
    expect(parseCliArgs(['-p9000'])).toMatchObject({ port: 9000 });
    expect(parseCliArgs(['--help'])).toMatchObject({ help: true });
    expect(parseCliArgs([])).toMatchObject({ port: 4010, host: '127.0.0.1', auth: false, latencyMs: 0, cache: true, clientTimeoutMs: 20_000 });
    expect(parseCliArgs(['--client-timeout', '100'])).toMatchObject({ clientTimeoutMs: 100 });
    expect(parseCliArgs(['--client-timeout=3600000'])).toMatchObject({ clientTimeoutMs: 3_600_000 });
  });

  it.each([
    [['--bogus'], 'unknown flag --bogus'],
    [['--prot', '4010'], 'unknown flag --prot (did you mean --port?)'],
    [['--latncy', '5'], 'unknown flag --latncy (did you mean --latency?)'],
    [['--state', 'x.json'], 'unknown flag --state'],
    [['-x'], 'unknown flag -x'],
    [['--port'], '--port expects a port number 0-65535, got nothing'],
    [['-p'], '-p (--port) expects a port number 0-65535, got nothing'],
    [['--port', '--auth'], '--port expects a port number 0-65535, got another flag (--auth); write --port=VALUE for a value that starts with -'],
    [['-h'], '-h (--host, as in Prism; help is --help) expects a host name or address, got nothing'],
    [['--auth=yes'], '--auth takes no value'],
    [['--port', 'abc'], '--port expects a port number 0-65535, got "abc"'],
    [['--port', '65536'], '--port expects a port number 0-65535, got 65536'],
    [['--latency=-5'], '--latency expects milliseconds 0-600000, got "-5"'],
    [['--latency', '600001'], '--latency expects milliseconds 0-600000, got 600001'],
    [['--client-timeout', '99'], '--client-timeout expects milliseconds 100-3600000, got 99'],
    [['--client-timeout', '3600001'], '--client-timeout expects milliseconds 100-3600000, got 3600001'],
    [['--client-timeout'], '--client-timeout expects milliseconds 100-3600000, got nothing'],
    [['--seed', '1.5'], '--seed expects an integer 0-4294967295, got "1.5"'],
    [['--host', ''], '--host expects a host name or address, got an empty string'],
    [['4010'], 'unexpected argument "4010" (flags start with --)'],
  ])('%j -> %s', (argv, message) => {
    expect(refusal(argv)).toBe(message);
  });

  it('lists the short flags and examples in --help', () => {
    expect(USAGE).toContain('-p, --port N');
    expect(USAGE).toContain('-h, --host HOST');
    expect(USAGE).toMatch(/^Examples:$/m);
    // Every example is a command line the parser takes.
    for (const line of USAGE.split('\n').filter((l) => l.startsWith('  npm run mock -- '))) {
      expect(() => parseCliArgs(line.replace('  npm run mock -- ', '').split(' ')), line).not.toThrow();
    }
  });

  it('spells the examples as the mock was started: npx site-contracts mock from the package, npm run mock -- in a clone', () => {
    const npx = usage('site-contracts mock');
    const examples = npx.split('\n').filter((l) => l.startsWith('  npx site-contracts mock '));
    expect(examples).toHaveLength(3);
    expect(npx).not.toMatch(/^ {2}npm run mock/m);
    expect(npx.split('\n')[0]).toBe('Usage: npx site-contracts mock [options]      (in a clone of the repository: npm run mock -- [options])');
    for (const line of examples) expect(() => parseCliArgs(line.replace('  npx site-contracts mock ', '').split(' ')), line).not.toThrow();
    expect(usage()).toMatch(/^ {2}npm run mock -- -p 8080/m);
    expect(usage()).not.toMatch(/^ {2}npx /m);
  });

  it('takes --allowed-hosts as names, comma-separated or repeated, or all; and adds --host or the machine\'s name', () => {
    expect(parseCliArgs([]).allowedHosts).toEqual([]);
    expect(parseCliArgs(['--allowed-hosts', 'mock,Events.test', '--allowed-hosts=.example.org']).allowedHosts).toEqual(['mock', 'events.test', '.example.org']);
    expect(parseCliArgs(['--allowed-hosts', 'mock,all']).allowedHosts).toBe('all');
    expect(refusal(['--allowed-hosts', 'http://mock:4010'])).toBe('--allowed-hosts expects host names such as mock,events.test or .example.org, or all, got "http://mock:4010" (a name without scheme, port or path)');
    expect(refusal(['--allowed-hosts', ','])).toBe('--allowed-hosts expects host names such as mock,events.test or .example.org, or all, got ","');
    expect(refusal(['--allowed-hosts'])).toBe('--allowed-hosts expects host names such as mock,events.test or .example.org, or all, got nothing');
    expect(allowedHostsOf({ host: '0.0.0.0', allowedHosts: ['mock'] }, 'Build-Box')).toEqual(['mock', 'build-box']);
    expect(allowedHostsOf({ host: 'dev.local', allowedHosts: [] }, 'build-box')).toEqual(['dev.local']);
    expect(allowedHostsOf({ host: '::', allowedHosts: 'all' }, 'build-box')).toBe('all');
    expect(allowedHostsOf({ host: '127.0.0.1', allowedHosts: [] }, 'build-box')).toEqual([]);
    expect(allowedHostsOf({ host: '::1', allowedHosts: ['mock'] }, 'build-box')).toEqual(['mock']);
  });

  it('takes --log quiet, info or debug, and refuses anything else; info by default, wherever the output goes', () => {
    expect(parseCliArgs(['--log', 'debug']).log).toBe('debug');
    expect(parseCliArgs(['--log=quiet']).log).toBe('quiet');
    expect(parseCliArgs([]).log).toBe('info');
    expect(refusal(['--log', 'verbose'])).toBe('--log expects one of quiet, info, debug, got "verbose"');
  });
});
