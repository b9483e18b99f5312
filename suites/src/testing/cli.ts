// For tests: what main() is given, with stdout and stderr captured and the real file system.

import * as nodeFs from 'node:fs/promises';
import type { MainDeps } from '../../cli.ts';
import { defaultCommands } from '../cli/commands/index.ts';

interface Captured {
  deps: MainDeps;
  out(): string;
  err(): string;
}

export function captureDeps(overrides: Partial<MainDeps> = {}): Captured {
  const out: string[] = [];
  const err: string[] = [];
  const deps: MainDeps = {
    commands: defaultCommands,
    tool: { name: 'site-contracts', version: '9.9.9' },
    env: {},
    stdout: { write: (s: string) => void out.push(s) },
    stderr: { write: (s: string) => void err.push(s) },
    now: () => new Date('2026-01-01T00:00:00Z'),
    readFile: (path) => nodeFs.readFile(path, 'utf8'),
    fs: nodeFs,
    ...overrides,
  };
  return { deps, out: () => out.join(''), err: () => err.join('') };
}
