// content_type, checked on every answer of a run, like error_envelope: WordPress's REST server sends
// `Content-Type: application/json; charset=<blog_charset>` on every answer it serves, the charset always named (S serve_request(); every
// recorded sample of WordPress 6.1.9 but the two it names itself), so an answer served as text/html came from
// somewhere else (a theme's page, a PHP notice ahead of the JSON, a plugin that echoes and exits).
// The two forms WordPress itself answers otherwise are asked for by the request: `_jsonp` (application/javascript)
// and oEmbed's embed route with `format=xml` exactly (text/xml, 001 §4.2), see expectedTypes(). HEAD carries the GET's Content-Type too (sample 20).
// Severity: convention; for a success of an operation whose payload the documents do not show (the add-ons'
// actions, the views route) assumed, since such a handler may answer as it likes.
// One case per operation a unit touched, failing on its first answer with another type, with the request.

import type { Operation } from '../../../contracts/lib/types.ts';
import { jsonpCallback, type Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { AnswerSweep, Finding, Unit } from './kit/unit.ts';
import { findingPlace, FirstProblemPerOperation } from './kit/per-operation.ts';
import { responseSpec } from './response_shape.ts';

export const CONTENT_TYPE = 'content_type';

/** Whether the request is oEmbed's embed route by GET, in either root style (WordPress routes it with the trailing slash stripped). */
function embedGet(method: string, url: string): boolean {
  if (method !== 'GET') return false;
  const u = new URL(url, 'http://x');
  const route = u.searchParams.get('rest_route') ?? u.pathname;
  return /\/oembed\/1\.0\/embed\/?$/.test(route);
}

/**
 * The media types WordPress answers this request with, as serve_request() decides: `_jsonp` with a callback PHP holds
 * true (application/javascript, errors included); oEmbed's embed route by GET with `format` exactly `xml`
 * (_oembed_rest_pre_serve_request() compares the value as sent: `XML` is JSON), text/xml, which is expected only of
 * an accepted request: whether a refusal comes as XML or as JSON the documents do not show, so either is taken there.
 * JSON otherwise (the proxy route answers JSON whatever `format` says).
 */
export function expectedTypes(url: string, method = 'GET', status = 200): readonly string[] {
  if (jsonpCallback(url) !== undefined) return ['application/javascript'];
  const q = url.includes('?') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)) : new URLSearchParams();
  if (q.get('format') === 'xml' && embedGet(method, url)) return status >= 200 && status < 300 ? ['text/xml', 'application/xml'] : ['text/xml', 'application/xml', 'application/json'];
  return ['application/json'];
}

/** The media type of an answer, lower-cased, without parameters; '' when there is none. */
export function mediaType(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The charset parameter of a Content-Type, '' when it names none. */
function charsetOf(value: string | undefined): string {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(value ?? '')?.[1] ?? '';
}

/** Why an answer's Content-Type is not the one WordPress sends; undefined when it is, or when there is nothing to type. */
export function contentTypeProblem(e: Exchange): string | undefined {
  const r = e.response;
  if (!r) return undefined;
  // No body, nothing to type: a 204, or an answer WordPress sends empty (HEAD still carries the GET's type).
  if (r.status === 204 || (r.body === '' && e.request.method !== 'HEAD')) return undefined;
  // oEmbed's XML is text/xml in WordPress; application/xml says the same.
  const want = expectedTypes(e.request.url, e.request.method, r.status);
  const got = mediaType(r.headers['content-type']);
  if (want.includes(got)) return undefined;
  return `${e.request.method} ${e.request.url} answered ${r.status} with Content-Type ${r.headers['content-type'] === undefined ? '(none)' : JSON.stringify(r.headers['content-type'])}, not ${want[0]}`;
}

/**
 * contentTypeProblem(), and besides it a charset left out: serve_request() (and _oembed_rest_pre_serve_request() for
 * XML) always names it, `; charset=<blog_charset>`. Only this check asks for the charset: an answer without it is
 * still a REST answer (route_presence reads contentTypeProblem()).
 */
function contentTypeOrCharsetProblem(e: Exchange): string | undefined {
  const problem = contentTypeProblem(e);
  const r = e.response;
  if (problem || !r || r.status === 204 || (r.body === '' && e.request.method !== 'HEAD') || charsetOf(r.headers['content-type'])) return problem;
  return `${e.request.method} ${e.request.url} answered ${r.status} with Content-Type ${JSON.stringify(r.headers['content-type'])}, without the charset WordPress names (; charset=UTF-8)`;
}

function severityFor(op: Operation | undefined, e: Exchange): Severity {
  const status = e.response?.status ?? 0;
  if (op && status >= 200 && status < 300 && (responseSpec(op, status)?.basis ?? 'assumed') === 'assumed' && op.kind !== 'list' && op.kind !== 'read') return 'assumed';
  return 'convention';
}

/** Judged as each answer arrives; a unit keeps at most one exchange per operation (its first wrong one). */
export class ContentTypes implements AnswerSweep {
  private readonly sweep = new FirstProblemPerOperation();

  add(op: Operation | undefined, e: Exchange): void {
    if (!e.response) return;
    this.sweep.add(op, e, () => contentTypeOrCharsetProblem(e));
  }

  findings(unit: Unit): Finding[] {
    return this.sweep.slots().map(({ op, judged, worst }) => ({
      check: CONTENT_TYPE,
      ...findingPlace(op, unit),
      variant: `answers:${unit.id}`,
      severity: worst ? severityFor(op, worst.e) : 'convention',
      outcome: worst ? 'fail' : 'pass',
      message: worst
        ? `expected every REST answer as Content-Type application/json; charset=<the site's> (WordPress convention, WP_REST_Server::serve_request(); application/javascript only for _jsonp, text/xml only for oEmbed's format=xml); ${worst.problem}`
        : `${judged} answer(s), each of the content type WordPress sends`,
      ...(worst ? { exchange: worst.e } : {}),
    }));
  }
}
