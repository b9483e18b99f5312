// One request through the mock, in WordPress's order. The stages, one file each under stages/:
//
//   read       stages/read.ts       framing and limits (Apache's refusals, PHP's parsing, 413, Prefer, _jsonp)
//   route      stages/route.ts      the contract's matcher, once
//   validate   stages/validate.ts   has_valid_params(), sanitize_params()
//   authorize  stages/authorize.ts  the permission callback
//   run        stages/run.ts        the operation's handler (operation table), pagination and Allow headers
//   respond    stages/respond.ts    _fields, _embed, _envelope, _jsonp, _pretty, headers
//
// `servePipeline` is the only place the order is written (as Prism's factory composes its stages). A request whose
// body is STEPPED_BODY_BYTES or more runs each stage in a turn of the event loop of its own (work.ts), so a small read
// from another client waits for one stage of a body near the 8 MiB cap, not for all of them. OPTIONS and
// `Prefer: code=` replace route..run for the requests that carry them (wrappers of dispatch); a request that is not
// for the API goes to the front end. The response memo and the held answers wrap all of it (serve.ts).
import type { ContractRoute } from '../../../contracts/lib/loader.ts';
import { criticalError, noRoute, prefer as preferError, wpError } from '../wire/errors.ts';
import { wpRestRequest, type ParsedRequest } from '../wire/request.ts';
import type { Discovery } from '../handlers/discovery.ts';
import { oembedXmlAnswer } from '../handlers/addons/oembed.ts';
import type { ItemDispatcher, PreparedItem } from '../handlers/context.ts';
import { allowFor, langOf, rowOf, withAllow, type Dispatched, type DispatchEnv, type Prepared } from './exchange.ts';
import { frontEndAnswer, type FrontEndSite } from './front-end.ts';
import type { Prefer } from './prefer.ts';
import type { HeaderList } from '../wire/headers.ts';
import type { User } from '../auth/permissions.ts';
import type { ItemWrites, MockRequest, MockResponse, Played } from './types.ts';
import { andThen, andThenAfterTurn, isWork, runNow, type Work } from '../base/work.ts';
import { read, type ReadDeps } from './stages/read.ts';
import { route } from './stages/route.ts';
import { validate } from './stages/validate.ts';
import { authorize } from './stages/authorize.ts';
import { run } from './stages/run.ts';
import { respond, respondError, type Exchange } from './stages/respond.ts';
import type { Rng } from '../handlers/context.ts';
import type { ByteBudget } from './byte-budget.ts';

interface PipelineDeps extends ReadDeps {
  discovery: Discovery;
  frontEnd: FrontEndSite;
  isBatchable: (route: ContractRoute) => boolean;
  /** The long answers being built at once (byte-budget.ts). */
  building: ByteBudget;
  onError?: (err: unknown) => void;
}

/** The answer, and whether identical requests may get it from the response memo (isPlainRead()). */
export interface Served {
  res: MockResponse;
  plain: boolean;
}

/** What the wrappers decided before the pipeline runs: the Prefer header, the clock, the site URL, the delay. */
interface Asked {
  pref: Prefer;
  now: number;
  site: string;
  rng: Rng;
  delayMs: number;
  /** A played deviation's answer or edits for this request (playback/stage.ts): never remembered by the memo. */
  play?: Played;
}

/**
 * From this body size the stages run one per turn of the event loop. Reading, validating, running (a post's content
 * rendered: wptexturize and wpautop) and encoding a body near the 8 MiB cap each take a few hundred milliseconds; a
 * quarter of a MiB takes a few each, so smaller requests keep answering in the turn they arrive in.
 */
export const STEPPED_BODY_BYTES = 256 * 1024;

const bodySize = (mreq: MockRequest): number => (mreq.body === undefined ? 0 : typeof mreq.body === 'string' ? mreq.body.length : mreq.body.byteLength);

