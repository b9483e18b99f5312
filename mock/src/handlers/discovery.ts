// The self-description WordPress generates from its registered routes, generated here from the contract instead:
// the root descriptor (`GET /wp-json/`, WP_REST_Server::get_index()), namespace indexes (get_namespace_index())
// and OPTIONS answers (get_data_for_route() in the `help` context, with the item schema).
// Args are printed in WordPress's own format (only the allowed keywords, then `required` as a boolean).
import type { Contract, ContractRoute } from '../../../contracts/lib/loader.ts';
import type { JsonSchema, Operation } from '../../../contracts/lib/types.ts';
import { argsFromParams, itemSchemaOf } from '../../../contracts/lib/wordpress-args.ts';
import { allowsBatch } from '../../../contracts/lib/contract.ts';
import { routeDescriptor, routesIndex, type EndpointDescription, type RouteDescription } from '../../../contracts/wordpress/rest/descriptors.ts';
import type { WpSchema } from '../../../contracts/wordpress/schema/index.ts';
import { Memo, textBytes, type MemoSettings, type MemoStats } from '../base/memo.ts';
import { wpJsonEncode } from '../../../contracts/wordpress/php/index.ts';

type Json = Record<string, unknown>;

/**
 * The record routes built on core's posts controller (cal/v1's, 000 §2.5), by `namespace:resource`, with the
 * taxonomies shown in REST of each post type as (name, rest_base), in get_object_taxonomies()'s order.
 */
const POSTS_CONTROLLER_TAXONOMIES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  'cal/v1:event': [['post_tag', 'tags'], ['cal_events_cat', 'cal_events_cat']],
  'cal/v1:venue': [['post_tag', 'tags']],
  'cal/v1:organizer': [['post_tag', 'tags']],
};

/**
 * WP_REST_Posts_Controller::get_schema_links() for a cal/v1 post type (not attachment, not post; it supports authors):
 * the action rels a client reads to learn what it may do, each aimed at the record route's `{id}` template.
 */
function postSchemaLinks(href: string, taxonomies: readonly (readonly [string, string])[]): Json[] {
  const object = (properties: Json): Json => ({ type: 'object', properties });
  const ids = { type: 'array', items: { type: 'integer' } };
  const links: Json[] = [
    { rel: 'https://api.w.org/action-publish', title: 'The current user can publish this post.', href, targetSchema: object({ status: { type: 'string', enum: ['publish', 'future'] } }) },
    { rel: 'https://api.w.org/action-unfiltered-html', title: 'The current user can post unfiltered HTML markup and JavaScript.', href, targetSchema: object({ content: { raw: { type: 'string' } } }) },
    { rel: 'https://api.w.org/action-assign-author', title: 'The current user can change the author on this post.', href, targetSchema: object({ author: { type: 'integer' } }) },
  ];
  for (const [name, base] of taxonomies) {
    links.push({ rel: `https://api.w.org/action-assign-${base}`, title: `The current user can assign terms in the ${name} taxonomy.`, href, targetSchema: object({ [base]: ids }) });
    links.push({ rel: `https://api.w.org/action-create-${base}`, title: `The current user can create terms in the ${name} taxonomy.`, href, targetSchema: object({ [base]: ids }) });
  }
  return links;
}


function argsOf(op: Operation): Record<string, WpSchema> {
  const order = [...op.params.filter((p) => p.in === 'path'), ...op.params.filter((p) => p.in === 'query'), ...op.params.filter((p) => p.in === 'body')];
  const args = argsFromParams(order);
  // An update's args carry no defaults (EDITABLE endpoints; the contract's x-defaults-apply: create).
  if (op.bodyDefaults === 'create') {
    for (const p of op.params) if (p.in === 'body' && args[p.name]) delete (args[p.name] as { default?: unknown }).default;
  }
  // WordPress registers an index's own namespace as the default of its `namespace` arg, with no type.
  if (op.kind === 'index' && 'namespace' in args) args.namespace = { default: op.namespace, required: false };
  return args;
}

/** Endpoints: operations of a route with the same args share one endpoint, as WordPress registers them. */
function endpointsOf(route: ContractRoute): EndpointDescription[] {
  const groups: { methods: string[]; args: Record<string, WpSchema>; key: string }[] = [];
  for (const op of route.operations) {
    const args = argsOf(op);
    const key = JSON.stringify(args);
    const writes = (m: string) => m !== 'GET' && m !== 'DELETE';
    const same = groups.find((g) => g.key === key && writes(op.method) && g.methods.every(writes));
    if (same) same.methods.push(op.method);
    else groups.push({ methods: [op.method], args, key });
  }
  return groups.map((g) => ({ methods: g.methods, args: g.args }));
}

/** allOf branches merged into one object schema, since WordPress item schemas are flat. */
function flatten(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.allOf)) return schema;
  const out: JsonSchema = { type: 'object', properties: {} };
  const required: string[] = [];
  for (const part of schema.allOf as JsonSchema[]) {
    const f = flatten(part);
    Object.assign(out.properties, f.properties ?? {});
    if (Array.isArray(f.required)) required.push(...(f.required as string[]));
  }
  if (required.length) out.required = required;
  return out;
}

