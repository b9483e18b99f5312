// The other address forms of one request, each answered as WordPress answers it (WordPress convention, S
// serve_request(); recorded from WordPress 6.1.9 in the project's reference samples 20, 43, 44, 49):
// head             HEAD answers the GET's status and headers (Content-Type, X-WP-Total, X-WP-TotalPages, Link,
//                  Allow) and no body: WordPress serves HEAD with the GET handler and sends no body (S L541, L1190).
// trailing_slash   `<route>/` answers as `<route>`: rest_api_loaded() strips the slash before routing (A L428).
// envelope         `?_envelope` answers HTTP 200 with {body, status, headers}: the GET's body and status moved
//                  inside (envelope_response()), for a success and for an error alike.
// jsonp            `?_jsonp=<callback>` answers application/javascript `/**/<callback>(<the GET's JSON>)`; a callback
//                  with a character outside [\w.] answers 400 rest_callback_invalid (wp_check_jsonp_callback()).
// language_prefix  `/uk/wp-json/<route>` (000 conventions: "{api_root} may carry a language path segment") answers
//                  as a REST route, not a page: only where the translation add-on is shown (the descriptor lists
//                  an i18n namespace), else inconclusive with that reason. Documented severity: it is the documents'
//                  statement about this site, not WordPress's.
// pretty           `?_pretty=1` answers the same value, pretty-printed (get_json_encode_options(): JSON_PRETTY_PRINT
//                  when the request has `_pretty`): the body parses to what the plain request answers (clock aside)
//                  and is spread over lines.
// Subjects: the REST root and the first list of each namespace, which WordPress answers without credentials.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { REST_ROUTE_ROOT } from '../http/target.ts';
import { describeCut, jsonBody, type Exchange, type Outgoing, type Received } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { Outcome } from '../report/policy.ts';
import type { Finding, Unit, UnitEnv } from './kit/unit.ts';
import { answerDifference, firstDifference } from './kit/compare.ts';
import { CALENDAR_NAMESPACES } from './kit/resources.ts';
import { describeAnswer, header, transportOutcome, wpError } from './kit/wp.ts';
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

export const HEAD = 'head';
export const TRAILING_SLASH = 'trailing_slash';
export const ENVELOPE = 'envelope';
export const JSONP = 'jsonp';
export const LANGUAGE_PREFIX = 'language_prefix';
export const PRETTY = 'pretty';

/** The headers a HEAD must carry as its GET does (sample 20); Date, Vary, Content-Length and the connection's may differ. */
const HEAD_HEADERS = ['content-type', 'x-wp-total', 'x-wp-totalpages', 'link', 'allow'] as const;

/**
 * The callback WordPress takes, at the edge of what it takes: a `.` is inside [\w.] (a namespaced function,
 * `siteContracts.cb`), so a site that takes letters only fails; and one it refuses: `-` is outside [\w.]
 * (wp_check_jsonp_callback()).
 */
const CALLBACK = 'siteContracts.cb';
const BAD_CALLBACK = 'site-contracts-cb';

type Emit = (variant: string, outcome: Outcome, message: string, e?: Exchange) => void;

function emitter(env: UnitEnv, check: string, op: Operation, severity: Severity = 'convention'): Emit {
  return (variant, outcome, message, e) => env.emit({ check, operation: op, variant, severity, outcome, message, ...(e ? { exchange: e } : {}) } satisfies Finding);
}

/** The first exchange that cannot be compared (no answer, or a body too large to read whole), emitted; true when there was one. */
function noAnswer(emit: Emit, variant: string, ...es: Exchange[]): boolean {
  for (const e of es) {
    const t = transportOutcome(e);
    if (t) {
      emit(variant, t.outcome, t.message, e);
      return true;
    }
    const cut = e.response?.bodyCut;
    if (cut) {
      emit(variant, 'inconclusive', `${describeCut(cut)}: the two forms cannot be compared`, e);
      return true;
    }
  }
  return false;
}

