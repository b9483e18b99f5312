// Stage 2, route: the contract's matcher, once (WP_REST_Server::match_request_to_handler()): case-insensitive, the
// first route whose pattern and method match. Every later stage reads the operation it names.
import { noRoute } from '../../wire/errors.ts';
import type { ParsedRequest } from '../../wire/request.ts';
import type { DispatchEnv, Routed } from '../exchange.ts';

export function route(req: ParsedRequest, env: DispatchEnv): Routed {
  const m = env.contract.match(req.method, req.route);
  if (m.kind !== 'match') return { kind: 'error', error: noRoute() };
  return { kind: 'match', route: m.route, op: m.operation, pathParams: m.pathParams };
}