export class Discovery {
  private readonly descriptions = new Map<ContractRoute, RouteDescription>();
  /** The `routes` objects per API root and namespace: a function of the contract and the root alone. */
  private readonly indexes: Memo<string, Json>;

  constructor(
    private readonly contract: Contract,
    private readonly site: { name: string; description: string; theme: string; timezone: string; gmtOffset: () => number },
    memo: MemoSettings = { enabled: true, maxBytes: 8 * 1024 * 1024 },
  ) {
    // The root's routes object prints to about 300 KB; count a kept one at twice its text.
    this.indexes = new Memo(memo, (key, routes) => textBytes(key) + 2 * wpJsonEncode(routes).length);
  }

  /**
   * A route's description, made when first asked for: most requests never need one, and making all of them was
   * about 8 ms of every createMock() (a vitest file's set-up).
   */
  private description(route: ContractRoute): RouteDescription {
    const known = this.descriptions.get(route);
    if (known) return known;
    const record = route.operations.map((o) => o.raw['x-record']).find((r): r is string => typeof r === 'string');
    let schema: WpSchema | undefined;
    if (record) {
      const name = record.split('/').pop()!;
      const src = (this.contract.deref.components?.schemas as Record<string, JsonSchema> | undefined)?.[name];
      if (src) schema = itemSchemaOf(flatten(src), route.operations[0]?.resource ?? name);
    }
    const made: RouteDescription = {
      route: route.route,
      namespace: route.namespace,
      endpoints: endpointsOf(route),
      ...(allowsBatch(this.contract, route) ? { allow_batch: { v1: true } } : {}),
      ...(schema ? { schema } : {}),
    };
    this.descriptions.set(route, made);
    return made;
  }

  /** The `routes` object of the root descriptor or a namespace index. */
  private routes(apiRoot: string, namespace?: string): Json {
    return this.indexes.get(`${namespace ?? ''} ${apiRoot}`, () => {
      const list = this.contract.routes.filter((r) => namespace === undefined || r.namespace === namespace).map((r) => this.description(r));
      return routesIndex(list, { apiRoot });
    });
  }

  /** Namespaces as the descriptor lists them: every contract namespace but the root's and batch/v1's. */
  namespaces(): string[] {
    return this.contract.namespaces.filter((n) => n !== '' && n !== 'batch/v1');
  }

  /** Whether the server registers `namespace`: /batch/v1 is a route of the root in WordPress, not a namespace. */
  serves(namespace: string): boolean {
    return this.namespaces().includes(namespace);
  }

  /**
   * `GET /wp-json/`. `activeTheme`: add_active_theme_link_to_index()'s decision for who asks (a user who may switch
   * themes or edit posts of some type): the link to the active theme, with the `wp` curie WordPress compacts it by.
   */
  root(apiRoot: string, home: string, opts: { activeTheme: boolean } = { activeTheme: false }): Json {
    return {
      name: this.site.name,
      description: this.site.description,
      url: home,
      home,
      gmt_offset: this.site.gmtOffset(),
      timezone_string: this.site.timezone,
      page_for_posts: 0,
      page_on_front: 0,
      show_on_front: 'posts',
      namespaces: this.namespaces(),
      authentication: { 'application-passwords': { endpoints: { authorization: `${home}/wp-admin/authorize-application.php` } } },
      routes: this.routes(apiRoot),
      site_logo: 0,
      site_icon: 0,
      site_icon_url: '',
      _links: opts.activeTheme
        ? {
            help: [{ href: 'https://developer.wordpress.org/rest-api/' }],
            'wp:active-theme': [{ href: `${apiRoot}wp/v2/themes/${this.site.theme}` }],
            curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
          }
        : { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
    };
  }

  /** `GET /wp-json/<namespace>`. */
  namespaceIndex(namespace: string, apiRoot: string): Json {
    return { namespace, routes: this.routes(apiRoot, namespace), _links: { up: [{ href: apiRoot }] } };
  }

  /** What the descriptor memo holds. */
  memoStats(): MemoStats {
    return this.indexes.stats;
  }

  /** OPTIONS on a route: its description in the `help` context, with the item schema. */
  options(route: ContractRoute, apiRoot: string): Json | null {
    const data = routeDescriptor(this.description(route), { apiRoot, context: 'help' }) as Json | null;
    // A record route of core's posts controller: its item schema carries the action links.
    const resource = route.operations[0]?.resource;
    const taxonomies = resource ? POSTS_CONTROLLER_TAXONOMIES[`${route.namespace}:${resource}`] : undefined;
    if (!data || !taxonomies || !data['schema']) return data;
    const base = route.template.replace(/\/\{[^}]+\}$/, '');
    return { ...data, schema: { ...(data['schema'] as Json), links: postSchemaLinks(`${apiRoot}${base.slice(1)}/{id}`, taxonomies) } };
  }
}
