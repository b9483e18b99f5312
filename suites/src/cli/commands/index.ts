// The command registry the entry point dispatches through. Implementing a command means replacing
// its stub module; nothing else needs to change.

import type { CommandRegistry } from '../context.ts';
import { diffCommand } from './diff.ts';
import { mergeCommand } from './merge.ts';
import { proxyCommand } from './proxy.ts';
import { testCommand } from './test.ts';

export const defaultCommands: CommandRegistry = {
  test: testCommand,
  diff: diffCommand,
  proxy: proxyCommand,
  merge: mergeCommand,
};
