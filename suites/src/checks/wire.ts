// What WordPress's REST server puts on the wire around every answer, whatever route served it (WordPress convention,
// WP_REST_Server::serve_request(); checked on WordPress 6.1.9, the CI sites):
// wire_headers  every REST answer carries X-Content-Type-Options: nosniff and X-Robots-Tag: noindex, and a Link
//               header: the server sends `<{api_root}/>; rel="https://api.w.org/"` first, and an answer's own Link
//               (a list's rel="next", a record's rel="alternate") replaces it (header() with replace), so an answer
//               with no Link at all, or an api.w.org Link to anything but the API root the suite reaches, is wrong.
//               An answer to a signed-in user carries wp_get_nocache_headers() (Expires in the past, Cache-Control
//               no-cache, must-revalidate, max-age=0, no Last-Modified): a cache must not keep a page that depends on
//               who asked. So does a 4xx answered to a POST that carried X-HTTP-Method-Override (the override unit's
//               probe). A refused `_jsonp` callback ends serve_request() before those (json_error()): not judged.
// wire_bytes    every JSON answer is json_encode() output with WordPress's flags (wp_json_encode(), no
//               JSON_UNESCAPED_SLASHES or JSON_UNESCAPED_UNICODE): `/` written `\/`, every character beyond ASCII
//               `\uXXXX`. Parsed, both spellings are the same value; a client comparing bytes, or a cache keyed on
//               them, sees the difference, and so does a signature over the body.
// Both judge every answer of every unit as it arrives (a sweep, like content_type), one case per unit and operation,
// failing on the first wrong answer; only answers that are WordPress's REST answers by their type (JSON, JSONP,
// oEmbed's XML) are judged: an answer of another type is content_type's finding, not a second one here.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import type { Exchange, Outgoing, Received } from '../http/types.ts';
import { apiRootShown, restAddress } from './kit/api_root.ts';
import { linkValues } from './kit/link_header.ts';
import { findingPlace, FirstProblemPerOperation } from './kit/per-operation.ts';
import type { AnswerSweep, Finding, Unit, UnitEnv } from './kit/unit.ts';
import { describeAnswer, transportOutcome, wpError } from './kit/wp.ts';
import { mediaType } from './content_type.ts';

export const WIRE_HEADERS = 'wire_headers';
export const WIRE_BYTES = 'wire_bytes';

/** serve_request() answers these through json_error() before it sends the headers that come after dispatch. */
const EARLY_CODES = new Set(['rest_callback_invalid', 'rest_callback_disabled']);

/** Whether an answer is WordPress's REST server's by its type: JSON, JSONP's JavaScript, oEmbed's XML. */
function restAnswer(e: Exchange): boolean {
  const type = mediaType(e.response?.headers['content-type']);
  return type === 'application/json' || type === 'application/javascript' || ((type === 'text/xml' || type === 'application/xml') && /oembed/.test(e.request.url));
}

/** A comma-separated header's items, lower-cased. */
function items(value: string | undefined): string[] {
  return (value ?? '').split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);
}

const shown = (r: Received, name: string): string => (r.headers[name] === undefined ? '(absent)' : JSON.stringify(r.headers[name]));

/** What is wrong with the API root's Link: absent with no Link of the answer's own, or pointing elsewhere. */
function apiLinkProblem(r: Received, where: Pick<UnitEnv, 'baseUrl' | 'apiRoot'>): string | undefined {
  const values = linkValues(r.headers['link']);
  if (values.length === 0) return `there is no Link header (WordPress sends <${apiRootShown(where)}>; rel="https://api.w.org/" on every answer that has no Link of its own)`;
  for (const v of values.filter((x) => x.rels.includes('https://api.w.org/'))) {
    const a = restAddress(v.url, where);
    if (!a || a.route !== '/' || a.query !== '' || !a.sameOrigin) return `Link's rel="https://api.w.org/" points at ${JSON.stringify(v.url)}, not the API root ${apiRootShown(where)}`;
  }
  return undefined;
}

