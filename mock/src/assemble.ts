// The mock put together from a loaded contract and a filled store: routes, handlers, core and the Mock API. Where
// the contract and the data come from is the caller's business (index.ts: files on disk; browser.ts: memory), so
// nothing here touches a file or any other Node-only API.
import type { Contract } from '../../contracts/lib/contract.ts';
import { createRng } from '../../fixtures/lib/prng.ts';
import type { Store } from './store/store.ts';
import type { StoreData } from '../../contracts/model/records.ts';
import type { DeepReadonly } from './store/table.ts';
import { offsetMinutes } from '../../contracts/wordpress/time.ts';
import { DEFAULT_MAX_BODY_BYTES } from './wire/errors.ts';
import type { MemoSettings, MemoStats } from './base/memo.ts';
import { createCore } from './core/serve.ts';
import { DEFAULT_MAX_HELD, HeldAnswers, tryAgainLater } from './core/held.ts';
import { ByteBudget, clientOf, DEFAULT_MAX_ANSWER_CHARS_BUILDING, type Client } from './core/byte-budget.ts';
import { authenticate } from './auth/permissions.ts';
import { systemClock, type Clock, type MockRequest, type MockResponse } from './core/types.ts';
import { createHandlerMemos } from './handlers/memos.ts';
import { Discovery } from './handlers/discovery.ts';
import { allowsBatch } from '../../contracts/lib/contract.ts';
import { operationTable } from './handlers/operations.ts';
import { siteUrlOf } from './site-url.ts';
import { CONTROL_PAGE_CSP, PAGE_SCRIPT, PAGE_STYLE, renderControlPage, renderRequestPage, type PageRoute } from './control-page.ts';
import { CONTROL_PREFIX, type ControlRoute } from './core/control.ts';
import type { AllowedHosts } from './core/front-door.ts';
import { recordOf, RequestRing, type RequestRecord } from './request-record.ts';
import type { CallIdentity } from '../../contracts/lib/calls-format.ts';
import { CommitTrace, saveRefusal } from './core/commit-trace.ts';
import { envelope } from './wire/envelope.ts';
import type { WpErrorResponse } from './wire/errors.ts';
import { wpJsonEncode } from '../../contracts/wordpress/php/index.ts';
import { TABLE_NAMES } from '../../contracts/model/tables.ts';
import { deviationStage, type DeviationStage, type PlayedDeviations } from './playback/stage.ts';

/** How the mock behaves, whatever its data came from. */
export interface MockBehaviour {
  /** Seed of everything the mock generates: tokens, secrets, next batch hashes (default: random). */
  seed?: number;
  /** Writes need application-password Basic credentials. */
  auth?: boolean;
  /** Hold every answer this long (`Prefer: latency=MS` overrides it per request). */
  latencyMs?: number;
  clock?: Clock;
  /** Milliseconds from a fixed point, high-resolution, for how long answers took (default `performance.now()`). */
  timer?: () => number;
  /**
   * The site URL, as WordPress's `home` and `siteurl` options hold it (`https://events.example.org`, no path): every
   * link, `guid`, `Location` and the API root are built on it. Default: the address the adapter serves (the node
   * adapter's listening address, MSW's `origin` option or the intercepted URL's origin), never the Host header.
   */
  siteUrl?: string;
  maxBodyBytes?: number;
  /**
   * Host names the mock answers to besides its own (IP addresses, `localhost` and `*.localhost`, the address a
   * request reached, the site URL's host): `events.test`, `.example.org` for the domain and its subdomains, or 'all'
   * to answer any (core/front-door.ts). A request for another name is refused with 403, against DNS rebinding.
   */
  allowedHosts?: AllowedHosts;
  /**
   * Remember what is costly to compute (answers to identical reads, renderings, list results, descriptors) in
   * memos bounded in bytes (default true). Off, everything is computed for every request; the answers are the same
   * byte for byte.
   */
  cache?: boolean;
  /** The memos' budget in estimated bytes, all together (default 128 MiB). */
  cacheMaxBytes?: number;
  onError?: (err: unknown) => void;
  /** How many answers may be held for latency at once (default 200); past it a request is answered 503 without running. */
  maxHeldAnswers?: number;
  /**
   * Characters of long answers (lists encoded in steps) being built at once, over all requests (default 128 Mi); past
   * it a read is answered 503 (core/byte-budget.ts).
   */
  maxAnswerCharsBuilding?: number;
  /** A site's deviations, derived from a run report (playback/derive.ts), played for the requests they match. */
  deviations?: PlayedDeviations;
}

