// Public entry of the mock: `createMock()` builds the stateful WordPress stand-in (contract + store + core) and
// returns a request handler that any adapter can drive: node:http (adapters/node-http.ts, `npm run mock`), MSW
// (adapters/msw.ts) or a test calling `handle()` directly.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadContractFile, type Contract } from '../../contracts/src/loader.ts';
import { generateFixtures } from '../../fixtures/lib/generate-all.ts';
import { createRng } from '../../fixtures/lib/prng.ts';
import { createStore, type Store } from './store/store.ts';
import type { FixtureSet, StoreData } from './store/model.ts';
import { internalizeKeysOneByte } from './store/json-text.ts';
import { openStore, type Persister } from './store/persist.ts';
import type { DeepReadonly } from './store/table.ts';
import { offsetMinutes } from './store/time.ts';
import { DEFAULT_MAX_BODY_BYTES } from './wire/errors.ts';
import { RouteTable } from './core/routes.ts';
import { createCore } from './core/serve.ts';
import { systemClock, type Clock, type MockRequest, type MockResponse } from './core/types.ts';
import { batchHandler } from './handlers/batch.ts';
import type { Handler } from './handlers/context.ts';
import { Discovery } from './handlers/discovery.ts';
import { createRegistry } from './handlers/index.ts';
import type { Operation } from '../../contracts/src/types.ts';

export type { MockRequest, MockResponse, Clock } from './core/types.ts';
export { listen, nodeHandler, type Listening } from './adapters/node-http.ts';

export const DEFAULT_FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export interface MockOptions {
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
  /** Keep the store in this file across restarts (written atomically). */
  stateFile?: string;
  /** Writes need application-password Basic credentials. */
  auth?: boolean;
  /** Hold every answer this long (`Prefer: latency=MS` overrides it per request). */
  latencyMs?: number;
  clock?: Clock;
  /** Used when a request does not say which host it reached. */
  siteUrl?: string;
  maxBodyBytes?: number;
  /** Serve repeated identical reads between two writes from a response cache (default true). */
  responseCache?: boolean;
  /** Compile every validator at start (startup cost paid up front instead of on first use). */
  compileAll?: boolean;
  onError?: (err: unknown) => void;
}

export interface Credentials {
  username: string;
  password: string;
}

export interface Mock {
  /** Request → response, honouring latency (resolves after the delay). */
  handle(req: MockRequest): Promise<MockResponse>;
  /** Request → response at once; `delayMs` says how long the answer should be held. */
  handleNow(req: MockRequest): MockResponse;
  readonly store: Store;
  readonly contract: Contract;
  /** Back to the fixtures (what `POST /__mock/reset` does). */
  reset(): void;
  snapshot(): DeepReadonly<StoreData>;
  /** An administrator's application-password credentials from the fixtures (for --auth). */
  credentials(): Credentials | undefined;
  /** Saves the state file, if any, and stops saving. */
  close(): Promise<void>;
}

const SITE = { name: 'City Events', description: 'Concerts, talks and workshops in Kyiv, Lviv and beyond' };

export async function createMock(options: MockOptions = {}): Promise<Mock> {
  const contract = options.contract ?? loadContractFile(undefined, readContractText);
  if (options.compileAll) contract.compileAll();
  const clock = options.clock ?? systemClock;
  const now = () => new Date(clock.now());

  let store: Store;
  let persister: Persister | undefined;
  const generate = options.fixtures === undefined && options.fixturesDir === undefined && (options.seed !== undefined || options.eventCount !== undefined);
  if (options.fixtures || generate) {
    const set = options.fixtures ?? generateFixtures({ seed: options.seed ?? 1, ...(options.eventCount ? { eventCount: options.eventCount } : {}) });
    if (options.stateFile) {
      // A state file needs the fixtures on disk as its baseline; in-memory fixtures are the baseline here.
      const opened = await openStoreFromSet(set, options.stateFile, now);
      store = opened.store;
      persister = opened.persister;
    } else store = createStore(set, { now });
  } else {
    const opened = await openStore({ fixturesDir: options.fixturesDir ?? DEFAULT_FIXTURES_DIR, now, ...(options.stateFile ? { stateFile: options.stateFile } : {}) });
    store = opened.store;
    persister = opened.persister;
  }

  const rng = createRng(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const table = RouteTable.fromContract(contract);
  const discovery = new Discovery(contract, table, {
    ...SITE,
    timezone: store.get('calendarSettings').timezone,
    gmtOffset: () => offsetMinutes(store.get('calendarSettings').timezone, clock.now()) / 60,
  });
  let registry: (op: Operation) => Handler | undefined = () => undefined;
  const route = (op: Operation) => registry(op);
  registry = createRegistry({ contract, discovery, batch: batchHandler({ contract, table, route }) });

  const counts = () => ({
    events: store.events.size,
    venues: store.venues.size,
    organizers: store.organizers.size,
    categories: store.categories.size,
    tags: store.tags.size,
    contactForms: store.table('contactForms').size,
    users: store.table('users').size,
  });

  const core = createCore({
    contract,
    table,
    discovery,
    store,
    route,
    authRequired: options.auth ?? false,
    latencyMs: options.latencyMs ?? 0,
    clock,
    rng,
    siteUrl: options.siteUrl ?? 'http://127.0.0.1:4010',
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    responseCache: options.responseCache ?? true,
    ...(options.onError ? { onError: options.onError } : {}),
    control: (action, method) => {
      if (action === 'reset' && method === 'POST') {
        store.reset();
        return { status: 200, body: { reset: true, loaded: counts() } };
      }
      if (action === 'state' && method === 'GET') return { status: 200, body: { version: store.version, loaded: counts(), auth: options.auth ?? false } };
      return undefined;
    },
  });

  const handleNow = (req: MockRequest) => core.handle(req);
  return {
    handleNow,
    handle: async (req) => {
      const res = core.handle(req);
      if (res.delayMs && res.delayMs > 0) await new Promise((r) => setTimeout(r, res.delayMs));
      return res;
    },
    store,
    contract,
    reset: () => store.reset(),
    snapshot: () => store.snapshot(),
    credentials: () => {
      const admin = store.table('users').find((u) => u.roles.includes('administrator') && u.application_passwords.length > 0);
      const pw = admin?.application_passwords[0];
      return admin && pw ? { username: admin.username, password: pw.password } : undefined;
    },
    close: async () => {
      await persister?.close();
    },
  };
}

async function openStoreFromSet(set: FixtureSet, stateFile: string, now: () => Date): Promise<{ store: Store; persister?: Persister }> {
  const { loadState, createPersister } = await import('./store/persist.ts');
  const state = await loadState(stateFile);
  const store = createStore(set, state ? { now, state } : { now });
  return { store, persister: createPersister(store, { path: stateFile, now }) };
}

/** Loads the contract once for several mocks (tests, bench). */
export function loadContract(): Contract {
  return loadContractFile(undefined, readContractText);
}

/** The contract's text, its ASCII words made one-byte V8 strings before YAML parsing makes them keys (see json-text.ts). */
function readContractText(path: string): string {
  const text = readFileSync(path, 'utf8');
  internalizeKeysOneByte(text, /([A-Za-z_$][\w$-]{0,99})/g);
  internalizeKeysOneByte(text, /([A-Za-z_$][\w$-]*:[\w$-]+)/g);
  return text;
}