/** What is wrong with an answer's no-cache headers (wp_get_nocache_headers()). */
function noCacheProblems(r: Received): string[] {
  const out: string[] = [];
  const cache = items(r.headers['cache-control']);
  const missing = ['no-cache', 'must-revalidate', 'max-age=0'].filter((d) => !cache.includes(d));
  if (missing.length) out.push(`Cache-Control ${shown(r, 'cache-control')} does not name ${missing.join(', ')}`);
  const expires = Date.parse(r.headers['expires'] ?? '');
  const now = Date.parse(r.headers['date'] ?? '') || Date.now();
  if (!(expires < now)) out.push(`Expires ${shown(r, 'expires')} is not a date in the past`);
  if (r.headers['last-modified'] !== undefined) out.push(`Last-Modified ${shown(r, 'last-modified')} is sent (wp_get_nocache_headers() removes it)`);
  return out;
}

/** Whether the request went as a signed-in user: the run's credentials or --low-auth-env's. */
function signedIn(e: Exchange, sent: Outgoing, hasCredentials: boolean): boolean {
  if (sent.auth === 'low') return true;
  return hasCredentials && sent.auth !== false && Object.keys(e.request.headers).some((h) => h.toLowerCase() === 'authorization');
}

/** Everything wrong with one REST answer's fixed headers, for who asked. */
export function wireHeaderProblems(r: Received, where: Pick<UnitEnv, 'baseUrl' | 'apiRoot'>, signed: boolean): string[] {
  const out: string[] = [];
  if (!items(r.headers['x-content-type-options']).includes('nosniff')) out.push(`X-Content-Type-Options is ${shown(r, 'x-content-type-options')}, not nosniff`);
  if (!items(r.headers['x-robots-tag']).includes('noindex')) out.push(`X-Robots-Tag is ${shown(r, 'x-robots-tag')}: it does not name noindex`);
  const link = apiLinkProblem(r, where);
  if (link) out.push(link);
  if (signed && !EARLY_CODES.has(wpError(r)?.code ?? '') && mediaType(r.headers['content-type']) !== 'text/xml') {
    const nc = noCacheProblems(r);
    if (nc.length) out.push(`answered to a signed-in user: ${nc.join('; ')}`);
  }
  return out;
}

/** One case per operation a unit's answers went to: failed on the first wrong answer, else passed with the count. */
function sweepFindings(sweep: FirstProblemPerOperation, unit: Unit, check: string, failed: (problem: string) => string, passed: (judged: number) => string): Finding[] {
  return sweep.slots().map(({ op, judged, worst }) => ({
    check,
    ...findingPlace(op, unit),
    variant: `answers:${unit.id}`,
    severity: 'convention' as const,
    outcome: worst ? ('fail' as const) : ('pass' as const),
    message: worst ? failed(worst.problem) : passed(judged),
    ...(worst ? { exchange: worst.e } : {}),
  }));
}

export class WireHeaders implements AnswerSweep {
  private readonly sweep = new FirstProblemPerOperation();

  constructor(private readonly env: Pick<UnitEnv, 'baseUrl' | 'apiRoot' | 'hasCredentials'>) {}

  add(op: Operation | undefined, e: Exchange, sent: Outgoing): void {
    if (!e.response || !restAnswer(e)) return;
    const r = e.response;
    this.sweep.add(op, e, () => {
      // The api.w.org Link is get_rest_url(): the site's own root, however the request reached it (index.php/wp-json
      // too). A language's root (/uk/wp-json) may be answered with its own address by a translation add-on.
      const signed = signedIn(e, sent, this.env.hasCredentials);
      const roots = [this.env.apiRoot, ...(sent.apiRoot && /\/[a-z]{2}\/wp-json$/.test(sent.apiRoot) ? [sent.apiRoot] : [])];
      const all = roots.map((apiRoot) => wireHeaderProblems(r, { baseUrl: this.env.baseUrl, apiRoot }, signed));
      const problems = all.find((p) => p.length === 0) ?? all[0]!;
      return problems.length ? `${e.request.method} ${e.request.url} answered ${describeAnswer(r)} where ${problems.join('; ')}` : undefined;
    });
  }

  findings(unit: Unit): Finding[] {
    return sweepFindings(this.sweep, unit, WIRE_HEADERS, (problem) => `expected every REST answer to carry X-Content-Type-Options: nosniff, X-Robots-Tag: noindex and the API root's Link (or a Link of its own), and, to a signed-in user, the no-cache headers (WordPress convention, WP_REST_Server::serve_request()); ${problem}`, (judged) => `${judged} answer(s), each with WordPress's fixed headers`);
  }
}

/**
 * Where a JSON text departs from json_encode()'s spelling: the first character beyond ASCII written as itself, or
 * the first `/` inside a string written without its backslash. undefined when it is json_encode()'s, or no JSON text.
 */
