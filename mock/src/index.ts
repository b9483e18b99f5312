// Public entry of the mock: `createMock()` builds the stateful WordPress stand-in (contract + store + core) and
// returns a request handler that any adapter can drive: node:http (adapters/node-http.ts, `npm run mock`), MSW
// (adapters/msw.ts) or a test calling `handle()` directly. This entry loads the contract and the fixtures from disk;
// assemble.ts builds the mock from them, and browser.ts builds the same mock from in-memory inputs.
import { sep } from 'node:path';
import { fileCacheIo, loadContractFile, type Contract } from '../../contracts/lib/loader.ts';
import { packagePath } from '../../contracts/lib/package-root.ts';
import { createStore, type Store } from './store/store.ts';
import type { FixtureSet } from '../../contracts/model/records.ts';
import { openStateFile, openStore, StateFileError, type Persister, type PersistFs, type StateFileOptions } from './store/persist.ts';
import { acquireStateLock, StateLockError, type StateLock } from './store/state-lock.ts';
import { systemClock } from './core/types.ts';
import type { CheckedFixtureCache } from './store/checked-fixtures.ts';
import { assembleMock, type Mock, type MockBehaviour } from './assemble.ts';

export type { MockRequest, MockResponse, Clock } from './core/types.ts';
export type { Credentials, Mock, MockBehaviour } from './assemble.ts';
export type { Client } from './core/byte-budget.ts';
export { listen, nodeHandler, type Listening } from './adapters/node-http.ts';
export { withCallRecord } from './calls-record.ts';
export { deviationsOf } from './playback/load.ts';
export type { PlayedDeviations } from './playback/stage.ts';

/** The bundled fixtures (fixtures/ of the checkout or of the installed package), with a trailing separator. */
export const DEFAULT_FIXTURES_DIR = packagePath('fixtures') + sep;

/**
 * The bundle's folder of checked fixture sets (checked-fixtures.ts), from the package's root: esbuild puts the path
 * in when .ci/packaging/bundle.ts builds the bundle and writes that folder beside it. An entry holds for the checks
 * of the build that wrote it, so only that build's code reads it; a checkout running its sources always checks.
 */
declare const SITE_CONTRACTS_CHECKED_FIXTURES: string | undefined;
const CHECKED_FIXTURES: CheckedFixtureCache | undefined =
  typeof SITE_CONTRACTS_CHECKED_FIXTURES === 'string' ? { dirs: [packagePath(SITE_CONTRACTS_CHECKED_FIXTURES)], io: fileCacheIo } : undefined;

export interface MockOptions extends MockBehaviour {
  /** The loaded contract (default: contracts/openapi.yaml). Load it once and share it between mocks in tests. */
  contract?: Contract;
  /** Fixture directory (default: fixtures/). Ignored when `fixtures` is given. */
  fixturesDir?: string;
  /** Fixture data in memory, instead of a directory. */
  fixtures?: FixtureSet;
  /**
   * Seed of everything the mock generates: tokens, secrets, next batch hashes. Without a fixture directory or
   * fixture data it also generates the fixtures from this seed (the committed fixtures are seed 1).
   */
  seed?: number;
  /** Number of events to generate when generating fixtures (bench: 10,000). */
  eventCount?: number;
  /**
   * Keep the store in this file across restarts: every write is in its journal (`<stateFile>.journal`) before its
   * answer goes out, and the whole state is compacted into the file now and then.
   */
  stateFile?: string;
  /** Things the state file has to say on start (a torn journal line left out); default: none printed. */
  onNote?: (message: string) => void;
  /** The state file's file operations (default: node's); a test passes ones that fail where it wants (a full disk). */
  stateFs?: PersistFs;
  /** Compile every validator at start (startup cost paid up front instead of on first use). */
  compileAll?: boolean;
}

