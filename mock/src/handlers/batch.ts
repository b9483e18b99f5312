// `POST /batch/v1`, as WP_REST_Server::serve_batch_request_v1() runs it: every item is parsed, matched and
// validated first (a route must allow batching; 001 leaves which ones open, so the calendar's record routes opt in
// as WordPress's own record controllers do); with `require-all-validate` one invalid item stops everything
// (207, `failed: "validation"`, nulls for the valid ones). Otherwise the items run in order against the same
// state, each answered as `{body, status, headers}` inside a 207 (samples 72-82).
import { envelope } from '../wire/envelope.ts';
import { noRoute, wpError } from '../wire/errors.ts';
import { wpRestRequest, type ParsedRequest } from '../wire/request.ts';
import { ok, type HandlerCtx, type PreparedItem, type Reply } from './context.ts';
import { isWork, type Work } from '../base/work.ts';
import { wpJsonEncodeSteps } from '../../../contracts/wordpress/php/index.ts';

import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
interface Item {
  method?: unknown;
  path?: unknown;
  body?: unknown;
  headers?: unknown;
}

function itemHeaders(h: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isPlainObject(h)) return out;
  for (const [k, v] of Object.entries(h)) {
    if (typeof v === 'string') out[k.toLowerCase()] = v;
    else if (Array.isArray(v)) out[k.toLowerCase()] = v.map(String).join(', ');
  }
  return out;
}

/** WP_REST_Request built from one item: method (POST when absent), path with its query, body params, headers. */
function itemRequest(item: Item): ParsedRequest | null {
  const body = isPlainObject(item.body) && Object.keys(item.body).length > 0 ? item.body : undefined;
  return wpRestRequest({ method: typeof item.method === 'string' ? item.method : 'POST', path: item.path as string, headers: itemHeaders(item.headers), body });
}

/** Characters of item text after which the next item waits for a turn of the event loop. */
export const ITEM_TURN_CHARS = 32 * 1024;

/** The characters of every string in a JSON value (keys too): the measure of an item's work that needs no clock. */
export function textChars(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + textChars(x), 0);
  if (isPlainObject(v)) return Object.entries(v).reduce((n, [k, x]) => n + k.length + textChars(x), 0);
  return 0;
}

/**
 * The items run in the batch request's own environment: its user, its language (`/uk/wp-json/batch/v1`), its links.
 * Validation of all items comes first, in one step; then the items run, a long one in a step of its own (or several:
 * a long post's content is rendered in steps) and short ones together, so a server answers other clients between two
 * long items of a large batch instead of after all 25 of them.
 */
export function* batchHandler(ctx: HandlerCtx): Work<Reply> {
  const items = (Array.isArray(ctx.params.requests) ? ctx.params.requests : []) as Item[];
  const prepared: { req?: ParsedRequest; prep: PreparedItem }[] = items.map((item) => {
    const req = typeof item.path === 'string' && item.path.startsWith('/') ? (itemRequest(item) ?? undefined) : undefined;
    if (!req) {
      const error = typeof item.path === 'string' && item.path.startsWith('/') ? wpError('parse_path_failed', 'Could not parse the path.', { status: 400 }) : noRoute();
      return { prep: { kind: 'error', error } };
    }
    return { req, prep: ctx.items.prepare(req) };
  });

  if (ctx.params.validation === 'require-all-validate' && prepared.some((p) => p.prep.kind === 'error')) {
    const responses = prepared.map(({ prep }) => (prep.kind === 'error' ? envelope(prep.error.body, prep.error.status, []).body : null));
    return ok({ failed: 'validation', responses }, 207);
  }

  const responses: unknown[] = [];
  // A turn after validation, then one whenever the items run since the last turn carried ITEM_TURN_CHARS of text:
  // a turn per item let 25 small items interleave with every other batch (open loop at 200 batches/s: p99 24-34 ms
  // against 12-13 ms without them), while the items worth a turn of their own are the long ones.
  let sinceTurn = Infinity;
  for (const [i, { req, prep }] of prepared.entries()) {
    if (!req) {
      const e = (prep as Extract<PreparedItem, { kind: 'error' }>).error;
      responses.push(envelope(e.body, e.status, []).body);
      continue;
    }
    if (sinceTurn >= ITEM_TURN_CHARS) {
      yield;
      sinceTurn = 0;
    }
    sinceTurn += textChars(items[i]!.body);
    const run = ctx.items.run(prep, req);
    const d = isWork(run) ? yield* run : run;
    responses.push(envelope(d.data, d.status, d.headers).body);
  }
  // A batch of 25 long posts answers some 16 MB: its encoding is made here, in steps, rather than at once in respond,
  // and item by item: encoding `{responses}` as one value ran JSON.stringify() over all 16 MB in one step (about 60 ms
  // of other clients waiting). The list's encoding is its items' joined, so the text is the same.
  const body = { responses };
  const encoding = wpJsonEncodeSteps(responses);
  const json = `{"responses":${isWork(encoding) ? yield* encoding : encoding}}`;
  // The text itself, not a closure over it: with a closure made in this generator's frame, V8's young-generation
  // collections promoted 3x the bytes (--trace-gc-nvp over writes.ts's 1,800 batches: 353 against 113 MB) and a
  // batch cost 0.3-0.5 ms more CPU, most of it in the collector.
  return ok(body, 207, { json });
}
