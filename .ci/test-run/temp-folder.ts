// A test run leaves nothing in the system temp folder (the guide's rule, and issue 28: a run once left two folders
// there). vitest's globalSetup (vitest.config.ts): the run gets a temp folder of its own, named by TMPDIR (and TMP,
// TEMP), which os.tmpdir() reads in this process, in the test workers (forked after this runs, with this
// environment) and in every process a test starts. What a test leaves there fails the run, named; the folder is
// removed at the end however the run went, so even a failing run leaves nothing behind.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * tsx's compile cache (`tsx-<uid>`), which the processes tests start through tsx share: kept there on purpose by
 * tsx, and removed with the folder.
 */
const TOOL_CACHES = /^tsx-\d+$/;

const NAMES = ['TMPDIR', 'TMP', 'TEMP'] as const;

export interface TempFolder {
  path: string;
  /** Removes the folder and says what the tests left in it. */
  close(): string[];
}

export function openTempFolder(base: string): TempFolder {
  const path = mkdtempSync(join(base, 'site-contracts-test-run-'));
  return {
    path,
    close() {
      const left = readdirSync(path).filter((name) => !TOOL_CACHES.test(name)).sort();
      rmSync(path, { recursive: true, force: true });
      return left;
    },
  };
}

/** vitest's globalSetup: the run's temp folder in the environment; the teardown checks and removes it. */
export default function setup(): () => void {
  const folder = openTempFolder(tmpdir());
  const saved = NAMES.map((name) => [name, process.env[name]] as const);
  for (const name of NAMES) process.env[name] = folder.path;
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const left = folder.close();
    if (left.length === 0) return;
    console.error(
      `\nThe tests left ${left.length} file(s) or folder(s) in the temp folder (now removed): ${left.join(', ')}. ` +
        'A test removes what it creates (mkdtemp, then rm in afterAll or finally).\n',
    );
    process.exitCode = 1;
  };
}
