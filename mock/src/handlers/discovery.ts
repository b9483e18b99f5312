// The self-description WordPress generates from its registered routes, generated here from the contract instead:
// the root descriptor (`GET /wp-json/`, WP_REST_Server::get_index()), namespace indexes (get_namespace_index())
// and OPTIONS answers (get_data_for_route() in the `help` context, with the item schema).
// Args are printed in WordPress's own format (only the allowed keywords, then `required` as a boolean).
import type { Contract } from '../../../contracts/src/loader.ts';
import type { JsonSchema, Operation } from '../../../contracts/src/types.ts';
import { toWpArg, toWpSchema } from '../wire/wpschema.ts';
import type { RouteEntry, RouteTable } from '../core/routes.ts';

type Json = Record<string, unknown>;

/** Routes whose endpoints accept batching (001 §4.1 leaves it open; the calendar's own records opt in). */
export function isBatchable(route: RouteEntry): boolean {
  return /^\/cal\/(events\/v1|v1)\/(events|venues|organizers|categories|tags)(\/|$)/.test(route.template) && !route.template.endsWith('/doc') && !route.template.endsWith('/docs');
}

function argsOf(op: Operation): Json {
  const args: Json = {};
  const order = [...op.params.filter((p) => p.in === 'path'), ...op.params.filter((p) => p.in === 'query'), ...op.params.filter((p) => p.in === 'body')];
  for (const p of order) {
    if (p.name in args) continue;
    if (op.kind === 'index' && p.name === 'namespace') {
      // WordPress registers the index's own namespace as the default, with no type.
      args.namespace = { default: op.namespace, required: false };
      continue;
    }
    args[p.name] = toWpArg(p.schema, p.required);
  }
  return args;
}

/** Endpoints: operations of a route with the same args share one endpoint, as WordPress registers them. */
function endpointsOf(route: RouteEntry): Json[] {
  const batch = isBatchable(route);
  const groups: { methods: string[]; args: Json; key: string }[] = [];
  for (const op of route.ops) {
    const args = argsOf(op);
    const key = JSON.stringify(args);
    const same = groups.find((g) => g.key === key && op.method !== 'GET' && op.method !== 'DELETE' && !g.methods.includes('GET') && !g.methods.includes('DELETE'));
    if (same) same.methods.push(op.method);
    else groups.push({ methods: [op.method], args, key });
  }
  return groups.map((g) => ({
    methods: g.methods,
    ...(batch ? { allow_batch: { v1: true } } : {}),
    // An arg-less endpoint prints `args: []` (an empty PHP array).
    args: Object.keys(g.args).length === 0 ? [] : g.args,
  }));
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
  private readonly routeData = new Map<RouteEntry, { endpoints: Json[]; schema?: Json }>();
  private readonly cache = new Map<string, string | Json>();

  constructor(
    private readonly contract: Contract,
    private readonly table: RouteTable,
    private readonly site: { name: string; description: string; timezone: string; gmtOffset: () => number },
  ) {
    for (const route of table.routes) {
      const record = route.ops.map((o) => o.raw['x-record']).find((r): r is string => typeof r === 'string');
      let schema: Json | undefined;
      if (record) {
        const name = record.split('/').pop()!;
        const src = (contract.deref.components?.schemas as Record<string, JsonSchema> | undefined)?.[name];
        if (src) schema = { $schema: 'http://json-schema.org/draft-04/schema#', title: route.ops[0]?.resource ?? name, ...toWpSchema(flatten(src), { annotations: true }) };
      }
      this.routeData.set(route, { endpoints: endpointsOf(route), ...(schema ? { schema } : {}) });
    }
  }

  private routeJson(route: RouteEntry, apiRoot: string, help: boolean): Json {
    const data = this.routeData.get(route)!;
    const out: Json = { namespace: route.namespace, methods: route.methods, endpoints: data.endpoints };
    if (help && data.schema) out.schema = data.schema;
    if (route.fixed) out._links = { self: [{ href: apiRoot + route.template.replace(/^\//, '') }] };
    return out;
  }

  /** The `routes` object of the root descriptor or a namespace index. */
  private routes(apiRoot: string, namespace?: string): Json {
    const out: Json = {};
    for (const r of this.table.routes) {
      if (namespace !== undefined && r.namespace !== namespace) continue;
      out[r.wpRoute] = this.routeJson(r, apiRoot, false);
    }
    return out;
  }

  /** Namespaces as the descriptor lists them: every contract namespace but the root's and batch/v1's. */
  namespaces(): string[] {
    return this.contract.namespaces.filter((n) => n !== '' && n !== 'batch/v1');
  }

  /** `GET /wp-json/`. */
  root(apiRoot: string, home: string): Json {
    const key = `root ${apiRoot} ${home}`;
    const hit = this.cache.get(key);
    if (hit) return hit as Json;
    const out: Json = {
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
      _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
    };
    this.cache.set(key, out);
    return out;
  }

  /** `GET /wp-json/<namespace>`. */
  namespaceIndex(namespace: string, apiRoot: string): Json {
    const key = `ns ${namespace} ${apiRoot}`;
    const hit = this.cache.get(key);
    if (hit) return hit as Json;
    const out = { namespace, routes: this.routes(apiRoot, namespace), _links: { up: [{ href: apiRoot }] } };
    this.cache.set(key, out);
    return out;
  }

  /** OPTIONS on a route: its description in the `help` context, with the item schema. */
  options(route: RouteEntry, apiRoot: string): Json {
    return this.routeJson(route, apiRoot, true);
  }
}
