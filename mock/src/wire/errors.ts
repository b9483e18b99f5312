// WordPress error bodies and statuses: rest_convert_error_to_response() shapes and the fixed errors core endpoints
// send. The parameter checks of WP_REST_Request::has_valid_params() / sanitize_params() are invalid-params.ts.
import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';

import { PHP_JSON_ERRORS, numberFormatI18n } from '../../../contracts/wordpress/php/index.ts';
import type { WpError } from '../../../contracts/wordpress/schema/types.ts';

/** A WordPress error body: WpError, whose `data` holds `status` and anything the error carries, as sent. */
interface WpErrorBody extends Omit<WpError, 'data'> {
  /** Absent only in serve_request()'s own early errors (JSONP), which WordPress sends as `{code, message}`. */
  data?: unknown;
  additional_data?: unknown[];
  additional_errors?: WpErrorBody[];
}

/** An error answer: the HTTP status WordPress sends and the body. */
export interface WpErrorResponse {
  status: number;
  body: WpErrorBody;
}

function statusOf(data: unknown): number | undefined {
  if (isPlainObject(data)) {
    const s = data.status;
    if (typeof s === 'number') return s;
    if (typeof s === 'string' && /^\d+$/.test(s)) return Number(s);
  }
  return undefined;
}

interface WpErrorExtra {
  /** Earlier data added under the same code (WordPress prints it as `additional_data`). */
  additionalData?: unknown[];
  /** Further codes of the same WP_Error (printed as `additional_errors`). */
  additionalErrors?: WpErrorBody[];
}

/**
 * A WP_Error as WordPress sends it. The status is the last `status` found across all the error's data (earlier data,
 * the data, then further errors), 500 when there is none - rest_convert_error_to_response().
 */
export function wpError(code: string, message: string, data: unknown = null, extra: WpErrorExtra = {}): WpErrorResponse {
  const body: WpErrorBody = { code, message, data };
  if (extra.additionalData && extra.additionalData.length > 0) body.additional_data = [...extra.additionalData];
  if (extra.additionalErrors && extra.additionalErrors.length > 0) body.additional_errors = [...extra.additionalErrors];
  const all: unknown[] = [...(extra.additionalData ?? []), data];
  for (const e of extra.additionalErrors ?? []) all.push(...(e.additional_data ?? []), e.data);
  let status = 500;
  for (const d of all) status = statusOf(d) ?? status;
  return { status, body };
}

/** rest_authorization_required_code(): 401 for anonymous requests, 403 for a logged-in user. */
function authorizationRequiredCode(loggedIn: boolean): 401 | 403 {
  return loggedIn ? 403 : 401;
}

// ---------------------------------------------------------------------------------------------------------------
// Fixed errors

/** WP_REST_Server::match_request_to_handler(): unknown route or a method the route lacks - never 405. */
export function noRoute(): WpErrorResponse {
  return wpError('rest_no_route', 'No route was found matching the URL and request method.', { status: 404 });
}

/** WP_REST_Request::has_valid_params(): required args missing, `data.params` a list in args order. */
export function missingParams(names: readonly string[]): WpErrorResponse {
  return wpError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, { status: 400, params: [...names] });
}

/**
 * An unknown id, 404. `code` like `rest_post_invalid_id`; the message defaults to WordPress's wording for that code
 * family ("Invalid post ID.") - pass the resource's own when it differs (terms say "Term does not exist.").
 */
export function invalidId(code: string, message?: string): WpErrorResponse {
  const m = /^rest_(.+)_invalid_id$/.exec(code);
  const noun = (m?.[1] ?? 'item').replace(/_/g, ' ');
  return wpError(code, message ?? `Invalid ${noun} ID.`, { status: 404 });
}

/** The posts controller's page-past-the-end error (other controllers answer an empty page, see pagination.ts). */
export function pageBeyond(code = 'rest_post_invalid_page_number'): WpErrorResponse {
  return wpError(code, 'The page number requested is larger than the number of pages available.', { status: 400 });
}

