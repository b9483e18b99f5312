// Route descriptors as WordPress prints them in the root index (`GET /wp-json/`), a namespace index
// (`GET /wp-json/<ns>`) and the body of an OPTIONS request: WP_REST_Server::get_data_for_route(),
// get_data_for_routes(), rest_handle_options_request().

import type { JsonSchema, ParamSpec } from '../../../contracts/lib/types.ts';
import { wordpressArgOf, wordpressSchemaOf } from '../../../contracts/lib/wp-format.ts';
import { WP_ALLOWED_ARG_KEYWORDS } from '../../../contracts/wordpress/schema/convert.ts';
import type { WpSchema } from '../../../contracts/wordpress/schema/index.ts';

/** One registered handler of a route. */
export interface EndpointDescription {
  /** methods in registration order: ['GET'], ['POST', 'PUT', 'PATCH'] */
  methods: readonly string[];
  /** e.g. { v1: true }; overrides the route's. Printed only when truthy. */
  allow_batch?: Readonly<Record<string, boolean>> | false;
  /**
   * Args as registered (WordPress arg arrays; use argsFromParams() to make them from the contract). Printed keeping
   * only rest_get_allowed_schema_keywords(), in the given order, then `required` as a boolean. Empty prints as [].
   */
  args?: Readonly<Record<string, Readonly<WpSchema>>>;
  /** `show_in_index: false` hides the handler (and its methods) from descriptors; default true */
  show_in_index?: boolean;
}

export interface RouteDescription {
  /** The route as registered, a regex with PHP named groups: `/wp/v2/posts/(?P<id>[\d]+)`. */
  route: string;
  namespace: string;
  endpoints: readonly EndpointDescription[];
  /** The route's item schema in WordPress form (see toWpItemSchema()); printed in the `help` context only. */
  schema?: Readonly<WpSchema>;
  /** route-level allow_batch, the default for its endpoints */
  allow_batch?: Readonly<Record<string, boolean>> | false;
}

/** A route descriptor in WordPress's key order. */
export interface RouteDescriptor {
  namespace: string;
  methods: string[];
  endpoints: { methods: string[]; allow_batch?: Readonly<Record<string, boolean>>; args: Record<string, WpSchema> | [] }[];
  schema?: WpSchema;
  _links?: { self: { href: string }[] };
}

/** get_data_for_route()'s route display: `(?P<id>[\d]+)` → `{id}` (a lazy match, so nested groups cut short, as in WordPress). */
export function displayRoute(route: string): string {
  return route.replace(/\(\?P<(\w+?)>.*?\)/g, '{$1}');
}

/** rest_url( $route ): the API root plus the route without its leading slash. */
export function restUrl(apiRoot: string, route: string): string {
  const root = apiRoot.endsWith('/') ? apiRoot : `${apiRoot}/`;
  return root + route.replace(/^\/+/, '');
}

/**
 * The contract's path template as a WordPress route: `/cal/v1/events/{id}` → `/cal/v1/events/(?P<id>[\d]+)`.
 * Each variable takes the given pattern, else `[\d]+` for integer params (core's id pattern) and `[^/]+` otherwise.
 */
export function wpRouteFromTemplate(template: string, params: Readonly<Record<string, string | JsonSchema>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const p = params[name];
    if (typeof p === 'string') return `(?P<${name}>${p})`;
    const t = p?.type;
    const pattern = typeof p?.pattern === 'string' ? p.pattern.replace(/^\^/, '').replace(/\$$/, '') : t === 'integer' || (Array.isArray(t) && t.includes('integer')) ? '[\\d]+' : '[^/]+';
    return `(?P<${name}>${pattern})`;
  });
}

/**
 * The args of one endpoint from the contract's parameters (path, query and body alike, as WordPress merges them),
 * each converted with toWpArg() (draft-04 bounds, `required` boolean last).
 */
export function argsFromParams(params: readonly Pick<ParamSpec, 'name' | 'schema' | 'required'>[]): Record<string, WpSchema> {
  const out: Record<string, WpSchema> = {};
  for (const p of params) if (!(p.name in out)) out[p.name] = wordpressArgOf(p.schema, p.required);
  return out;
}

/** The route schema WordPress prints under `schema` in OPTIONS: draft-04 `$schema` first, then title, type, properties. */
export function toWpItemSchema(schema: JsonSchema, title?: string): WpSchema {
  const converted = wordpressSchemaOf(schema, { annotations: true });
  const out: WpSchema = { $schema: 'http://json-schema.org/draft-04/schema#' };
  const t = title ?? (typeof schema.title === 'string' ? schema.title : undefined);
  if (t !== undefined) out.title = t;
  for (const [k, v] of Object.entries(converted)) if (k !== 'title' && k !== '$schema') out[k] = v;
  return out;
}