/** The global parameters serve_request() reads itself: a query that has only these and declared args is plain. */
const GLOBAL_PARAMS: ReadonlySet<string> = new Set(['_fields', '_embed', '_envelope', '_jsonp', '_pretty', '_method', 'rest_route']);

/**
 * Whether an answer may be remembered for identical requests: it answered a declared route with only declared or
 * global parameters (so a client adding `?_=123` makes no entry), with no credentials or valid ones.
 */
function isPlainRead(req: ParsedRequest, d: Dispatched, user: User | undefined): boolean {
  if (d.op === undefined || (req.headers.authorization !== undefined && user === undefined)) return false;
  const declared = d.op.params;
  for (const k of req.phpQuery.keys()) {
    const name = String(k);
    if (!GLOBAL_PARAMS.has(name) && !declared.some((p) => p.name === name)) return false;
  }
  return true;
}

/** `$request['context'] = 'embed'` when the link's own is empty: appended, as PHP's parse_str() keeps a key's last value. */
function withEmbedContext(route: string): string {
  const q = route.indexOf('?');
  const own = q < 0 ? null : new URLSearchParams(route.slice(q + 1)).getAll('context').at(-1);
  if (own !== undefined && own !== null && own !== '' && own !== '0') return route;
  return `${route}${q < 0 ? '?' : '&'}context=embed`;
}

function failed(prep: Extract<Prepared, { kind: 'error' }>, env: DispatchEnv): Dispatched {
  const headers = withAllow([], allowFor(prep.route, prep.pathParams, prep.lang, env));
  const out: Dispatched = { status: prep.error.status, data: prep.error.body, headers, error: true };
  if (prep.op) out.op = prep.op;
  return out;
}

/** Steps whose throw becomes `crash`'s answer (a generator declared once, not made per call: base/work.ts says why). */
function* guardedSteps(steps: Work<Dispatched>, crash: (err: unknown) => Dispatched): Work<Dispatched> {
  try {
    return yield* steps;
  } catch (err) {
    return crash(err);
  }
}

/** A batch's answer, as the batch handler builds it: `{responses: [{body, status, headers}, ...]}`. */
function batchEntries(data: unknown): readonly unknown[] | undefined {
  const responses = (data as { responses?: unknown } | null)?.responses;
  return typeof data === 'object' && Array.isArray(responses) ? responses : undefined;
}

