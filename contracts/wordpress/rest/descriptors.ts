// Route descriptors as WordPress prints them in the root index (`GET /wp-json/`), a namespace index
// (`GET /wp-json/<ns>`) and the body of an OPTIONS request: WP_REST_Server::get_data_for_route(),
// get_data_for_routes(), rest_handle_options_request().

import { WP_ALLOWED_ARG_KEYWORDS } from '../schema/convert.ts';
import type { WpSchema } from '../schema/types.ts';
import { displayRoute } from './routes.ts';
import { isPlainObject } from '../plain-object.ts';

/** One registered handler of a route. */
export interface EndpointDescription {
  /** methods in registration order: ['GET'], ['POST', 'PUT', 'PATCH'] */
  methods: readonly string[];
  /** e.g. { v1: true }; overrides the route's. Printed only when truthy. */
  allow_batch?: Readonly<Record<string, boolean>> | false;
  /**
   * Args as registered (WordPress arg arrays, e.g. toWpArg()'s). Printed keeping
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
  /** The route's item schema in WordPress form (toWpItemSchema()); printed in the `help` context only. */
  schema?: Readonly<WpSchema>;
  /** route-level allow_batch, the default for its endpoints */
  allow_batch?: Readonly<Record<string, boolean>> | false;
}

/** A route descriptor in WordPress's key order. */
interface RouteDescriptor {
  namespace: string;
  methods: string[];
  endpoints: { methods: string[]; allow_batch?: Readonly<Record<string, boolean>>; args: Record<string, WpSchema> | [] }[];
  schema?: WpSchema;
  _links?: { self: { href: string }[] };
}

/** rest_url( $route ): the API root plus the route without its leading slash. */
export function restUrl(apiRoot: string, route: string): string {
  const root = apiRoot.endsWith('/') ? apiRoot : `${apiRoot}/`;
  return root + route.replace(/^\/+/, '');
}

function printArg(opts: unknown): WpSchema {
  // get_data_for_route(): a string arg becomes [ $opts => 0 ], anything else not an array becomes [].
  const o: Record<string, unknown> = typeof opts === 'string' ? { [opts]: 0 } : isPlainObject(opts) ? opts : {};
  const out: WpSchema = {};
  for (const [k, v] of Object.entries(o)) if (WP_ALLOWED_ARG_KEYWORDS.includes(k)) out[k] = v;
  const r = o.required;
  out.required = !(r === undefined || r === null || r === false || r === 0 || r === '' || r === '0' || (Array.isArray(r) && r.length === 0));
  return out;
}

interface DescriptorOptions {
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

