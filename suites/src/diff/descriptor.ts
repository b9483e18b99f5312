// The target's own account of its routes: `GET {api_root}/` lists every route as a PCRE pattern
// (`/cal/v1/events/(?P<id>[\d]+)`) with its endpoints and their args. Both `diff` and the checks read
// it, the checks to know which parameters the target says it takes (WordPress ignores the others).
import { routeTemplate } from '../../../contracts/wordpress/rest/routes.ts';

import { isPlainObject } from '../../../contracts/wordpress/plain-object.ts';
export interface LiveArg {
  [keyword: string]: unknown;
}

interface LiveEndpoint {
  methods: string[];
  args: Record<string, LiveArg>;
  allowBatch: boolean;
}

export interface LiveRoute {
  /** The key as the target wrote it. */
  pattern: string;
  /** `/cal/v1/events/{id}` */
  template: string;
  /** Template with parameter names dropped and lower-cased, for matching: `/cal/v1/events/{}` */
  key: string;
  namespace: string;
  methods: string[];
  endpoints: LiveEndpoint[];
}

export interface LiveDescriptor {
  namespaces: string[];
  routes: LiveRoute[];
  byKey: Map<string, LiveRoute>;
  /** The parsed body, for shape checks. */
  raw: Record<string, unknown>;
}

export function templateKey(template: string): string {
  return template.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '').toLowerCase() || '/';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Reads a descriptor body; throws with what is wrong when it is not one. */
export function parseDescriptor(body: unknown): LiveDescriptor {
  if (!isPlainObject(body)) throw new Error('the REST root did not answer with a JSON object');
  const routesRaw = body['routes'];
  if (!isPlainObject(routesRaw)) throw new Error('the REST root has no "routes" object');
  const routes: LiveRoute[] = [];
  for (const [pattern, entry] of Object.entries(routesRaw)) {
    if (!isPlainObject(entry)) continue;
    const template = routeTemplate(pattern);
    const endpoints: LiveEndpoint[] = [];
    for (const ep of Array.isArray(entry['endpoints']) ? entry['endpoints'] : []) {
      if (!isPlainObject(ep)) continue;
      const args = isPlainObject(ep['args']) ? (ep['args'] as Record<string, LiveArg>) : {};
      const ab = ep['allow_batch'];
      endpoints.push({ methods: strings(ep['methods']).map((m) => m.toUpperCase()), args, allowBatch: isPlainObject(ab) && ab['v1'] === true });
    }
    routes.push({
      pattern,
      template,
      key: templateKey(template),
      namespace: typeof entry['namespace'] === 'string' ? entry['namespace'] : '',
      methods: strings(entry['methods']).map((m) => m.toUpperCase()),
      endpoints,
    });
  }
  const byKey = new Map<string, LiveRoute>();
  for (const r of routes) if (!byKey.has(r.key)) byKey.set(r.key, r);
  return { namespaces: strings(body['namespaces']), routes, byKey, raw: body };
}

/** The endpoint of a route that serves `method`, if the target lists one. */
export function liveEndpoint(d: LiveDescriptor, template: string, method: string): LiveEndpoint | undefined {
  const route = d.byKey.get(templateKey(template));
  return route?.endpoints.find((e) => e.methods.includes(method.toUpperCase()));
}

/**
 * Whether the target says this route and method take `param`. Undefined when the descriptor does not
 * list the route or method at all (then it says nothing either way).
 */
export function declaresArg(d: LiveDescriptor, template: string, method: string, param: string): boolean | undefined {
  const ep = liveEndpoint(d, template, method);
  if (!ep) return undefined;
  return Object.prototype.hasOwnProperty.call(ep.args, param);
}