/**
 * WP_REST_Request::parse_json_params(): the body did not decode. Pass phpJsonDecode()'s failure, or a PHP
 * json_last_error_msg() text (its code is looked up; unknown texts count as "Syntax error", 4).
 */
export function invalidJson(error: string | { code: number; message: string }): WpErrorResponse {
  let code = 4;
  let message = 'Syntax error';
  if (typeof error === 'string') {
    message = error;
    const found = Object.entries(PHP_JSON_ERRORS).find(([, m]) => m === error);
    code = found ? Number(found[0]) : 4;
  } else {
    code = error.code;
    message = error.message;
  }
  return wpError('rest_invalid_json', 'Invalid JSON body passed.', { status: 400, json_error_code: code, json_error_message: message });
}

/** DELETE without force on an item already in the trash (posts controller), 410. */
export function alreadyTrashed(message = 'The post has already been deleted.'): WpErrorResponse {
  return wpError('rest_already_trashed', message, { status: 410 });
}

/** A permission failure with its own code and message: 401 when logged out, 403 when logged in. */
export function notAllowed(code: string, message: string, loggedIn: boolean): WpErrorResponse {
  return wpError(code, message, { status: authorizationRequiredCode(loggedIn) });
}

/** WP_REST_Server::respond_to_request(): a permission_callback that returned false. */
export function forbidden(loggedIn: boolean): WpErrorResponse {
  return notAllowed('rest_forbidden', 'Sorry, you are not allowed to do that.', loggedIn);
}

/** `rest_cannot_create`: "Sorry, you are not allowed to create posts as this user." */
export function cannotCreate(loggedIn: boolean, plural = 'posts'): WpErrorResponse {
  return notAllowed('rest_cannot_create', `Sorry, you are not allowed to create ${plural} as this user.`, loggedIn);
}

/** `rest_cannot_edit`: "Sorry, you are not allowed to edit this post." */
export function cannotEdit(loggedIn: boolean, singular = 'post'): WpErrorResponse {
  return notAllowed('rest_cannot_edit', `Sorry, you are not allowed to edit this ${singular}.`, loggedIn);
}

/** `rest_cannot_delete`: "Sorry, you are not allowed to delete this post." */
export function cannotDelete(loggedIn: boolean, singular = 'post'): WpErrorResponse {
  return notAllowed('rest_cannot_delete', `Sorry, you are not allowed to delete this ${singular}.`, loggedIn);
}

/** `rest_forbidden_context` (context=edit without the right): "...edit posts in this post type." */
export function forbiddenContext(loggedIn: boolean, plural = 'posts', scope = 'post type'): WpErrorResponse {
  return notAllowed('rest_forbidden_context', `Sorry, you are not allowed to edit ${plural} in this ${scope}.`, loggedIn);
}

/**
 * rest_cookie_check_errors(): a request carrying a REST nonce (X-WP-Nonce, or `_wpnonce` in $_REQUEST) that no
 * application password logged in is held to the nonce, and one that does not verify ends the request before routing.
 */
export function cookieInvalidNonce(): WpErrorResponse {
  return wpError('rest_cookie_invalid_nonce', 'Cookie check failed', { status: 403 });
}

