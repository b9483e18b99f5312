// The mock put together from a loaded contract and a filled store: routes, handlers, core and the Mock API. Where
// the contract and the data come from is the caller's business (index.ts: files on disk; browser.ts: memory), so
// nothing here touches a file or any other Node-only API.
import type { Contract } from '../../contracts/src/contract.ts';
import type { Operation } from '../../contracts/src/types.ts';
import { createRng } from '../../fixtures/lib/prng.ts';
import type { Store } from './store/store.ts';
import type { StoreData } from './store/model.ts';
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

/** How the mock behaves, whatever its data came from. */
export interface MockBehaviour {
  /** Seed of everything the mock generates: tokens, secrets, next batch hashes (default: random). */
  seed?: number;
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

/** The mock over `contract` and `store`; `persister` (a state file) is closed by `close()`. */
export function assembleMock(contract: Contract, store: Store, options: MockBehaviour = {}, persister?: { close(): Promise<void> }): Mock {
  const clock = options.clock ?? systemClock;
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
    frontEnd: {
      ...SITE,
      defaultLang: () => store.get('calendarSettings').default_lang,
      published: (type, slug, lang) => {
        const found = store.bySlug(type, slug, lang);
        return found && found.status === 'publish' ? { id: found.id, title: found.title } : undefined;
      },
    },
    control: {
      reset: {
        method: 'POST',
        run: () => {
          store.reset();
          return { status: 200, body: { reset: true, loaded: counts() } };
        },
      },
      state: { method: 'GET', run: () => ({ status: 200, body: { version: store.version, loaded: counts(), auth: options.auth ?? false } }) },
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
