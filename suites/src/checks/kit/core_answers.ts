// What WordPress core itself answers, where a check must not blame the site for it: the namespaces built on core's
// controllers, and the server errors core gives to requests the documents allow. A plugin that hands a request on to
// core's terms controller answers what core answers, and core answers some refusals 500 (or 501): a check that failed
// those as the site's own server errors would fail every real site built on core (issue 25: a failure the documents
// do not support is a defect as serious as a missed one).
//
// Each excuse is narrow: the operation core serves, the request that makes core answer so, and the answer exactly as
// core spells it. Anything else with a 5xx stays a failure.

import type { Contract } from '../../../../contracts/lib/loader.ts';
import type { Operation } from '../../../../contracts/lib/types.ts';
import { phpTrim } from '../../../../contracts/wordpress/php/strings.ts';
import type { Exchange } from '../../http/types.ts';
import { jsonBody } from '../../http/types.ts';

/** The fields WP_REST_Posts_Controller registers for every post type: a create documenting all of them is built on it. */
const POSTS_CONTROLLER_FIELDS = ['comment_status', 'ping_status', 'format', 'template'];

/** Whether the contract shows the operation's namespace built on core's posts controller (its creates document that controller's fields). */
export function builtOnCoreControllers(contract: Contract, op: Operation): boolean {
  return contract.operations.some((o) => o.namespace === op.namespace && o.kind === 'create' && POSTS_CONTROLLER_FIELDS.every((f) => o.params.some((p) => p.in === 'body' && p.name === f)));
}

/**
 * A parameter of a recorded request as WordPress's get_param() reads it: the JSON body first, then a form body, then
 * the query (WP_REST_Request::get_parameter_order()). Undefined when the request does not carry it.
 */
export function sentParam(e: Exchange, name: string): unknown {
  const body = e.request.body;
  const type = Object.entries(e.request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  if (body !== undefined && body !== '') {
    if (/json/i.test(type)) {
      try {
        const parsed = JSON.parse(body) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && name in parsed) return (parsed as Record<string, unknown>)[name];
      } catch {
        /* not JSON after all: read it as a form below */
      }
    } else {
      const form = new URLSearchParams(body);
      if (form.has(name)) return form.get(name);
    }
  }
  const query = new URL(e.request.url, 'http://x').searchParams;
  return query.has(name) ? query.get(name) : undefined;
}

const isTerm = (op: Operation | undefined): boolean => op?.resource === 'category' || op?.resource === 'tag';

/**
 * Why a 5xx answer is WordPress core's own answer to this request, when it is; undefined otherwise.
 * - wp_insert_term() and wp_update_term() return their WP_Errors without a status, and the terms controller's
 *   create_item() and update_item() hand them on; rest_convert_error_to_response() answers such an error 500 with
 *   `data: null` (checked on WordPress 6.1.9: POST /wp/v2/tags {"name": ""}, PATCH /wp/v2/tags/<a> {"slug": <b's>}):
 *   `empty_term_name` for a name PHP's trim() leaves empty, `duplicate_term_slug` for an update naming another
 *   term's slug. The legacy term routes of The Events Calendar call those methods as they are.
 * - WP_REST_Posts_Controller::delete_item() answers a DELETE without force 501 rest_trash_not_supported where the
 *   site keeps no trash (EMPTY_TRASH_DAYS 0, a site setting the suite cannot know).
 */
export function wordpressOwnServerError(contract: Contract, op: Operation | undefined, e: Exchange): string | undefined {
  const r = e.response;
  if (!op || !r || r.status < 500) return undefined;
  const body = jsonBody(r) as { code?: unknown; data?: unknown } | undefined;
  if (!body || typeof body !== 'object' || typeof body.code !== 'string') return undefined;
  const noStatus = body.data === null || body.data === undefined;
  if (r.status === 500 && noStatus && isTerm(op) && (op.kind === 'create' || op.kind === 'update')) {
    const name = sentParam(e, 'name');
    if (body.code === 'empty_term_name' && typeof name === 'string' && phpTrim(name) === '') {
      return `the name ${JSON.stringify(name)} is empty once trimmed, and WordPress's ${op.kind === 'create' ? 'wp_insert_term()' : 'wp_update_term()'} refuses it with empty_term_name, an error without a status, which core's terms controller hands on and WordPress answers 500 (data null): WordPress core's own answer, the same on wp/v2/tags`;
    }
    const slug = sentParam(e, 'slug');
    if (body.code === 'duplicate_term_slug' && op.kind === 'update' && typeof slug === 'string' && slug !== '') {
      return `the slug ${JSON.stringify(slug)} is another term's, and WordPress's wp_update_term() refuses it with duplicate_term_slug, an error without a status, which core's terms controller hands on and WordPress answers 500 (data null): WordPress core's own answer, the same on wp/v2/tags`;
    }
  }
  if (r.status === 501 && body.code === 'rest_trash_not_supported' && op.kind === 'delete' && builtOnCoreControllers(contract, op) && !/^(true|1)$/i.test(String(sentParam(e, 'force') ?? ''))) {
    return "WordPress's posts controller answers a DELETE without force 501 rest_trash_not_supported where the site keeps no trash (EMPTY_TRASH_DAYS 0 or the rest_<type>_trashable filter): a setting of the site, which the documents leave to the trash mechanism (000 §3)";
  }
  return undefined;
}
