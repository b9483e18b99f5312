// Stage 1, read: the request as Apache, PHP and WP::parse_request() read it. A target Apache refuses never reaches
// WordPress (its own 400/404 page); a request that is not for the REST API is the site's front end; the rest is
// parsed as PHP does (query, body, `_method`, `rest_route`), with its limits: a body over the adapter's limit (413),
// a `Prefer` the mock cannot honour (400), an invalid `_jsonp` callback (serve_request()'s early 400). The
// environment every later stage dispatches in is built here, once.
import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { Lang } from '../../../../contracts/model/records.ts';
import type { Store } from '../../store/store.ts';
import { invalidPrefer, jsonpCallbackInvalid, payloadTooLarge, type WpErrorResponse } from '../../wire/errors.ts';
import { apacheRejection, parseRequest } from '../../wire/request.ts';
import type { HandlerMemos, OperationRow, Rng } from '../../handlers/context.ts';
import type { DispatchEnv } from '../exchange.ts';
import type { ParamReader } from '../params.ts';
import { authenticate } from '../../auth/permissions.ts';
import { clientOf } from '../byte-budget.ts';
import type { Prefer } from '../prefer.ts';
import type { MockRequest, MockResponse } from '../types.ts';
import type { Exchange } from './respond.ts';

export interface ReadDeps {
  contract: Contract;
  params: ParamReader;
  store: Store;
  authRequired: boolean;
  operations: Readonly<Record<string, OperationRow>>;
  memos: HandlerMemos;
  media: ReadonlySet<number>;
  maxBodyBytes: number;
}

/** What the request is, as far as the later stages care. */
type Read =
  | { kind: 'answer'; res: MockResponse }
  | { kind: 'page' }
  | { kind: 'rest'; x: Exchange; refused?: { error: WpErrorResponse; early: boolean } };

const LANGUAGES: ReadonlySet<string> = new Set(['en', 'uk']);

function htmlNotFound(status: number): MockResponse {
  const title = status === 400 ? 'Bad Request' : 'Not Found';
  const body = `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>This mock serves the REST interface under /wp-json/ (also /uk/wp-json/ and /?rest_route=/).</p></body></html>\n`;
  return { status, headers: { 'Content-Type': 'text/html; charset=UTF-8' }, body };
}

export function read(mreq: MockRequest, ask: { pref: Prefer; now: number; site: string; rng: Rng; delayMs: number }, deps: ReadDeps): Read {
  const rejected = apacheRejection(mreq.url);
  if (rejected) return { kind: 'answer', res: htmlNotFound(rejected.status) };
  const req = parseRequest(mreq);
  if (!req) return { kind: 'page' };
  const user = authenticate(req.headers.authorization, deps.store);
  const urlLang = req.language && LANGUAGES.has(req.language) ? (req.language as Lang) : undefined;
  const env: DispatchEnv = {
    contract: deps.contract,
    params: deps.params,
    store: deps.store,
    links: { apiRoot: `${ask.site}${urlLang ? `/${urlLang}` : ''}/wp-json/`, home: ask.site },
    user,
    authRequired: deps.authRequired,
    now: ask.now,
    rng: ask.rng,
    operations: deps.operations,
    memos: deps.memos,
    media: deps.media,
  };
  // Set afterwards rather than spread into the literal: V8 adds the properties after a spread slowly.
  if (urlLang) env.urlLang = urlLang;
  const x: Exchange = { req, env, site: ask.site, user, delayMs: ask.delayMs, client: clientOf(mreq.client, user?.id) };
  if (mreq.oversize) return { kind: 'rest', x, refused: { error: payloadTooLarge(deps.maxBodyBytes), early: false } };
  // Before anything runs: a request that asked for a status or a delay the mock cannot give changes nothing.
  if (ask.pref.invalid !== undefined) return { kind: 'rest', x, refused: { error: invalidPrefer(ask.pref.invalid), early: false } };
  if (req.globals._jsonp && !req.globals._jsonp.valid) return { kind: 'rest', x, refused: { error: jsonpCallbackInvalid(), early: true } };
  return { kind: 'rest', x };
}
