// Routes as WP_REST_Server keeps and matches them (wp-includes/rest-api/class-wp-rest-server.php, WordPress 6.1): a
// route is registered as a PCRE pattern with named groups (`/cal/v1/events/(?P<id>[\d]+)`), and
// match_request_to_handler() tries the routes of every namespace the path starts with (all routes when none does),
// in registration order, with `preg_match('@^' . $route . '$@i', $path)`: the first route that matches *and* has a
// handler for the method wins, HEAD falls back to GET, and a path no route serves with that method is rest_no_route
// (404, never 405). The contract's operations, the mock's router and its descriptors all go through this module.

/**
 * The methods that change nothing (RFC 9110 §9.2.1): GET, HEAD (served by GET's handler) and OPTIONS (the route's
 * description). The suites send only these to a read-only target; the mock may refuse their answers for want of room.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A registered route: its pattern, its namespace ('' for the index and /batch/v1, which core registers outside any), its methods. */
export interface RegisteredRoute {
  /** The route as registered and as the descriptor's key: `/cal/v1/events/(?P<id>[\d]+)`. */
  route: string;
  namespace: string;
  /** Methods with a handler, in registration order. */
  methods: readonly string[];
}

type RouteMatch<R extends RegisteredRoute> =
  | { kind: 'match'; route: R; method: string; pathParams: Record<string, string> }
  /** The path matches a route, but no route that matches serves the method (WordPress: 404 rest_no_route). */
  | { kind: 'no-method'; route: R; pathParams: Record<string, string> }
  | { kind: 'no-route' };

/**
 * The route a path template is registered as: `/cal/v1/events/{id}` → `/cal/v1/events/(?P<id>[0-9]+)`, each variable
 * taking the pattern `patternOf` gives for it (without anchors). Literal segments are written as they stand, as
 * WordPress registers them: the `.` of `/oembed/1.0` is a regex dot there too.
 */
export function routeKey(template: string, patternOf: (name: string) => string): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => `(?P<${name}>${patternOf(name)})`);
}

/** A schema's `pattern` as a route variable: `^[0-9]+$` → `[0-9]+`; undefined when it is not anchored at both ends. */
export function routePatternOf(pattern: unknown): string | undefined {
  return typeof pattern === 'string' && pattern.startsWith('^') && pattern.endsWith('$') ? pattern.slice(1, -1) : undefined;
}

/**
 * The path template a route stands for: `(?P<id>[\d]+)` → `{id}`, at any nesting and with parentheses inside
 * character classes or escaped, as WordPress's own patterns have them
 * (`(?P<id>([^\/:<>\*\?"\|]+(?:\/[^\/:<>\*\?"\|]+)?)[\/\w-]+)`); escaped literals lose their backslash.
 */
export function routeTemplate(route: string): string {
  let out = '';
  let i = 0;
  while (i < route.length) {
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(route.slice(i, i + 64));
    if (named) {
      out += `{${named[1]}}`;
      i = skipGroup(route, i);
      continue;
    }
    const ch = route[i]!;
    if (ch === '\\' && i + 1 < route.length) {
      out += route[i + 1];
      i += 2;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/** Index just past the group that opens at `start`. */
function skipGroup(p: string, start: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = start; i < p.length; i++) {
    const ch = p[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return p.length;
}

/**
 * get_data_for_route()'s display of a route: `(?P<id>[\d]+)` → `{id}` with WordPress's lazy pattern, so a nested
 * group is cut short as in WordPress (it only decides whether a route gets `_links.self`: fixed routes do).
 */
export function displayRoute(route: string): string {
  return route.replace(/\(\?P<(\w+?)>.*?\)/g, '{$1}');
}

/** `preg_match('@^' . $route . '$@i', $path)` in JavaScript: PHP's `(?P<name>` groups read as JavaScript's `(?<name>`. */
export function compileRoute(route: string): RegExp {
  return new RegExp(`^${route.replace(/\(\?P</g, '(?<')}$`, 'i');
}

/** trailingslashit( ltrim( $path, '/' ) ): what match_request_to_handler() compares namespaces with. */
function namespaceProbe(path: string): string {
  // The trailing run is matched from its start only (a lookbehind), so a long run of slashes costs linear time.
  return `${path.replace(/^\/+/, '').replace(/(?<![/\\])[/\\]+$/, '')}/`;
}

/** The routes of a site in registration order, matched as WP_REST_Server::match_request_to_handler() does. */
export class RouteMatcher<R extends RegisteredRoute> {
  private readonly compiled: { route: R; regex: RegExp }[];
  /** get_namespaces(): each namespace once, in the order its first route was registered, with its routes. */
  private readonly namespaces: { name: string; routes: { route: R; regex: RegExp }[] }[] = [];

  constructor(readonly routes: readonly R[]) {
    this.compiled = routes.map((route) => ({ route, regex: compileRoute(route.route) }));
    const byName = new Map<string, { route: R; regex: RegExp }[]>();
    for (const c of this.compiled) {
      if (c.route.namespace === '') continue;
      let list = byName.get(c.route.namespace);
      if (!list) {
        list = [];
        byName.set(c.route.namespace, list);
        this.namespaces.push({ name: c.route.namespace, routes: list });
      }
      list.push(c);
    }
  }

  /** The routes WordPress tries for a path: those of every namespace it starts with (strpos() === 0), else all. */
  private candidates(path: string): readonly { route: R; regex: RegExp }[] {
    const probe = namespaceProbe(path);
    const hits = this.namespaces.filter((n) => probe.startsWith(n.name));
    if (hits.length === 0) return this.compiled;
    return hits.length === 1 ? hits[0]!.routes : hits.flatMap((n) => n.routes);
  }

  /** The first route whose pattern matches the path, whatever its methods (OPTIONS and the Allow header read this one). */
  matching(path: string): { route: R; pathParams: Record<string, string> } | undefined {
    for (const c of this.candidates(path)) {
      const m = c.regex.exec(path);
      if (m) return { route: c.route, pathParams: { ...(m.groups ?? {}) } };
    }
    return undefined;
  }

  /** The route that serves `method` on `path` (HEAD by GET's handler), or why none does. */
  match(method: string, path: string): RouteMatch<R> {
    const wanted = method.toUpperCase();
    let first: { route: R; pathParams: Record<string, string> } | undefined;
    for (const c of this.candidates(path)) {
      const m = c.regex.exec(path);
      if (!m) continue;
      const pathParams = { ...(m.groups ?? {}) };
      const served = c.route.methods.includes(wanted) ? wanted : wanted === 'HEAD' && c.route.methods.includes('GET') ? 'GET' : undefined;
      if (served) return { kind: 'match', route: c.route, method: served, pathParams };
      first ??= { route: c.route, pathParams };
    }
    return first ? { kind: 'no-method', ...first } : { kind: 'no-route' };
  }
}