const DEFAULT_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * The site's media library, which the mock does not keep: the featured images its fixtures name (what a reset
 * brings back, so read from a reset copy of the store).
 */
function mediaLibrary(store: Store): ReadonlySet<number> {
  const baseline = store.clone();
  baseline.reset();
  const ids = new Set<number>();
  for (const type of ['event', 'venue', 'organizer'] as const) {
    for (const rec of baseline.posts(type).values()) if (rec.featured_media > 0) ids.add(rec.featured_media);
  }
  return ids;
}

/** Each memo's share of the budget. */
function cacheBudget(enabled: boolean, total: number): Record<'responses' | 'renders' | 'lists' | 'docs' | 'descriptors', MemoSettings> {
  const share = (fraction: number): MemoSettings => ({ enabled, maxBytes: Math.floor(total * fraction) });
  return { responses: share(0.4), renders: share(0.4), lists: share(0.1), docs: share(0.05), descriptors: share(0.05) };
}

export interface Credentials {
  username: string;
  password: string;
}

export interface Mock {
  /** Request → response, honouring latency (resolves after the delay) and the state file (see `respond`). */
  handle(req: MockRequest): Promise<MockResponse>;
  /**
   * Request → response at once; `delayMs` says how long the answer should be held. It does not wait for the state
   * file: an answer may show a write that is not on disk yet.
   */
  handleNow(req: MockRequest): MockResponse;
  /**
   * `handleNow`, but with a state file an answer that wrote (or saw) a change is held until the change is on disk,
   * so an acknowledged write survives a crash: what servers should send. At once when there is nothing to wait for.
   */
  respond(req: MockRequest): MockResponse | Promise<MockResponse>;
  readonly store: Store;
  readonly contract: Contract;
  /** Back to the fixtures (what `POST /__mock/reset` does). */
  reset(): void;
  snapshot(): DeepReadonly<StoreData>;
  /**
   * Application-password credentials from the fixtures (for --auth): an administrator's by default, or those of the
   * first user with `role` (`'subscriber'`: a user with fewer rights, whom WordPress refuses with 403).
   */
  credentials(role?: string): Credentials | undefined;
  /** Saves the state file, if any, and stops saving. */
  close(): Promise<void>;
  /** What each memo holds now (entries and estimated bytes against its budget). */
  cacheStats(): Record<string, MemoStats>;
  /** The last requests to the REST routes, newest first (what GET /__mock/ lists). */
  recentRequests(): readonly RequestRecord[];
  /**
   * Who a request is from, for the bounds shared between clients (core/byte-budget.ts): its address (`client`, as
   * the adapter saw the connection) and, when its credentials check out, its user. The node adapter's `clientOf`.
   */
  clientOf(req: Pick<MockRequest, 'headers' | 'client'>): Client;
  /**
   * Who made a request, for --record: authenticated when its credentials check out (with the user's first role),
   * else anonymous, as WordPress treats credentials that do not (sample 31). Never the credentials.
   */
  identityOf(req: Pick<MockRequest, 'headers'>): CallIdentity;
}

// `theme`: the active theme's stylesheet, which the descriptor links to (wp:active-theme) for users who may see it;
// the theme Debian's WordPress package ships beside it.
const SITE = { name: 'City Events', description: 'Concerts, talks and workshops in Kyiv, Lviv and beyond', theme: 'twentytwentythree' };

