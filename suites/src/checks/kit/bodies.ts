// WordPress's REST server answers JSON (WP_REST_Server::serve_request() sends every response through
// wp_json_encode(), errors included), so a check never passes on an answer whose body is not JSON: many
// checks look only at a status or a header, and against a target answering garbage, or a gzip bomb,
// they would pass on bodies nobody could read. Such a pass becomes a failure (the body was read whole
// and is not JSON) or inconclusive (the body was longer than the suite reads, so it was not parsed).
// No body is expected of HEAD, of 204 and 304, and of oEmbed asked for format=xml; a page of the front end is HTML. An error answer read
// whole is error_envelope's to judge (the one place the envelope rule is spelled, for every error answer
// of a run), so a check that passed on its status is not failed a second time for the same body; one cut
// short is inconclusive here too, since nothing can tell what it held.

import { jsonBody, type Exchange } from '../../http/types.ts';
import { truncateUtf8 } from '../../report/case.ts';
import type { Finding } from './unit.ts';

/** Why the answer's body does not hold the JSON WordPress would send; undefined when it does or none is due. */
export function unreadableBody(e: Exchange): { cut: boolean; message: string } | undefined {
  const r = e.response;
  if (!r || e.request.method === 'HEAD' || r.status === 204 || r.status === 304) return undefined;
  // A page of the front end (a record's link, sent with Outgoing.page asking for text/html) is not the REST server's.
  if (e.request.headers['Accept'] === 'text/html') return undefined;
  const type = r.headers['content-type'] ?? '';
  if (/\bxml\b/i.test(type) && /[?&]format=xml(&|$)/.test(e.request.url)) return undefined;
  // The report says first that the body was cut and where (runner/run.ts toCase()).
  if (r.bodyCut) return { cut: true, message: 'so the check could not judge the answer' };
  // As it arrived: the run's secrets are redacted from the body before checks see it.
  if (r.status >= 400 || (r.arrivedAsJson ?? jsonBody(r) !== undefined) || r.body.trim() === 'null') return undefined;
  const shown = r.body === '' ? 'empty' : `${type ? `${type.split(';')[0]}, ` : ''}beginning ${JSON.stringify(r.body.slice(0, 40))}`;
  return { cut: false, message: `expected a JSON body, as WordPress's REST server answers every request (WP_REST_Server::serve_request()); got a body that is not JSON (${shown})` };
}

/**
 * For a unit's stream of answers (not_a_server_error): parses only bodies whose first bytes cannot begin JSON, so
 * a healthy run does not parse every answer twice. A body that begins like JSON and breaks later is caught where
 * a check passes on it (requireJson()).
 */
export function plainlyUnreadable(e: Exchange): boolean {
  const r = e.response;
  if (!r) return false;
  if (r.arrivedAsJson !== undefined) return !r.arrivedAsJson && unreadableBody(e) !== undefined;
  return (r.bodyCut !== undefined || !/^\s*[[{"\d\-tfn]/.test(r.body.slice(0, 64))) && unreadableBody(e) !== undefined;
}

/** A finding that passed on an answer whose body is not JSON: failed, or inconclusive when the body was too large to read. */
export function requireJson(f: Finding): Finding {
  if (f.outcome !== 'pass' || !f.exchange) return f;
  const problem = unreadableBody(f.exchange);
  if (!problem) return f;
  return { ...f, outcome: problem.cut ? 'inconclusive' : 'fail', message: `${problem.message}${f.message ? ` (otherwise: ${f.message})` : ''}` };
}

/** The most of an uncut body a held finding keeps; well above an error envelope or a page of real records. */
export const HELD_BODY_BYTES = 64 * 1024;

/**
 * The exchange as a finding held until its operation ends keeps it (checks/kit/identifiers.ts): a body longer than
 * HELD_BODY_BYTES keeps its beginning, its length, and whether it was the JSON WordPress sends, which is what
 * requireJson() and the report read of it later. Without this a run held every body of an operation: 893 MiB for
 * 300 answers of 7.5 MB.
 */
export function heldForm(e: Exchange): Exchange {
  const r = e.response;
  if (!r || r.bodyCut || r.body.length <= HELD_BODY_BYTES / 4) return e;
  const kept = truncateUtf8(r.body, HELD_BODY_BYTES);
  if (!kept.truncated) return e;
  // For a 2xx, whether it was readable as WordPress sends it (a _jsonp wrapping included); an error body is not judged here.
  const readable = r.status >= 400 ? (r.arrivedAsJson ?? jsonBody(r) !== undefined) : unreadableBody(e) === undefined;
  // The payload of a `_jsonp` answer goes with the body it was read from.
  const { payload: _whole, ...rest } = r;
  return { ...e, response: { ...rest, body: kept.text, bodyBytes: r.bodyBytes ?? kept.bytes, arrivedAsJson: readable } };
}