function shown(v: string | undefined): string {
  return v === undefined ? '(absent)' : JSON.stringify(v);
}

/** Where a HEAD answer differs from its GET's, each difference with both sides. */
export function headProblems(get: Received, head: Received): string[] {
  const out: string[] = [];
  if (head.status !== get.status) out.push(`status ${head.status} where GET answered ${get.status}`);
  for (const h of HEAD_HEADERS) if (head.headers[h] !== get.headers[h]) out.push(`${h} ${shown(head.headers[h])} where GET sent ${shown(get.headers[h])}`);
  if (head.body !== '') out.push(`a body of ${Buffer.byteLength(head.body)} bytes (${JSON.stringify(head.body.slice(0, 40))})`);
  return out;
}

async function head(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitter(env, HEAD, op);
  const [get, hd] = await env.steady([op], async () => [await env.send({ method: 'GET', route: op.path, auth: false }, op), await env.send({ method: 'HEAD', route: op.path, auth: false }, op)] as const);
  if (noAnswer(emit, 'get', get, hd)) return;
  const problems = headProblems(get.response!, hd.response!);
  if (problems.length) return emit('get', 'fail', `expected HEAD ${op.path} to answer the GET's status and headers (${HEAD_HEADERS.join(', ')}) and no body (WordPress convention, WP_REST_Server::serve_request()); HEAD answered ${problems.join('; ')}`, hd);
  emit('get', 'pass', `HEAD answered ${get.response!.status} with the GET's ${HEAD_HEADERS.filter((h) => get.response!.headers[h] !== undefined).join(', ')} and no body`, hd);
}

async function trailingSlash(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitter(env, TRAILING_SLASH, op);
  const [plain, slashed] = await env.steady([op], async () => [await env.send({ method: 'GET', route: op.path, auth: false }, op), await env.send({ method: 'GET', route: `${op.path}/`, auth: false }, op)] as const);
  if (noAnswer(emit, 'slash', plain, slashed)) return;
  const diff = answerDifference(plain, slashed, ['content-type']);
  if (diff) return emit('slash', 'fail', `expected GET ${op.path}/ to answer as GET ${op.path} (WordPress convention: rest_api_loaded() strips the trailing slash), fields derived from the clock aside; it answered with ${diff} (${describeAnswer(slashed.response)}; without the slash ${describeAnswer(plain.response)})`, slashed);
  emit('slash', 'pass', `${op.path}/ answered ${describeAnswer(slashed.response)} with the same body as ${op.path}`, slashed);
}

/** What is wrong with an `_envelope` answer given the plain one; empty when it is WordPress's envelope of it. */
/** The plain answer's headers that are its response's own (not serve_request()'s), so the envelope carries them too. */
const ENVELOPED_HEADERS = ['allow', 'x-wp-total', 'x-wp-totalpages'];

function envelopeProblems(plain: Received, env: Received): string[] {
  const out: string[] = [];
  if (env.status !== 200) out.push(`HTTP status ${env.status}, not 200 (the real status goes into the body)`);
  const b = jsonBody(env);
  if (!isPlainObject(b)) return [...out, `the body is not a JSON object {body, status, headers} (${describeAnswer(env)})`];
  if (b['status'] !== plain.status) out.push(`body.status ${JSON.stringify(b['status'] ?? '(absent)')} where the plain request answered ${plain.status}`);
  if (!('headers' in b) || (typeof b['headers'] !== 'object' || b['headers'] === null)) out.push(`body.headers is ${JSON.stringify(b['headers'] ?? '(absent)')}, not the answer's headers`);
  else {
    // body.headers is the response's get_headers(), rest_post_dispatch's Allow included; X-WP-Total may be a number there.
    const inner = Object.fromEntries(Object.entries(b['headers'] as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));
    for (const name of ENVELOPED_HEADERS) {
      const sent = header(plain, name);
      if (sent !== undefined && String(inner[name] ?? '(absent)') !== sent) out.push(`body.headers[${JSON.stringify(name)}] is ${JSON.stringify(inner[name] ?? '(absent)')} where the plain request sent ${JSON.stringify(sent)}`);
    }
  }
  if (!('body' in b)) out.push('there is no body.body');
  else {
    const d = firstDifference(jsonBody(plain), b['body']);
    if (d) out.push(`${d.path.replace(/^body/, 'body.body')} is ${JSON.stringify(d.b)?.slice(0, 80)} where the plain request answered ${JSON.stringify(d.a)?.slice(0, 80)}`);
  }
  return out;
}

