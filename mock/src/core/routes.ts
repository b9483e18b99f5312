// The route table, built once from the contract: one entry per path template with its operations by method, the
// route key WordPress would print for it (`/cal/v1/events/(?P<id>[0-9]+)`), and a matcher that behaves like
// WP_REST_Server::match_request_to_handler(): case-insensitive, namespace-first, the first route that matches
// *and* has the method wins, HEAD falls back to GET, and a route without the method is no match at all.
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { HttpMethod, Operation } from '../../../contracts/lib/types.ts';

export interface RouteEntry {
  /** Path template as in the contract: `/cal/v1/events/{id}`. */
  template: string;
  /** The route key of WordPress's descriptor. */
  wpRoute: string;
  /** Namespace as the descriptor shows it ('' for the root and for /batch/v1, as in WordPress). */
  namespace: string;
  /** Operations in the contract's order (GET, POST, PUT, PATCH, DELETE). */
  ops: Operation[];
  byMethod: ReadonlyMap<string, Operation>;
  methods: HttpMethod[];
  /** Fixed path (no parameters): the descriptor gives it `_links.self`. */
  fixed: boolean;
  regex: RegExp;
  /** Position in registration order. */
  order: number;
}

export type RouteMatch =
  | { kind: 'match'; route: RouteEntry; op: Operation; pathParams: Record<string, string> }
  | { kind: 'no-method'; route: RouteEntry; pathParams: Record<string, string> }
  | { kind: 'no-route' };

function wpRouteKey(op: Operation): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const spec = op.params.find((p) => p.in === 'path' && p.name === name);
    const pattern = typeof spec?.schema.pattern === 'string' ? spec.schema.pattern.replace(/^\^/, '').replace(/\$$/, '') : '[^/]+';
    return `(?P<${name}>${pattern})`;
  });
}

export class RouteTable {
  readonly routes: RouteEntry[] = [];
  private readonly fixed = new Map<string, RouteEntry>();
  /** Namespaces, longest first, each with its routes in registration order. */
  private readonly byNamespace: { prefix: string; routes: RouteEntry[] }[] = [];
  private readonly dynamic: RouteEntry[] = [];

  constructor(operations: readonly Operation[]) {
    const byTemplate = new Map<string, RouteEntry>();
    for (const op of operations) {
      let entry = byTemplate.get(op.path);
      if (!entry) {
        const namespace = op.kind === 'root' || op.kind === 'batch' ? '' : op.namespace;
        entry = {
          template: op.path,
          wpRoute: wpRouteKey(op),
          namespace,
          ops: [],
          byMethod: new Map(),
          methods: [],
          fixed: !op.path.includes('{'),
          regex: op.regex,
          order: byTemplate.size,
        };
        byTemplate.set(op.path, entry);
        this.routes.push(entry);
      }
      entry.ops.push(op);
      (entry.byMethod as Map<string, Operation>).set(op.method, op);
      entry.methods.push(op.method);
    }
    const namespaces = new Map<string, RouteEntry[]>();
    for (const r of this.routes) {
      if (r.fixed) this.fixed.set(r.template.toLowerCase(), r);
      else this.dynamic.push(r);
      if (r.namespace) namespaces.set(r.namespace, [...(namespaces.get(r.namespace) ?? []), r]);
    }
    for (const [prefix, routes] of namespaces) this.byNamespace.push({ prefix: `${prefix}/`, routes });
  }

  static fromContract(contract: Contract): RouteTable {
    return new RouteTable(contract.operations);
  }

  /** Routes WordPress would try for this path: those of every namespace the path starts with, else all. */
  private candidates(route: string): RouteEntry[] {
    const key = `${route.replace(/^\//, '')}/`.toLowerCase();
    const hits = this.byNamespace.filter((n) => key.startsWith(n.prefix.toLowerCase()));
    if (hits.length === 0) return this.routes;
    if (hits.length === 1) return hits[0]!.routes;
    return hits.flatMap((h) => h.routes).sort((a, b) => a.order - b.order);
  }

  /** Every route whose pattern matches, in registration order (for OPTIONS and the Allow header). */
  matching(route: string): { route: RouteEntry; pathParams: Record<string, string> } | undefined {
    const fixed = this.fixed.get(route.toLowerCase());
    if (fixed) return { route: fixed, pathParams: {} };
    for (const r of this.candidates(route)) {
      if (r.fixed) continue;
      const m = r.regex.exec(route);
      if (m) return { route: r, pathParams: { ...(m.groups ?? {}) } };
    }
    return undefined;
  }

  match(method: string, route: string): RouteMatch {
    const m = method === 'HEAD' ? 'GET' : method;
    const fixed = this.fixed.get(route.toLowerCase());
    let firstHit: { route: RouteEntry; pathParams: Record<string, string> } | undefined;
    if (fixed) {
      const op = fixed.byMethod.get(m);
      if (op) return { kind: 'match', route: fixed, op, pathParams: {} };
      firstHit = { route: fixed, pathParams: {} };
    }
    for (const r of this.candidates(route)) {
      if (r.fixed) continue;
      const hit = r.regex.exec(route);
      if (!hit) continue;
      const pathParams = { ...(hit.groups ?? {}) };
      const op = r.byMethod.get(m);
      if (op) return { kind: 'match', route: r, op, pathParams };
      firstHit ??= { route: r, pathParams };
    }
    return firstHit ? { kind: 'no-method', ...firstHit } : { kind: 'no-route' };
  }
}