export function jsonSpellingProblem(text: string): string | undefined {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) {
      const cp = text.codePointAt(i)!;
      const at = JSON.stringify(text.slice(Math.max(0, i - 20), i + 20));
      return `the character U+${cp.toString(16).toUpperCase().padStart(4, '0')} is written as itself, not as ${cp > 0xffff ? 'a \\u surrogate pair' : `\\u${cp.toString(16).padStart(4, '0')}`} (at ${at})`;
    }
    if (!inString) {
      if (c === 0x22) inString = true;
      continue;
    }
    if (c === 0x5c) i++;
    else if (c === 0x22) inString = false;
    else if (c === 0x2f) return `a "/" inside a string is written without its backslash, not \\/ (at ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))})`;
  }
  return undefined;
}

/** The JSON text of an answer: the body, or a JSONP answer's argument; undefined for anything else. */
function jsonText(e: Exchange): string | undefined {
  const r = e.response!;
  if (r.bodyCut || r.body === '') return undefined;
  const type = mediaType(r.headers['content-type']);
  let text = r.body;
  if (type === 'application/javascript') {
    const m = /^\/\*\*\/[\w.]+\(([\s\S]*)\)$/.exec(text);
    if (!m) return undefined;
    text = m[1]!;
  } else if (type !== 'application/json') return undefined;
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  return text;
}

export class WireBytes implements AnswerSweep {
  private readonly sweep = new FirstProblemPerOperation();

  add(op: Operation | undefined, e: Exchange): void {
    if (!e.response) return;
    const text = jsonText(e);
    if (text === undefined) return;
    this.sweep.add(op, e, () => {
      const p = jsonSpellingProblem(text);
      return p ? `${e.request.method} ${e.request.url} answered ${describeAnswer(e.response)} where ${p}` : undefined;
    });
  }

  findings(unit: Unit): Finding[] {
    return sweepFindings(this.sweep, unit, WIRE_BYTES, (problem) => `expected every JSON answer as json_encode() writes it, "/" as \\/ and every character beyond ASCII as \\uXXXX (WordPress convention, wp_json_encode() without JSON_UNESCAPED_SLASHES or JSON_UNESCAPED_UNICODE); ${problem}`, (judged) => `${judged} JSON answer(s), each spelled as json_encode() writes it`);
  }
}

/**
 * A POST carrying X-HTTP-Method-Override that ends in a 4xx is answered with the no-cache headers even without
 * credentials (serve_request(): `$method_overridden && 4xx`): sent anonymously to a route no site has.
 */
async function overrideNoCache(env: UnitEnv, root: Operation): Promise<void> {
  const base = { check: WIRE_HEADERS, operation: root, variant: 'override-4xx', severity: 'convention' as const };
  if (env.readOnly) return env.emit({ ...base, outcome: 'skip', message: '--read-only: the override travels on a POST, which is not sent' });
  const route = `/site-contracts-${env.runId}/no-such-route`;
  const e = await env.send({ method: 'POST', route, headers: { 'X-HTTP-Method-Override': 'DELETE' }, intent: 'probe', auth: false }, root);
  const t = transportOutcome(e);
  if (t) return env.emit({ ...base, ...t, exchange: e });
  const r = e.response!;
  if (r.status < 400 || r.status >= 500) return env.emit({ ...base, outcome: 'inconclusive', message: `POST ${route} with X-HTTP-Method-Override: DELETE answered ${describeAnswer(r)}, not a 4xx: the rule is not reached`, exchange: e });
  const problems = noCacheProblems(r);
  if (problems.length) return env.emit({ ...base, outcome: 'fail', message: `expected a 4xx answered to a POST with X-HTTP-Method-Override to carry the no-cache headers, credentials or not (WordPress convention, WP_REST_Server::serve_request()); it answered ${describeAnswer(r)} where ${problems.join('; ')}`, exchange: e });
  env.emit({ ...base, outcome: 'pass', message: `${describeAnswer(r)} with Expires ${r.headers['expires']} and Cache-Control ${r.headers['cache-control']}`, exchange: e });
}

export function planWire(contract: Contract): Unit[] {
  const root = contract.operations.find((o) => o.kind === 'root');
  if (!root) return [];
  return [{ id: `${WIRE_HEADERS}:override`, family: WIRE_HEADERS, checks: [WIRE_HEADERS], operations: [root], run: (env) => overrideNoCache(env, root) }];
}
