// Stage 6, respond: WP_REST_Server::serve_request() after dispatch: `_fields` (and `_links` only when wanted),
// `_embed` (internal GETs, embedded), `_envelope`, `_jsonp`, `_pretty`, then the headers WordPress sends, in its
// order (wire/headers.ts). A HEAD answer keeps the headers and drops the body.
import { wpJsonEncode, wpJsonEncodeSteps, type EncodeRoom } from '../../../../contracts/wordpress/php/index.ts';
import { SAFE_METHODS } from '../../../../contracts/wordpress/rest/routes.ts';
import { andThen, runNow, type Work } from '../../base/work.ts';
import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';
import { embedLinks, envelope, filterFields, isFieldIncluded } from '../../wire/envelope.ts';
import type { WpErrorResponse } from '../../wire/errors.ts';
import { responseHeaders, type HeaderList } from '../../wire/headers.ts';
import type { ParsedRequest } from '../../wire/request.ts';
import type { Dispatched, DispatchEnv } from '../exchange.ts';
import type { User } from '../../auth/permissions.ts';
import type { MockResponse } from '../types.ts';
import { tooManyAnswersBuilding, type ByteBudget, type ByteLease, type Client } from '../byte-budget.ts';

/** One REST request as the stages after read see it. */
export interface Exchange {
  req: ParsedRequest;
  env: DispatchEnv;
  /** The site URL links are built on. */
  site: string;
  user: User | undefined;
  /** How long the answer is held (Prefer: latency, --latency). */
  delayMs: number;
  /** Who asks (address and user), for the bounds shared between clients (byte-budget.ts). */
  client: Client;
}

function toRecord(list: HeaderList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of list) out[k] = k in out ? `${out[k]}, ${v}` : v;
  return out;
}

function stripLinks(data: unknown): unknown {
  const one = (item: unknown) => {
    if (!isPlainObject(item) || !('_links' in item)) return item;
    const { _links: _drop, ...rest } = item;
    return rest;
  };
  return Array.isArray(data) ? data.map(one) : one(data);
}

/** Room in `budget` for a long answer's encoding (a method, not a named arrow: mock/bench/README.md, tsx). */
class RoomIn implements EncodeRoom {
  lease: ByteLease | undefined;
  constructor(
    private readonly budget: ByteBudget,
    private readonly refusable: boolean,
    private readonly client: Client,
  ) {}
  open(): ByteLease {
    this.lease = this.budget.open(this.refusable, this.client);
    return this.lease;
  }
}

/** The bytes of a dispatched answer; `embed` answers an `_embed` link (a GET in the same environment). */
export function respond(x: Exchange, d: Dispatched, embed: (href: string) => unknown, building?: ByteBudget): MockResponse | Work<MockResponse> {
  const { req } = x;
  const g = req.globals;
  let status = d.status;
  let data = d.data;
  let own = d.headers;
  // The handler's own encoding is the answer when nothing reshapes the data.
  let encoded = !g._fields && !g._embed && !g._envelope && !g._pretty ? (typeof d.json === 'function' ? d.json() : d.json) : undefined;
  if (!d.error && !d.raw && encoded === undefined) {
    const fields = g._fields;
    // Controllers add _links only when they are wanted (rest_is_field_included('_links' | '_embedded')).
    const wantLinks = d.linksAlways === true || isFieldIncluded('_links', fields) || isFieldIncluded('_embedded', fields);
    if (fields) data = filterFields(data, wantLinks ? [...fields, '_links'] : fields, status);
    if (g._embed && wantLinks) data = embedLinks(data, g._embed, embed);
    if (fields && !d.linksAlways && !isFieldIncluded('_links', fields)) data = stripLinks(data);
  }
  let raw = d.raw;
  if (g._envelope) {
    const e = envelope(data, status, own);
    status = e.status;
    data = e.body;
    own = [];
    raw = undefined;
    encoded = undefined;
  }
  const jsonp = g._jsonp?.valid ? g._jsonp.callback : null;
  const contentType = raw?.contentType;
  const answer = (body: string): MockResponse => headed(x, status, own, contentType, jsonp, body);
  if (raw) return answer(raw.text);
  if (status === 204 || data === null || data === undefined) return answer('');
  if (encoded !== undefined) return answer(jsonp ? `/**/${jsonp}(${encoded})` : encoded);
  // A long list (or an object holding one: `_envelope`) is encoded item by item, in steps (wpJsonEncodeSteps()); a
  // short answer at once. A read's may be refused room to be built (core/byte-budget.ts): it ran and changed nothing.
  const pretty = g._pretty === true;
  const room = building ? new RoomIn(building, SAFE_METHODS.has(req.method), x.client) : undefined;
  const steps = room ? wpJsonEncodeSteps(data, { pretty, room }) : wpJsonEncodeSteps(data, { pretty });
  return andThen(steps, (json) => {
    if (json !== undefined) return answer(jsonp ? `/**/${jsonp}(${json})` : json);
    const e = wpJsonEncode(tooManyAnswersBuilding(building!, room?.lease?.refused).body);
    return headed(x, 503, [['Retry-After', '1']], undefined, jsonp, jsonp ? `/**/${jsonp}(${e})` : e);
  });
}

/** The answer with WordPress's headers, in its order (wire/headers.ts); HEAD keeps the headers only. */
function headed(x: Exchange, status: number, own: HeaderList, contentType: string | undefined, jsonp: string | null, body: string): MockResponse {
  const { req } = x;
  const list = responseHeaders({
    apiRoot: x.env.links.apiRoot,
    status,
    originalMethod: req.originalMethod,
    origin: req.headers.origin,
    requestedHeaders: req.originalMethod === 'OPTIONS' ? req.headers['access-control-request-headers'] : undefined,
    loggedIn: x.user !== undefined,
    methodOverridden: req.methodOverridden,
    jsonp: jsonp !== null,
    responseHeaders: contentType ? [...own, ['Content-Type', contentType]] : own,
    allow: null,
  });
  return {
    status,
    headers: toRecord(list),
    body: req.originalMethod === 'HEAD' ? '' : body,
    ...(SAFE_METHODS.has(req.method) ? { safe: true } : {}),
    ...(x.delayMs > 0 ? { delayMs: x.delayMs } : {}),
  };
}

/** An error answered before dispatch: through respond, or (`early`) as serve_request() answers before it dispatches. */
export function respondError(x: Exchange, e: WpErrorResponse, early = false): MockResponse {
  if (!early) return runNow(respond(x, { status: e.status, data: e.body, headers: [], error: true }, () => undefined));
  // serve_request() picks the Content-Type from a truthy `_jsonp` before it checks the callback, so even the
  // "Invalid JSONP callback function." error goes out as application/javascript.
  const list = responseHeaders({ apiRoot: `${x.site}/wp-json/`, status: e.status, originalMethod: x.req.originalMethod, loggedIn: false, early: true, jsonp: x.req.globals._jsonp !== null });
  // Nothing ran: asking again is harmless whatever the method.
  return { status: e.status, headers: toRecord(list), body: wpJsonEncode(e.body), safe: true, ...(x.delayMs > 0 ? { delayMs: x.delayMs } : {}) };
}