export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = options.contract ?? loadContractFile();
  // The mock validates with validateBounded() (core/params.ts): its validators, not validate()'s.
  if (options.compileAll) contract.compileAll('bounded');
  const clock = options.clock ?? systemClock;
  const now = () => new Date(clock.now());

  let store: Store;
  let persister: Persister | undefined;
  // One mock per state file: the lock is taken before anything is read, and given back when the mock closes.
  const lock: StateLock | undefined = options.stateFile ? await lockStateFile(options.stateFile) : undefined;
  try {
    if (lock && lock.tookOverFrom !== undefined) options.onNote?.(`${lock.lockPath}: process ${lock.tookOverFrom} that held it ${lock.staleBecause ?? 'is gone'}; taken over`);
    if (lock && lock.removed.length > 0) options.onNote?.(`removed ${lock.removed.length} temporary file${lock.removed.length === 1 ? '' : 's'} of interrupted compactions: ${lock.removed.join(', ')}`);
    const generate = options.fixtures === undefined && options.fixturesDir === undefined && (options.seed !== undefined || options.eventCount !== undefined);
    if (options.fixtures || generate) {
      // Imported when used: the generator and its vocabulary are a tenth of the bundle, and most mocks load files.
      const set = options.fixtures ?? (await import('../../fixtures/lib/generate-all.ts')).generateFixtures({ seed: options.seed ?? 1, ...(options.eventCount ? { eventCount: options.eventCount } : {}) });
      if (options.stateFile) {
        // In-memory (or generated) fixtures are the baseline the state file's resets return to.
        const opened = await openStateFile(set, stateFileOptions(options, options.stateFile, now));
        store = opened.store;
        persister = opened.persister;
      } else store = createStore(set, { now });
    } else {
      const fixturesDir = options.fixturesDir ?? DEFAULT_FIXTURES_DIR;
      const checkedFixtures = CHECKED_FIXTURES ? { checkedFixtures: CHECKED_FIXTURES } : {};
      const opened = await openStore(options.stateFile ? { fixturesDir, ...checkedFixtures, ...stateFileOptions(options, options.stateFile, now), stateFile: options.stateFile } : { fixturesDir, ...checkedFixtures, now });
      store = opened.store;
      persister = opened.persister;
    }
  } catch (e) {
    await lock?.release();
    throw e;
  }
  if (lock) persister = withLock(persister, lock);

  return assembleMock(contract, store, options, persister);
}

/** The state file's lock; a directory where it cannot be made is a state file that cannot be written (exit 2). */
async function lockStateFile(path: string): Promise<StateLock> {
  try {
    return await acquireStateLock(path);
  } catch (e) {
    if (e instanceof StateLockError) throw e;
    throw new StateFileError(path, `cannot be written (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The persister that gives the lock back once it has closed. */
function withLock(persister: Persister | undefined, lock: StateLock): Persister | undefined {
  return persister && new LockedPersister(persister, lock);
}

/** A class rather than a literal with a `stats` getter: .ci/layers/per-call-classes.ts says why. */
class LockedPersister implements Persister {
  #closing: Promise<void> | undefined;
  constructor(
    private readonly persister: Persister,
    private readonly lock: StateLock,
  ) {}
  durable(version: number): Promise<boolean> | undefined {
    return this.persister.durable(version);
  }
  flush(): Promise<void> {
    return this.persister.flush();
  }
  compact(): Promise<void> {
    return this.persister.compact();
  }
  close(): Promise<void> {
    this.#closing ??= this.persister.close().finally(() => this.lock.release());
    return this.#closing;
  }
  get stats(): Persister['stats'] {
    return this.persister.stats;
  }
}

function stateFileOptions(options: MockOptions, path: string, now: () => Date): StateFileOptions {
  return { path, now, ...(options.onError ? { onError: options.onError } : {}), ...(options.onNote ? { onNote: options.onNote } : {}), ...(options.stateFs ? { fs: options.stateFs } : {}) };
}

/** Loads the contract once for several mocks (tests, bench). */
export function loadContract(): Contract {
  return loadContractFile();
}

