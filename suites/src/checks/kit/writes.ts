// Whether this run lets a check write: the same two reasons, in the same words, for every check that makes records.

import type { UnitEnv } from './unit.ts';

/** Why the run may not write (the skip's reason), or undefined when it may. */
export function writeBlocker(env: UnitEnv): string | undefined {
  if (env.readOnly) return '--read-only: the suite writes nothing';
  if (!env.hasCredentials) return 'no credentials (--auth-env): the suite writes nothing';
  return undefined;
}