/** What the mock needs of a state file: when a version is on disk (or undone), and closing it. */
interface Durability {
  /** undefined when `version` is on disk; else whether it got there (false: undone, commit-trace.ts). */
  durable(version: number): Promise<boolean> | undefined;
  close(): Promise<void>;
}

/** When a request came: the clock (for the page) and the timer then (for how long its answer took). */
interface Started {
  at: number;
  t0: number;
}

/** How often a read that saw an undone state is run again before it is answered 503 (writes kept failing meanwhile). */
const READ_AGAIN = 3;

/** Headers of the answer that make no sense on its refusal (the created record's address, a list's pages). */
const NOT_ON_REFUSALS = new Set(['Location', 'Link', 'X-WP-Total', 'X-WP-TotalPages']);

/** The answer to a request whose writes were undone: WordPress's refusal (saveRefusal()), as a write answers an error. */
function refused(res: MockResponse, error: WpErrorResponse): MockResponse {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (!NOT_ON_REFUSALS.has(k)) headers[k] = v;
  headers['Content-Type'] = 'application/json; charset=UTF-8';
  const out: MockResponse = { status: error.status, headers, body: wpJsonEncode(error.body) };
  if (res.delayMs) out.delayMs = res.delayMs;
  if (res.release) out.release = res.release;
  return out;
}

/**
 * A batch whose items' writes were partly undone: each item is its own request (WordPress's batches are not atomic),
 * so the items that were saved keep their answers and each undone one is answered as refused; what the journal holds
 * is what the answer says. Undefined when the answer is not the plain batch shape (`_jsonp`, `_fields`).
 */
function refusedItems(res: MockResponse, undone: (from: number, to: number) => boolean): MockResponse | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(res.body);
  } catch {
    return undefined;
  }
  const inner = (doc as { body?: unknown } | null)?.body;
  const holder = (Array.isArray((doc as { responses?: unknown } | null)?.responses) ? doc : Array.isArray((inner as { responses?: unknown } | null)?.responses) ? inner : undefined) as { responses: unknown[] } | undefined;
  if (!holder || holder.responses.length !== res.items!.length) return undefined;
  res.items!.forEach((w, i) => {
    if (!w || !undone(w.from, w.to)) return;
    const e = saveRefusal(w.operation);
    holder.responses[i] = envelope(e.body, e.status, []).body;
  });
  const out: MockResponse = { status: res.status, headers: res.headers, body: wpJsonEncode(doc) };
  if (res.delayMs) out.delayMs = res.delayMs;
  if (res.release) out.release = res.release;
  return out;
}

/** What the page shows of the played deviations. */
function pageDeviations(stage: DeviationStage) {
  return { site: stage.site, played: stage.list().map(({ deviation, on }) => ({ id: deviation.id, summary: deviation.summary, on })), unplayable: stage.unplayable };
}

