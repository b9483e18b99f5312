// content_type, checked on every answer of a run, like error_envelope: WordPress's REST server sends
// `Content-Type: application/json; charset=<blog_charset>` on every answer it serves (S serve_request(); every
// recorded sample of WordPress 6.1.9 but the two it names itself), so an answer served as text/html came from
// somewhere else (a theme's page, a PHP notice ahead of the JSON, a plugin that echoes and exits).
// The two forms WordPress itself answers otherwise are asked for by the request: `_jsonp` (application/javascript)
// and oEmbed's `format=xml` (text/xml, 001 §4.2). HEAD carries the GET's Content-Type too (sample 20).
// Severity: convention; for a success of an operation whose payload the documents do not show (the add-ons'
// actions, the views route) assumed, since such a handler may answer as it likes.
// One case per operation a unit touched, failing on its first answer with another type, with the request.

import type { Operation } from '../../../contracts/lib/types.ts';
import type { Exchange } from '../http/types.ts';
import type { Severity } from '../report/model.ts';
import type { AnswerSweep, Finding, Unit } from './kit/unit.ts';
import { findingPlace, FirstProblemPerOperation } from './kit/per-operation.ts';
import { responseSpec } from './response_shape.ts';

export const CONTENT_TYPE = 'content_type';

/** The media type the request asked for in its own words (`_jsonp`, `format=xml`); JSON otherwise. */
export function expectedType(url: string): string {
  const q = url.includes('?') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)) : new URLSearchParams();
  if (q.get('_jsonp')) return 'application/javascript';
  if (q.get('format')?.toLowerCase() === 'xml' && /oembed/.test(url)) return 'text/xml';
  return 'application/json';
}

/** The media type of an answer, lower-cased, without parameters; '' when there is none. */
export function mediaType(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Why an answer's Content-Type is not the one WordPress sends; undefined when it is, or when there is nothing to type. */
export function contentTypeProblem(e: Exchange): string | undefined {
  const r = e.response;
  if (!r) return undefined;
  // No body, nothing to type: a 204, or an answer WordPress sends empty (HEAD still carries the GET's type).
  if (r.status === 204 || (r.body === '' && e.request.method !== 'HEAD')) return undefined;
  const want = expectedType(e.request.url);
  const got = mediaType(r.headers['content-type']);
  // oEmbed's XML is text/xml in WordPress; application/xml says the same.
  if (got === want || (want === 'text/xml' && got === 'application/xml')) return undefined;
  return `${e.request.method} ${e.request.url} answered ${r.status} with Content-Type ${r.headers['content-type'] === undefined ? '(none)' : JSON.stringify(r.headers['content-type'])}, not ${want}`;
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
    this.sweep.add(op, e, () => contentTypeProblem(e));
  }

  findings(unit: Unit): Finding[] {
    return this.sweep.slots().map(({ op, judged, worst }) => ({
      check: CONTENT_TYPE,
      ...findingPlace(op, unit),
      variant: `answers:${unit.id}`,
      severity: worst ? severityFor(op, worst.e) : 'convention',
      outcome: worst ? 'fail' : 'pass',
      message: worst
        ? `expected every REST answer as Content-Type application/json (WordPress convention, WP_REST_Server::serve_request(); application/javascript only for _jsonp, text/xml only for oEmbed's format=xml); ${worst.problem}`
        : `${judged} answer(s), each of the content type WordPress sends`,
      ...(worst ? { exchange: worst.e } : {}),
    }));
  }
}
