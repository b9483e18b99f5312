// Reading WordPress answers the way every check needs to: the error envelope, which parameters a 400
// names, and what to conclude when no answer came at all.

import type { Operation } from '../../../../contracts/lib/types.ts';
import type { Exchange, Received } from '../../http/types.ts';
import { jsonBody } from '../../http/types.ts';
import type { Outcome } from '../../report/policy.ts';
import type { WpError as WpErrorOf } from '../../../../contracts/wordpress/schema/types.ts';
import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';

/** An error answer as the checks read it: WordPress's WpError, its `data` an object or null. */
type WpError = WpErrorOf<Record<string, unknown> | null>;

/** `{code, message, data}` with string code and message; undefined for anything else. */
export function wpError(r: Received | undefined): WpError | undefined {
  const b = jsonBody(r);
  if (!isPlainObject(b)) return undefined;
  const o = b;
  if (typeof o['code'] !== 'string' || typeof o['message'] !== 'string') return undefined;
  const data = o['data'];
  return { code: o['code'], message: o['message'], data: isPlainObject(data) ? data : null };
}

/** The errors serve_request() answers through json_error() ({code, message}, no data; S json_error()). */
const JSON_ERROR_CODES: ReadonlySet<string> = new Set(['rest_callback_invalid', 'rest_callback_disabled']);

/**
 * What is wrong with an error answer's body, by WordPress's convention (rest_convert_error_to_response(): every
 * WP_Error becomes `{code, message, data: {status}}`, and the HTTP status is data.status); undefined when it is
 * the envelope. The one place this rule is spelled: error_envelope applies it to every error answer of a run.
 */
export function envelopeProblem(r: Received): string | undefined {
  // oEmbed with format=xml answers its errors as XML, the same envelope element by element (_oembed_rest_pre_serve_request()).
  if (/\bxml\b/i.test(r.headers['content-type'] ?? '')) {
    const status = /<data>[\s\S]*<status>(\d+)<\/status>[\s\S]*<\/data>/.exec(r.body)?.[1];
    if (!/<code>[^<]+<\/code>/.test(r.body) || !/<message>[\s\S]*<\/message>/.test(r.body)) return `the ${r.status} XML body is not WordPress's error envelope (<code>, <message>, <data><status>)`;
    return Number(status) === r.status ? undefined : `the ${r.status} XML error says data status ${status ?? '(none)'}`;
  }
  const err = wpError(r);
  if (!err) return `the ${r.status} body is not WordPress's error object {code, message, data: {status}}${r.body === '' ? ' (it is empty)' : ''}`;
  // Every WP_Error WordPress answers says what went wrong: an empty message tells a client nothing.
  if (err.message.trim() === '') return `the ${r.status} ${err.code} has an empty message (${JSON.stringify(err.message)})`;
  // serve_request() refuses a bad _jsonp callback through json_error(): {code, message} alone, no data.
  if (JSON_ERROR_CODES.has(err.code) && err.data === null) return r.status === 400 ? undefined : `the ${r.status} ${err.code} is not 400`;
  const status = err.data?.['status'];
  if (status === undefined) return `the ${r.status} ${err.code} has no data.status`;
  if (status !== r.status) return `the ${r.status} ${err.code} says data.status ${JSON.stringify(status)}`;
  return undefined;
}

/** Where the documents state what an operation does (its `x-source`), for failure messages. */
export function sourceOf(op: Operation | undefined): string {
  const s = op?.raw['x-source'];
  return typeof s === 'string' ? s : 'the contract';
}

export function isNoRoute(r: Received | undefined): boolean {
  return r?.status === 404 && wpError(r)?.code === 'rest_no_route';
}

/** Top-level name of a WordPress parameter path: `requests[3][method]` → `requests`. */
export function topName(wpParam: string): string {
  const i = wpParam.indexOf('[');
  return i === -1 ? wpParam : wpParam.slice(0, i);
}

/**
 * Parameters a 400 blames: `data.params` is an object (rest_invalid_param) or a list
 * (rest_missing_callback_param). Names are cut to the top-level parameter.
 */
export function blamedParams(err: WpError | undefined): string[] {
  const params = err?.data?.['params'];
  if (Array.isArray(params)) return params.filter((p): p is string => typeof p === 'string').map(topName);
  if (typeof params === 'object' && params !== null) return Object.keys(params).map(topName);
  return [];
}

/** A detail saying the value was refused for who is asking (rest_forbidden_status), not for what it is. */
export function refusedForPermission(err: WpError | undefined, param: string): boolean {
  const details = err?.data?.['details'];
  if (typeof details !== 'object' || details === null) return false;
  for (const [name, d] of Object.entries(details as Record<string, unknown>)) {
    if (topName(name) !== param || typeof d !== 'object' || d === null) continue;
    const detail = d as { code?: unknown; data?: unknown };
    if (typeof detail.code === 'string' && /forbidden|cannot|not_logged_in/.test(detail.code)) return true;
    const st = (detail.data as { status?: unknown } | null)?.status;
    if (st === 401 || st === 403) return true;
  }
  return false;
}

/** What a check concludes about an exchange that got no answer: nothing about the server's contract. */
export function transportOutcome(e: Exchange): { outcome: Outcome; message: string } | undefined {
  if (!e.error) return undefined;
  const { kind, message } = e.error;
  // Left out on purpose (--read-only, no credentials, Ctrl-C): nothing to say either way.
  if (kind === 'refused' || kind === 'aborted') return { outcome: 'skip', message: `not sent: ${message}` };
  // Not sent for want of budget or of a live target: the run is incomplete, and a gate must not pass on it.
  if (kind === 'budget' || kind === 'down') return { outcome: 'error', message: `not sent: ${message}` };
  return { outcome: 'error', message: `no answer: ${message}` };
}

export function describeAnswer(r: Received | undefined): string {
  if (!r) return 'no answer';
  const err = wpError(r);
  return err ? `${r.status} ${err.code}` : `${r.status}${r.headers['content-type'] ? ` (${r.headers['content-type'].split(';')[0]})` : ''}`;
}

export function header(r: Received | undefined, name: string): string | undefined {
  return r?.headers[name.toLowerCase()];
}

/** A header holding a whole number (X-WP-Total, X-WP-TotalPages); undefined when absent or anything else. */
export function wholeNumberHeader(r: Received | undefined, name: string): number | undefined {
  const v = header(r, name);
  return v !== undefined && /^\s*\d+\s*$/.test(v) ? Number(v) : undefined;
}