/** The mock over `contract` and `store`; `persister` (a state file) holds answers until their writes are saved. */
export function assembleMock(contract: Contract, store: Store, options: MockBehaviour = {}, persister?: Durability): Mock {
  const clock = options.clock ?? systemClock;
  const timer = options.timer ?? (() => performance.now());
  const rng = createRng(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const budget = cacheBudget(options.cache ?? true, options.cacheMaxBytes ?? DEFAULT_CACHE_BYTES);
  const siteUrl = options.siteUrl === undefined ? undefined : siteUrlOf(options.siteUrl);
  const discovery = new Discovery(
    contract,
    {
      ...SITE,
      timezone: store.get('calendarSettings').timezone,
      gmtOffset: () => offsetMinutes(store.get('calendarSettings').timezone, clock.now()) / 60,
    },
    budget.descriptors,
  );
  const operations = operationTable({ contract, discovery });
  const memos = createHandlerMemos(budget);

  /** The routes for the page: each path once, its methods, by namespace in the contract's order. */
  const pageRoutes: PageRoute[] = [];
  for (const op of contract.operations) {
    const known = pageRoutes.find((r) => r.path === op.path);
    if (known) (known.methods as string[]).push(op.method.toUpperCase());
    else pageRoutes.push({ namespace: op.namespace, path: op.path, methods: [op.method.toUpperCase()] });
  }
  /** The last requests to the REST routes (not the page's own), for GET /__mock/ and GET /__mock/requests/<n>. */
  const recent = new RequestRing(50);
  const everyTable = (): Record<string, number> => {
    const lists: Record<string, { size: number }> = { event: store.events, venue: store.venues, organizer: store.organizers, category: store.categories, tag: store.tags };
    return Object.fromEntries(TABLE_NAMES.map((name) => [name, (lists[name] ?? store.table(name as Exclude<typeof name, 'event' | 'venue' | 'organizer' | 'category' | 'tag'>)).size]));
  };
  const page = (text: string, contentType: string) => () => ({ status: 200, text, contentType, headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } });
  const html = (status: number, text: string) => ({
    status,
    text,
    contentType: 'text/html; charset=UTF-8',
    headers: { 'Cache-Control': 'no-store', 'Content-Security-Policy': CONTROL_PAGE_CSP, 'X-Content-Type-Options': 'nosniff' },
  });

  const deviations = options.deviations ? deviationStage(contract, options.deviations) : undefined;
  const switchDeviation = (on: boolean) => (id = '') => {
    const known = deviations?.set(id, on) ?? false;
    return known ? { status: 200, body: { id, played: on } } : { status: 404, body: { code: 'mock_no_deviation', message: `No played deviation ${id}; GET /__mock/deviations lists them.`, data: { status: 404 } } };
  };
  const deviationRoutes: Record<string, ControlRoute> = deviations
    ? {
        deviations: { method: 'GET' as const, run: () => ({ status: 200, body: { site: deviations.site, played: deviations.list().map(({ deviation, on }) => ({ ...deviation, on })), unplayable: deviations.unplayable } }) },
        'deviation-off': { method: 'POST' as const, takesId: true, run: switchDeviation(false) },
        'deviation-on': { method: 'POST' as const, takesId: true, run: switchDeviation(true) },
      }
    : {};

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
    discovery,
    store,
    operations,
    isBatchable: (route) => allowsBatch(contract, route),
    authRequired: options.auth ?? false,
    latencyMs: options.latencyMs ?? 0,
    clock,
    rng,
    ...(siteUrl ? { siteUrl } : {}),
    allowedHosts: options.allowedHosts ?? [],
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    memos,
    media: mediaLibrary(store),
    responses: budget.responses,
    ...(options.onError ? { onError: options.onError } : {}),
    held: new HeldAnswers(options.maxHeldAnswers ?? DEFAULT_MAX_HELD),
    building: new ByteBudget(options.maxAnswerCharsBuilding ?? DEFAULT_MAX_ANSWER_CHARS_BUILDING),
    ...(deviations ? { deviations } : {}),
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
      '': {
        method: 'GET',
        page: true,
        run: () => html(200, renderControlPage({ routes: pageRoutes, recent: recent.list(), counts: everyTable(), auth: options.auth ?? false, apiRoot: '/wp-json', ...(deviations ? { deviations: pageDeviations(deviations) } : {}) })),
      },
      requests: {
        method: 'GET',
        page: true,
        takesId: true,
        run: (id = '') => {
          const detail = /^[1-9]\d{0,15}$/.test(id) ? recent.detail(Number(id)) : undefined;
          return html(detail ? 200 : 404, renderRequestPage(detail, id, recent.capacity));
        },
      },
      ...deviationRoutes,
      'page.js': { method: 'GET', page: true, run: page(PAGE_SCRIPT, 'text/javascript; charset=UTF-8') },
      'page.css': { method: 'GET', page: true, run: page(PAGE_STYLE, 'text/css; charset=UTF-8') },
    },
  });

  const started = (): Started => ({ at: clock.now(), t0: timer() });
  const seen = (req: MockRequest, res: MockResponse, { at, t0 }: Started): MockResponse => {
    if (!req.url.startsWith(CONTROL_PREFIX)) recent.push(recordOf(req, res, new Date(at), timer() - t0), req, res);
    return res;
  };
  // handleNow() hands the delay to its caller, who holds the answer outside the mock's count: its place is given
  // back at once.
  const handleNow = (req: MockRequest) => {
    const start = started();
    const res = core.handle(req);
    res.release?.();
    delete res.release;
    return seen(req, res, start);
  };
  /**
   * The answer once its write (if any) is saved: a large batch in steps, other requests served between them. With a
   * state file no answer goes out before the journal has every commit it saw or made; a commit the journal could not
   * take was undone (store/persist.ts), so the answer is decided then (decide()).
   */
  const respond = (req: MockRequest): MockResponse | Promise<MockResponse> => {
    const start = started();
    if (!persister) {
      const out = core.serve(req);
      return out instanceof Promise ? out.then((res) => seen(req, res, start)) : seen(req, out, start);
    }
    return saved(persister, req, start, 0);
  };
  const saved = (p: Durability, req: MockRequest, start: Started, again: number): MockResponse | Promise<MockResponse> => {
    const trace = new CommitTrace(store);
    const out = core.serve(req, trace);
    return out instanceof Promise ? out.then((res) => settle(p, req, res, start, trace, again)) : settle(p, req, out, start, trace, again);
  };
  const settle = (p: Durability, req: MockRequest, res: MockResponse, start: Started, trace: CommitTrace, again: number): MockResponse | Promise<MockResponse> => {
    const wait = p.durable(trace.last);
    if (wait === undefined && !trace.touched) {
      trace.close();
      return seen(req, res, start);
    }
    return (wait ?? Promise.resolve(true)).then(() => decide(p, req, res, start, trace, again));
  };
  /**
   * What saw an undone commit: a request that wrote nothing runs again (its answer showed a state that never was); a
   * write whose commit was undone is refused as WordPress refuses a write its database did not take; a batch keeps the
   * answers of its saved items and refuses the others.
   */
  const decide = (p: Durability, req: MockRequest, res: MockResponse, start: Started, trace: CommitTrace, again: number): MockResponse | Promise<MockResponse> => {
    trace.close();
    if (trace.readUndone) {
      res.release?.();
      if (again < READ_AGAIN) return saved(p, req, start, again + 1);
      return seen(req, tryAgainLater('mock_state_not_saved', 'The state this answer read was taken back: the state file cannot be written, and writes are refused. Nothing was changed. Try again.'), start);
    }
    if (!trace.undoneWithin()) return seen(req, res, start);
    const items = res.items ? refusedItems(res, (from, to) => trace.undoneWithin(from, to)) : undefined;
    return seen(req, items ?? refused(res, saveRefusal(res.operation)), start);
  };
  return {
    handleNow,
    respond,
    handle: async (req) => {
      const res = await respond(req);
      if (res.delayMs && res.delayMs > 0) await new Promise((r) => setTimeout(r, res.delayMs));
      res.release?.();
      delete res.release;
      return res;
    },
    store,
    contract,
    reset: () => store.reset(),
    snapshot: () => store.snapshot(),
    credentials: (role = 'administrator') => {
      const user = store.table('users').find((u) => u.roles.includes(role as (typeof u.roles)[number]) && u.application_passwords.length > 0);
      const pw = user?.application_passwords[0];
      return user && pw ? { username: user.username, password: pw.password } : undefined;
    },
    close: async () => {
      await persister?.close();
    },
    recentRequests: () => recent.list(),
    clientOf: (req) => clientOf(req.client, authenticate(req.headers.authorization, store)?.id),
    identityOf: (req) => {
      const user = authenticate(req.headers.authorization, store);
      return user ? { auth: 'authenticated', ...(user.roles[0] ? { role: user.roles[0] } : {}) } : { auth: 'anonymous' };
    },
    cacheStats: () => ({
      responses: core.responseStats(),
      renders: memos.renders.stats,
      lists: memos.lists.stats,
      docs: memos.docs.stats,
      descriptors: discovery.memoStats(),
    }),
  };
}
