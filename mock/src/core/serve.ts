// The mock's entry for one raw request: the wrappers around the pipeline of stages (pipeline.ts), outermost first:
//
//   front door     front-door.ts  a Host that is not the mock's own (DNS rebinding): 403 on every route
//   held answers   held.ts        Prefer: latency / --latency: a bounded number held at once (503 past it)
//   control routes control.ts     /__mock/reset, /__mock/state: the mock's own, not WordPress; a request from a
//                                 page of another site is refused there (front-door.ts)
//   deviations     playback/      --deviations: a site's deviations from a run report, for the requests they match
//   response memo  memo.ts        identical plain reads between two writes, within the same second
//   pipeline       pipeline.ts    read → route → validate → authorize → run → respond
//
// Links are built from the site URL (WordPress's `home` and `siteurl` options): the one the mock was given, else the
// address the adapter serves (never the Host header, which any client sets to anything).
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Store } from '../store/store.ts';
import type { Discovery } from '../handlers/discovery.ts';
import type { HandlerMemos, OperationRow, Rng } from '../handlers/context.ts';
import { utf8Encode } from '../../../contracts/wordpress/bytes.ts';
import { textBytes, VersionedMemo, type MemoSettings, type MemoStats } from '../base/memo.ts';
import { ParamReader } from './params.ts';
import { authenticate } from '../auth/permissions.ts';
import { controlAction, controlAnswer, type ControlRoute } from './control.ts';
import { crossSite, foreignHost, hostName, type AllowedHosts } from './front-door.ts';
import type { FrontEndSite } from './front-end.ts';
import type { Clock, MockRequest, MockResponse, Played } from './types.ts';
import { ANONYMOUS_MAX_LATENCY_MS, tooManyHeld, type HeldAnswers } from './held.ts';
import { parsePrefer, PREFER_MAX_LATENCY_MS, type Prefer } from './prefer.ts';
import { createPipeline, type Served } from './pipeline.ts';
import { clientOf, type ByteBudget } from './byte-budget.ts';
import { andThen, runNow, runYielding, type Work } from '../base/work.ts';
import { traced, type CommitTrace } from './commit-trace.ts';
import type { ContractRoute } from '../../../contracts/lib/loader.ts';


/** The site URL when neither the mock nor the adapter names one. */
const DEFAULT_SITE_URL = 'http://127.0.0.1:4010';

interface CoreOptions {
  contract: Contract;
  discovery: Discovery;
  store: Store;
  /** The operation table: operationId → its row, handler and permission (handlers/operations.ts). */
  operations: Readonly<Record<string, OperationRow>>;
  /** Whether a route may be a batch item. */
  isBatchable: (route: ContractRoute) => boolean;
  authRequired: boolean;
  latencyMs: number;
  clock: Clock;
  rng: Rng;
  /** The site URL (`http://127.0.0.1:4010`, no path): when absent, the adapter's (MockRequest.origin). */
  siteUrl?: string;
  /** Host names the mock answers to besides its own (front-door.ts), or 'all'. */
  allowedHosts: AllowedHosts;
  maxBodyBytes: number;
  /** The site behind the front-end pages (everything outside the REST API). */
  frontEnd: FrontEndSite;
  /** The mock's control routes by action (`reset` for `/__mock/reset`). */
  control: Readonly<Record<string, ControlRoute>>;
  /** What handlers remember (renderings, lists, documents). */
  memos: HandlerMemos;
  /** The attachment IDs of the site's media library (the fixtures' featured images). */
  media: ReadonlySet<number>;
  /** The response memo: identical reads between two writes, within the same second. */
  responses: MemoSettings;
  /** Called when a handler throws: the answer is WordPress's critical-error 500, the error goes here. */
  onError?: (err: unknown) => void;
  /** The answers held for latency at once: bounded (held.ts). */
  held: HeldAnswers;
  /** The long answers being built at once: bounded (byte-budget.ts). */
  building: ByteBudget;
  /**
   * A site's deviations played back (--deviations, playback/stage.ts): given the request and the rest of the way, it
   * answers, rereads or reshapes the requests it matches; absent: none.
   */
  deviations?: { serve(mreq: MockRequest, next: (m: MockRequest, play?: Played) => MockResponse | Work<MockResponse>): MockResponse | Work<MockResponse> };
}

interface Core {
  /** The answer now: work in steps (a large batch) is run through in this turn. */
  handle(req: MockRequest): MockResponse;
  /**
   * The answer; work in steps runs one step per turn of the event loop, so other requests are served between. With a
   * `trace`, each step is run through it (what the request read and wrote, for the state file: commit-trace.ts).
   */
  serve(req: MockRequest, trace?: CommitTrace): MockResponse | Promise<MockResponse>;
  /** What the response memo holds. */
  responseStats(): MemoStats;
}