export function createPipeline(deps: PipelineDeps) {
  /**
   * Per batch request (its environment), each item's answer body → the versions its commits lie in: the batch's
   * answer then says, entry by entry, which write to refuse if the state file cannot take it (commit-trace.ts).
   */
  const itemWrites = new WeakMap<DispatchEnv, Map<unknown, ItemWrites>>();
  const noteItem = (env: DispatchEnv, d: Dispatched, from: number): Dispatched => {
    const to = deps.store.version;
    if (to === from || typeof d.data !== 'object' || d.data === null) return d;
    let m = itemWrites.get(env);
    if (!m) itemWrites.set(env, (m = new Map()));
    m.set(d.data, d.op ? { from, to, operation: d.op } : { from, to });
    return d;
  };
  /** What assemble.ts needs to refuse this answer's writes: the operation, and for a batch each item's. */
  const noteWrites = (res: MockResponse, env: DispatchEnv, d: Dispatched): MockResponse => {
    if (d.op) res.operation = d.op;
    const items = itemWrites.get(env);
    const entries = items && batchEntries(d.data);
    if (entries) res.items = entries.map((e) => items!.get((e as { body?: unknown } | null)?.body));
    return res;
  };

  const prepare = (req: ParsedRequest, env: DispatchEnv): Prepared => validate(route(req, env), req, env);
  const execute = (prep: Prepared, req: ParsedRequest, env: DispatchEnv): Dispatched | Work<Dispatched> =>
    prep.kind === 'error' ? failed(prep, env) : run(prep, req, env, authorize(prep, req, env), itemsOf(env));
  /**
   * WP_REST_Server::dispatch(): route → validate → authorize → run (with `pause`, authorize and run in a later turn
   * of the event loop). The refusals of an operation whose row says `xmlErrors` (the oEmbed embed route) go out as
   * XML when XML was asked for, as _oembed_rest_pre_serve_request() serves them for a GET whose route is that
   * route's as written (the handler answers its own successes).
   */
  const dispatch = (req: ParsedRequest, env: DispatchEnv, pause = false): Dispatched | Work<Dispatched> =>
    andThen(andThenAfterTurn(pause, prepare(req, env), (prep) => execute(prep, req, env)), (d) => {
      const xmlRoute = d.error && d.op !== undefined && rowOf(env, d.op)?.xmlErrors === true && req.method === 'GET' && req.route === d.op.path;
      const xml = xmlRoute ? oembedXmlAnswer(req.query, d.data) : undefined;
      return xml ? { ...d, raw: xml } : d;
    });

  /**
   * serve_batch_request_v1()'s items: the same stages, in the batch request's environment. Methods, not arrow
   * properties: this is made for every request and every batch item, and under tsx each named arrow costs an
   * Object.defineProperty() of its name when it is made (mock/bench/README.md).
   */
  const itemsOf = (env: DispatchEnv): ItemDispatcher => ({
    prepare(req): PreparedItem {
      const prep = prepare(req, env);
      if (!prep.route || deps.isBatchable(prep.route)) return prep;
      return { kind: 'error', error: wpError('rest_batch_not_allowed', 'The requested route does not support batch requests.', { status: 400 }), route: prep.route, ...(prep.op ? { op: prep.op } : {}), pathParams: prep.pathParams ?? {}, lang: prep.lang } as Prepared;
    },
    // Items are Prepared values prepare() above made.
    run(item, req) {
      const from = deps.store.version;
      return andThen(execute(item as Prepared, req, env), (d) => noteItem(env, d, from));
    },
  });

  /**
   * embed_links(): an `_embed` GET under this request's API root, WP_REST_Request::from_url( $href ) dispatched with
   * `context=embed` unless the link names a context of its own (`if ( empty( $request['context'] ) )`).
   */
  const embed = (env: DispatchEnv) => (href: string): unknown => {
    const root = env.links.apiRoot;
    if (!href.startsWith(root)) return undefined;
    const inner = wpRestRequest({ method: 'GET', path: `/${withEmbedContext(href.slice(root.length))}`, headers: {} });
    return inner ? runNow(dispatch(inner, env)).data : undefined;
  };

  /** rest_handle_options_request(): the first matching route's description, or an empty body. */
  const options = (x: Exchange): Dispatched => {
    const m = x.env.contract.matching(x.req.route);
    if (!m) return { status: 200, data: [], headers: [], error: false };
    const allow = allowFor(m.route, m.pathParams, langOf(undefined, x.env), x.env);
    return { status: 200, data: deps.discovery.options(m.route, x.env.links.apiRoot), headers: allow && allow.length ? [['Allow', allow.join(', ')]] : [], error: false };
  };

  /** The Allow header of an answer given without running the operation, for a route that matched. */
  const allowWithoutRunning = (x: Exchange, m: { route: ContractRoute; pathParams: Record<string, string> }): HeaderList => {
    const allow = allowFor(m.route, m.pathParams, langOf(undefined, x.env), x.env);
    return allow && allow.length ? [['Allow', allow.join(', ')]] : [];
  };

  /** `Prefer: code=`: 400 and up answered in WordPress's error shape without running; below 400 run, then restatused. */
  const preferCode = (x: Exchange, code: number): Dispatched | Work<Dispatched> => {
    const m = x.env.contract.match(x.req.method, x.req.route);
    if (m.kind !== 'match') return { status: noRoute().status, data: noRoute().body, headers: [], error: true };
    const forced = preferError(code);
    if (!forced) return andThen(dispatch(x.req, x.env), (d) => ({ ...d, status: code }));
    return { status: forced.status, data: forced.body, headers: allowWithoutRunning(x, m), error: true };
  };

  /**
   * A played deviation's recorded answer, without running: its JSON is the data respond() encodes and heads as
   * WordPress does (wp_json_encode(), serve_request()'s headers, `_envelope`, `_jsonp`, HEAD); a body that is not JSON
   * (a 5xx page) is sent as recorded, with its type. Allow as for a forced error, but a missing route matched none.
   */
  const playedAnswer = (x: Exchange, a: NonNullable<Played['answer']>): Dispatched => {
    let data: unknown;
    try {
      data = JSON.parse(a.body);
    } catch {
      data = undefined;
    }
    const m = x.env.contract.match(x.req.method, x.req.route);
    const noRouteCode = (data as { code?: unknown } | null | undefined)?.code === 'rest_no_route';
    const headers = m.kind === 'match' && !noRouteCode ? allowWithoutRunning(x, m) : [];
    if (data === undefined) return { status: a.status, data: a.body, headers, error: true, raw: { contentType: a.contentType, text: a.body } };
    return { status: a.status, data, headers, error: a.status >= 400 };
  };

  /** A success's data with a played deviation's edits applied (copies: the data may be a memo's), and the ids that changed it. */
  const edited = (d: Dispatched, edits: NonNullable<Played['edits']>): { d: Dispatched; ids: string[] } => {
    if (d.error || d.raw || d.status >= 300) return { d, ids: [] };
    let data = d.data;
    const ids: string[] = [];
    for (const e of edits) {
      const out = e.edit(data);
      if (out !== undefined) {
        data = out;
        ids.push(e.id);
      }
    }
    if (ids.length === 0) return { d, ids };
    const { json: _stale, ...rest } = d;
    return { d: { ...rest, data }, ids };
  };

  /**
   * The one function that writes the order of the stages. With a large body (`pause`): read | route, validate |
   * authorize, run | respond, each in a turn of its own.
   */
  const servePipeline = (mreq: MockRequest, ask: Asked): Served | Work<Served> => {
    const pause = bodySize(mreq) >= STEPPED_BODY_BYTES;
    const r = read(mreq, ask, deps);
    if (r.kind === 'answer') return { res: r.res, plain: false };
    if (r.kind === 'page') return { res: frontEndAnswer(mreq.method, mreq.url, ask.site, deps.frontEnd), plain: false };
    const { x } = r;
    if (r.refused) return { res: respondError(x, r.refused.error, r.refused.early), plain: false };
    const code = ask.pref.code;
    const { play } = ask;
    const d = guarded(x, () =>
      andThenAfterTurn(pause, x, () =>
        play?.answer ? playedAnswer(x, play.answer) : x.req.method === 'OPTIONS' ? options(x) : code !== undefined ? preferCode(x, code) : dispatch(x.req, x.env, pause),
      ),
    );
    return andThenAfterTurn(pause, d, (dispatched) => {
      const { d: dd, ids } = play?.edits ? edited(dispatched, play.edits) : { d: dispatched, ids: [] };
      return andThen(respond(x, dd, embed(x.env), deps.building), (res) => {
        if (ids.length) res.deviation = ids.join(' ');
        return { res: noteWrites(res, x.env, dd), plain: play === undefined && code === undefined && x.req.method !== 'OPTIONS' && isPlainRead(x.req, dd, x.user) };
      });
    });
  };

  /** A handler that throws is WordPress's critical-error 500, and the error is reported. */
  const guarded = (x: Exchange, f: () => Dispatched | Work<Dispatched>): Dispatched | Work<Dispatched> => {
    const crash = (err: unknown): Dispatched => {
      deps.onError?.(err);
      const e = criticalError();
      return { status: e.status, data: e.body, headers: [], error: true };
    };
    let d: Dispatched | Work<Dispatched>;
    try {
      d = f();
    } catch (err) {
      return crash(err);
    }
    if (!isWork(d)) return d;
    return guardedSteps(d, crash);
  };

  return servePipeline;
}