/** WP_REST_Server::serve_request(): `_jsonp` with characters outside `[\w.]` - body without `data`. */
export function jsonpCallbackInvalid(): WpErrorResponse {
  return { status: 400, body: { code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' } };
}

/** A PHP fatal error during a REST request (WP_Fatal_Error_Handler through _json_wp_die_handler). */
export function criticalError(): WpErrorResponse {
  // _json_wp_die_handler() always prints additional_errors, empty or not.
  return {
    status: 500,
    body: {
      code: 'internal_server_error',
      message:
        '<p>There has been a critical error on this website.</p><p><a href="https://wordpress.org/support/article/faq-troubleshooting/">Learn more about troubleshooting WordPress.</a></p>',
      data: { status: 500 },
      additional_errors: [],
    },
  };
}

/** Default body limit for payloadTooLarge(): PHP's post_max_size in Debian's php.ini for Apache (8M). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * An over-large body. WordPress has no limit of its own. On the reference stack a body over PHP's post_max_size (8M)
 * is not refused: PHP logs a warning and hands WordPress an empty body, so the request runs as if nothing was sent
 * (a create then fails on a missing field, or succeeds empty), and only a body over Apache's LimitRequestBody (1 GiB)
 * gets a 413, as an Apache HTML page. Neither is useful to copy, so the mock refuses early with 413 and a body shaped
 * like every other WordPress error; the code is ours (no WordPress code exists for this).
 */
export function payloadTooLarge(limitBytes: number = DEFAULT_MAX_BODY_BYTES): WpErrorResponse {
  return wpError('rest_payload_too_large', `The request body is larger than the ${numberFormatI18n(limitBytes)} bytes allowed.`, {
    status: 413,
    max_body_bytes: limitBytes,
  });
}

const REASON: Record<number, [string, string]> = {
  400: ['rest_invalid_params', 'Invalid parameters.'],
  401: ['rest_not_logged_in', 'You are not currently logged in.'],
  403: ['rest_forbidden', 'Sorry, you are not allowed to do that.'],
  404: ['rest_no_route', 'No route was found matching the URL and request method.'],
  405: ['rest_method_not_allowed', 'Method not allowed.'],
  406: ['rest_not_acceptable', 'Not acceptable.'],
  408: ['rest_request_timeout', 'Request timeout.'],
  409: ['rest_conflict', 'Conflict.'],
  410: ['rest_already_trashed', 'The post has already been deleted.'],
  411: ['rest_length_required', 'Length required.'],
  412: ['rest_precondition_failed', 'Precondition failed.'],
  413: ['rest_payload_too_large', 'The request body is too large.'],
  415: ['rest_unsupported_media_type', 'Unsupported media type.'],
  422: ['rest_unprocessable_entity', 'Unprocessable entity.'],
  429: ['rest_too_many_requests', 'Too many requests.'],
  501: ['rest_not_implemented', 'Not implemented.'],
  502: ['rest_bad_gateway', 'Bad gateway.'],
  503: ['rest_service_unavailable', 'Service unavailable.'],
  504: ['rest_gateway_timeout', 'Gateway timeout.'],
};

/**
 * A WordPress-shaped error for a forced status (`Prefer: code=NNN`). Where WordPress core has a general error for the
 * status, its code and wording are used (400 route-level validation, 401 not logged in, 403 rest_forbidden,
 * 404 rest_no_route, 410 already trashed, 500 the fatal-error handler's body); other statuses get `rest_<reason>`.
 * Returns null below 400: a forced success is the mock's example, not an error.
 */
export function prefer(status: number): WpErrorResponse | null {
  if (!Number.isInteger(status) || status < 400 || status > 599) return null;
  if (status === 500) return criticalError();
  const [code, message] = REASON[status] ?? [status < 500 ? 'rest_client_error' : 'rest_server_error', `HTTP ${status}.`];
  return wpError(code, message, { status });
}

/**
 * A `Prefer: code=` or `latency=` the mock cannot honour (`code=999`, `latency=abc`), refused in the shape of
 * WordPress's rest_invalid_param, with the header where WordPress names the parameter: a test that meant to see a
 * 503 must not silently get a 200.
 */
export function invalidPrefer(reason: string): WpErrorResponse {
  return wpError('mock_invalid_prefer', `Invalid Prefer header: ${reason}.`, {
    status: 400,
    params: { Prefer: reason },
    details: { Prefer: { code: 'mock_invalid_prefer', message: reason, data: null } },
  });
}
