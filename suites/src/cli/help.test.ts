import { describe, expect, it } from 'vitest';
import { main } from '../../cli.ts';
import { ALLOWED, COMMANDS, parseCli, type Flag } from './args.ts';
import { EXAMPLES } from './help.ts';
import { captureDeps } from '../testing/cli.ts';
import { SELECTABLE_CHECKS } from '../checks/registry.ts';

async function help(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const t = captureDeps();
  const code = await main(argv, t.deps);
  return { code, out: t.out(), err: t.err() };
}

/** Every `--flag` the text names. */
function flagsIn(text: string): Set<string> {
  return new Set([...text.matchAll(/(?:^|[\s,])--([a-z][a-z-]+)/gm)].map((m) => m[1]!));
}

describe('each command has its own --help', () => {
  const ALL_FLAGS = new Set<Flag>(COMMANDS.flatMap((c) => [...ALLOWED[c]]));

  it.each(COMMANDS)('%s --help lists exactly its flags and real examples, exit 0', async (command) => {
    for (const argv of [[command, '--help'], [command, '-h'], ['help', command]]) {
      const r = await help(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.err).toBe('');
      expect(r.out.startsWith(`Usage: site-contracts ${command} `), r.out.slice(0, 80)).toBe(true);

      const flagSection = r.out.slice(0, r.out.indexOf('\nExamples:'));
      const named = flagsIn(flagSection);
      for (const flag of ALLOWED[command]) expect(named.has(flag), `${command} --help misses --${flag}`).toBe(true);
      for (const flag of ALL_FLAGS) if (!ALLOWED[command].has(flag)) expect(named.has(flag), `${command} --help names --${flag}, which ${command} refuses`).toBe(false);

      const examples = r.out.split('\n').filter((l) => l.startsWith(`  site-contracts ${command} `));
      expect(examples.length).toBeGreaterThanOrEqual(2);
      expect(examples.length).toBeLessThanOrEqual(4);
    }
  });

  it.each(COMMANDS)('every example of %s is a command line the parser takes', (command) => {
    for (const { line } of EXAMPLES[command]) {
      // As a POSIX shell splits it, with the variables the examples name set (their values are the user's business).
      const env = { STAGING_AUTH: 'editor:abcd efgh ijkl mnop', WAF_TOKEN: 'waf-0123456789abcdef' };
      const words = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => (m[1] ?? m[2]!).replace(/\$([A-Z_]+)/g, (_v, name: keyof typeof env) => env[name]));
      // An example that names a config file is taken with a file that gives the base URL.
      const config = words.includes('--config') ? { source: 'ci/staging.json', values: { 'base-url': 'https://staging.example.org' } } : undefined;
      const args = parseCli(words, env, config);
      expect(args.command === 'print-config' ? args.args.command : args.command, line).toBe(command);
    }
  });

  it('lists the checks --only and --skip take, from the registry, in test --help alone', async () => {
    const listed = (out: string): string[] => {
      const start = out.indexOf('Checks (names for --only and --skip):');
      return start < 0 ? [] : out.slice(start, out.indexOf('\nExamples:')).split('\n').slice(1).join(' ').split(/[\s,]+/).filter(Boolean);
    };
    const test = (await help(['test', '--help'])).out;
    expect(listed(test)).toEqual([...SELECTABLE_CHECKS]);
    const section = test.slice(test.indexOf('Checks (names'), test.indexOf('\nExamples:'));
    for (const line of section.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    for (const command of COMMANDS.filter((c) => c !== 'test')) expect(listed((await help([command, '--help'])).out), command).toEqual([]);
  });

  it('keeps the general help for --help alone, listing every flag once', async () => {
    const r = await help(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: site-contracts <command> [flags]');
    expect(r.out).toContain("site-contracts <command> --help    (that command's flags and examples)");
    for (const flag of ALL_FLAGS) expect(flagsIn(r.out).has(flag), `--${flag}`).toBe(true);
  });

  it('answers help for an unknown command with a usage error', async () => {
    const r = await help(['help', 'deploy']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('help: unknown command "deploy"');
  });
});
