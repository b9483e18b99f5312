// The one tokenizer of both command lines: the union of what each relies on, with the refusal built by the caller's
// own error (so each keeps its messages and exit codes).
import { describe, expect, it } from 'vitest';
import { positionalsOf, suggestion, tokenize } from './argv.ts';

class Refused extends Error {
  constructor(message: string, readonly flag?: string) {
    super(message);
  }
}

const SPECS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string', short: 'h' },
  only: { type: 'string', multiple: true },
  auth: { type: 'boolean' },
} as const;
const read = (argv: string[]) => tokenize(argv, SPECS, { expects: () => 'a value', error: (m, f) => new Refused(m, f), shortNotes: { h: 'help is --help' }, synonyms: { include: 'only' } });
const refusal = (argv: string[]): Refused => {
  try {
    read(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(Refused);
    return e as Refused;
  }
  throw new Error(`no refusal for ${argv.join(' ')}`);
};

describe('tokenize', () => {
  it('reads --flag=value, --flag value, short flags, repeated flags and stops at --', () => {
    expect(read(['--port=1', '-h', 'x', '--only', 'a', '--only=b', '--auth', 'cmd', '--', '--port'])).toEqual({
      values: { port: '1', host: 'x', only: ['a', 'b'], auth: true },
      positionals: ['cmd', '--port'],
    });
    expect(read(['-p9']).values).toEqual({ port: '9' });
    // Not repeatable: the last one counts.
    expect(read(['--port', '1', '--port', '2']).values).toEqual({ port: '2' });
  });

  it('refuses in the caller\'s own error, naming the flag, with a did-you-mean for long flags only', () => {
    expect(refusal(['--prot', '1']).message).toBe('unknown flag --prot (did you mean --port?)');
    expect(refusal(['--include', 'x']).message).toBe('unknown flag --include (did you mean --only?)');
    expect(refusal(['-x']).message).toBe('unknown flag -x');
    expect(refusal(['--constructor']).message).toBe('unknown flag --constructor');
    const missing = refusal(['-h']);
    expect(missing.message).toBe('-h (--host, help is --help) expects a value, got nothing');
    expect(missing.flag).toBe('host');
    expect(refusal(['-p']).message).toBe('-p (--port) expects a value, got nothing');
    expect(refusal(['--auth=yes']).message).toBe('--auth takes no value');
    expect(refusal(['--port', '--auth']).message).toBe('--port expects a value, got another flag (--auth); write --port=VALUE for a value that starts with -');
    expect(read(['--port=-1']).values).toEqual({ port: '-1' });
  });

  it('finds the positionals leniently, unknown flags and all', () => {
    expect(positionalsOf(['--bogus', 'test', '-u', 'x'], SPECS)).toEqual(['test', 'x']);
  });

  it('suggests a near word, never a far one', () => {
    expect(suggestion('latncy', ['latency', 'port'])).toBe('latency');
    expect(suggestion('state', ['state-file'])).toBeUndefined();
    expect(suggestion('', ['port'])).toBeUndefined();
  });
});