async function envelope(env: UnitEnv, op: Operation, variant: 'ok' | 'error'): Promise<void> {
  const emit = emitter(env, ENVELOPE, op);
  const route = variant === 'ok' ? op.path : `/site-contracts-${env.runId}/no-such-route`;
  const [plain, wrapped] = await env.steady([op], async () => [await env.send({ method: 'GET', route, auth: false }, op), await env.send({ method: 'GET', route, rawQuery: '_envelope', auth: false }, op)] as const);
  if (noAnswer(emit, variant, plain, wrapped)) return;
  const problems = envelopeProblems(plain.response!, wrapped.response!);
  if (problems.length) return emit(variant, 'fail', `expected GET ${route}?_envelope to answer 200 {body, status, headers} holding the plain answer (${describeAnswer(plain.response)}) (WordPress convention, WP_REST_Server::envelope_response()); got ${problems.join('; ')}`, wrapped);
  emit(variant, 'pass', `200 {body, status: ${plain.response!.status}, headers} holding the plain answer`, wrapped);
}

async function pretty(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitter(env, PRETTY, op);
  const plain = await env.send({ method: 'GET', route: op.path, auth: false }, op);
  const printed = await env.send({ method: 'GET', route: op.path, query: { _pretty: 1 }, auth: false }, op);
  if (noAnswer(emit, 'pretty', plain, printed)) return;
  const a = plain.response!;
  const b = printed.response!;
  const problems: string[] = [];
  if (b.status !== a.status) problems.push(`status ${b.status} where the plain request answered ${a.status}`);
  const value = jsonBody(b);
  if (value === undefined) problems.push(`the body is no JSON (it starts ${JSON.stringify(b.body.slice(0, 40))})`);
  else {
    const d = firstDifference(jsonBody(a), value);
    if (d) problems.push(`it differs at ${d.path}: ${JSON.stringify(d.b)?.slice(0, 80)} where the plain request answered ${JSON.stringify(d.a)?.slice(0, 80)}`);
    if (!b.body.includes('\n') && /[[{]/.test(b.body.trim().slice(0, 1)) && b.body.trim().length > 2) problems.push('the body is on one line, not pretty-printed');
  }
  if (problems.length) return emit('pretty', 'fail', `expected GET ${op.path}?_pretty=1 to answer the plain answer pretty-printed (WordPress convention, WP_REST_Server::get_json_encode_options(): JSON_PRETTY_PRINT); ${problems.join('; ')}`, printed);
  emit('pretty', 'pass', `the same ${describeAnswer(b)} answer, pretty-printed`, printed);
}

/** What is wrong with a JSONP answer given the plain one; empty when it is WordPress's. */
function jsonpProblems(plain: Received, r: Received, callback: string): string[] {
  const out: string[] = [];
  if (r.status !== plain.status) out.push(`status ${r.status} where the plain request answered ${plain.status}`);
  const type = (header(r, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/javascript') out.push(`Content-Type ${shown(header(r, 'content-type'))}, not application/javascript`);
  // The wrapping as the answer was read (http/client.ts): every check reads the JSON inside it the same way.
  if (r.payload === undefined) return [...out, `the body does not read /**/${callback}(...): it starts ${JSON.stringify(r.body.slice(0, 40))}`];
  const inner = jsonBody(r);
  if (inner === undefined) return [...out, "the callback's argument is not JSON"];
  const d = firstDifference(jsonBody(plain), inner);
  if (d) out.push(`the callback's argument differs at ${d.path}: ${JSON.stringify(d.b)?.slice(0, 80)} where the plain request answered ${JSON.stringify(d.a)?.slice(0, 80)}`);
  return out;
}

async function jsonp(env: UnitEnv, op: Operation): Promise<void> {
  const emit = emitter(env, JSONP, op);
  const [plain, good] = await env.steady([op], async () => [await env.send({ method: 'GET', route: op.path, auth: false }, op), await env.send({ method: 'GET', route: op.path, query: { _jsonp: CALLBACK }, auth: false }, op)] as const);
  if (!noAnswer(emit, 'valid', plain, good)) {
    const problems = jsonpProblems(plain.response!, good.response!, CALLBACK);
    if (problems.length) emit('valid', 'fail', `expected GET ${op.path}?_jsonp=${CALLBACK} to answer application/javascript /**/${CALLBACK}(<the plain JSON>) (WordPress convention, WP_REST_Server::serve_request()); got ${problems.join('; ')}`, good);
    else emit('valid', 'pass', `application/javascript /**/${CALLBACK}(...) around the plain answer`, good);
  }
  const bad = await env.send({ method: 'GET', route: op.path, query: { _jsonp: BAD_CALLBACK }, auth: false }, op);
  if (noAnswer(emit, 'invalid', bad)) return;
  const r = bad.response!;
  const err = wpError(r);
  if (r.status === 400 && err?.code === 'rest_callback_invalid') return emit('invalid', 'pass', `_jsonp=${BAD_CALLBACK} answered 400 rest_callback_invalid`, bad);
  emit('invalid', 'fail', `expected 400 rest_callback_invalid for the callback ${BAD_CALLBACK} ("-" is outside [\\w.], WordPress convention, wp_check_jsonp_callback()); got ${describeAnswer(r)}${r.status < 300 ? ': the callback was run' : ''}`, bad);
}

/** The REST root with a language segment before `/wp-json` (`/wp-json` → `/uk/wp-json`); undefined where there is none to add. */
export function languageRoot(apiRoot: string, lang: string): string | undefined {
  if (apiRoot === REST_ROUTE_ROOT || !/\/wp-json$/.test(apiRoot)) return undefined;
  const langs = /\/(en|uk)\/wp-json$/;
  if (langs.test(apiRoot)) return apiRoot.replace(langs, `/${lang}/wp-json`);
  return apiRoot.replace(/\/wp-json$/, `/${lang}/wp-json`);
}

/** Route keys of a descriptor or namespace index, sorted; undefined for anything else. */
function routeKeys(body: unknown): string[] | undefined {
  return isPlainObject(body) && isPlainObject(body['routes']) ? Object.keys(body['routes']).sort() : undefined;
}

/** What is wrong with the prefixed answer given the unprefixed one: a REST answer of the same kind and status. */
function languageProblems(plain: Received, prefixed: Received): string[] {
  const out: string[] = [];
  if (prefixed.status !== plain.status) out.push(`status ${prefixed.status} where the unprefixed root answered ${plain.status}`);
  const type = (r: Received): string => (header(r, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type(prefixed) !== 'application/json') out.push(`Content-Type ${shown(header(prefixed, 'content-type'))}: not a REST answer`);
  const a = jsonBody(plain);
  const b = jsonBody(prefixed);
  const kind = (v: unknown): string => (v === undefined ? 'no JSON' : Array.isArray(v) ? 'a JSON array' : typeof v === 'object' && v !== null ? 'a JSON object' : `JSON ${typeof v}`);
  if (kind(a) !== kind(b)) out.push(`${kind(b)} where the unprefixed root answered ${kind(a)}`);
  const ka = routeKeys(a);
  const kb = routeKeys(b);
  if (ka && kb) {
    const missing = ka.filter((k) => !kb.includes(k));
    if (missing.length) out.push(`the routes ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} are missing`);
  }
  return out;
}

/** The languages with a path segment: the documents' i18n_language values after the site's default (the first, en). */
function prefixedLanguages(contract: Contract): string[] {
  const p = contract.operations.flatMap((o) => o.params).find((x) => x.name === 'i18n_language');
  const values = Array.isArray(p?.schema.enum) ? (p!.schema.enum as unknown[]).filter((v): v is string => typeof v === 'string') : [];
  return values.slice(1);
}

async function languagePrefix(env: UnitEnv, op: Operation): Promise<void> {
  // The documents' own statement about this site's root, not a WordPress convention.
  const emit = emitter(env, LANGUAGE_PREFIX, op, 'documented');
  const i18n = env.descriptor.namespaces.filter((n) => n.startsWith('i18n/'));
  if (i18n.length === 0) return emit('uk', 'inconclusive', "the target's descriptor lists no translation namespace (i18n/...): the translation add-on is not shown, so there is no language segment to expect");
  for (const lang of prefixedLanguages(env.contract)) {
    const root = languageRoot(env.apiRoot ?? '/wp-json', lang);
    if (!root) {
      emit(lang, 'skip', 'the site is reached through ?rest_route= (or a root not ending in /wp-json): there is no path to put a language segment in');
      continue;
    }
    const req: Outgoing = { method: 'GET', route: op.path, auth: false };
    const [plain, prefixed] = await env.steady([op], async () => [await env.send(req, op), await env.send({ ...req, apiRoot: root }, op)] as const);
    if (noAnswer(emit, lang, plain, prefixed)) continue;
    const problems = languageProblems(plain.response!, prefixed.response!);
    if (problems.length) emit(lang, 'fail', `expected GET ${root}${op.path} to answer as a REST route like the unprefixed root (000 conventions: "{api_root} may carry a language path segment"; the descriptor lists ${i18n.join(', ')}); got ${problems.join('; ')}`, prefixed);
    else emit(lang, 'pass', `${root}${op.path} answered ${describeAnswer(prefixed.response)} like the unprefixed root`, prefixed);
  }
}

/** The REST root and the first list of each namespace: answered without credentials, cheap, present on every site. */
function addressSubjects(contract: Contract): Operation[] {
  const root = contract.operations.find((o) => o.kind === 'root');
  const firstList = new Map<string, Operation>();
  for (const o of contract.operations) if (o.kind === 'list' && o.method === 'GET' && !firstList.has(o.namespace)) firstList.set(o.namespace, o);
  return [...(root ? [root] : []), ...firstList.values()];
}

export function planAddressForms(contract: Contract): Unit[] {
  const units: Unit[] = [];
  const subjects = addressSubjects(contract);
  const unit = (check: string, op: Operation, run: (env: UnitEnv) => Promise<void>): Unit => ({ id: `${check}:${op.id}`, family: check, checks: [check], operations: [op], run });
  for (const op of subjects) {
    units.push(unit(HEAD, op, (env) => head(env, op)));
    // The REST root is its own trailing slash.
    if (op.path !== '/') units.push(unit(TRAILING_SLASH, op, (env) => trailingSlash(env, op)));
    units.push(unit(ENVELOPE, op, async (env) => {
      await envelope(env, op, 'ok');
      if (op.kind === 'root') await envelope(env, op, 'error');
    }));
    units.push(unit(JSONP, op, (env) => jsonp(env, op)));
  }
  for (const op of subjects.filter((o) => o.kind === 'root' || (CALENDAR_NAMESPACES as readonly string[]).includes(o.namespace))) {
    units.push(unit(LANGUAGE_PREFIX, op, (env) => languagePrefix(env, op)));
    units.push(unit(PRETTY, op, (env) => pretty(env, op)));
  }
  return units;
}