export function createCore(opts: CoreOptions): Core {
  const pipeline = createPipeline({
    contract: opts.contract,
    params: new ParamReader(opts.contract, (op) => opts.operations[op.id]?.args),
    store: opts.store,
    authRequired: opts.authRequired,
    operations: opts.operations,
    memos: opts.memos,
    media: opts.media,
    maxBodyBytes: opts.maxBodyBytes,
    discovery: opts.discovery,
    frontEnd: opts.frontEnd,
    isBatchable: opts.isBatchable,
    building: opts.building,
    ...(opts.onError ? { onError: opts.onError } : {}),
  });

  // Identical reads between two writes get identical answers: the state (store version), the second (answers may
  // depend on "now"), the site URL and everything of the request that WordPress reads are the key. An answer that
  // drew on the random source (an oEmbed secret) is never kept: the next read must draw again.
  const responses = new VersionedMemo<string, MockResponse>(opts.responses, (key, r) => textBytes(key) + r.body.length + (r.bodyBytes?.byteLength ?? 0) + 512);
  const cacheKey = (mreq: MockRequest, pref: Prefer, now: number, site: string): string | undefined => {
    if (!opts.responses.enabled) return undefined;
    if (mreq.method !== 'GET' && mreq.method !== 'HEAD') return undefined;
    if (mreq.body !== undefined && mreq.body.length > 0) return undefined;
    const h = mreq.headers;
    // A forced status, or a Prefer the request is refused for, is not the answer identical reads get.
    if (pref.code !== undefined || pref.invalid !== undefined) return undefined;
    return `${Math.floor(now / 1000)}\u0000${mreq.method} ${mreq.url}\u0000${site}\u0000${h.origin ?? ''}\u0000${h.authorization ?? ''}\u0000${h['x-wp-nonce'] ?? ''}\u0000${h['x-http-method-override'] ?? ''}\u0000${h['content-type'] ?? ''}`;
  };

  /** The response memo around the pipeline. */
  const memoized = (mreq: MockRequest, pref: Prefer, delayMs: number, play?: Played): MockResponse | Work<MockResponse> => {
    // One reading of the clock for the whole request: the key's second is the answer's.
    const now = opts.clock.now();
    const site = opts.siteUrl ?? mreq.origin ?? DEFAULT_SITE_URL;
    // A played deviation's answer is not the plain mock's: neither taken from the memo nor kept in it (it switches off).
    const key = play ? undefined : cacheKey(mreq, pref, now, site);
    const version = opts.store.version;
    if (key !== undefined) {
      const hit = responses.at(version).peek(key);
      if (hit) return { status: hit.status, headers: { ...hit.headers }, body: hit.body, ...(hit.bodyBytes ? { bodyBytes: hit.bodyBytes } : {}), ...(hit.safe ? { safe: hit.safe } : {}), ...(delayMs > 0 ? { delayMs } : {}) };
    }
    let drew = false;
    const rng: Rng = {
      next: () => {
        drew = true;
        return opts.rng.next();
      },
      hex: (length) => {
        drew = true;
        return opts.rng.hex(length);
      },
    };
    return andThen(pipeline(mreq, { pref, now, site, rng, delayMs, ...(play ? { play } : {}) }), ({ res, plain }: Served) => {
      if (key !== undefined && plain && !drew && res.status < 500 && opts.store.version === version) {
        responses.at(version).set(key, { status: res.status, headers: { ...res.headers }, body: res.body, bodyBytes: utf8Encode(res.body), ...(res.safe ? { safe: res.safe } : {}) });
      }
      return res;
    });
  };

  const door = { allowedHosts: opts.allowedHosts, ...(opts.siteUrl ? { siteHost: hostName(new URL(opts.siteUrl).host) } : {}) };

  /** The control routes: the mock's own, before anything of WordPress's, and for pages of this site only. */
  const controlled = (mreq: MockRequest, pref: Prefer, delayMs: number): MockResponse | Work<MockResponse> => {
    const q = mreq.url.indexOf('?');
    const action = controlAction(q < 0 ? mreq.url : mreq.url.slice(0, q));
    if (action !== undefined) {
      return crossSite(mreq, door) ?? controlAnswer(mreq, action, { routes: opts.control, authRequired: opts.authRequired, user: () => authenticate(mreq.headers.authorization, opts.store) });
    }
    return opts.deviations ? opts.deviations.serve(mreq, (m, play) => memoized(m, pref, delayMs, play)) : memoized(mreq, pref, delayMs);
  };

  /** Held answers: a place among the bounded number held at once, or a 503 at once, before the request runs. */
  const held = (mreq: MockRequest): MockResponse | Work<MockResponse> => {
    let pref = parsePrefer(mreq.headers.prefer);
    const user = pref.latency !== undefined || opts.latencyMs > 0 ? authenticate(mreq.headers.authorization, opts.store) : undefined;
    if (pref.latency !== undefined && pref.latency > ANONYMOUS_MAX_LATENCY_MS && user === undefined) {
      const { latency, ...rest } = pref;
      pref = { ...rest, invalid: `latency takes at most ${ANONYMOUS_MAX_LATENCY_MS} milliseconds without valid credentials (up to ${PREFER_MAX_LATENCY_MS} with them), got "${latency}"` };
    }
    const delayMs = pref.latency ?? opts.latencyMs;
    if (delayMs <= 0) return controlled(mreq, pref, delayMs);
    // A place among the answers held at once, within this client's bounds (its address, and its user when signed in).
    const place = opts.held.take(clientOf(mreq.client, user?.id));
    if ('refused' in place) return tooManyHeld(opts.held, place.refused);
    return andThen(controlled(mreq, pref, delayMs), (res) => {
      if (res.delayMs && res.delayMs > 0) res.release = place.release;
      else place.release();
      return res;
    });
  };

  /** The front door: a request for a name that is not the mock's own goes no further. */
  const entry = (mreq: MockRequest): MockResponse | Work<MockResponse> => foreignHost(mreq, door) ?? held(mreq);

  return {
    handle: (req) => runNow(entry(req)),
    serve: (req, trace) => runYielding(trace ? traced(trace, () => entry(req)) : entry(req)),
    responseStats: () => responses.stats,
  };
}
