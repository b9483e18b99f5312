// allow_header: WordPress adds `Allow` to every answer of a matched route, listing the route's methods whose
// permission callback passes for this request and this user (rest_send_allow_header()): an anonymous reader of
// /wp/v2/posts sees `Allow: GET`, an editor `GET, POST`. Two sides (convention; the documents show no headers):
// - every 2xx answer of the run carries Allow, listing the method that was just served and no method the route
//   does not serve (the target's descriptor, or the contract where the descriptor does not list the route); one
//   case per unit and operation that got a 2xx, judged as answers arrive;
// - what a user may do (permissions.ts): a write method the same user was just refused is not listed, one the same
//   user was just let through is, and an anonymous answer lists no method the signed-in one leaves out.

import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { templateKey, type LiveDescriptor } from '../diff/descriptor.ts';
import type { Exchange } from '../http/types.ts';
import type { AnswerSweep, Finding, Unit } from './kit/unit.ts';
import { header } from './kit/wp.ts';

export const ALLOW_HEADER = 'allow_header';

/** The methods an Allow header lists, upper-cased; undefined when there is none. */
export function allowOf(e: Exchange): string[] | undefined {
  const v = header(e.response, 'allow');
  if (v === undefined) return undefined;
  return v.split(',').map((m) => m.trim().toUpperCase()).filter((m) => m !== '');
}

/** The methods the route serves: the target's descriptor where it lists the route, else the contract. */
function routeMethods(contract: Contract, descriptor: LiveDescriptor, op: Operation): string[] {
  const live = descriptor.byKey.get(templateKey(op.path));
  if (live && live.methods.length) return live.methods;
  return [...new Set(contract.operations.filter((o) => o.path === op.path).map((o) => o.method))];
}

/** The method the server took the request for: an override (header or `?_method=`) is served as another. */
function servedMethod(e: Exchange): string | undefined {
  // `_envelope` moves every header into the body (WP_REST_Server::envelope_response() runs after rest_post_dispatch,
  // where rest_send_allow_header() set Allow), so the HTTP answer has none to judge; the envelope check reads it.
  if (/[?&]_envelope(?:[=&]|$)/.test(e.request.url)) return undefined;
  const overridden = Object.keys(e.request.headers).some((h) => h.toLowerCase() === 'x-http-method-override') || /[?&]_method=/.test(e.request.url);
  if (overridden || e.request.method === 'HEAD' || e.request.method === 'OPTIONS') return undefined;
  return e.request.method;
}

/**
 * Whether the exchange went to the operation's own route (a unit may attribute to an operation the list reads it
 * made for it): the `rest_route` value, or a pretty path ending in a route the operation's pattern matches.
 */
function addresses(e: Exchange, op: Operation): boolean {
  let url: URL;
  try {
    url = new URL(e.request.url);
  } catch {
    return false;
  }
  const restRoute = url.searchParams.get('rest_route');
  if (restRoute !== null) return op.regex.test(restRoute.replace(/(.)\/+$/, '$1'));
  const path = url.pathname.replace(/(.)\/+$/, '$1');
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) if (op.regex.test(path.slice(i))) return true;
  return false;
}

/**
 * What is wrong with a 2xx answer's Allow; undefined when it is as WordPress sends it, or when there is nothing to
 * judge. A read must carry it and list GET (the record exists and was readable); a write's answer may have none (a
 * record deleted for good leaves the route no method the user may use, sample 37), but what it lists, the route serves.
 */
export function allowProblem(e: Exchange, served: readonly string[]): string | undefined {
  const r = e.response;
  const method = servedMethod(e);
  if (!r || r.status < 200 || r.status >= 300 || !method) return undefined;
  const allow = allowOf(e);
  if (allow === undefined) return method === 'GET' ? `the ${r.status} answer to GET has no Allow header` : undefined;
  if (method === 'GET' && !allow.includes(method)) return `the ${r.status} answer to GET has Allow: ${allow.join(', ')}, without the method it just served`;
  const extra = allow.filter((m) => !served.includes(m));
  if (extra.length) return `Allow: ${allow.join(', ')} lists ${extra.join(', ')}, which the route does not serve (it serves ${served.join(', ')})`;
  return undefined;
}

/** Judged as each answer arrives; keeps at most the first wrong exchange per operation. */
export class AllowHeaders implements AnswerSweep {
  private readonly byOp = new Map<string, { op: Operation; answers: number; worst?: { e: Exchange; problem: string } }>();

  constructor(
    private readonly contract: Contract,
    private readonly descriptor: LiveDescriptor,
  ) {}

  add(op: Operation | undefined, e: Exchange): void {
    if (!op || !e.response || e.response.status < 200 || e.response.status >= 300 || !servedMethod(e) || !addresses(e, op)) return;
    const slot = this.byOp.get(op.id) ?? { op, answers: 0 };
    this.byOp.set(op.id, slot);
    slot.answers++;
    const problem = slot.worst ? undefined : allowProblem(e, routeMethods(this.contract, this.descriptor, op));
    if (problem) slot.worst = { e, problem };
  }

  findings(unit: Unit): Finding[] {
    return [...this.byOp.values()].map(({ op, answers, worst }) => ({
      check: ALLOW_HEADER,
      operation: op,
      variant: `answers:${unit.id}`,
      severity: 'convention' as const,
      outcome: worst ? ('fail' as const) : ('pass' as const),
      message: worst
        ? `expected every answer of a matched route to carry Allow with the methods the user may use there (WordPress convention, rest_send_allow_header()); ${worst.problem} (${worst.e.request.method} ${worst.e.request.url})`
        : `${answers} answer(s), each read with an Allow listing GET, and every Allow only methods the route serves`,
      ...(worst ? { exchange: worst.e } : {}),
    }));
  }
}