function printArg(opts: unknown): WpSchema {
  // get_data_for_route(): a string arg becomes [ $opts => 0 ], anything else not an array becomes [].
  const o: Record<string, unknown> = typeof opts === 'string' ? { [opts]: 0 } : opts !== null && typeof opts === 'object' && !Array.isArray(opts) ? (opts as Record<string, unknown>) : {};
  const out: WpSchema = {};
  for (const [k, v] of Object.entries(o)) if (WP_ALLOWED_ARG_KEYWORDS.includes(k)) out[k] = v;
  const r = o.required;
  out.required = !(r === undefined || r === null || r === false || r === 0 || r === '' || r === '0' || (Array.isArray(r) && r.length === 0));
  return out;
}

export interface DescriptorOptions {
  /** get_rest_url(): `http://127.0.0.1:8089/wp-json/` */
  apiRoot: string;
  /** 'help' (OPTIONS) adds the schema; the indexes use 'view' */
  context?: 'view' | 'help';
}

/**
 * get_data_for_route(): `{namespace, methods, endpoints: [{methods, allow_batch?, args}], schema?, _links?}`.
 * `methods` concatenates the visible endpoints' methods (duplicates kept); `_links.self` only for routes without
 * variables. Null when no endpoint is visible (the route is hidden).
 */
export function routeDescriptor(route: RouteDescription, opts: DescriptorOptions): RouteDescriptor | null {
  const data: RouteDescriptor = { namespace: route.namespace, methods: [], endpoints: [] };
  if (route.schema && opts.context === 'help') data.schema = { ...route.schema };
  const shown = displayRoute(route.route);
  for (const ep of route.endpoints) {
    if (ep.show_in_index === false) continue;
    data.methods.push(...ep.methods);
    const args: Record<string, WpSchema> = {};
    for (const [name, arg] of Object.entries(ep.args ?? {})) args[name] = printArg(arg);
    const batch = ep.allow_batch !== undefined ? ep.allow_batch : route.allow_batch;
    // Printed in this order: methods, allow_batch (when truthy), args ([] when empty, a PHP empty array).
    data.endpoints.push({
      methods: [...ep.methods],
      ...(batch && Object.keys(batch).length > 0 ? { allow_batch: batch } : {}),
      args: Object.keys(args).length === 0 ? [] : args,
    });
    if (!shown.includes('{')) data._links = { self: [{ href: restUrl(opts.apiRoot, shown) }] };
  }
  if (data.methods.length === 0) return null;
  // Key order: namespace, methods, endpoints, schema, _links.
  const out: RouteDescriptor = { namespace: data.namespace, methods: data.methods, endpoints: data.endpoints };
  if (data.schema) out.schema = data.schema;
  if (data._links) out._links = data._links;
  return out;
}

/** get_data_for_routes(): the `routes` object of the root or a namespace index, keyed by the registered route. */
export function routesIndex(routes: readonly RouteDescription[], opts: DescriptorOptions): Record<string, RouteDescriptor> {
  const out: Record<string, RouteDescriptor> = {};
  for (const r of routes) {
    const d = routeDescriptor(r, opts);
    if (d) out[r.route] = d;
  }
  return out;
}

/**
 * rest_handle_options_request(): the body of an OPTIONS request - the first route (in registration order) whose
 * regex matches the path, case-insensitively, described in the 'help' context; `[]` when none matches (still 200);
 * null (no body) when the matched route shows no handler.
 * Returns the matched route too, for the Allow header.
 */
export function optionsResponse(
  routes: readonly RouteDescription[],
  path: string,
  opts: Omit<DescriptorOptions, 'context'>,
): { route: RouteDescription | null; body: RouteDescriptor | [] | null } {
  for (const r of routes) {
    if (!routeMatches(r.route, path)) continue;
    // A matched route whose handlers are all hidden describes as null: WordPress then sends no body.
    return { route: r, body: routeDescriptor(r, { ...opts, context: 'help' }) };
  }
  return { route: null, body: [] };
}

/** `preg_match( '@^' . $route . '$@i', $path )` with PHP's named groups read by JavaScript. */
export function routeMatches(route: string, path: string): boolean {
  const source = route.replace(/\(\?P</g, '(?<');
  for (const flags of ['iu', 'i']) {
    try {
      return new RegExp(`^(?:${source})$`, flags).test(path);
    } catch {
      // retry without `u`: PCRE accepts escapes (`\-`, `\/`) JavaScript's unicode mode rejects
    }
  }
  return false;
}
